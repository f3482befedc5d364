"""Results table → measured points: one point per run, repeats → mean ± spread with weights.

A *run* is the final report of one benchmark run in a result file (a file can hold several runs
appended one after another: the table's ``run`` column), or of one fio group within it
(stonewalled jobs report as separate groups): ``(source_path, run, group_id)``. Its throughput is the sum over its
non-aggregate rows (``is_aggregate`` rows sum other rows and are never added to them); latencies
are the I/O-weighted mean of its rows (percentiles: the largest row's value — percentiles of
different jobs cannot be combined exactly, and the largest is the conservative choice).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ParameterError
from .submit_inline import SUBMIT_SHARE, inline_curve, run_inline_share
from ..ingest.summary import NOT_SET, NUMERIC_WORKLOAD, TOLERANCE, WORKLOAD, X_VARIES, usable_rows, workload_values
from ..jobs.fiooptions import NO_STORAGE_ENGINES, SYNC_ENGINES

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DERIVED_X", "SYNC_ENGINES", "Y_ALIASES", "Y_COLUMNS", "measured_points", "one_in_flight", "recorded_workload",
           "synchronous"]

#: y name → (table column, direction filter or None, how rows combine, unit)
Y_COLUMNS = {
    "iops": ("iops", None, "sum", "1/s"),
    "read_iops": ("iops", "read", "sum", "1/s"),
    "write_iops": ("iops", "write", "sum", "1/s"),
    "bytes_per_s": ("bw_bytes_per_s", None, "sum", "B/s"),
    "read_bytes_per_s": ("bw_bytes_per_s", "read", "sum", "B/s"),
    "write_bytes_per_s": ("bw_bytes_per_s", "write", "sum", "B/s"),
}
for _col in ("lat_mean_s", "clat_mean_s", "slat_mean_s"):
    Y_COLUMNS[_col] = (_col, None, "mean", "s")
    Y_COLUMNS[f"read_{_col}"] = (_col, "read", "mean", "s")
    Y_COLUMNS[f"write_{_col}"] = (_col, "write", "mean", "s")
for _col in ("clat_p50_s", "clat_p90_s", "clat_p95_s", "clat_p99_s", "clat_p99_9_s", "clat_p99_99_s", "lat_max_s",
             # total-latency percentiles (fio --lat_percentiles=1), tabulated by ingest since s27 (INGEST-2)
             "lat_p50_s", "lat_p90_s", "lat_p95_s", "lat_p99_s", "lat_p99_9_s", "lat_p99_99_s"):
    Y_COLUMNS[_col] = (_col, None, "max", "s")
    Y_COLUMNS[f"read_{_col}"] = (_col, "read", "max", "s")
    Y_COLUMNS[f"write_{_col}"] = (_col, "write", "max", "s")

#: the results table's own column names accepted as y (a user reads ``bw_bytes_per_s`` in the table and in
#: ``nvmemodel plot``): the y name they stand for
Y_ALIASES = {"bw_bytes_per_s": "bytes_per_s", "read_bw_bytes_per_s": "read_bytes_per_s",
             "write_bw_bytes_per_s": "write_bytes_per_s"}

#: x names computed per run rather than read from one column
DERIVED_X = {"outstanding": "iodepth × numjobs summed over the run's distinct jobs"}

_RUN_KEYS = ["source_path", "run", "group_id"]

#: fio's share of I/O submitted at depth 1 (iodepth_level["1"], %) from which a run kept one I/O in flight per job
DEPTH_ONE = 99.0
#: IOPS × mean latency ÷ numjobs of a row above which its I/O was queued (Little's law: the mean number in flight),
#: whatever its engine's flag says: a synchronous engine keeps 1 per job, and fio's clock puts a held run at ≤ 1.0–1.1.
#: Set after round 12 was read: r12_rocmnixl_7nvme-hipfile-stream_1m_iodepth (MB), libhipfile (FIO_SYNCIO in fio)
#: measured 8.0, 16.0 … 511 in flight = 8 × iodepth.
QUEUED = 1.5


def synchronous(rows):
    """Per row of a results table, True where its engine is one fio flags ``FIO_SYNCIO`` (:data:`SYNC_ENGINES`) and
    its own figures do not contradict that: where IOPS and mean latency are measured, IOPS × latency ÷ numjobs is at
    most :data:`QUEUED`. An engine fio does not know, or none named, is not synchronous. A per-job row of a
    several-job run divides one job's I/O by all the jobs, so it can only keep an engine synchronous, never drop it."""
    import pandas as pd

    if "ioengine" not in rows:
        return pd.Series(False, index=rows.index)
    named = rows["ioengine"].astype(str).isin(SYNC_ENGINES) & rows["ioengine"].notna()

    def num(c):
        return pd.to_numeric(rows[c], errors="coerce") if c in rows else pd.Series(np.nan, index=rows.index)

    lat = num("lat_mean_s").fillna(num("clat_mean_s"))
    with np.errstate(invalid="ignore", divide="ignore"):
        in_flight = num("iops") * lat / num("numjobs").fillna(1.0)
    return named & ~(in_flight > QUEUED)


def _depth_one(path) -> float:
    """The smallest share (%) of I/O that fio ran at depth 1 over the jobs of a fio JSON result file
    (``iodepth_level["1"]``); NaN when the file is not at hand or not fio JSON."""
    from ..ingest.fio_json import _decode_documents

    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        docs, _ = _decode_documents(text, path)
    except Exception:  # noqa: BLE001 — a table whose files are elsewhere or not fio JSON: not known
        return np.nan
    shares = [float(job["iodepth_level"]["1"]) for doc in docs for job in doc.get("jobs", [])
              if isinstance(job, dict) and isinstance(job.get("iodepth_level"), dict)
              and isinstance(job["iodepth_level"].get("1"), (int, float))]
    return min(shares) if shares else np.nan


def _numeric(values, name: str):
    """Labels become numbers where every value looks like one; else the strings stay."""
    import pandas as pd

    s = pd.Series(values)
    if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
        return s.astype(float)
    conv = pd.to_numeric(s.astype("string").str.strip(), errors="coerce")
    if conv.notna().all():
        return conv.astype(float)
    return s.astype("string")


def _cpus(g) -> float:
    """CPUs' worth of fio's usr+sys time in one run: each job's share of one CPU, summed over its jobs (a
    group-reported row stands for ``numjobs`` jobs and carries their mean); NaN where not reported. DiskSpd
    and IOmeter rows carry the whole machine's CPUs on every row of a run (the ingest schema): taken once."""
    cpu = g["_cpu"].to_numpy(float)
    if not np.isfinite(cpu).any():
        return np.nan
    if "tool" in g and (g["tool"].astype(str) != "fio").any():  # (QA s25 H25)
        return float(np.nanmax(cpu))
    nj = g["_nj"].to_numpy(float)
    if len(g) > 1:  # one row per job and direction: each job once
        keys = [k for k in ("job_name", "job_index") if k in g]
        first = ~g.duplicated(keys).to_numpy() if keys else np.arange(len(g)) == 0
        cpu, nj = cpu[first], nj[first]
    if cpu.size == 1 and np.isfinite(nj[0]) and nj[0] > 1:
        return float(cpu[0] * nj[0])
    return float(np.nansum(cpu))


_WORKLOAD, _NUMERIC_WORKLOAD, _TOLERANCE, _X_VARIES = WORKLOAD, NUMERIC_WORKLOAD, TOLERANCE, X_VARIES


class _Written(str):
    """Values in an error message as a user wrote them: ``1, 4, 16, 64``, not ``['1', '16', '4', '64']`` or
    ``[np.float64(4096.0), …]`` (QA s25 H15)."""

    def __repr__(self) -> str:
        return str(self)


def as_written(values) -> str:
    """Numbers in numeric order as written (whole ones in full), then any text."""
    from .wording import _fx

    nums, texts = set(), set()
    for v in values:
        try:
            nums.add(float(v))
        except (TypeError, ValueError):
            texts.add(str(v))
    return _Written(", ".join([*(_fx(v) for v in sorted(nums)), *sorted(texts)]))


def _one_workload(runs, x: str, by: list[str]) -> None:
    """Refuse a point whose runs measured different workloads (a column of :data:`_WORKLOAD` that is not
    x or a by differs between the runs at one x of a curve): averaging them as repeats mixes what was
    measured. (A column that changes with x, one value per x, is what a label x stands for: numjobs under
    ``threads``.) Measured means may differ within :data:`_TOLERANCE`."""
    for key, g in runs.groupby([*by, x], sort=True, dropna=False):
        for c in _WORKLOAD:
            col = f"_wl_{c}"
            if col not in g or c in _X_VARIES.get(x, ()):
                continue
            vals = g[col].dropna()
            if vals.empty:
                continue
            # a run without a value ("not set": no --rate_iops, or a form that does not record it) is not a repeat
            # of one with a value: an unpaced run averaged with one paced at 5,000 IOPS measured two workloads
            unset = len(vals) < len(g)
            if c in _NUMERIC_WORKLOAD:
                v = vals.astype(float)
                differ = unset or float(v.max()) > float(v.min()) * _TOLERANCE.get(c, 1.0) + 1e-12
                # (a thinktime_s of 0.0005 is not "0")
                labels = v.map(lambda a, c=c: f"{a:.3g}" if c == "read_fraction" or abs(a) < 1 else f"{a:.0f}")
            else:
                differ = unset or vals.nunique() > 1
                labels = vals.astype(str)
            if not differ:
                continue
            labels = labels.reindex(g.index, fill_value=NOT_SET)
            counts = labels.value_counts(sort=False)
            order = sorted(counts.index, key=lambda a: (2, 0.0, a) if a == NOT_SET else (0, float(a), "")
                           if c in _NUMERIC_WORKLOAD else (1, 0.0, a))
            where = "; ".join(f"{val} in {counts[val]} run(s) ({g.loc[labels.index[labels == val], 'source'].iloc[0]}…)"
                              for val in order)
            key = key if isinstance(key, tuple) else (key,)
            at = ", ".join(f"{b}={v:g}" if isinstance(v, float) else f"{b}={v}" for b, v in zip([*by, x], key))
            raise ParameterError(c, as_written(labels.unique()[:4]),
                                 f"one {c} among the runs of a point (they are averaged as repeats; at {at}: "
                                 f"{where}): split the curves with by={c!r} (--by {c}) or fit the files of one "
                                 f"workload")


#: fio engines whose I/O touches no storage (:data:`~nvmemodel.jobs.fiooptions.NO_STORAGE_ENGINES`, from fio's
#: engines/*.c) — no drive, link or host ceiling of a topology applies to their rates
NO_DEVICE_ENGINES = tuple(sorted(NO_STORAGE_ENGINES))


def check_reaches_device(table, what: str, topology=None) -> None:
    """Refuse to compare runs of an engine that does no I/O (:data:`NO_DEVICE_ENGINES`) with a topology's ceilings:
    the null engine's 8.7 M IOPS on 2 vCPUs was called "FALSIFIED: … 520 % above the model's ceiling … an assumption
    of the model is wrong there" (QA s27 I10) — the model was not wrong, nothing reached a drive."""
    if "ioengine" not in table:
        return
    rows = usable_rows(table)
    hit = rows[rows["ioengine"].astype(str).isin(NO_DEVICE_ENGINES)]
    if hit.empty:
        return
    paths = sorted({str(p).replace("\\", "/") for p in hit.get("source_path", [])})
    files = sorted({p.rsplit("/", 1)[-1] for p in paths})
    if len(files) < len(paths):  # r1.json in 1drives/ and in 2drives/: name them with their folder
        files = sorted("/".join(p.split("/")[-2:]) for p in paths)
    engine = str(hit["ioengine"].iloc[0])
    name = getattr(topology, "name", None) if not isinstance(topology, dict) else ", ".join(
        str(getattr(t, "name", k)) for k, t in topology.items())
    raise ParameterError(what, name or "a topology", f"runs whose I/O reached a device for its ceilings: "
                         f"{max(len(paths), 1)} run(s) used fio's {engine} "
                         f"engine, which moves no data to or from storage ({', '.join(files[:3])}{' …' if len(files) > 3 else ''}), so no "
                         f"drive, link or host ceiling applies to them (leave out the topology, or those runs)")


def one_in_flight(pts) -> dict | None:
    """``{engine, depth1, jobs}`` when every point of a curve kept one I/O in flight per job whatever its iodepth
    (a synchronous engine, or fio's ``iodepth_level`` ≥ :data:`DEPTH_ONE` % at depth 1 in every run); else None.
    ``engine`` is the synchronous engine's name ("" when only fio's depth record shows it), ``depth1`` the
    smallest share of I/O at depth 1 over the runs (NaN when fio's record is not at hand), ``jobs`` the
    (smallest, largest) number of jobs."""
    if len(pts) == 0 or "sync_engine" not in pts or "depth1" not in pts:
        return None
    sync = pts["sync_engine"].astype(str)
    d1 = pts["depth1"].to_numpy(float)
    inline = pts["inline"].to_numpy(float) if "inline" in pts else np.full(len(pts), np.nan)
    if not inline_curve(pts):
        inline = np.full(len(pts), np.nan)
    if not bool(((sync != "") | (d1 >= DEPTH_ONE) | (inline >= SUBMIT_SHARE)).all()):
        return None
    engines = set(sync[sync != ""])
    jobs = pts["jobs"].to_numpy(float) if "jobs" in pts else np.ones(len(pts))
    return {"engine": engines.pop() if len(engines) == 1 and (sync != "").all() else "",
            "depth1": float(np.min(d1)) if np.isfinite(d1).all() else np.nan,
            "jobs": (float(np.min(jobs)), float(np.max(jobs))),
            # each I/O completed inside its submission call (buffered libaio; submit_inline, round 23 ZA)
            "inline": float(np.min(inline)) if (sync == "").any() and (inline >= SUBMIT_SHARE).all() else np.nan}


def measured_points(table: pd.DataFrame, *, x: str, y: str, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """One measured point per run, then repeats at the same x combined.

    Parameters
    ----------
    table : pandas.DataFrame
        The tidy table of :func:`nvmemodel.read_results` (or a CSV/Parquet copy of it).
    x : str
        A column (``drives`` label, ``iodepth``, ``numjobs``, ``block_size_bytes`` …) or
        ``"outstanding"`` (iodepth × numjobs of the run). Labels that look like numbers become numbers.
    y : str
        A key of :data:`Y_COLUMNS` (``iops``, ``read_iops``, ``bytes_per_s``, ``clat_p99_s`` …), SI.
    by : str or list of str, optional
        Columns that split the points into curves.

    Returns
    -------
    pandas.DataFrame
        Columns ``*by, x, y, y_std, y_sem, n_runs, weight`` plus ``outstanding``, ``jobs`` (fio jobs of
        the run) and ``lat_mean_s`` (run means), ``little`` (IOPS × mean latency ÷ outstanding I/O computed
        per run, then averaged: the Little's-law check; NaN for y that is not a rate; for one direction of a
        mixed job X·R counts every direction's I/O, which share the queue: ``shared_queue``), ``cpus`` (fio's
        usr+sys CPU time of the run's jobs in CPUs, run mean; DiskSpd's/IOmeter's: the whole machine's; NaN where
        not reported), ``cpu_tool`` (the tools whose CPU accounting that is), ``sync_engine`` (a
        synchronous engine's name, else ""), ``depth1`` (fio's smallest share of I/O at depth 1, %, read from
        the result files along iodepth/outstanding; NaN where not at hand) and ``sources`` (';'-joined files).
        A run of a synchronous engine, or with ≥ 99 % of its I/O at depth 1, has one I/O in flight per job:
        its ``outstanding`` is its number of jobs, whatever iodepth says. Where every point has ≥ 2 runs, ``weight`` = √n / (CV · y) with CV the coefficient of
        variation pooled over all points (``attrs["pooled_cv"]``), else 1 (an unweighted fit);
        ``attrs["weighted"]`` says which.
    """
    import pandas as pd

    y = Y_ALIASES.get(y, y)
    if y not in Y_COLUMNS:
        raise ParameterError("y", y, f"one of {', '.join(Y_COLUMNS)}")
    by = [by] if isinstance(by, str) else list(by or [])
    if not hasattr(table, "columns") or not hasattr(table, "iloc"):
        raise ParameterError("table", type(table).__name__, "a results table (a pandas DataFrame from "
                             "nm.read_results), a result file or folder, or a list of them")
    if len(table) == 0:
        raise ParameterError("table", "0 rows", "a results table with at least one row")
    twice = [str(c) for c in table.columns[table.columns.duplicated()]]
    if twice:
        raise ParameterError("table", f"two columns named {twice[0]}", "one column of each name")
    if "source_path" not in table:
        # which rows make one run is not known: each row is one run — unless rows of several directions (a mixed
        # job's reads and writes) would then be taken for separate runs (QA s25 H32: was "run 0 of file 0")
        if "direction" in table and table["direction"].dropna().nunique() > 1:
            raise ParameterError("table", "no source_path column", "a source_path column saying which rows are "
                                 "one run (the table has rows of several directions: a run's reads and writes "
                                 "are added up, never taken as two runs)")
        table = table.assign(source_path=[f"<row {i} of the table>" for i in range(len(table))])
    for col in [*by, *([] if x in DERIVED_X else [x])]:
        if col not in table:
            import difflib

            known = [*map(str, table.columns), *DERIVED_X]
            close = difflib.get_close_matches(str(col), known, n=3, cutoff=0.6)
            raise ParameterError("x" if col == x else "by", col,
                                 "a column of the table" + (f" — did you mean {' or '.join(close)}? —" if close else "")
                                 + f" ({', '.join(map(str, table.columns))}) or {', '.join(DERIVED_X)}")
    col, direction, how, _unit = Y_COLUMNS[y]
    if col not in table:
        raise ParameterError("y", y, f"a table with a {col!r} column (this one has {', '.join(map(str, table.columns))})")
    df = usable_rows(table).copy()
    every = None
    if direction is not None:
        if _unit == "1/s" and "direction" in df and "iops" in df:
            # one direction of a mixed job shares the queue with the others: Little's law (X·R against the I/O in
            # flight) holds for all of the run's I/O, not for one direction's against the whole queue
            every = df.assign(group_id=df["group_id"].fillna(-1) if "group_id" in df else -1,
                              run=df["run"].fillna(0) if "run" in df else 0)
            for key in _RUN_KEYS:
                if key not in every:
                    every[key] = 0
        unified = _unified_only(df, direction)
        df = df[df["direction"] == direction]
    else:
        unified = ""
    if df.empty:
        raise ParameterError("y", y, "rows to measure it (no final, non-aggregate rows"
                             + (f" in direction {direction!r})" if direction else ")") + unified)
    if unified:
        import warnings

        warnings.warn(f"y={y!r}:" + unified.lstrip(";"), UserWarning, stacklevel=3)
    for key in _RUN_KEYS:
        if key not in df:
            df[key] = 0
    df["group_id"] = df["group_id"].fillna(-1)
    df["run"] = df["run"].fillna(0)  # tables written before the run column: one run per file
    value = pd.to_numeric(df[col], errors="coerce").astype(float)
    if value.isna().any():
        bad = df.loc[value.isna(), "source_path"].iloc[0]
        # where fio measured the other kind of latency percentile instead, say which (QA s27: --lat_percentiles=1
        # runs have total-latency percentiles, lat_p*, and no completion ones, clat_p*)
        other = ("lat_" + col[5:]) if col.startswith("clat_p") else ("c" + col) if col.startswith("lat_p") else ""
        hint = ""
        if other in df and df.loc[value.isna(), other].notna().all():
            n = int(df.loc[value.isna(), "source_path"].nunique())
            hint = (f"; {'it has' if n == 1 else f'those {n} runs have'} {other} instead (fio measured "
                    f"{'total' if other.startswith('lat_') else 'completion'}-latency percentiles there: "
                    f"y={other!r} fits them)")
        raise ParameterError(y, "NaN", f"a measured {col} in every row (missing in {bad}{hint})")
    if np.isinf(value).any():
        bad = df.loc[np.isinf(value), "source_path"].iloc[0]
        raise ParameterError(y, "inf", f"a finite measured {col} in every row (infinite in {bad})")
    if (value < 0).any():
        bad = df.loc[value < 0, "source_path"].iloc[0]
        raise ParameterError(y, float(value[value < 0].iloc[0]), f"a non-negative {col} (in {bad})")
    df["_v"] = value
    def column(name, default):
        if name not in df:
            return pd.Series(default, index=df.index, dtype=float)
        return pd.to_numeric(df[name], errors="coerce").astype(float)

    # each row's weight in a run's means is its I/O count; a table without fio's count (a published points table)
    # weighs a direction by its IOPS — the same within one run — not 1 each: a mixed run's mean latency is the
    # mean over all its I/O (issue 28, blind2: sn730 read-share, 2.50 ms unweighted against 2.10 ms, "Little's law
    # check 1.19" where every run's IOPS × latency summed over directions gives 1.00)
    df["_ios"] = column("ios", np.nan).fillna(column("iops", np.nan)).fillna(1.0)
    df["_lat"] = column("lat_mean_s", np.nan)
    iod, nj = column("iodepth", np.nan), column("numjobs", np.nan)
    df["_out"] = iod * nj.fillna(1.0)
    df["_cpu"] = column("cpu_usr", np.nan) + column("cpu_sys", np.nan)  # CPUs: fio per job, DiskSpd/IOmeter machine
    df["_nj"] = nj
    one_per_job = x in ("iodepth", "outstanding")
    depth1 = {p: _depth_one(p) for p in df["source_path"].unique()} if one_per_job else {}

    runs = _per_run(df, x=x, by=by, how=how, col=col, unit=_unit, direction=direction, every=every, depth1=depth1)
    if x in DERIVED_X:
        runs[x] = runs["outstanding"]
    runs[x] = _numeric(runs[x], x)
    if runs[x].isna().any():
        bad = runs.loc[runs[x].isna(), "source"].iloc[0]
        raise ParameterError("x", x, f"a value for every run ({bad} has none; give it with a label or path pattern)")
    if not pd.api.types.is_float_dtype(runs[x]):
        raise ParameterError("x", x, f"numbers (values like {runs[x].iloc[0]!r} are labels: use it as by=)")

    _one_workload(runs, x, by)
    keys = [*by, x]
    agg = {"y": ("y", "mean"), "y_std": ("y", lambda s: float(s.std(ddof=1)) if len(s) > 1 else np.nan),
               "n_runs": ("y", "size"), "outstanding": ("outstanding", "mean"), "lat_mean_s": ("lat_mean_s", "mean"),
               "little": ("little", "mean"), "little_lo": ("little", "min"), "little_hi": ("little", "max"),
               "jobs": ("jobs", "mean"), "cpus": ("cpus", "mean"),
               "shared_queue": ("shared_queue", "any"), "depth1": ("depth1", "min"), "inline": ("inline", "min"), "runtime_s": ("runtime_s", "min"),
               "sync_engine": ("sync_engine", lambda s: s.iloc[0] if s.nunique() == 1 else ""),
               "sources": ("source", lambda s: ";".join(s)),
               "y_direction": ("y_direction", lambda s: "+".join(sorted(set(s) - {""}))),
               "cpu_tool": ("cpu_tool", lambda s: "+".join(sorted({t for v in s for t in v.split("+") if t})))}
    for k in keys:
        agg.pop(k, None)
    pts = runs.groupby(keys, sort=True, dropna=False).agg(**agg).reset_index()
    pts["y_sem"] = pts["y_std"] / np.sqrt(pts["n_runs"])
    # Weights from a pooled coefficient of variation, not from each point's own spread: with 2–3 repeats a
    # point's sample sd is itself very uncertain (χ² with 1–2 df), and weighting by it lets the one point
    # whose repeats happened to agree dominate the fit. Throughput noise scales with the level, so a
    # common relative spread is the robust model: σ_i = CV · y_i / √n_i.
    rep = pts[(pts["n_runs"] >= 2) & (pts["y"] > 0)]
    weighted = bool((pts["n_runs"] >= 2).all() and (pts["y"] > 0).all() and (rep["y_std"] > 0).any())
    if weighted:
        cv = float(np.sqrt(np.sum((rep["n_runs"] - 1) * (rep["y_std"] / rep["y"]) ** 2) / np.sum(rep["n_runs"] - 1)))
        pts["weight"] = np.sqrt(pts["n_runs"]) / (cv * pts["y"])
    else:
        cv = np.nan
        pts["weight"] = 1.0
    pts.attrs.update(weighted=weighted, pooled_cv=cv, x=x, y=y, by=by, unit=Y_COLUMNS[y][3], left_out=unified)
    return pts


def _joined(gi, values, n: int, none=""):
    """Per run (``gi``: each row's run number 0..n-1), its distinct non-null ``values`` as text, sorted and
    '+'-joined (``none`` where it has none): the one value where a run has one, as almost every run does."""
    import pandas as pd

    s = pd.Series(values)
    keep = s.notna().to_numpy()
    pairs = pd.DataFrame({"g": gi[keep], "v": s[keep].astype(str).to_numpy()}).drop_duplicates()
    out = np.full(n, none, dtype=object)
    many = pairs["g"].duplicated(keep=False).to_numpy()
    out[pairs["g"].to_numpy()[~many]] = pairs["v"].to_numpy()[~many]
    for g, vals in pairs[many].groupby("g")["v"]:
        out[g] = "+".join(sorted(vals))
    return out


def _per_run(df, *, x: str, by: list, how: str, col: str, unit: str, direction, every, depth1: dict):
    """One row per run (``df`` grouped by :data:`_RUN_KEYS`, in sorted order): the run's y, its outstanding I/O,
    jobs, mean latency, Little's-law product, CPUs, workload columns and its ``by``/``x`` values — computed for
    all runs at once (a pass per run took 4 minutes on 100,000 runs)."""
    import pandas as pd

    gi = df.groupby(_RUN_KEYS, sort=True, dropna=False).ngroup().to_numpy()
    order = np.argsort(gi, kind="stable")
    df = df.iloc[order]
    gi = gi[order]
    n = int(gi[-1]) + 1
    starts = np.flatnonzero(np.r_[True, gi[1:] != gi[:-1]])
    counts = np.diff(np.r_[starts, len(gi)])
    head = df.iloc[starts]

    def per_run_sum(a):
        return np.bincount(gi, weights=a, minlength=n)

    def by_run(series):
        return series.groupby(gi, sort=True, dropna=False)

    w = df["_ios"].to_numpy(float)
    v = df["_v"].to_numpy(float)
    from_dir = np.full(n, "", dtype=object)
    if how == "sum":
        yv = np.add.reduceat(v, starts)
    elif how == "mean":
        ws = np.add.reduceat(w, starts)
        with np.errstate(invalid="ignore", divide="ignore"):
            yv = np.where(ws > 0, np.add.reduceat(v * w, starts) / ws, np.add.reduceat(v, starts) / counts)
    else:
        yv = np.maximum.reduceat(v, starts)
        # a percentile over a mixed job's directions: the larger direction's, not the percentile of all its I/O
        # (QA s25 H31) — which direction it came from is kept for the explanation
        if col.startswith(("clat_p", "lat_p")) and "direction" in df:
            several = by_run(df["direction"]).nunique().to_numpy() > 1
            pos = np.where(v == np.repeat(yv, counts), np.arange(len(v)), len(v))
            at = np.minimum.reduceat(pos, starts)
            dirs = df["direction"].to_numpy(object)
            from_dir[several] = [str(d) for d in dirs[at[several]]]
    # a job's rows share its queue depth: each job once
    first = (~pd.DataFrame({"g": gi, "j": df["job_name"].to_numpy()}).duplicated().to_numpy() if "job_name" in df
             else np.r_[True, gi[1:] != gi[:-1]])
    out = pd.Series(df["_out"].to_numpy(float)[first]).groupby(gi[first]).sum(min_count=1).to_numpy()
    jobs = np.bincount(gi[first], weights=df["_nj"].fillna(1.0).to_numpy(float)[first], minlength=n)
    sync = np.full(n, "", dtype=object)
    if "ioengine" in df:
        known = df["ioengine"].notna().to_numpy()
        eng = pd.Series(df["ioengine"][known].astype(str).to_numpy())
        g_eng = eng.groupby(gi[known])
        one = g_eng.nunique()
        name = g_eng.first()
        held = pd.Series(synchronous(df)[known].to_numpy()).groupby(gi[known]).all()  # no run queued I/O
        hit = one.index[(one == 1).to_numpy() & name.isin(SYNC_ENGINES).to_numpy() & held.to_numpy()]
        sync[hit] = name[hit].to_numpy()
    d1 = np.array([depth1.get(p, np.nan) for p in head["source_path"]], dtype=float)
    out = np.where((sync != "") | (d1 >= DEPTH_ONE), jobs, out)  # one I/O in flight per job (fio's own record)
    lat = df["_lat"].to_numpy(float)
    ok = np.isfinite(lat)
    w_ok = per_run_sum(np.where(ok, w, 0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        lat_run = np.where((per_run_sum(ok) > 0) & (w_ok > 0), per_run_sum(np.where(ok, lat * w, 0.0)) / w_ok, np.nan)
    x_r, shared = yv * lat_run, np.zeros(n, dtype=bool)
    if every is not None:
        e_gi = every.groupby(_RUN_KEYS, sort=False, dropna=False).ngroup().to_numpy()
        m = int(e_gi.max()) + 1
        e_first = np.flatnonzero(~pd.Series(e_gi).duplicated().to_numpy())
        index = {tuple(k): e_gi[i] for i, k in zip(e_first, every[_RUN_KEYS].to_numpy(object)[e_first])}
        a_iops = pd.to_numeric(every["iops"], errors="coerce").to_numpy(float)
        live = a_iops > 0
        e_shared = np.bincount(e_gi, weights=(every["direction"] != direction).to_numpy() & live, minlength=m) > 0
        has_lat = "lat_mean_s" in every
        if has_lat:
            a_lat = pd.to_numeric(every["lat_mean_s"], errors="coerce").to_numpy(float)
            e_ok = np.bincount(e_gi, weights=live & ~np.isfinite(a_lat), minlength=m) == 0
            with np.errstate(invalid="ignore"):
                e_xr = np.bincount(e_gi, weights=np.where(live, a_iops * a_lat, 0.0), minlength=m)
        for i, k in enumerate(head[_RUN_KEYS].to_numpy(object)):
            j = index.get(tuple(k))
            if j is None:
                continue
            shared[i] = e_shared[j]
            if shared[i] and has_lat and e_ok[j]:
                x_r[i] = e_xr[j]  # every direction's I/O in flight
    with np.errstate(invalid="ignore", divide="ignore"):
        little = np.where(out > 0, x_r / out, np.nan) if unit == "1/s" else np.full(n, np.nan)
    runs = {"y": yv, "source": [str(p) for p in head["source_path"]], "outstanding": out, "lat_mean_s": lat_run,
            # Little's law per run (X·R/N): a mean of products, not a product of means over repeats
            "little": little, "shared_queue": shared, "sync_engine": sync, "depth1": d1, "jobs": jobs,
            "inline": run_inline_share(df, gi, n, first),
            "cpus": _cpus_per_run(df, gi, n, starts, counts), "y_direction": from_dir,
            "runtime_s": (by_run(pd.to_numeric(df["runtime_s"], errors="coerce").astype(float)).min().to_numpy()
                          if "runtime_s" in df else np.full(n, np.nan)),
            "cpu_tool": _joined(gi, df["tool"], n) if "tool" in df else np.full(n, "", dtype=object)}
    for c in _WORKLOAD:
        if c in df and c not in by and c != x:
            values = workload_values(df[c], c)
            if c in _NUMERIC_WORKLOAD:
                known = values.notna().to_numpy()
                pairs = pd.DataFrame({"g": gi[known], "v": values[known].to_numpy()}).drop_duplicates()
                runs[f"_wl_{c}"] = (pairs["v"].astype(float).groupby(pairs["g"]).mean()
                                    .reindex(range(n)).to_numpy(float))
            else:
                runs[f"_wl_{c}"] = _joined(gi, values, n, none=np.nan)
    own = [*by, *([] if x in DERIVED_X else [x])]
    several = {c: by_run(df[c]).nunique().to_numpy() > 1 for c in own}
    bad = [int(np.argmax(s)) for s in several.values() if s.any()]
    if bad:  # the first run (in order) with several values of one of them, and its first such column
        i = min(bad)
        c = next(c for c in own if several[c][i])
        _several_values(df.iloc[starts[i]:starts[i] + counts[i]], c, head[_RUN_KEYS].iloc[i].tolist())
    for c in own:
        first = by_run(df[c]).first().reindex(range(n)).to_numpy(object)
        runs[c] = pd.Series([np.nan if v is pd.NA or v is None else v for v in first])  # (Int64's NA: NaN)
    return pd.DataFrame(runs)


def _several_values(g, c: str, key) -> None:
    """Refuse a run (rows ``g``) that holds several values of ``c`` (an x or a by): which one is its point?"""
    vals = g[c].dropna().unique()
    split = ""
    if "direction" in g and g.groupby("direction")[c].nunique().max() == 1:  # --bs=4k,64k: per direction
        split = ": " + ", ".join(f"{d}s at {as_written(v.dropna().unique())}"
                                 for d, v in g.groupby("direction")[c]) + \
            " (fit one direction: y='read_…' or y='write_…')"
    if c == "time_s":  # fio's logs (read_fio_logs): the time within one run, not a load across runs
        split = (": that is a time series within one run (fio's logs), not a scaling curve across runs; "
                 "draw it with nvmemodel plot --logs, or check steady state with fio's ss= options "
                 "(docs/compare.md)")
    raise ParameterError(c, as_written(vals[:3]), f"one value per run (run {key[1]} of file {key[0]} "
                                                  f"has several{split})")


def _cpus_per_run(df, gi, n: int, starts, counts):
    """:func:`_cpus` of every run at once."""
    import pandas as pd

    cpu = df["_cpu"].to_numpy(float)
    fin = np.isfinite(cpu)
    out = np.full(n, np.nan)
    any_cpu = np.bincount(gi, weights=fin, minlength=n) > 0
    machine = np.zeros(n, dtype=bool)
    if "tool" in df:  # DiskSpd/IOmeter: the whole machine's CPUs on every row of a run: taken once (QA s25 H25)
        machine = np.bincount(gi, weights=(df["tool"].astype(str) != "fio").to_numpy(), minlength=n) > 0
        top = np.fmax.reduceat(cpu, starts)
        out[machine & any_cpu] = top[machine & any_cpu]
    # one row per job and direction: each job once
    keys = [k for k in ("job_name", "job_index") if k in df]
    sel = (~pd.DataFrame({"g": gi, **{k: df[k].to_numpy() for k in keys}}).duplicated().to_numpy() if keys
           else np.r_[True, gi[1:] != gi[:-1]])
    sel |= np.repeat(counts == 1, counts)
    g_sel = gi[sel]
    n_sel = np.bincount(g_sel, minlength=n)
    c_sel, nj_sel = cpu[sel], df["_nj"].to_numpy(float)[sel]
    total = np.bincount(g_sel, weights=np.where(np.isfinite(c_sel), c_sel, 0.0), minlength=n)
    lone = np.zeros(n, dtype=bool)
    lone_val = np.full(n, np.nan)
    one = n_sel[g_sel] == 1
    lone[g_sel[one]] = np.isfinite(nj_sel[one]) & (nj_sel[one] > 1)
    lone_val[g_sel[one]] = c_sel[one] * nj_sel[one]
    rest = any_cpu & ~machine
    out[rest] = np.where(lone, lone_val, total)[rest]
    return out


def _unified_only(df, direction: str) -> str:
    """'; 3 runs have no read rows: … (mixed_qd1.json, …)' for the runs whose reads and writes fio reported as one
    ``mixed`` direction (``--unified_rw_reporting=mixed``): one direction of them is not measured, and they are left
    out of a fit of it — said, not dropped without a word (QA s27 I6). "" when there are none."""
    if "direction" not in df or "source_path" not in df:
        return ""
    dirs = df.groupby(df["source_path"].astype(str))["direction"].agg(lambda d: set(d.dropna()))
    only = sorted(p for p, d in dirs.items() if "mixed" in d and direction not in d)
    if not only:
        return ""
    names = [p.replace("\\", "/").rsplit("/", 1)[-1] for p in only]
    return (f"; {len(only)} run{'s' if len(only) != 1 else ''} report reads and writes as one 'mixed' direction "
            f"(fio's unified_rw_reporting=mixed) and have no {direction} rows, so {'they are' if len(only) != 1 else 'it is'}"
            f" left out ({', '.join(names[:3])}{' …' if len(names) > 3 else ''}; y='iops' or 'bytes_per_s' fits them)")


def recorded_workload(points_table, workload=None):
    """The workload measured: given, else the table's most common pattern, block size, QD, jobs and I/O stack (the
    fit's ceiling model and a chart's model overlay both evaluate it: one reading of a table, QA s25 H9)."""
    import nvmemodel as nm

    if workload is not None:
        return workload
    t = points_table

    def mode(col, default):
        if col not in t or t[col].dropna().empty:
            return default
        return t[col].dropna().mode().iloc[0]

    pattern = str(mode("pattern", "randread"))
    if pattern not in ("read", "write", "randread", "randwrite", "rw", "readwrite", "randrw"):
        pattern = "randread"
    rf = mode("read_fraction", None)
    kwargs = {"pattern": pattern, "block_size": float(mode("block_size_bytes", 4096.0)),
              "iodepth": int(mode("iodepth", 32)), "numjobs": int(mode("numjobs", 1))}
    if pattern in ("rw", "readwrite", "randrw") and rf is not None:
        kwargs["read_fraction"] = float(rf)
    engine = mode("ioengine", None)
    if engine is not None:  # an engine that is one of the model's I/O stacks (io_uring runs were fitted as libaio)
        from ..topology.host import IoStack

        try:
            kwargs["io_stack"] = IoStack.parse(engine)
        except ParameterError:
            pass  # psync, null, …: not a stack of the model; the workload's default stays (give workload=)
    return nm.Workload(**kwargs)
