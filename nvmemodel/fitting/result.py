"""``FitResult``: the fitted curves, their parameters with intervals, model comparison and explanation."""

from __future__ import annotations

import dataclasses
import json
import math
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ParameterError

if TYPE_CHECKING:
    import pandas as pd

    from .engine import CurveFit

__all__ = ["FitResult", "unit_of"]

_X_UNITS = {"block_size_bytes": "B", "drives": "1", "targets": "1", "iodepth": "1", "numjobs": "1", "outstanding": "1"}


def unit_of(template: str, x_unit: str, y_unit: str) -> str:
    """Resolve a :class:`~nvmemodel.fitting.models.Shape` unit template (``"{x} per {y}"`` …) to a unit."""
    if template == "{x} per {y}":
        if x_unit == "1" and y_unit == "1/s":
            return "s"
        return f"{x_unit}/({y_unit})"
    if template == "{y} per {x}":
        return y_unit if x_unit == "1" else f"({y_unit})/{x_unit}"
    return template.replace("{y}", y_unit).replace("{x}", x_unit)


def _num(v):
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) else float(v)


@dataclasses.dataclass(frozen=True, repr=False)
class FitResult:
    """Fitted measured curves (one per ``by`` group), every model tried, the chosen one, the findings.

    Attributes
    ----------
    x, y, y_unit, by
        What was fitted (y in SI: ``1/s``, ``B/s`` or ``s``).
    points : pandas.DataFrame
        The measured points (:func:`~nvmemodel.fitting.curves.measured_points`).
    fits : dict
        ``{group: {model: CurveFit}}``; the group is a tuple of ``by`` values (``()`` without ``by``).
    chosen : dict
        ``{group: model}``.
    failed : dict
        ``{group: {model: reason}}`` for models not fitted.
    findings : dict
        ``{group: [measurement above the ceiling …]}`` (ceiling model only).
    ingest_warnings : list of str
        What reading the result files warned of (a failed run, clones summed, a skipped file …); empty when a
        table was given. The JSON carries them as ``warnings["ingest"]``.
    requested : bool
        Whether the model was named by the caller (``model="linear"``) rather than chosen among candidates: a
        model asked for is drawn as asked, with its band, whatever its R²; a chosen one that does not describe the
        points is drawn faint, without a band (the explanation reads nothing from it).
    runs_left_out : dict
        The runs the fit left out (fio's error, a verify phase, interim reports only …) and, with
        ``failed="keep"``, the runs fitted although fio reported an error
        (:func:`~nvmemodel.fitting.runs_left_out.left_out_runs`); empty when there are none. Said first in
        :meth:`explain`, in :meth:`summary`, and in the JSON as ``runs_left_out``.
    """

    x: str
    y: str
    y_unit: str
    by: list
    points: Any  # pandas.DataFrame
    fits: dict
    chosen: dict
    failed: dict
    findings: dict
    topology: Any = None
    workload: Any = None
    free: list = dataclasses.field(default_factory=list)
    drives: int = 1
    setups: dict = dataclasses.field(default_factory=dict)
    selection: dict = dataclasses.field(default_factory=dict)  # {group: {criterion, excluded, undecided}}
    table: Any = None  # the results table the points came from (fio's CPU and engine evidence)
    ingest_warnings: list = dataclasses.field(default_factory=list)  # what reading the files warned of
    requested: bool = False  # the model was named by the caller, not chosen among candidates
    runs_left_out: dict = dataclasses.field(default_factory=dict)  # runs not fitted, or fitted with fio's error

    def setup(self, group: Any = ()) -> tuple:
        """``(topology, workload)`` of one curve (each curve may have its own, see ``nm.fit(topology=)``)."""
        group = _as_key(group)
        return self.setups.get(group, (self.topology, self.workload))

    @property
    def x_unit(self) -> str:
        return _X_UNITS.get(self.x, "1")

    @property
    def groups(self) -> list:
        return list(self.fits)

    def _pick(self, group=None, model=None):
        if group is None:
            if len(self.fits) > 1:
                raise ParameterError("group", None, f"one of {self.groups} (this result has several curves)")
            group = self.groups[0]
        group = _as_key(group)
        if group not in self.fits:
            raise ParameterError("group", group, f"one of {self.groups}")
        model = model or self.chosen[group]
        if model not in self.fits[group]:
            raise ParameterError("model", model, f"one of the fitted models {list(self.fits[group])}")
        return group, model, self.fits[group][model]

    def fit_of(self, group: Any = None, model: str | None = None) -> CurveFit:
        """The :class:`~nvmemodel.fitting.engine.CurveFit` of one curve (default: its chosen model)."""
        return self._pick(group, model)[2]

    @property
    def params(self):
        """Parameters of each curve's chosen model: value, stderr, t, 95 % CI, unit, free/fixed, source."""
        import pandas as pd

        rows = []
        for key, model in self.chosen.items():
            f = self.fits[key][model]
            head = {**dict(zip(self.by, key)), "model": model}
            for p in f.shape.params:
                se = f.stderr[p]
                held = f.held.get(p)  # "at bound" / "unidentified": no standard error, t or interval
                rows.append({**head, "name": _public_name(p, model), "value": f.values[p],
                             "stderr": np.nan if held else se,
                             "t": f.values[p] / se if np.isfinite(se) and se > 0 and not held else np.nan,
                             "ci_low": f.ci_low[p], "ci_high": f.ci_high[p],
                             "unit": unit_of(f.shape.units.get(p, ""), self.x_unit, self.y_unit),
                             "status": "at bound" if held == "at bound" else "free",
                             "source": "fit (at its bound)" if held == "at bound" else
                             "fit (held: no point depends on it)" if held else f"fit ({f.ci_method} 95 % interval)"})
            for name, info in f.discrete.items():
                rows.append({**head, "name": name, "value": info["value"], "stderr": np.nan, "t": np.nan,
                             "ci_low": np.nan, "ci_high": np.nan, "unit": _unit_from_table(name),
                             "status": "free", "source": f"fit (best of {len(info['rss'])} values by RSS)"})
            topo, wl = self.setup(key)
            if model.startswith("ceiling") and topo is not None:
                from ..ceiling.group_parameters import shared_parameters

                free = set(self.free)
                for name, value in shared_parameters(topo, wl).items():  # a mixed topology's: what its groups share
                    if name in free:
                        continue
                    rows.append({**head, "name": name, "value": value, "stderr": np.nan, "t": np.nan,
                                 "ci_low": np.nan, "ci_high": np.nan, "unit": _unit_from_table(name),
                                 "status": "fixed", "source": f.shape.sources.get(name, "preset / catalog")})
        return pd.DataFrame(rows)

    def derived(self) -> pd.DataFrame:
        """Derived quantities of each chosen model (peak, limit, knee, contention/coherency split) with 95 % CI."""
        import pandas as pd

        from .derived import MEANINGS, UNITS, derived_quantities

        rows = []
        for key, model in self.chosen.items():
            for name, (v, lo, hi) in derived_quantities(self.fits[key][model]).items():
                rows.append({**dict(zip(self.by, key)), "model": model, "name": name, "value": v, "ci_low": lo,
                             "ci_high": hi, "unit": unit_of(UNITS[name], self.x_unit, self.y_unit),
                             "meaning": MEANINGS[name]})
        return pd.DataFrame(rows)

    def ceilings(self, x: Any, *, group: Any = None) -> pd.DataFrame:
        """The fitted ceiling model along ``x``: system ceiling, every component's ceiling (y units) and
        what binds (:func:`nvmemodel.fitting.ceiling.ceiling_profile` with the fitted values)."""
        from .ceiling import ceiling_profile, fitted_overrides

        key, model, f = self._pick(group, None)
        if not model.startswith("ceiling"):
            raise ParameterError("model", model, "a ceiling-model fit (topology= and free=)")
        overrides = fitted_overrides(f)
        return ceiling_profile(*self.setup(key), x=self.x, values=np.atleast_1d(x), overrides=overrides,
                               drives=self.drives, y_unit=self.y_unit)

    def explain_points(self, *, group: Any = None) -> pd.DataFrame:
        """Per measured point of a ceiling-model fit: measured, fitted ceiling, binding component, measured
        efficiency (measured ÷ ceiling) and every other component's headroom above the ceiling."""
        key, _, _ = self._pick(group, None)
        pts = self.points
        for b, v in zip(self.by, key):
            pts = pts[pts[b] == v]
        prof = self.ceilings(pts[self.x].to_numpy(float), group=group)
        out = prof[["x", "ceiling", "binding"]].copy()
        out.insert(1, "measured", pts["y"].to_numpy())
        out["efficiency"] = out["measured"] / out["ceiling"]
        for c in prof.columns[3:]:
            if np.isfinite(prof[c]).any():
                out[f"{c}_headroom"] = prof[c] / prof["ceiling"] - 1
        return out.rename(columns={"x": self.x})

    def compare(self) -> pd.DataFrame:
        """The models side by side per curve (AICc, ΔAICc, Akaike weight, BIC, R²), and why any was not fitted."""
        from .select import compare_table

        return compare_table(self)

    def predict(self, x: Any, *, group: Any = None, model: str | None = None) -> pd.DataFrame:
        """Fitted curve and its 95 % confidence band at ``x``: DataFrame ``x, y, y_low, y_high``."""
        import pandas as pd

        _, _, f = self._pick(group, model)
        xv = np.atleast_1d(np.asarray(x, dtype=float))
        lo, hi = f.band(xv)
        return pd.DataFrame({"x": xv, "y": f.eval(xv), "y_low": lo, "y_high": hi})

    def summary(self) -> str:
        """A report in the manner of R's ``summary(usl(...))``: per curve, coefficients with standard
        errors, t values and 95 % intervals, the residual standard error on its degrees of freedom,
        R², AICc, derived quantities and every warning."""
        from .explain import summary_text

        return summary_text(self)

    def explain(self) -> str:
        """Plain-language account: what binds, where the knee is, what would lift the ceiling."""
        from .explain import explain_text

        return explain_text(self)

    def claims(self) -> list[dict]:
        """Every claim of the explanation with its kind (``plateau``, ``rising``, ``falls``, ``model``,
        ``structure``, ``attribution``, ``falsified``, ``cpu``, ``little``, ``caution`` …) per curve
        (:mod:`nvmemodel.fitting.claims`)."""
        from .claims import curve_claims

        from .explain import _group_title, curves_within_scatter, shared_level

        # what explain() says once of every curve of a by= fit (a shared cap, differences within the scatter) first, as
        # it says them; then each curve's own, its group in "curve" (round 7 part 1 CI)
        from .runs_left_out import left_out_words

        runs = left_out_words(self.runs_left_out)
        across = ([{"group": [], "curve": "every curve", "kind": "runs", "text": runs,
                    "facts": _plain(self.runs_left_out)}] if runs else []) + [
            {"group": [], "curve": "every curve", "kind": "curves", "text": t, "facts": {}}
            for t in (shared_level(self), curves_within_scatter(self)) if t]
        return across + [{"group": list(k), "curve": _group_title(self, k), "kind": c.kind, "text": c.text,
                          "facts": _plain(c.facts)} for k in self.chosen for c in curve_claims(self, k)]

    def plot(self, path: str | os.PathLike | None = None, **kwargs: Any) -> Any:
        """Figure of the measured points, fitted curves with bands, ceilings, residuals and a binding strip
        (:func:`nvmemodel.plots.fit.plot_fit`); saved to ``path`` (PNG/SVG) when given."""
        from ..plots.fit import plot_fit

        return plot_fit(self, path=path, **kwargs)

    def to_dict(self) -> dict:
        """JSON-ready dict, schema ``nvmemodel.fit/1`` (values SI, non-finite numbers as null)."""
        def clean(records):
            return [{k: (_num(v) if isinstance(v, (float, np.floating)) else
                         (v.item() if isinstance(v, np.generic) else v)) for k, v in r.items()} for r in records]

        # each curve's own topology and workload (a by= fit may have one per curve); the top-level fields name
        # them only where every curve has the same (they named the first curve's for all)
        setups = [{"group": list(k), "topology": getattr(t, "name", None),
                   "workload": w.describe() if w is not None else None}
                  for k, (t, w) in ((k, self.setup(k)) for k in self.fits)]
        names = {d["topology"] for d in setups}
        loads = {d["workload"] for d in setups}
        return {
            "schema": "nvmemodel.fit/1", "x": self.x, "y": self.y, "y_unit": self.y_unit, "by": list(self.by),
            "topology": names.pop() if len(names) == 1 else None,
            "workload": loads.pop() if len(loads) == 1 else None,
            "setups": setups,
            "points": clean(self.points.drop(columns=["sources"]).to_dict("records")),
            "chosen": [{"group": list(k), "model": m} for k, m in self.chosen.items()],
            "model_requested": self.requested,
            "params": clean(self.params.to_dict("records")),
            "derived": clean(self.derived().to_dict("records")),
            "compare": clean(self.compare().to_dict("records")),
            "warnings": {**{", ".join(map(str, k)) or "all": [n for f in self.fits[k].values() for n in f.notes]
                            for k in self.fits},
                         # what reading the files warned of (a failed run, clones summed …): QA s25 H1
                         **({"ingest": list(self.ingest_warnings)} if self.ingest_warnings else {})},
            "findings": [{"group": list(k), **{kk: (clean([v])[0] if isinstance(v, dict) else v)
                                               for kk, v in item.items()}}
                         for k, items in self.findings.items() for item in items],
            "claims": self.claims(),
            "selection": [{"group": list(k), **v} for k, v in self.selection.items()],
            "runs_left_out": self.runs_left_out or None,
            "explanation": self.explain(),
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **{"indent": 1, **kwargs})

    def __repr__(self) -> str:
        parts = []
        for key, model in self.chosen.items():
            f = self.fits[key][model]
            g = f"{', '.join(map(str, key))}: " if key else ""
            parts.append(f"{g}{model} R²={f.stats['r2']:.3f}")
        return f"<FitResult {self.y} vs {self.x}, {len(self.points)} points | {'; '.join(parts)}>"

    def _repr_html_(self) -> str:
        import html

        return (f"<p><code>{html.escape(repr(self))}</code></p>"
                f"<pre>{html.escape(self.explain())}</pre>"
                + self.params.to_html(index=False, float_format="{:.4g}".format, max_rows=40)
                + self.compare().to_html(index=False, float_format="{:.4g}".format))


def _plain(v):
    """A fact's numbers as plain JSON-able Python values (numpy scalars and arrays to floats and lists)."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, np.ndarray):
        return [_plain(x) for x in v.tolist()]
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None  # JSON has no NaN or infinity: "not known"
    return v


def _as_key(group) -> tuple:
    """A curve's key: a tuple of ``by`` values (a list, as the JSON's ``group`` gives it, or one value)."""
    return tuple(group) if isinstance(group, (tuple, list)) else (group,)


def _public_name(ident: str, model: str) -> str:
    if model.startswith("ceiling"):
        from .ceiling import from_lmfit_name
        return from_lmfit_name(ident)
    return ident


def _unit_from_table(name: str) -> str:
    from .ceiling import bounds_of

    return bounds_of(name)[2]
