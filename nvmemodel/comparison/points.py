"""Two result sets as runs of matched points: what each run measured, keyed by its workload.

A *point* is one workload — the columns that define what was measured,
:data:`nvmemodel.ingest.summary.WORKLOAD` (pattern, read share, block size, iodepth, numjobs, engine,
O_DIRECT, the pacing options), the number of targets, any label columns asked for (``by``) — and one
direction. Its runs on each side are combined from their jobs as the charts and the fits combine them
(:func:`nvmemodel.ingest.summary._runs`: IOPS and bytes/s summed, mean latency weighted by I/Os,
percentiles the slowest job's). Numeric workload values that differ by less than the ingest's
:data:`~nvmemodel.ingest.summary.TOLERANCE` (the measured mean size of a ``bssplit`` job moves by a few %
from run to run) are one value.
"""

from __future__ import annotations

import math

from ..errors import ParameterError
from ..ingest.summary import NUMERIC_WORKLOAD, TOLERANCE, WORKLOAD, workload_values

__all__ = ["METRICS", "describe", "load", "match_columns", "not_steady_points", "point_keys", "runs_by_point",
           "varying_within"]

#: metric name → (the table's columns, first one measured, and whether larger is better)
METRICS = {
    "iops": (("iops",), True),
    "bw": (("bw_bytes_per_s",), True),
    "lat_mean": (("lat_mean_s", "clat_mean_s"), False),
    "p99": (("clat_p99_s", "lat_p99_s"), False),
}
#: besides the workload, a run's number of targets tells points apart (1 drive is not 4)
EXTRA = ("targets",)


def load(side, what: str, **options):
    """A results table from ``side``: a DataFrame, a path (file, folder or a ``.csv``/``.parquet`` table written
    by ``nvmemodel ingest -o``) or a list of paths; ``options`` go to :func:`~nvmemodel.ingest.read_results`."""
    import pandas as pd

    if isinstance(side, pd.DataFrame):
        return side
    from ..ingest import read_results
    from ..ingest.iometer import is_iometer_file

    paths = [side] if isinstance(side, (str, bytes)) or hasattr(side, "__fspath__") else list(side)
    if not paths:
        raise ParameterError(what, paths, "result files, folders or a table (none given)")
    tables = [str(p).lower().endswith((".csv", ".parquet")) and not is_iometer_file(p) for p in paths]
    if any(tables) and not all(tables):
        raise ParameterError(what, ", ".join(map(str, paths)), "result files and folders, or .csv/.parquet tables "
                                                               "(not both)")
    if all(tables):
        from ..userfiles import read_table

        given = [k for k, v in options.items() if v]
        if given:
            raise ParameterError(given[0], options[given[0]], "result files (a table already holds its labels)")
        return pd.concat([read_table(p, what=what) for p in paths], ignore_index=True)
    table = read_results(paths, **options)
    if table.empty:
        skipped = table.attrs.get("skipped", [])
        why = "; ".join(f"{s.path}: {s.reason}" for s in skipped[:3]) if skipped else "no files found"
        raise ParameterError(what, ", ".join(map(str, paths)), f"at least one readable benchmark result ({why})")
    return table


def match_columns(tables, *, by=(), ignore=()) -> list[str]:
    """The columns that key a point: the workload's, ``targets``, and ``by``, less ``ignore``; only those some
    table has (an IOmeter table has no ``ioengine``)."""
    wanted = [c for c in (*WORKLOAD, *EXTRA, *by) if c not in ignore]
    for c in (*by, *ignore):
        if not any(c in t for t in tables):
            name = "by" if c in by else "ignore"
            raise ParameterError(name, c, f"a column of the results (workload columns: {', '.join(WORKLOAD)}; or a "
                                          "label)")
    return [c for c in dict.fromkeys(wanted) if any(c in t and t[c].notna().any() for t in tables)]


def point_keys(tables, columns):
    """Each table's rows keyed by their point: a string column per table, the same text for the same point."""
    import pandas as pd

    parts = {}
    for c in columns:
        if c in NUMERIC_WORKLOAD or c in EXTRA:
            seen = set()
            for t in tables:
                if c in t:
                    seen |= {float(v) for v in pd.to_numeric(t[c], errors="coerce").dropna().unique()}
            tol = TOLERANCE.get(c, 1.0)
            reps, start = {}, None
            for v in sorted(seen):
                if start is None or v > start * tol + 1e-12:
                    start = v
                reps[v] = start
            parts[c] = ("num", reps)
        else:
            parts[c] = ("text", None)
    keys = []
    for t in tables:
        key = pd.Series([""] * len(t), index=t.index, dtype=object)
        for c in columns:
            kind, reps = parts[c]
            if c not in t:
                text = pd.Series(["NA"] * len(t), index=t.index)
            elif kind == "num":  # (fsync=0 is fio's default: the point of a run that does not state it)
                v = pd.to_numeric(workload_values(t[c], c), errors="coerce").astype(float)
                text = v.map(lambda x: "NA" if x != x else f"{reps[x]:.10g}")
            else:
                text = t[c].astype(object).where(t[c].notna(), "NA").astype(str)
            key = key + "|" + c + "=" + text
        keys.append(key.str[1:])
    return keys


def describe(key: str) -> dict:
    """A point's key as {column: value} (numbers as floats, NA as None)."""
    out: dict[str, float | str | None] = {}
    for part in key.split("|"):
        name, _, text = part.partition("=")
        if text == "NA":
            out[name] = None
        elif name in NUMERIC_WORKLOAD or name in EXTRA:
            out[name] = float(text)
        else:
            out[name] = text
    return out


def runs_by_point(table, key, metric: str) -> tuple[dict, str | None]:
    """{(point key, direction): [one value per run]} of ``metric`` (a :data:`METRICS` name) and the column it
    came from (None where the table measured none of its columns)."""
    from ..ingest.summary import _runs, usable_rows

    columns, _ = METRICS[metric]
    t = table.assign(_point=key)
    usable = usable_rows(t)
    column = next((c for c in columns if c in usable and usable[c].notna().any()), None)
    if column is None:
        return {}, None
    runs = _runs(t, "_point", None, column)
    out: dict = {}
    for (point, direction), g in runs.groupby(["x", "direction"], sort=False):
        values = [v for v in g["value"].to_numpy(dtype=float) if v > 0 and math.isfinite(v)]
        if values:
            out[(point, direction)] = values
    return out, column


def not_steady_points(table, key) -> set:
    """Point keys with a final, usable row whose fio steady-state check did not hold."""
    if "ss_attained" not in table:
        return set()
    from ..ingest.summary import usable_rows

    rows = usable_rows(table.assign(_point=key))
    bad = rows["ss_attained"].astype("boolean").eq(False).fillna(False).to_numpy(dtype=bool)
    return set(rows.loc[bad, "_point"])


def varying_within(table, key, column: str) -> dict:
    """{point key: sorted values} where one side's runs of one point differ in ``column`` (an ignored workload
    column, averaged over otherwise)."""
    from ..ingest.summary import differing, usable_rows

    if column not in table:
        return {}
    rows = usable_rows(table.assign(_point=key))
    out = {}
    for point, g in rows.groupby("_point", sort=False):
        vals = g[column].dropna()
        if not vals.empty and differing(vals, column):
            out[point] = sorted({str(v) for v in vals})
    return out
