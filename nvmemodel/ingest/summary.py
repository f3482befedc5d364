"""Measured results summarised against the swept variable: one row per (x, hue, direction).

The results table has one row per (file, job, direction). A *run* is one report of one file
(``source_path``, ``snapshot``); :func:`summarize` first adds up each run's jobs (IOPS and
bytes/s add, mean latencies are weighted by each job's I/O count, percentiles take the
slowest job's — a bound, since percentiles of several jobs do not combine exactly), then
averages the runs that share an ``x`` (and ``hue``) value: repeats give a mean, a standard
deviation and a count. Only final reports of jobs that ran without error are used, and never
rows that sum other rows (``is_aggregate``).

For runs with more than one direction (a read/write mix) a ``total`` direction is added:
IOPS and bytes/s summed, mean latencies weighted by I/O count (none for percentiles and
maxima, which do not combine).

Little's law as a check (``little_iops``): a closed loop of N outstanding I/Os with mean
latency R completes N / R I/O per second; N = Σ iodepth × jobs over the run's jobs (fio
``iodepth`` is per job), R the run's I/O-weighted mean total latency (``lat_mean_s``, else
``clat_mean_s``). Measured IOPS well below it means the queue was not kept full (CPU or
submission bound); above it, the latency or the depth is not what was assumed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..errors import IngestError
from ..jobs.fiooptions import SYNC_ENGINES

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DEFAULT_AS_UNSET", "NOT_SET", "NUMERIC_WORKLOAD", "QUANTITIES", "TOLERANCE", "WORKLOAD", "X_VARIES", "differing", "failed",
           "summarize", "usable_rows", "workload_values"]

#: y quantities: column → (axis label, unit for the tick formatter, how runs combine their jobs)
QUANTITIES = {
    "iops": ("IOPS", "", "sum"),
    "bw_bytes_per_s": ("bandwidth", "B/s", "sum"),
    "lat_mean_s": ("mean total latency", "s", "mean"),
    "clat_mean_s": ("mean completion latency", "s", "mean"),
    "slat_mean_s": ("mean submission latency", "s", "mean"),
    "lat_max_s": ("maximum latency", "s", "max"),
    "clat_p50_s": ("p50 completion latency", "s", "max"),
    "clat_p90_s": ("p90 completion latency", "s", "max"),
    "clat_p95_s": ("p95 completion latency", "s", "max"),
    "clat_p99_s": ("p99 completion latency", "s", "max"),
    "clat_p99_9_s": ("p99.9 completion latency", "s", "max"),
    "clat_p99_99_s": ("p99.99 completion latency", "s", "max"),
    "lat_p50_s": ("p50 total latency", "s", "max"),
    "lat_p90_s": ("p90 total latency", "s", "max"),
    "lat_p95_s": ("p95 total latency", "s", "max"),
    "lat_p99_s": ("p99 total latency", "s", "max"),
    "lat_p99_9_s": ("p99.9 total latency", "s", "max"),
    "lat_p99_99_s": ("p99.99 total latency", "s", "max"),
    "cpu_usr": ("user CPU (fraction of one CPU)", "", "sum"),
    "cpu_sys": ("system CPU (fraction of one CPU)", "", "sum"),
}
ALIASES = {"latency": "clat_p99_s", "p99": "clat_p99_s", "bw": "bw_bytes_per_s", "bandwidth": "bw_bytes_per_s",
           "lat": "lat_mean_s", "p50": "clat_p50_s", "p99.9": "clat_p99_9_s"}
_DERIVED_X = {"outstanding": "iodepth × jobs of the run (outstanding I/Os)"}

#: columns that define the workload measured: runs averaged as repeats of one point (of a chart or a fit's curve)
#: hold one value of each that is not the point's x or curve (hue / by)
# the options that pace a run (fio's --rate_iops, --rate, --thinktime) set its rate as much as iodepth does: runs at
# different paces are not repeats of one point. Each of the job options read since (docs/ingest.md) changes what a
# run measures:
#   fsync_every, fdatasync_every: a sync call every N writes puts the device's flush in the loop (7.4 ms a call
#       beside 3.7 us writes in docs/ingest.md's psync example)
#   hipri: polled completions trade a CPU spinning for the interrupt's latency
#   sqthread_poll: a kernel thread submits, so the job's own CPU and submission latency are not the same quantity
#   iodepth_low, iodepth_batch, iodepth_batch_complete: how full fio keeps the queue and how many I/Os one
#       system call carries (the submission cost per I/O)
#   cpus_allowed: which CPUs (and NUMA node) run the jobs, which bounds a CPU-bound run
WORKLOAD = ("pattern", "read_fraction", "block_size_bytes", "iodepth", "numjobs", "ioengine", "direct", "rate_iops",
            "rate_bytes_per_s", "thinktime_s", "fsync_every", "fdatasync_every", "hipri", "sqthread_poll",
            "iodepth_low", "iodepth_batch", "iodepth_batch_complete", "cpus_allowed")
NUMERIC_WORKLOAD = ("read_fraction", "block_size_bytes", "iodepth", "numjobs", "direct", "rate_iops",
                    "rate_bytes_per_s", "thinktime_s", "fsync_every", "fdatasync_every", "hipri", "sqthread_poll",
                    "iodepth_low", "iodepth_batch", "iodepth_batch_complete")
#: a value that is fio's own default where the table leaves the option unset (NA): a run that states it ran as one
#: that does not, so it is compared as "not set" (fio options.c at axboe/fio f5344384: fsync, fdatasync and thinktime
#: have ``.def = "0"``). Not rate_iops / rate (0 is also no cap, but kept as before) and not hipri / sqthread_poll:
#: their default 0 (FIO_OPT_STR_SET, no .def, engines/io_uring.c) is already in the column wherever the output can
#: prove it, and their NA is "cannot say" (fio's JSON drops a bare --hipri), which may be 1.
DEFAULT_AS_UNSET = {"thinktime_s": 0.0, "fsync_every": 0, "fdatasync_every": 0}
#: how far a measured value may differ between runs of one workload (ratio max/min): the block size of a
#: bssplit/bsrange job is the measured mean I/O size, which moves by a few % from run to run (4k/50:64k/50:
#: 20.7–21.2 KiB); configured sizes that differ by less than 25 % are not a sweep anyone runs
TOLERANCE = {"block_size_bytes": 1.25, "read_fraction": 1.05}
#: how a run without a value of a :data:`WORKLOAD` column is named where runs differ: the option was not set (no
#: ``--rate_iops``: unpaced), or the form did not record it; either way not a repeat of a run that has one
NOT_SET = "not set"
#: x axes that vary these columns themselves (fio fixes an unset or too high iodepth_low / iodepth_batch up to
#: iodepth, init.c fixup_options: they follow iodepth along outstanding I/Os)
X_VARIES = {"outstanding": ("iodepth", "numjobs", "iodepth_low", "iodepth_batch")}


def workload_values(values, column: str):
    """The values of a :data:`WORKLOAD` column as runs are compared: fio's default (:data:`DEFAULT_AS_UNSET`) as
    not set (NA)."""
    default = DEFAULT_AS_UNSET.get(column)
    if default is None:
        return values
    import pandas as pd

    return values.mask(pd.to_numeric(values, errors="coerce").eq(default).fillna(False).astype(bool))


def differing(values, column: str) -> bool:
    """Whether the runs' ``values`` of a :data:`WORKLOAD` column are different workloads (beyond
    :data:`TOLERANCE`)."""
    if column in NUMERIC_WORKLOAD:
        v = values.astype(float)
        return float(v.max()) > float(v.min()) * TOLERANCE.get(column, 1.0) + 1e-12
    return values.nunique() > 1


def resolve_y(y: str) -> str:
    name = ALIASES.get(y, y)
    if name not in QUANTITIES:
        raise IngestError("(plot)", f"y={y!r}: expected one of {', '.join([*QUANTITIES, *ALIASES])}")
    return name


def summed_rows(table):
    """Per row, whether it is an aggregate to leave out: marked ``is_aggregate`` AND its report (``source_path``,
    ``snapshot``, ``run``; the whole table where none is given) holds a row that is not one — the rows it sums, which
    are the measurement. A report whose every row is a sum (several hosts' or VMs' rates added up by hand, their parts
    not in the table) keeps its sums: they are its only measurement (set after round 28 was read, LA: two VMs' diskspd
    totals refused as "only aggregates of other rows"). fio's All-clients rows, its ``mixed`` row beside read and
    write, IOmeter's ALL beside its DISK rows have their parts in the same report and stay out."""
    import numpy as np

    if "is_aggregate" not in table:
        return np.zeros(len(table), dtype=bool)
    agg = table["is_aggregate"].astype(object).fillna(False).astype(bool).to_numpy()
    if not agg.any():
        return agg
    keys = [k for k in ("source_path", "snapshot", "run") if k in table]
    if not keys:
        return agg & bool((~agg).any())
    report = table[keys].astype(object).fillna("").astype(str).agg("|".join, axis=1).to_numpy()
    with_parts = set(report[~agg])
    return agg & np.array([r in with_parts for r in report], dtype=bool)


def usable_rows(table):
    """The rows that are measurements: final reports, not aggregates of other rows, not a write
    job's verify phase, jobs without an error.

    Shared by the charts here and the fits (:func:`nvmemodel.fitting.curves.measured_points`).
    """
    import numpy as np

    keep = np.ones(len(table), dtype=bool)
    if "final" in table:
        # object first: a transcribed table's empty column is float, and pandas refuses a bool fill there
        keep &= table["final"].astype(object).fillna(True).to_numpy(dtype=bool)
    keep &= ~summed_rows(table)  # sums of other rows of their report (a report of sums only keeps them: round 28)
    if "direction" in table:  # a write job's verify phase ran after its writes: not the workload
        keep &= (table["direction"] != "verify").fillna(True).to_numpy(dtype=bool)
    if "error" in table:  # a failed job (fio's "error" field) is not a measurement
        keep &= ~failed(table).to_numpy(dtype=bool)
    return table[keep]


def failed(table):
    """Rows of jobs that failed: fio's ``error`` set (not empty, not 0)."""
    err = table["error"]
    return err.notna() & (err.astype(str).str.strip() != "") & (err.astype(str) != "0")


def _runs(table, x: str, hue: str | None, y: str):
    """One row per (run, direction): y, x, hue, ios, outstanding I/Os and the Little's-law rate."""
    import numpy as np
    import pandas as pd

    rows = usable_rows(table)
    rows = rows[rows["direction"].notna()].copy()
    if rows.empty:
        raise IngestError("(plot)", "no final, error-free rows to summarise")
    jobs = np.where(rows["level"].eq("group").fillna(False), rows["numjobs"].astype("float64"), 1.0)
    # a synchronous engine keeps one I/O in flight per job whatever iodepth says (QA round 4, F8)
    depth = rows["iodepth"].astype("float64").where(~rows["ioengine"].isin(list(SYNC_ENGINES)), 1.0)
    rows["_n"] = depth * jobs
    rows["_lat"] = rows["lat_mean_s"].where(rows["lat_mean_s"].notna(), rows["clat_mean_s"])
    # one run: a report of a file, and within it each appended run and each fio group (stonewalled jobs report as
    # groups: a QD sweep in one job file) — the fit's points use the same key (QA s25 H29)
    rows["_run"] = rows["source_path"].astype(str) + "#" + rows["snapshot"].astype("Int64").astype(str)
    for key in ("run", "group_id"):
        if key in rows:
            rows["_run"] = rows["_run"] + "/" + rows[key].astype("Int64").astype(str).fillna("-")  # NA: no group
    if x == "outstanding":
        per_job = rows.drop_duplicates(["_run", "job_index"])
        # an unknown depth (terse output has none) leaves the run's total unknown, never 0 (QA s25, H3)
        rows["outstanding"] = rows["_run"].map(per_job.groupby("_run")["_n"].agg(lambda s: s.sum(skipna=False)))
    for col in (x, hue):
        if col is not None and col not in rows:
            raise IngestError("(plot)", f"column {col!r} is not in the table (columns: {', '.join(rows.columns)})")
    how = QUANTITIES[y][2]
    out = []
    for (run, direction), g in rows.groupby(["_run", "direction"], sort=False):
        w = g["ios"].to_numpy(dtype=float)
        values = g[y].to_numpy(dtype=float)
        if how == "sum":
            value = values.sum() if not np.isnan(values).all() else math.nan
        elif how == "max":
            value = np.nanmax(values) if not np.isnan(values).all() else math.nan
        else:
            ok = ~np.isnan(values) & (w > 0)
            value = float((values[ok] * w[ok]).sum() / w[ok].sum()) if ok.any() else math.nan
        lat_ok = g["_lat"].notna() & (g["ios"] > 0)
        lat = float((g["_lat"][lat_ok] * g["ios"][lat_ok]).sum() / g["ios"][lat_ok].sum()) if lat_ok.any() else math.nan
        wl = {f"_wl_{c}": ("+".join(sorted(map(str, v.dropna().unique()))) if c not in NUMERIC_WORKLOAD
                            else float(v.astype(float).mean()) if v.notna().any() else math.nan)
              for c in WORKLOAD if c in g and c not in (x, hue) and c not in X_VARIES.get(x, ())
              for v in (workload_values(g[c], c),)}
        out.append({**wl, "_run": run, "direction": direction, "value": value, "ios": float(np.nansum(w)),
                    "io_bytes": float(g["io_bytes"].sum()), "lat": lat, "x": g[x].iloc[0],
                    "hue": g[hue].iloc[0] if hue else None, "n_out": g.drop_duplicates("job_index")["_n"].sum(skipna=False),
                    "mixed_x": g[x].nunique(dropna=False) > 1})
    runs = pd.DataFrame(out)
    bad = runs[runs["mixed_x"]]
    if not bad.empty:
        raise IngestError(bad["_run"].iloc[0].rsplit("#", 1)[0], f"the jobs of one report have different {x} "
                          "values: summarise per job or label the file")
    # a read/write mix: add the run's total
    totals = []
    for run, g in runs.groupby("_run", sort=False):
        # the larger of two p99s is not the p99 of all I/Os: no total; nor where the directions' x differ (reads
        # of 4 KiB, writes of 64 KiB along block size: the total has no one x, QA s25 H15)
        if len(g) > 1 and how != "max" and g["x"].nunique(dropna=False) == 1:
            t = g.iloc[0].to_dict() | {"direction": "total", "ios": g["ios"].sum(), "io_bytes": g["io_bytes"].sum()}
            ok = g["lat"].notna() & (g["ios"] > 0)
            t["lat"] = (g["lat"][ok] * g["ios"][ok]).sum() / g["ios"][ok].sum() if ok.any() else math.nan
            if how == "sum":
                t["value"] = g["value"].sum()
            elif how == "max":
                t["value"] = g["value"].max()
            else:
                t["value"] = (g["value"][ok] * g["ios"][ok]).sum() / g["ios"][ok].sum() if ok.any() else math.nan
            totals.append(t)
    directions = runs.groupby("_run")["direction"].size()
    if totals:  # a total line is drawn: a run of one direction (a read_fraction 0 or 1 of a mix sweep) is its own
        # total, measured as it is (QA7 O3: the line stopped at the first and last mixes)
        totals += [r | {"direction": "total"} for r in runs[runs["_run"].map(directions) == 1].to_dict("records")]
    runs = pd.concat([runs, pd.DataFrame(totals)], ignore_index=True) if totals else runs
    # Little's law, only where the run's I/Os all belong to this row (one direction or the total)
    single = runs["_run"].map(directions) == 1
    whole = single | runs["direction"].eq("total")
    little = runs["n_out"] / runs["lat"]
    if y == "bw_bytes_per_s":
        little = little * runs["io_bytes"] / runs["ios"]
    runs["little"] = little.where(whole & (y in ("iops", "bw_bytes_per_s")))
    return runs


def _one_workload(runs, x: str, hue: str | None, keys: list[str]) -> None:
    """Refuse a point whose runs measured different workloads (iodepth 1, 4, 16, 64 at one numjobs): averaged as
    repeats, their mean was never measured and their spread is a sweep's, not noise — the fit refuses the same
    runs (QA s25, H15)."""
    for key, g in runs.groupby(keys, sort=False, dropna=False):
        for col in (c for c in runs.columns if c.startswith("_wl_")):
            vals = g[col].dropna()
            # a run without a value (NaN: not set, or not recorded) is not a repeat of one with a value (an unpaced
            # run and one at rate_iops=5000)
            unset = len(vals) < len(g)
            if vals.empty or not (unset or differing(vals, col[4:])):
                continue
            c = col[4:]
            shown = sorted({f"{v:g}" if isinstance(v, float) else str(v) for v in vals},
                           key=lambda t: (len(t), t)) + ([NOT_SET] if unset else [])
            at = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in zip([hue or "hue", x, "direction"][-len(keys):], key))
            raise IngestError(str(g["_run"].iloc[0]).rsplit("#", 1)[0],
                              f"the runs at {at} measured different {c} ({', '.join(shown[:6])}): they are not "
                              f"repeats of one point; separate them as curves (hue={c!r}, --hue {c}) or select one "
                              f"{c}")


def summarize(table: pd.DataFrame, *, x: str, y: str = "iops", hue: str | None = None) -> pd.DataFrame:
    """Summarise a results table against ``x`` (see the module docstring).

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`~nvmemodel.ingest.read_results` (any label columns included).
    x : str
        The swept variable: any column (``iodepth``, ``numjobs``, ``block_size_bytes``, a label
        such as ``drives``) or ``"outstanding"`` (iodepth × jobs of the run).
    y : str
        A column of :data:`QUANTITIES` (SI units) or an alias: ``latency``/``p99`` →
        ``clat_p99_s``, ``bw`` → ``bw_bytes_per_s``.
    hue : str, optional
        A column that separates curves (a label, the dataset, ``pattern``, …).

    Returns
    -------
    pandas.DataFrame
        Columns ``hue`` (if given), ``x``, ``direction``, ``mean``, ``std`` (NaN for one run),
        ``n`` (runs), ``min``, ``max``, ``little`` (mean Little's-law rate in y's unit, for
        IOPS and bytes/s), sorted by hue, x and direction. Named with the real column names.
    """
    y = resolve_y(y)
    runs = _runs(table, x, hue, y)
    unknown = runs["x"].isna()
    if unknown.any():  # e.g. terse output never says iodepth: not a point at "NaN", a label to add
        import warnings

        from ..errors import IngestWarning

        missing = runs.loc[unknown, "_run"].str.rsplit("#", n=1).str[0].unique()
        warnings.warn(f"{len(missing)} file(s) do not say their {x} and are left out (give it as a label, "
                      f"e.g. a path pattern): {', '.join(missing[:3])}{' …' if len(missing) > 3 else ''}",
                      IngestWarning, stacklevel=2)
        runs = runs[~unknown]
        if runs.empty:
            raise IngestError("(plot)", f"no run says its {x}: add it as a label (sidecar or path pattern)")
    keys = (["hue"] if hue else []) + ["x", "direction"]
    _one_workload(runs, x, hue, keys)
    g = runs.groupby(keys, sort=True, dropna=False)
    out = g["value"].agg(["mean", "std", "count", "min", "max"]).rename(columns={"count": "n"})
    out["little"] = g["little"].mean()
    out = out.reset_index().rename(columns={"x": x, "hue": hue} if hue else {"x": x})
    out.attrs["runs"] = int(runs["_run"].nunique())
    return out
