"""What a sweep evaluates: a grid of parameter values checked, encoded and merged into the prepared mapping.

:func:`~nvmemodel.ceiling.evaluate.sweep` starts here for one drive model and for each group of a mixed topology
(one mapping per group; a mirror spanning groups: :func:`~nvmemodel.ceiling.mirror.sweep_mirror`), one floor below
both (no import circle).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ParameterError
from ..parameters import PARAMETERS, PRESENCE, encode, get
from ..standards import ethernet as eth
from ..topology.topology import Topology
from ..topology.workload import Workload
from .components import CLASSES, GridClasses
from .derive import catalog_members, prepare

__all__ = ["sweep_parameters"]


def sweep_parameters(topology: Topology, workload: Workload, grid: Mapping[str, object] | None = None, *,
                     check: bool = True) -> tuple[dict, dict, int]:
    """What :func:`~nvmemodel.ceiling.evaluate.sweep` evaluates: ``(prepared parameter mapping, grid as codes, number of configurations)``.

    The grid's arrays are checked (names always, numbers when ``check``) and encoded; catalog entries bring
    their fields; the mapping holds one-configuration scalars and 1-D arrays of one entry per configuration —
    and, for a grid of many configurations but few distinct rows, their classes (``components.CLASS``, an int
    array like the others, and ``components.CLASSES``; see :class:`~nvmemodel.ceiling.components.GridClasses`).
    """
    if not isinstance(topology, Topology):  # e.g. a MixedTopology: was an AttributeError
        raise ParameterError("topology", type(topology).__name__, "a Topology (nm.preset(...)) or, for nm.sweep, "
                             "a MixedTopology")
    base = topology.parameters(workload)
    grid = dict(grid or {})
    params = {name: get(name) for name in grid}
    arrays: dict[str, Any] = {}  # name → its checked, encoded values (a name as given where not checked)
    for name, value in grid.items():
        param = params[name]
        if param.kind == "categorical":
            arrays[name] = param.check(_names(value))
        else:
            arr = np.asarray(value, dtype=float).ravel() if not isinstance(value, str) else value
            arrays[name] = param.check(arr) if check else arr
    lengths = {a.size for a in arrays.values()} or {1}
    if len(lengths) > 1:
        raise ParameterError("grid", {k: a.size for k, a in arrays.items()}, "arrays of one common length")
    _check_presence(topology, base, arrays)

    p: dict[str, Any] = encode(base)  # (prepared below: the grid's classes join the arrays)
    p.update(arrays)
    for prefix in ("drive", "switch"):
        if f"{prefix}.model" in arrays:
            members = catalog_members(prefix, arrays[f"{prefix}.model"], p)
            p.update({k: v for k, v in members.items() if k not in arrays})
    if any(k.startswith("switch.") for k in arrays):  # a changed link voids a switch's calibration (with_changes)
        from ..topology.switch import calibrations_to_drop

        p.update(calibrations_to_drop({k: grid[k] for k in grid if k.startswith("switch.")}, topology.switch,
                                      host_gen=p["host.gen"], drive_gen=p["drive.gen"]))
    if "workload.io_stack" in arrays and "host.cycles_per_io" not in arrays \
            and (cycles := topology.host.cycles_by_stack(arrays["workload.io_stack"])) is not None:
        p["host.cycles_per_io"] = cycles
    configs = lengths.pop()
    classes = _classes(arrays, configs)
    p = prepare(p, rows=classes)
    if check:
        _check_roce_mtu(p)
    if classes is not None:  # few distinct rows: each component's limit once per row (components.GridClasses)
        p[CLASSES] = GridClasses(p, *classes)
    return p, arrays, configs


#: A grid is put in classes of identical rows (:class:`~nvmemodel.ceiling.components.GridClasses`) from this many
#: configurations, where its distinct rows are at most this share of them (a categorical grid: I/O stacks, drive
#: models, transports, a few MTUs and sizes); numbers that differ in most configurations are computed directly.
_CLASS_MIN_CONFIGS = 4096
_CLASS_SHARE = 0.25


def _classes(arrays: dict, configs: int):
    """``(class of each configuration, a configuration of each class)`` for grid columns with few distinct rows
    (rows equal bit for bit), else ``None``."""
    if configs < _CLASS_MIN_CONFIGS or not arrays:
        return None
    columns = list(arrays.items())
    if any(type(a) is not np.ndarray or a.shape != (configs,) or a.dtype != float for _, a in columns):
        return None
    seen = [np.unique(a[:256]) for _, a in columns]
    if any(u.size > 64 for u in seen):  # a column of many values: no classes (looked at cheaply)
        return None
    ids: np.ndarray | None = None
    radix = 1
    for (name, a), u in zip(columns, seen):
        param = PARAMETERS[name]
        if param.kind == "categorical":  # codes of checked names: the integers 0 … choices - 1 themselves
            codes, k = a.astype(np.intp), len(param.allowed_choices())
        else:
            coded = _listed_values(a, u) if u.size <= 8 else None
            coded = coded or _few_values(a)
            if coded is None:
                return None
            codes, k = coded
        if ids is not None and radix * k > 1 << 22:
            ids, radix = _compact(ids, radix)
            if radix * k > 1 << 22:
                return None
        ids = codes if ids is None else ids * k + codes
        radix *= k
    if ids is None:  # (never: arrays holds a column)
        return None
    cls, count = _compact(ids, radix)
    if count > configs * _CLASS_SHARE:
        return None
    rep = np.empty(count, dtype=np.intp)
    rep[cls] = np.arange(configs)
    return cls, rep


def _listed_values(x: np.ndarray, values: np.ndarray):
    """``(codes, how many)``: each entry of ``x`` as its position among the sorted distinct ``values`` (equal bit
    for bit), or ``None`` where some entry is none of them. A handful of comparisons: cheaper than hashing.

    Every entry must equal one of the values bit for bit (counted: the values are distinct, so each entry matches
    at most one); an entry's position is then the number of other values it is not below (NaN, which is below
    nothing, is left to the hash)."""
    if np.isnan(values).any():
        return None
    bits = np.ascontiguousarray(x).view(np.uint64)
    codes = np.zeros(x.shape[0], dtype=np.intp)
    hits = 0
    for j, v in enumerate(values):
        hits += int(np.count_nonzero(bits == values[j:j + 1].view(np.uint64)[0]))
        if j:  # the number of values each entry is not below
            np.add(codes, x >= v, out=codes)
    if hits != x.shape[0]:
        return None  # a value not listed, or -0.0 for 0.0
    return codes, values.size


def _few_values(x: np.ndarray, slots: int = 1 << 12):
    """``(codes, how many)`` numbering the distinct values of a float array (bit for bit: -0.0 is not 0.0, NaNs
    by their bits), or ``None`` when two of them land on one slot of a small hash table (many values, or unlucky)."""
    bits = np.ascontiguousarray(x).view(np.uint64)
    slot = (bits * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(65 - slots.bit_length())
    table = np.zeros(slots, dtype=np.uint64)
    table[slot] = bits
    if not np.array_equal(table[slot], bits):
        return None
    return _compact(slot, slots)


def _compact(ids: np.ndarray, radix: int) -> tuple[np.ndarray, int]:
    """Ids below ``radix`` renumbered 0 … count-1 in their order: ``(new ids, count)``."""
    present = np.zeros(radix, dtype=bool)
    present[ids] = True
    rank = np.cumsum(present, dtype=np.intp) - 1
    return rank[ids], int(rank[-1]) + 1


def _names(value) -> np.ndarray:
    """A categorical grid column as a 1-D array for :meth:`Parameter.check`: a string array as it is (its names
    are coded by binary search), anything else (enums, mixed) as objects."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "U":
        return value.ravel()
    if isinstance(value, (list, tuple)) and value and all(type(v) is str for v in value):
        return np.array(value)
    return np.asarray(value, dtype=object).ravel()


def _check_presence(topology: Topology, base, arrays) -> None:
    """A grid may not set parameters of a switch or fabric that is absent everywhere in the sweep."""
    for part, (selector, none) in PRESENCE.items():
        fields = [k for k in arrays if k.startswith(part + ".") and k not in (selector, "switch.count")]
        if not fields:
            continue
        if selector in arrays:
            absent_everywhere = bool(np.all(arrays[selector] == get(selector).code(none)))
        else:
            absent_everywhere = base[selector] == none
        if absent_everywhere:
            raise ParameterError(fields[0], "(grid)", f"a topology with a {part}: {topology.name!r} has none "
                                 f"({selector} is {none!r}); put {selector} in the grid as well")


def _check_roce_mtu(p) -> None:
    roce, rocev2 = np.asarray(p["fabric.roce_mtu"]), PARAMETERS["fabric.transport"].code("rocev2")
    if not np.any(roce > 0):
        return
    fits = eth.max_roce_mtu(p["fabric.eth_mtu"], p["fabric.ipv6"])
    too_big = (roce > 0) & (p["fabric.transport"] == rocev2) & (roce > fits)
    if np.any(too_big):
        first = float(np.broadcast_to(roce, too_big.shape)[too_big].flat[0])
        raise ParameterError("fabric.roce_mtu", int(first), "a RoCE MTU that fits the Ethernet MTU "
                             "(1024 at 1500, 4096 at 4200 and above)")
