"""The runs a fit leaves out before it measures anything, counted and named (never dropped without a word).

:func:`nvmemodel.ingest.summary.usable_rows` keeps the rows that are measurements: final reports, not aggregates of
other rows, not a write job's verify phase, jobs without fio's ``error``. A run none of whose rows is kept is left out of
the fit. Leaving five of seven runs out read as "With two numjobs values no shape is claimed" and refused a four-run file
as "x='numjobs = 1 only'" without saying why (set after round 23 was read: r23_iouringlog … 4k-seqwrite and 128k-seqwrite
numjobs, part 1 ZC: fio's err=11 on runs that ran their full 60 s).

A failed job stays out by default (its numbers carry a fault flag: fio stopped counting, or counted past an error,
and which is not in the table); ``nm.fit(..., failed="keep")`` (``nvmemodel fit --failed keep``) fits them, and the
words still say which runs carried an error.

fio's ``error`` is the errno of the failing call (fio prints it with ``strerror``): it is named here from the platform's
:mod:`errno` table, not from a list of our own.
"""

from __future__ import annotations

import errno
import os

import numpy as np

__all__ = ["FAILED_CHOICES", "keep_failed", "left_out_runs", "left_out_words", "refusal_words"]

#: how a fit treats runs fio reported an error for: left out (the default: a failed job is not a measurement unless the
#: user says so), or kept and flagged (set after round 23 was read, ZC)
FAILED_CHOICES = ("drop", "keep")

_RUN_KEYS = ["source_path", "run", "group_id"]

#: why a run's rows are not measurements, in the order a run is named by (its first reason that applies)
_REASONS = {
    "failed": "fio reported an error for them",
    "verify": "only a write job's verify phase",
    "not_final": "only interim reports (not the final one)",
    "aggregate": "only aggregates of other rows",
}


def _flags(table):
    """Per row, a reason it is not a measurement ('' where it is one), as :func:`usable_rows` decides."""
    from ..ingest.summary import failed

    why = np.full(len(table), "", dtype=object)

    def mark(mask, reason):
        mask = np.asarray(mask, dtype=bool)
        why[mask & (why == "")] = reason

    if "error" in table:
        mark(failed(table).to_numpy(dtype=bool), "failed")
    if "direction" in table:
        mark((table["direction"] == "verify").fillna(False).to_numpy(dtype=bool), "verify")
    if "final" in table:
        mark(~table["final"].astype(object).fillna(True).to_numpy(dtype=bool), "not_final")
    if "is_aggregate" in table:
        from ..ingest.summary import summed_rows

        mark(summed_rows(table), "aggregate")
    return why


def measured(table):
    """Rows that carry a measurement: fio counted I/O (``ios`` > 0; where the table has no ``ios``, a rate in
    ``iops`` or ``bw_bytes_per_s``). A failed job that did no I/O is left out even with ``failed="keep"``: there is no
    number to fit (round 23 ZC's counter-case)."""
    import pandas as pd

    if "ios" in table:
        return (pd.to_numeric(table["ios"], errors="coerce") > 0).to_numpy(dtype=bool)
    rate = [pd.to_numeric(table[c], errors="coerce").notna().to_numpy(dtype=bool)
            for c in ("iops", "bw_bytes_per_s") if c in table]
    return np.logical_or.reduce(rate) if rate else np.zeros(len(table), dtype=bool)


def _run_ids(table):
    import pandas as pd

    keys = [k for k in _RUN_KEYS if k in table]
    if not keys:  # no run columns: each row is one run (as measured_points reads such a table)
        return pd.Series(np.arange(len(table)), index=table.index)
    # (object first: pandas 3's str dtype keeps a missing value missing, and join refuses it — the IOmeter folder's
    # empty group column)
    return table[keys].astype(object).fillna("").astype(str).agg("|".join, axis=1)


def _x_of(rows, x: str):
    import pandas as pd

    if x in rows:
        return pd.to_numeric(rows[x], errors="coerce")
    if x == "outstanding" and "iodepth" in rows and "numjobs" in rows:
        return pd.to_numeric(rows["iodepth"], errors="coerce") * pd.to_numeric(rows["numjobs"], errors="coerce")
    return pd.Series(np.nan, index=rows.index)


def _num(rows, col):
    import pandas as pd

    return pd.to_numeric(rows[col], errors="coerce") if col in rows else pd.Series(np.nan, index=rows.index)


def left_out_runs(table, x: str, *, failed: str = "drop") -> dict:
    """The runs of ``table`` that no row of :func:`usable_rows` stands for, and those kept with an error.

    Returns ``{}`` when every run is a measurement without an error, else a dict: ``runs`` (every run in the table),
    ``x_values`` (the distinct x of the table's runs), ``left_out``, ``kept_failed`` and ``jobs_left_out`` (runs
    whose other jobs are fitted without the failed one, with ``failed="drop"``): lists of
    ``{"run", "x", "reason", "error", "runtime_s", "ios"}`` (one a run), ``failed`` (``"drop"`` or ``"keep"``).
    """
    if table is None or not len(table):
        return {}
    why = _flags(table)
    if not (why != "").any():
        return {}
    runs = _run_ids(table).to_numpy()
    did = measured(table)
    xs = _x_of(table, x).to_numpy(dtype=float)
    err = table["error"].astype(object).fillna("").astype(str).to_numpy() if "error" in table else \
        np.full(len(table), "", dtype=object)
    runtime = _num(table, "runtime_s").to_numpy(dtype=float)
    ios = _num(table, "ios").to_numpy(dtype=float)
    left: list[dict] = []
    kept: list[dict] = []
    part: list[dict] = []
    for run in dict.fromkeys(runs):
        at = runs == run
        reasons = why[at]
        usable = reasons == ""
        if failed == "keep":  # a failed run's measured rows are kept (its verify phase, interim reports still are not)
            usable = usable | ((reasons == "failed") & did[at])
        if usable.all() and not (reasons == "failed").any():
            continue
        failed_here = reasons == "failed"
        rec = {"run": str(run), "x": float(np.nanmax(xs[at])) if np.isfinite(xs[at]).any() else None,
               "reason": next(r for r in _REASONS if (reasons == r).any()),
               "error": sorted({e for e in err[at][failed_here]}),
               "runtime_s": float(np.nanmax(runtime[at])) if np.isfinite(runtime[at]).any() else None,
               "measured": bool(did[at].any()),
               "ios": float(np.nansum(ios[at][failed_here | usable])) if np.isfinite(ios[at]).any() else None}
        if not usable.any():
            left.append(rec)
        elif failed_here.any():  # kept with its error (failed="keep"), or its other jobs kept without the failed one
            (kept if failed == "keep" else part).append(rec)
    if not left and not kept and not part:
        return {}
    x_all = sorted({float(v) for v in xs if np.isfinite(v)})
    return {"runs": len(dict.fromkeys(runs)), "x_values": x_all, "left_out": left, "kept_failed": kept,
            "jobs_left_out": part, "failed": failed, "x": x}


def keep_failed(table):
    """``table`` with fio's ``error`` cleared on every row that carries a measurement (:func:`measured`;
    ``error_reported`` keeps the code): what ``failed="keep"`` fits — every later reader (:func:`usable_rows`) then
    takes those runs as measurements."""
    if "error" not in table:
        return table
    return table.assign(error_reported=table["error"], error=table["error"].where(~measured(table), 0))


def _error_name(code: str) -> str:
    try:
        n = int(float(code))
    except ValueError:
        return f"error {code}"
    name = errno.errorcode.get(n)
    return f"error {n} ({name}: {os.strerror(n)})" if name else f"error {n} (not an errno this platform names)"


def _xs(values, x: str) -> str:
    vals = sorted({v for v in values if v is not None})
    if not vals:
        return ""
    return f"{x} = " + ", ".join(f"{v:g}" for v in vals)


def _span(values, fmt) -> str:
    vals = [v for v in values if v is not None and np.isfinite(v)]
    if not vals:
        return ""
    lo, hi = min(vals), max(vals)
    return fmt(lo) if np.isclose(lo, hi, rtol=0.005) else f"{fmt(lo)}–{fmt(hi)}"


def _count(n: float) -> str:
    for div, suf in ((1e9, " G"), (1e6, " M"), (1e3, " K")):
        if n >= div:
            return f"{n / div:.3g}{suf}"
    return f"{n:.0f}"


def _failed_clause(recs) -> str:
    codes = sorted({c for r in recs for c in r["error"]}, key=lambda c: (len(c), c))
    named = ", ".join(_error_name(c) for c in codes)
    span_t = _span([r["runtime_s"] for r in recs], lambda v: f"{v:.1f}")
    span_n = _span([r["ios"] for r in recs], _count)
    ran = ""
    if span_t or span_n:
        ran = f" ({'it' if len(recs) == 1 else 'they'} ran " + (f"{span_t} s" if span_t else "") + (" and " if span_t and span_n else "") \
              + (f"completed {span_n} I/Os" if span_n else "") + ")"
    none = sum(not r.get("measured", True) for r in recs)
    if none:
        ran += (f"; {'it' if len(recs) == 1 else f'{none} of them'} counted no I/O"
                if none < len(recs) or len(recs) == 1 else "; none counted any I/O")
    return f"fio reported {named} for {'it' if len(recs) == 1 else 'them'}{ran}"


def left_out_words(record: dict) -> str:
    """The sentence said first: how many runs of how many were left out, at which x, why; or, with ``failed="keep"``,
    which kept runs carried an error. "" when there is nothing to say."""
    if not record:
        return ""
    x, total, out = record["x"], record["runs"], []
    left = record["left_out"]
    if left:
        parts: list[str] = []
        for reason in _REASONS:
            recs = [r for r in left if r["reason"] == reason]
            if not recs:
                continue
            where = _xs([r["x"] for r in recs], x)
            what = _failed_clause(recs) if reason == "failed" else _REASONS[reason]
            parts.append(f"{where + ': ' if where else ''}{what}" if len(parts) == 0 and len(recs) == len(left)
                         else f"{len(recs)} {'at ' + where if where else ''}: {what}")
        n = len(left)
        s = (f"{n} of {total} runs {'was' if n == 1 else 'were'} left out of this fit — " + "; ".join(parts)
             + f" — {'its' if n == 1 else 'their'} numbers are not used")
        if record["failed"] == "drop" and any(r["reason"] == "failed" for r in left):
            s += (" (a failed job is not taken as a measurement unless asked: nm.fit(..., failed=\"keep\"), "
                  "nvmemodel fit --failed keep)")
        out.append(s + ".")
    kept = record["kept_failed"]
    if kept:
        where = _xs([r["x"] for r in kept], x)
        out.append(f"{len(kept)} of {total} runs{' (' + where + ')' if where else ''} "
                   f"{'is' if len(kept) == 1 else 'are'} fitted although {_failed_clause(kept)}; failed=\"keep\": "
                   f"{'its' if len(kept) == 1 else 'their'} numbers carry that fault flag.")
    part = record.get("jobs_left_out") or []
    if part:
        where = _xs([r["x"] for r in part], x)
        codes = sorted({c for r in part for c in r["error"]}, key=lambda c: (len(c), c))
        out.append(f"In {len(part)} of {total} runs{' (' + where + ')' if where else ''} a job failed with fio's "
                   f"{', '.join(_error_name(c) for c in codes)} and is left out: "
                   f"{'that run is' if len(part) == 1 else 'those runs are'} fitted with the other jobs' numbers only.")
    return " ".join(out)


def refusal_words(record: dict) -> str:
    """What a refusal for too few x values adds: how many distinct x values the table's runs had and what removed
    the others ("" when nothing was left out)."""
    if not record or not record["left_out"]:
        return ""
    n_x = len(record["x_values"])
    return (f"; the table has {n_x} different {record['x']} value{'s' if n_x != 1 else ''} over {record['runs']} runs, "
            f"but {left_out_words({**record, 'kept_failed': []})[:-1]}")
