"""Prices of a planned configuration: checked (every model the space uses priced, numbers >= 0) and per item.

A configuration costs drives x drive price + switches x switch price (where it has switches) + sockets x socket price
(docs/planning.md, "Cost"); a mapping ``{model: price}`` prices each drive or switch model, or each CPU of a
``host`` axis.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ParameterError
from ..parameters import PARAMETERS
from .space import CONNECTION, HOST, DesignSpace

__all__ = ["check_prices", "item_price", "socket_price"]


def item_price(prices, key, codes, param_name):
    """Price per item for each configuration from a scalar or a {model: price} mapping (checked before)."""
    value = prices.get(key, 0.0)
    if isinstance(value, Mapping):
        param = PARAMETERS[param_name]
        table = np.array([float(value.get(c, np.nan)) for c in param.allowed_choices()])
        return table[np.asarray(codes, dtype=int)]
    return float(value)


def socket_price(prices, space: DesignSpace, codes):
    """Price per socket: one number, or per CPU of the ``host`` axis (indexed by its codes)."""
    value = prices.get("socket", 0.0)
    if isinstance(value, Mapping):
        table = np.array([value[str(h)] for h in space.axes[HOST]])
        return table[codes[HOST].astype(int)]
    return float(value)


def check_prices(prices: Mapping, space: DesignSpace, base: Mapping, models: Mapping | None = None) -> dict:
    """Prices as floats, every model the space uses priced: a missing one would leave a cost unknown.

    ``models``: ``{"drive": [...], "switch": [...]}``, the models used where the space's axes and ``base`` do not say
    them (a mixed base: its groups')."""
    out: dict[str, Any] = {}  # drive/switch: model → price (or one price); socket: one, or CPU → price
    for key, value in prices.items():
        if key not in ("drive", "switch", "socket"):
            raise ParameterError("prices", key, "items among drive, switch, socket")
        if isinstance(value, Mapping) and key == "socket":
            hosts = [str(v) for v in space.axes.get(HOST, [])]
            if not hosts:
                raise ParameterError("prices['socket']", value, "one price per socket (a number), or one per CPU of "
                                     "a 'host' axis")
            out[key] = {h: _one_price(f"prices['socket'][{h!r}]", value.get(h, value.get(h.split(':')[0])))
                        for h in hosts if h in value or h.split(":")[0] in value}
            missing = [h for h in hosts if h not in out[key]]
            if missing:
                raise ParameterError("prices['socket']", ", ".join(missing),
                                     f"a price for every CPU of the host axis (no price for {', '.join(missing)})")
        elif isinstance(value, Mapping):
            out[key] = {}
            for model, price in value.items():
                PARAMETERS[f"{key}.model"].check(np.asarray([model], dtype=object))
                out[key][model] = _one_price(f"prices[{key!r}][{model!r}]", price)
            used = _models_used(space, key, base) if models is None else list(models[key])
            missing = [m for m in used if m not in out[key]]
            if missing:
                raise ParameterError(f"prices[{key!r}]", ", ".join(missing),
                                     f"a price for every {key} model in the space (no price for {', '.join(missing)})")
        else:
            out[key] = _one_price(f"prices[{key!r}]", value)
    return out


def _one_price(what: str, value) -> float:
    try:
        price = float(value)
    except (TypeError, ValueError):
        raise ParameterError(what, value, "a price (a number >= 0)") from None
    if not (price >= 0 and np.isfinite(price)):
        raise ParameterError(what, value, "a price (a finite number >= 0)")
    return price


def _models_used(space: DesignSpace, kind: str, base: Mapping) -> list[str]:
    """The drive or switch models the configurations of ``space`` can use (``base``: its raw parameters)."""
    from .space import _DIRECT

    if kind == "drive":
        return [str(v) for v in space.axes.get("drive.model", [base["drive.model"]])]
    if CONNECTION in space.axes:
        return [str(v) for v in space.axes[CONNECTION] if v not in _DIRECT]
    return [str(v) for v in space.axes.get("switch.model", [base["switch.model"]]) if v != "none"]
