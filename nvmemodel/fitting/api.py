"""``nm.fit``: a results table (or result files) → fitted, compared and explained curves."""

from __future__ import annotations

import pathlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import NvmeModelError, ParameterError
from .axes import BLOCK_SIZE, CONCURRENCY, SHARES, TIME, axis_kind  # noqa: F401  (nm.fitting.api kept the names)
from .ceiling import DRIVE_AXES, X_AXES, ceiling_profile, ceiling_shape, reconcile
from .curves import Y_ALIASES, Y_COLUMNS, check_reaches_device, measured_points, one_in_flight, recorded_workload
from .engine import _auto_method, fit_shape
from .models import BLOCK_MODELS, EMPIRICAL, QUEUEING, SHAPES, block_shape
from .result import FitResult
from .select import compare_table  # noqa: F401  (FitResult.compare's table; nm.fitting.api kept the name)

__all__ = ["MODEL_CHOICES", "check_free", "fit"]

#: relative margin above a ceiling that counts as "above" (rounding of a stated number is not a finding)
_ABOVE = 1e-6

MODEL_CHOICES = ("auto", "queueing", "empirical", "ceiling", "ceiling_smooth", *SHAPES, *BLOCK_MODELS)




#: columns that are results of a run (or its bookkeeping), never the load it was run at
MEASURED = ("ios", "io_bytes", "iops", "bw_bytes_per_s", "lat_mean_s", "clat_mean_s", "slat_mean_s", "lat_max_s",
            "cpu_usr", "cpu_sys", "run", "job_index", "group_id", "snapshot", "error", "random_fraction")


def _models(model, topology, free, x: str = "drives", y_unit: str = "1/s") -> list[str]:
    names = [model] if isinstance(model, str) else list(model)
    kind = axis_kind(x)
    if kind == "time":
        raise ParameterError("x", x, "a load (iodepth, numjobs, outstanding, drives, targets) or block_size_bytes: "
                             "along time no scaling model applies (plot a time series: nvmemodel plot)")
    if x.lower() in SHARES:
        if names == ["auto"]:  # a mix sweep is described against the harmonic mix of its pure runs (facts.mix)
            return ["constant"]
        raise ParameterError("model", names[0], f"model='auto' along {x}: a share is not a load, so no scaling law "
                             f"({names[0]}) applies; model='auto' describes the mixes against the harmonic mix of the "
                             f"pure runs")
    if x.lower() in MEASURED or x.lower().startswith("clat_p"):
        raise ParameterError("x", x, "a load (iodepth, numjobs, outstanding, drives, targets, a label) or "
                             f"block_size_bytes: {x} is a result or bookkeeping column of each run, not what it was "
                             "run at")
    by_size = kind == "block size" and y_unit in ("1/s", "B/s")
    out: list[str] = []
    for m in names:
        if m == "auto":
            out += (["ceiling"] if topology is not None and free else []) + (
                [*BLOCK_MODELS] if by_size else [*QUEUEING, *EMPIRICAL])
        elif m == "queueing":
            out += QUEUEING
        elif m == "empirical":
            out += EMPIRICAL
        elif m in SHAPES or m in BLOCK_MODELS or m in ("ceiling", "ceiling_smooth"):
            out.append(m)
        else:
            raise ParameterError("model", m, f"one of {', '.join(MODEL_CHOICES)}")
    if any(m.startswith("ceiling") for m in out) and topology is None:
        raise ParameterError("model", "ceiling", "a topology (topology=nm.preset(...) / --preset) for the ceiling model")
    if by_size:
        wrong = [m for m in out if m in QUEUEING or m in EMPIRICAL]
        if wrong:
            raise ParameterError("model", wrong[0], f"a model of block size ({', '.join(BLOCK_MODELS)}, or the ceiling "
                                 "model): Little's law, MVA, USL and Amdahl describe concurrency, not transfer size")
    elif any(m in BLOCK_MODELS for m in out):
        raise ParameterError("model", next(m for m in out if m in BLOCK_MODELS),
                             f"x = block_size_bytes and y in IOPS or bytes/s for the per-I/O + per-byte model (x is {x!r})")
    return list(dict.fromkeys(out))


def _shape(m: str, y_unit: str):
    return block_shape(y_unit) if m in BLOCK_MODELS else SHAPES[m]


def choose(fits: dict) -> tuple[str, dict]:
    """The model to explain a curve with, and how it was chosen (``criterion``, ``excluded``, ``undecided``).

    1. The ceiling model when it was fitted (it explains) and is sound (see 2) or nothing else is.
    2. Otherwise only *sound* fits compete when there is one: R² ≥ 0 (better than a constant) and no
       parameter the data cannot identify; the others are ``excluded`` with the reason.
    3. Ranked by AICc where every competitor has it; where AICc is undefined for some (n ≤ k + 2), by BIC
       among the fits with ≥ 2 residual degrees of freedom (one nearly interpolates), and among those within
       2 of the best the one with the fewest parameters (the data cannot support more).
    4. Competitors within 2 of the chosen one by that criterion are ``undecided``: the data do not decide.
    """
    def sound(f) -> bool:
        r2 = f.stats.get("r2", np.nan)
        return not (np.isfinite(r2) and r2 < 0) and not any(v == "unidentified" for v in f.held.values())

    ceiling_fits = [m for m in fits if m.startswith("ceiling")]
    # the ceiling model explains — when it describes the data at all; one worse than a constant yields to a
    # sound fit of another model (rule 2), and is listed as not chosen
    if ceiling_fits and (any(sound(fits[m]) for m in ceiling_fits) or not any(sound(f) for f in fits.values())):
        pool_c = [m for m in ceiling_fits if sound(fits[m])] or ceiling_fits
        return min(pool_c, key=lambda m: fits[m].stats["aicc"]), {"criterion": "ceiling model", "excluded": {},
                                                                   "undecided": []}
    excluded = {}
    for m, f in fits.items():
        r2 = f.stats.get("r2", np.nan)
        if np.isfinite(r2) and r2 < 0:
            excluded[m] = f"R² = {r2:.2f}: worse than a constant"
        elif any(v == "unidentified" for v in f.held.values()):
            excluded[m] = f"{', '.join(p for p, v in f.held.items() if v == 'unidentified')} not identifiable"
    pool = {m: f for m, f in fits.items() if m not in excluded} or dict(fits)
    if len(pool) == len(fits):
        excluded = {}
    aicc = {m: f.stats["aicc"] for m, f in pool.items()}
    if all(np.isfinite(v) for v in aicc.values()):
        crit, name = aicc, "AICc"
    else:
        # AICc undefined for some (n ≤ k + 2): a fit with one residual degree of freedom interpolates rather
        # than tests, so those compete only when nothing else does
        tested = {m: f for m, f in pool.items() if f.stats["df"] >= 2}
        pool = tested or pool
        crit, name = {m: f.stats["bic"] for m, f in pool.items()}, "BIC"
    finite = {m: v for m, v in crit.items() if np.isfinite(v)}
    if not finite:
        return next(iter(pool)), {"criterion": name, "excluded": excluded, "undecided": []}
    best = min(finite, key=finite.__getitem__)
    if name == "BIC":  # small n: the fewest parameters among those the data cannot tell apart
        close = [m for m, v in finite.items() if v - finite[best] < 2]
        best = min(close, key=lambda m: (pool[m].stats["k"], finite[m]))
    undecided = [m for m, v in finite.items() if m != best and abs(v - finite[best]) < 2]
    return best, {"criterion": name, "excluded": excluded, "undecided": undecided}


def _ceiling_or_better(pts, x, fits, chosen, selection):
    """A chosen ceiling model that lies below ≥ 2 measurements by more than their noise is not a ceiling of these
    data: a sound fit of another model explains them instead, and the ceiling is listed as not chosen."""
    from .evidence import shape_evidence

    others = {m: f for m, f in fits.items() if not m.startswith("ceiling")}
    if not others:
        return chosen, selection
    ev = shape_evidence(pts, x, fits)
    over = int(np.sum((ev.y - fits[chosen].eval(ev.x)) > 2 * ev.se))
    if over < 2:
        return chosen, selection
    alt, sel = choose(others)
    r2 = others[alt].stats.get("r2", np.nan)
    if not (np.isfinite(r2) and r2 >= 0) or any(v == "unidentified" for v in others[alt].held.values()):
        return chosen, selection
    sel["excluded"] = {chosen: f"its ceiling lies below {over} measurements by more than their noise: not a ceiling "
                               f"of these data", **sel["excluded"]}
    return alt, sel


def _as_table(table, path_pattern, path_regex, labels):
    import pandas as pd

    if isinstance(table, pd.DataFrame):
        return table
    from ..ingest.iometer import is_iometer_file
    from ..userfiles import read_table

    try:
        paths = [table] if isinstance(table, (str, pathlib.Path)) else list(table)
    except TypeError:  # (QA s25 H32: nm.fit(5, …) was a bare TypeError)
        paths = None
    if not paths or not all(isinstance(p, (str, pathlib.Path)) for p in paths):
        what = (type(table).__name__ if paths is None else "nothing (an empty list)" if not paths else
                f"a list of {', '.join(sorted({type(p).__name__ for p in paths}))}")
        raise ParameterError("table", what, "a results table (a pandas DataFrame from nm.read_results), a result "
                             "file or folder, or a list of them")
    # an IOmeter results .csv is a result file, not a table: told by content (QA s25 H10)
    tables = [p for p in paths if str(p).lower().endswith((".csv", ".parquet")) and not is_iometer_file(p)]
    if tables and len(tables) == len(paths):
        return pd.concat([read_table(p, what="table") for p in tables], ignore_index=True)
    if tables:
        raise ParameterError("table", [str(p) for p in paths], "result files and folders, or .csv/.parquet tables "
                             "written by 'nvmemodel ingest -o' (not both)")
    import nvmemodel as nm

    out = nm.read_results(paths, path_pattern=path_pattern, path_regex=path_regex, labels=labels)
    if out.empty:  # nothing read: the paths and why, as 'ingest' and 'plot' say it (not "table='0 rows'")
        skipped = out.attrs.get("skipped", [])
        why = (f"{len(skipped)} skipped: " + "; ".join(f"{s.path}: {s.reason}" for s in skipped[:3])
               + (" …" if len(skipped) > 3 else "")) if skipped else "no files found"
        raise ParameterError("table", [str(p) for p in paths], f"at least one readable benchmark result (read "
                             f"{out.attrs.get('files_read', 0)} file(s), 0 rows; {why})")
    return out


def _as_table_noting(table, path_pattern, path_regex, labels) -> tuple:
    """:func:`_as_table` and what reading the files warned of (a failed run, clones summed, a skipped file …):
    the warnings are issued as they were (a caller still sees them) and kept for the result's JSON."""
    import warnings

    from ..errors import IngestWarning

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", IngestWarning)
            tbl = _as_table(table, path_pattern, path_regex, labels)
            if "files_read" not in tbl.attrs or tbl is table:  # a table (a DataFrame, .csv/.parquet): no ingest
                from ..ingest.steadystate import steady_state_note  # said it here, so the fit does, as ingest would

                note = steady_state_note(tbl)
                if note:
                    warnings.warn(note, IngestWarning, stacklevel=2)
    finally:  # also when nothing could be read: the skipped files' reasons are said before the error
        for w in caught:  # the caller's filters decide again (an error in pytest, printed by the CLI …)
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return tbl, [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]


def check_free(free, topology) -> list[str] | None:
    """``free`` checked before anything is read or fitted: parameters of the model (``nvmemodel parameters``;
    numeric ones are fitted, discrete ones tried at each value), and a ``topology`` whose ceiling model they
    belong to. An unknown name is one error with the
    closest known ones, never a fit in which the ceiling model silently failed; ``nvmemodel fit --free`` calls
    this too (one message for both)."""
    from ..errors import UnknownNameError
    from ..parameters import PARAMETERS

    if free is None:
        return None
    free = [free] if isinstance(free, str) else list(free)  # one name, like by= (not its characters)
    if topology is None:
        raise ParameterError("free", free, "a topology too (topology=nm.preset(...); --preset or --topology on the "
                             "command line): free parameters belong to a topology's ceiling model")
    if not free:
        raise ParameterError("free", free, "model parameters to fit, e.g. ['switch.efficiency'] (--free "
                             "switch.efficiency), or none given at all")
    for name in free:
        if not isinstance(name, str):
            raise ParameterError("free", name, "parameter names as text, e.g. 'switch.efficiency'")
        if name not in PARAMETERS:  # numeric ones are fitted, discrete ones (pcie.mps, host.gen …) tried value by value
            raise UnknownNameError("free parameter (the model's parameters: see 'nvmemodel parameters')",
                                   name, sorted(PARAMETERS))
    return free


def fit(table: Any, *, x: str, y: str = "iops", by: str | Sequence[str] | None = None,
        model: str | Sequence[str] = "auto", topology: Any = None, workload: Any = None, free: Sequence[str] | None = None, drives: int | None = None,
        shared: Sequence[str] | None = None, ci: str = "auto", seed: int = 0, n_boot: int | None = None,
        path_pattern: str | None = None,
        path_regex: str | None = None, labels: Any = None, failed: str = "drop") -> FitResult:
    """Fit measured scaling curves, compare models and explain what binds.

    Parameters
    ----------
    table : pandas.DataFrame or path(s)
        A results table (:func:`nvmemodel.read_results`), CSV/Parquet copies of one, or result
        files and folders (read with ``path_pattern``/``path_regex``/``labels``).
    x : str
        Column to scale along (``drives``, ``iodepth``, ``numjobs``, ``block_size_bytes``, a label) or
        ``"outstanding"`` (iodepth × numjobs).
    y : str
        ``iops``, ``read_iops``, ``bytes_per_s``, ``clat_p99_s`` … (see :data:`Y_COLUMNS`), SI; the
        table's column ``bw_bytes_per_s`` is taken as ``bytes_per_s``.
    by : str or list of str, optional
        Columns splitting the points into curves, each fitted on its own.
    model : str or list of str
        ``"auto"`` (every model that fits the points; the ceiling model too when ``topology`` and
        ``free`` are given), ``"queueing"`` (littles, littles_soft, mva), ``"empirical"`` (linear,
        amdahl, usl), a model name, ``"ceiling"`` or ``"ceiling_smooth"``. The chosen model is the
        ceiling model when it was fitted (it explains), else the lowest AICc.
    topology : Topology or mapping, optional
        The configuration measured (``nm.preset(...)``), or with ``by`` one per curve:
        ``{"x8": nm.preset(...), "x16": ...}`` keyed by the ``by`` value (a tuple for several columns;
        values match as given, as text or as numbers).
    workload : Workload, optional
        The workload measured; defaults to each curve's most common pattern, block size, iodepth,
        numjobs and ``ioengine`` (where it is one of the model's I/O stacks) in the table.
    free : list of str, optional
        Parameters of the ceiling model to fit (``["switch.efficiency"]``).
    drives : int, optional
        Drive count for ceiling-model axes other than drives (default 1).
    shared : list of str, optional
        With ``by``: parameters common to every curve, fitted jointly (:mod:`nvmemodel.fitting.joint`):
        a model's parameter (``["r0"]``) for the empirical and queueing models, a ``free`` parameter
        for the ceiling model (``["switch.efficiency"]``: one switch explains the x8 and x16 curves).
    ci, seed, n_boot
        Interval method (see :mod:`nvmemodel.fitting.engine`; with several models, for the chosen one — the
        others keep t intervals), bootstrap seed and resamples.
    failed : {"drop", "keep"}
        Runs fio reported an error for (its ``error`` field): ``"drop"`` (default) leaves them out — a failed job is
        not a measurement unless you say so; ``"keep"`` fits them. Either way the explanation, the summary and the
        JSON (``runs_left_out``) count and name them, with fio's error code (:mod:`nvmemodel.fitting.runs_left_out`).

    Returns
    -------
    FitResult
    """
    y = Y_ALIASES.get(y, y)  # the table's own column name (bw_bytes_per_s) is the y it stands for
    shared = [shared] if isinstance(shared, str) else shared
    _check_topologies(topology, by)
    free = check_free(free, topology)
    from .runs_left_out import FAILED_CHOICES, keep_failed, left_out_runs, left_out_words, refusal_words

    if not isinstance(failed, str) or failed not in FAILED_CHOICES:
        raise ParameterError("failed", failed, f"one of {', '.join(map(repr, FAILED_CHOICES))} (runs fio reported an "
                             "error for: left out, the default, or fitted and flagged)")
    tbl, read_warnings = _as_table_noting(table, path_pattern, path_regex, labels)
    left_out = left_out_runs(tbl, x, failed=failed) if hasattr(tbl, "columns") else {}
    if failed == "keep":
        tbl = keep_failed(tbl)
    if left_out and left_out["left_out"] and len(left_out["left_out"]) == left_out["runs"]:
        raise ParameterError("table", f"{left_out['runs']} run{'s' if left_out['runs'] != 1 else ''}, none a "
                             "measurement", "at least one run to fit: " + left_out_words(left_out))
    if topology is not None:
        check_reaches_device(tbl, "topology", topology)
    points = measured_points(tbl, x=x, y=y, by=by)
    by_cols = points.attrs["by"]
    for col in by_cols:  # a run without a curve would otherwise drop out of every fit unseen
        if points[col].isna().any():
            src = str(points.loc[points[col].isna(), "sources"].iloc[0])
            raise ParameterError("by", col, f"a value for every run ({src} has none; give it with a label or "
                                 "path pattern)")
    y_unit = Y_COLUMNS[y][3]
    names = _models(model, topology, free, x, y_unit)
    share = x.lower() in SHARES
    if share and (y.startswith(("read_", "write_", "trim_")) or y_unit not in ("1/s", "B/s")):
        raise ParameterError("y", y, f"the total rate (iops or bytes_per_s) along {x}: one direction's rate is the "
                             f"total times the share by construction, and a latency has no harmonic mix")
    if share and ((points[x] < 0) | (points[x] > (100 if x.lower().startswith("rwmix") else 1))).any():
        raise ParameterError("x", x, "a share between 0 and 1 (rwmixread/rwmixwrite: 0–100)")
    if not share and (points[x] <= 0).any():  # every law here is a rate at a positive load (or block size); 0 has no meaning
        bad = points.loc[points[x] <= 0]
        raise ParameterError("x", f"{x} = {float(bad[x].iloc[0]):g}",
                             f"x > 0 at every point (the scaling laws describe throughput at a positive load or "
                             f"block size; {str(bad['sources'].iloc[0]).split(';')[0]} has {x} = "
                             f"{float(bad[x].iloc[0]):g})")
    if topology is not None and x not in X_AXES and any(m.startswith("ceiling") for m in names):
        raise ParameterError("x", x, f"one of {', '.join(X_AXES)} for the ceiling model")
    if x in DRIVE_AXES and any(m.startswith("ceiling") for m in names):
        frac = points[x][points[x] != np.round(points[x])]
        if len(frac):  # the kernel would round them: a point fitted where it was not measured
            raise ParameterError("x", x, f"whole drive counts for the ceiling model (a point is at {frac.iloc[0]:g})")
    if drives is not None:
        from .. import _check

        _check.number("drives", drives, lo=1, integer=True)
    if drives is None and topology is not None and x not in DRIVE_AXES:  # the model is evaluated at drives
        _check_one_device(tbl)
    d = int(drives or 1)
    groups = [((), points)] if not by_cols else [
        (key if isinstance(key, tuple) else (key,), g) for key, g in points.groupby(by_cols, sort=True)]
    setups = {key: (_topology_for(topology, key, by_cols), recorded_workload(_rows_of(tbl, by_cols, key), workload))
              for key, _ in groups} if topology is not None else {}
    direction = Y_COLUMNS[y][1]
    if direction and any(m.startswith("ceiling") for m in names):
        for key, (_, wl) in setups.items():
            # the model's ceiling counts every I/O: one direction of a mixed workload is only a share of it
            if (wl.read_fraction < 1.0) if direction == "read" else (wl.read_fraction > 0.0):
                total = "iops" if y_unit == "1/s" else "bytes_per_s"
                raise ParameterError("y", y, f"y={total!r} for the ceiling model of a mixed read/write workload "
                                     f"({wl.describe()}{' in curve ' + str(key) if key else ''}): its ceiling counts "
                                     f"reads and writes together")
    fits: dict[Any, Any] = {}
    chosen: dict[Any, Any] = {}
    not_fitted: dict[Any, Any] = {}
    findings: dict[Any, Any] = {}
    selection: dict[Any, Any] = {}
    explicit = len(names) == 1
    joint, joint_failed = {}, {}
    if shared:
        from .joint import fit_joint

        if not by_cols:
            raise ParameterError("shared", list(shared), "by= columns: parameters are shared between curves")
        curves = [(key, g[x].to_numpy(float), g["y"].to_numpy(float),
                   g["weight"].to_numpy(float) if points.attrs["weighted"] else None) for key, g in groups]
        for m in names:
            try:
                if m.startswith("ceiling"):
                    missing = [s for s in shared if s not in (free or [])]
                    if missing:
                        raise ParameterError("shared", missing[0], f"one of the free parameters {list(free or [])} "
                                             "(a parameter shared by the curves' ceiling models must be fitted)")
                    joint[m] = _fit_ceiling([setups[k] for k, *_ in curves], x, y_unit, list(free or []), d,
                                            m == "ceiling_smooth", curves, shared=list(shared), ci=ci, seed=seed,
                                            n_boot=n_boot)
                else:
                    joint[m] = fit_joint(_shape(m, y_unit), curves, list(shared), ci=ci, seed=seed)
            except NvmeModelError as exc:
                if explicit:
                    raise
                joint_failed[m] = str(exc)
    for key, pts in groups:
        xv, yv = pts[x].to_numpy(float), pts["y"].to_numpy(float)
        w = pts["weight"].to_numpy(float) if points.attrs["weighted"] else None
        if np.unique(xv).size < 2 and not all(m.startswith("ceiling") for m in names):
            where = (f"the curve {_curve_name(by_cols, key)} ({len(pts)} point"
                     f"{'s' if len(pts) != 1 else ''}: {_sources(pts)})" if key else "the data")
            flight = one_in_flight(pts) if x == "outstanding" else None
            why = ("" if flight is None else
                   " (one I/O was in flight per job at every point — "
                   + (f"{flight['engine']} is synchronous" if flight["engine"] else "fio ran ≥ 99 % of I/O at depth 1")
                   + ": the outstanding I/O is numjobs, whatever iodepth says)")
            raise ParameterError("x", f"{x} = {xv[0]:g} only",
                                 f"at least two different x values in {where} to fit a curve{why}"
                                 + points.attrs.get("left_out", "") + refusal_words(left_out))
        fits[key], not_fitted[key] = {}, {}
        curve_names = names
        if x == "iodepth" and not explicit and not shared and one_in_flight(pts) is not None:
            # one I/O in flight per job at every iodepth (a synchronous engine): iodepth is not a load, and no
            # queueing or scaling model is fitted along it — only the level it gave
            curve_names = ["constant"]
        elif not explicit and not shared and np.ptp(yv) == 0 and not any(m.startswith("ceiling") for m in names):
            # every run measured the same value (a rate cap: --rate=20m gave 20,961,039 B/s three times): no model
            # with a shape can be fitted to it, the level is what there is (QA s27 I16: every model refused at once)
            curve_names = ["constant"]
        for m in curve_names:
            if shared:
                if m in joint:
                    fits[key][m] = joint[m][key]
                else:
                    not_fitted[key][m] = joint_failed.get(m, "not fitted")
                continue
            if m.startswith("ceiling"):
                try:
                    fits[key][m] = _fit_ceiling([setups[key]], x, y_unit, list(free or []), d, m == "ceiling_smooth",
                                                [(key, xv, yv, w)], ci=ci, seed=seed, n_boot=n_boot)[key]
                except NvmeModelError as exc:
                    if explicit:
                        raise
                    not_fitted[key][m] = str(exc)
                continue
            shape = _shape(m, y_unit)
            if not explicit and len(xv) <= len(shape.params):
                not_fitted[key][m] = (f"{len(xv)} points cannot support {len(shape.params)} parameters "
                                  f"(a fit needs at least {len(shape.params) + 1})")
                continue
            try:
                # several models: t intervals first (cheap); the chosen one gets the interval asked for below
                fits[key][m] = fit_shape(shape, xv, yv, w, ci="wald" if not explicit else ci,
                                         seed=seed, n_boot=n_boot)
            except NvmeModelError as exc:
                if explicit:
                    raise
                not_fitted[key][m] = str(exc)
        if not fits[key]:
            raise ParameterError("model", names if not explicit else names[0],
                                 f"a model the {len(xv)} points of "
                                 + (f"the curve {_curve_name(by_cols, key)}"
                                    if key else "the data") + " can support: "
                                 + "; ".join(f"{m}: {r}" for m, r in not_fitted[key].items()))
        chosen[key], selection[key] = choose(fits[key])
        if chosen[key].startswith("ceiling"):
            chosen[key], selection[key] = _ceiling_or_better(pts, x, fits[key], chosen[key], selection[key])
        m = chosen[key]
        f = fits[key][m]
        if ci == "auto" and not explicit and not shared and not m.startswith("ceiling") and f.ci_method == "wald" \
                and _auto_method(f.shape, f.values, f.stderr, f.stats["df"], []) != "wald" and not f.held:
            # profile likelihood (or a bootstrap) only where the chosen model's t interval would cross a bound
            fits[key][m] = fit_shape(_shape(m, y_unit), xv, yv, w, ci="auto", seed=seed, n_boot=n_boot)
        elif ci not in ("auto", "wald") and not explicit and not shared and not m.startswith("ceiling"):
            # a bootstrap or profile asked for: the chosen model's intervals (the others are compared by AICc, which
            # needs no interval) — 1,000 resamples of every model took ~10 s on 7 points
            fits[key][m] = fit_shape(_shape(m, y_unit), xv, yv, w, ci=ci, seed=seed, n_boot=n_boot)
        findings[key] = _falsification(*setups[key], x, pts, y_unit, d, fits[key]) if topology is not None else []
    common = next(iter(setups.values())) if setups else (None, None)
    return FitResult(x=x, y=y, y_unit=y_unit, by=by_cols, points=points, fits=fits, chosen=chosen, failed=not_fitted,
                     findings=findings, topology=common[0], workload=common[1], free=list(free or []), drives=d,
                     setups=setups, selection=selection, table=tbl, ingest_warnings=read_warnings,
                     requested=explicit and isinstance(model, str) and names == [model], runs_left_out=left_out)


_MAX_COMBINATIONS = 64


def _curve_name(by_cols, key) -> str:
    """``numjobs=8`` (was the dict ``{'numjobs': 8}`` in refusals)."""
    from .wording import _fx

    def shown(v) -> str:
        try:
            return _fx(float(v))
        except (TypeError, ValueError):
            return str(v)

    return ", ".join(f"{b}={shown(v)}" for b, v in zip(by_cols, key))


def _sources(pts) -> str:
    """The files of a curve's points, by name, as a refusal names them (at most three)."""
    names = list(dict.fromkeys(pathlib.Path(s).name for v in pts["sources"] for s in str(v).split(";")))
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _check_topologies(topology, by) -> None:
    """One clear error for a ``topology=`` that is not a :class:`~nvmemodel.topology.topology.Topology` (or a
    mapping of ``by`` values to them, which needs ``by``)."""
    from ..topology.mixed import MixedTopology
    from ..topology.topology import Topology

    if topology is None:
        return
    if isinstance(topology, Mapping):
        if not by:
            raise ParameterError("topology", f"a mapping of {len(topology)}", "one Topology, or by= columns too "
                                 "(the mapping's keys are by values, one topology per curve)")
        values = dict(topology)
    else:
        values = {"": topology}
    for key, t in values.items():
        if not isinstance(t, Topology | MixedTopology):
            where = f"topology[{key!r}]" if key != "" else "topology"
            raise ParameterError(where, t, "a Topology such as nm.preset('lenovo-sr850-810-4p') or a MixedTopology "
                                 "(or a mapping of by values to them)")


def _fit_ceiling(setups, x, y_unit, free, drives, smooth, curves, *, shared=None, **kw) -> dict:
    """Fit the ceiling model to ``curves`` (``[(key, x, y, weights)]``, one ``(topology, workload)`` each in
    ``setups``): each curve on its own, or — with ``shared`` — all at once with those parameters common
    (:func:`~nvmemodel.fitting.joint.fit_joint`). Returns ``{key: CurveFit}``.

    Discrete free parameters (MPS, DLLP policy, flags …) are tried at every value (all combinations, at most
    64; in a joint fit one value for every curve), the continuous ones fitted for each, and the best
    residual sum of squares kept — profiling the discrete ones out, as the same number of parameters is
    fitted for each.
    """
    import dataclasses
    import itertools

    from .ceiling import choices_of, discrete_kind, lmfit_name
    from .joint import fit_joint

    discrete = [n for n in free if discrete_kind(n)]
    continuous = [n for n in free if n not in discrete]
    if shared:
        alone = [n for n in discrete if n not in shared]
        if alone:
            raise ParameterError("shared", list(shared), f"every discrete free parameter too ({', '.join(alone)}): "
                                 "in a joint fit a choice takes one value for all curves")
    options = [choices_of(n) for n in discrete]
    combos = list(itertools.product(*options))
    if len(combos) > _MAX_COMBINATIONS:
        raise ParameterError("free", discrete, f"discrete parameters with at most {_MAX_COMBINATIONS} combinations of "
                             f"values (these have {len(combos)})")
    shared_idents = [lmfit_name(n) for n in shared or [] if n in continuous]
    results = []
    errors = (NvmeModelError, ValueError, TypeError, LookupError) if discrete else ()
    for combo in combos:
        fixed = dict(zip(discrete, combo))
        shapes = [ceiling_shape(t, w, x=x, y_unit=y_unit, free=continuous, drives=drives, smooth=smooth,
                                fixed=fixed) for t, w in setups]
        try:
            if shared:
                out = fit_joint(shapes, curves, shared_idents, **kw)
            else:
                out = {key: fit_shape(shapes[0], xv, yv, w, **kw) for key, xv, yv, w in curves}
        except errors:
            continue  # a value the model refuses in this configuration
        above = sum(int(_unexplained_above(out[key], xv, yv).sum()) for key, xv, yv, _ in curves)
        rss = out[curves[0][0]].stats["rss"] if shared else sum(f.stats["rss"] for f in out.values())
        results.append((combo, out, above, rss))
    if not results:
        raise ParameterError("free", discrete, "values the model accepts for this topology")
    if not discrete:
        return results[0][1]
    # a ceiling is an upper bound: a value that leaves a measurement above it unexplained ranks after every
    # value that does not, whatever its residuals (least squares alone would prefer a ceiling just below)
    best_combo, best, _, _ = min(results, key=lambda t: (t[2], t[3]))
    info = {}
    for i, name in enumerate(discrete):
        rss = {}
        for combo, _, _, r in results:  # this parameter's value, the others at their best
            if all(c == b for j, (c, b) in enumerate(zip(combo, best_combo)) if j != i):
                rss[str(combo[i])] = r
        info[name] = {"value": best_combo[i], "rss": rss}
    notes = []
    for name, item in info.items():
        vals = np.array(list(item["rss"].values()))
        if len(vals) > 1 and np.all(vals <= vals.min() * 1.01 + 1e-300):
            notes.append(f"{name} is not identifiable: every value fits equally well ({', '.join(item['rss'])})")
    if shared:  # the joint fit saw only the continuous shared parameters: name the shared choices too
        head = f"fitted jointly over {len(curves)} curves; shared: {', '.join(shared)}; statistics are the joint fit's"
        best = {key: dataclasses.replace(f, notes=[head if n.startswith("fitted jointly") else n for n in f.notes])
                for key, f in best.items()}
    return {key: dataclasses.replace(f, discrete=info, notes=[*f.notes, *notes]) for key, f in best.items()}


def _same_value(a, b) -> bool:
    """Whether two ``by`` values name the same curve: as given, as text, or as numbers (``8``, ``8.0``, ``"8"``)."""
    def forms(v):
        out = {v, str(v)}
        try:
            f = float(v)
            out |= {f, f"{f:g}"}
        except (TypeError, ValueError):
            pass
        return out

    return bool(forms(a) & forms(b))


def _topology_for(topology, key: tuple, by_cols: list):
    """The topology of one curve: the one given, or its entry in a mapping keyed by the ``by`` value(s)."""
    if not isinstance(topology, Mapping):
        return topology
    wanted = [key, *([key[0]] if len(key) == 1 else [])]
    for k, topo in topology.items():
        ks = k if isinstance(k, tuple) else (k,)
        if len(ks) == len(key) and all(_same_value(a, b) for a, b in zip(ks, key)):
            return topo
    shown = dict(zip(by_cols, key))
    raise ParameterError("topology", wanted[-1], f"a topology for curve {shown}: the mapping has {list(topology)}")


def _rows_of(tbl, by_cols: list, key: tuple):
    """The table's rows of one curve (``by`` values compared by :func:`_same_value`)."""
    if not by_cols:
        return tbl
    mask = np.ones(len(tbl), dtype=bool)
    for col, v in zip(by_cols, key):
        mask &= np.array([_same_value(u, v) for u in tbl[col]], dtype=bool)
    return tbl[mask]


def _unexplained_above(cf, xv, yv) -> np.ndarray:
    """Points above a ceiling fit by more than rounding where no continuous free parameter moves the ceiling."""
    base = cf.eval(xv)
    above = yv > base * (1 + _ABOVE)
    if above.any():
        for p in cf.shape.params:
            if p == "sharpness":
                continue
            v, (lo, hi) = cf.values[p], cf.shape.bounds[p]
            # could a change of p inside its bounds raise the ceiling there? (pinned at a bound: only one way)
            for trial in ((v * 1.01 if v else 1e-9), v * 0.99):
                if lo <= trial <= hi and trial != v:
                    above &= ~(cf.eval(xv, dict(cf.values, **{p: trial})) > base * (1 + 1e-9))
    return above


def _falsification(topology, workload, x, pts, y_unit, drives, fits) -> list[dict]:
    """Measurements above the fitted ceiling model that the free parameters cannot account for.

    A point counts when it lies above the model's ceiling (with the fitted values) by more than rounding
    (:data:`_ABOVE`) — and, where runs were repeated, by more than twice their standard error of the mean —
    *and* the component binding there does not depend on any free parameter — then an
    assumption held fixed is wrong, and :func:`~nvmemodel.fitting.ceiling.reconcile` names what would allow
    the measurement. (Where a free parameter sets the ceiling, points scatter around it by noise.) Only
    the largest excess of each binding component is reconciled.
    """
    from .ceiling import fitted_overrides

    if x not in X_AXES:
        return []
    cf = next((f for m, f in fits.items() if m.startswith("ceiling")), None)
    overrides = fitted_overrides(cf) if cf else {}
    xv, yv = pts[x].to_numpy(float), pts["y"].to_numpy(float)
    prof = ceiling_profile(topology, workload, x=x, values=xv, overrides=overrides, drives=drives, y_unit=y_unit)
    ceiling = prof["ceiling"].to_numpy()
    above = yv > ceiling * (1 + _ABOVE)
    if "y_sem" in pts:  # repeated runs: above by more than twice their standard error, not by the noise they show
        sem = pts["y_sem"].to_numpy(float)
        above &= ~(np.isfinite(sem) & (yv - 2.0 * sem <= ceiling))
    if cf is not None:  # points where a free parameter sets the ceiling scatter around it: not findings
        above &= _unexplained_above(cf, xv, yv)
    worst: dict[str, int] = {}
    for i in np.flatnonzero(above).tolist():
        b = str(prof["binding"].iloc[i])
        if b not in worst or yv[i] / prof["ceiling"].iloc[i] > yv[worst[b]] / prof["ceiling"].iloc[worst[b]]:
            worst[b] = i
    out = []
    for b, i in worst.items():
        c = float(prof["ceiling"].iloc[i])
        fix = reconcile(topology, workload, x=x, x_value=xv[i], measured=yv[i], overrides=overrides, drives=drives,
                        y_unit=y_unit)
        out.append({"x": float(xv[i]), "measured": float(yv[i]), "ceiling": c, "binding": b,
                    "excess": float(yv[i] / c - 1), "points_above": int(np.sum(above & (prof["binding"] == b))),
                    "x_above": [float(v) for v in xv[above & (prof["binding"] == b).to_numpy()]],
                    "measured_above": [float(v) for v in yv[above & (prof["binding"] == b).to_numpy()]],
                    "reconcile": fix})
    return out


def _check_one_device(tbl) -> None:
    """The ceiling model is evaluated at ``drives`` (default 1): refused where fio's disk stats name more devices
    than that, so a measurement over 16 devices is never called 'above the model's one-drive ceiling' (QA s25, H7)."""
    from .devices import bottom_counts

    if "device_count" not in tbl:
        return
    # the drives at the bottom of each run's disk list: dm-crypt over its drive is one drive (round 16, WA)
    drives = bottom_counts(tbl)
    counts = drives.dropna()
    if counts.empty or int(counts.max()) <= 1:
        return
    many = tbl.loc[drives == counts.max()].iloc[0]
    n = sorted({int(c) for c in counts})
    said = f"{n[0]}" if len(n) == 1 else f"{n[0]}–{n[-1]}"
    raise ParameterError("drives", "1 (the default)", f"a drive count for the ceiling model (drives=N, --drives N): the runs' "
                         f"disk stats name {said} devices ({many.get('source_path', '?')!s} names "
                         f"{int(counts.max())}), and without it the model is evaluated at 1 drive")
