"""fio's steady-state check (``ss=``, ``ss_dur=``, ``ss_ramp=``): its JSON block as table columns, and
which measured points did not reach it.

A job run with ``--steadystate=iops_slope:10%`` (fio HOWTO, "Steady state") writes a ``steadystate``
object in its JSON report::

    "steadystate": {"ss": "iops_slope:20.000000%", "duration": 4, "attained": 1,
                    "criterion": "7.710752%", "max_deviation": 0.0, "slope": 1016.2,
                    "data": {"bw_mean": 53985194, "iops_mean": 13179, "iops": [...], "bw": [...]}}

(fio 3.33, measured here). ``attained`` is 1 when the criterion held over the last ``duration``
seconds (fio then ends the job early); ``criterion`` is what fio measured against the limit: the
slope or the largest deviation over the window, as a percentage of the window's mean where the limit
is a percentage. The reported IOPS, bandwidth and latency of the job are of the whole run (after
``ramp_time``), not of the window; the window's means are ``data.iops_mean`` / ``data.bw_mean``.

The columns (:data:`COLUMNS`, added to the results table by :mod:`.schema`):

* ``ss_criterion`` — fio's ``ss`` as reported (``iops_slope:20.000000%``);
* ``ss_attained`` — True / False; NA for a run without the check;
* ``ss_duration_s`` — the window fio judged, seconds;
* ``ss_criterion_value`` — what fio measured for the criterion over the last window: a fraction of the
  window's mean where the limit is a percentage (``7.710752%`` → 0.0771), else fio's number (I/O per
  second or bytes/s for ``iops``/``bw``, per second for the slopes). A slope is signed: fio 3.33 wrote
  ``-2.285156%`` for a falling IOPS slope it judged attained under ``iops_slope:2.5%`` (measured here);
* ``ss_iops``, ``ss_bw_bytes_per_s`` — the window's mean IOPS and bandwidth.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import IngestError

__all__ = ["COLUMNS", "NO_STEADY_STATE", "not_steady", "steady_state_columns", "steady_state_note"]

#: name → (dtype, unit, description): appended to the results table's columns (schema.COLUMNS)
COLUMNS: dict[str, tuple[str, str, str]] = {
    "ss_criterion": ("string", "", ("fio steady-state criterion as reported (ss=, e.g. iops_slope:20.000000%); NA: "
                                    "the run had no steady-state check")),
    "ss_attained": ("boolean", "", ("True if fio found the run in steady state over the last ss_duration_s (fio "
                                    "then ends the job early), False if the run ended without it; NA: no check")),
    "ss_duration_s": ("float64", "s", "the window fio's steady-state check judged (ss_dur=)"),
    "ss_criterion_value": ("float64", "", ("what fio measured for the criterion over the last window: a fraction "
                                           "of the window's mean where the limit is a percentage (fio's "
                                           "'criterion' 7.71% → 0.0771), else fio's number in the criterion's unit "
                                           "(I/O per second or B/s; per second for slopes); a slope is signed "
                                           "(falling: negative) and held to the limit by its size")),
    "ss_iops": ("float64", "1/s", "mean IOPS of the steady-state window (the row's iops is of the whole run)"),
    "ss_bw_bytes_per_s": ("float64", "B/s", "mean bandwidth of the steady-state window"),
}
#: a packed row's steady-state columns where the job had no check (in :data:`COLUMNS` order)
NO_STEADY_STATE = (None, None, math.nan, math.nan, math.nan, math.nan)


def _number(block: dict, key: str, path, where: str, *, required: bool = False) -> float:
    value = block.get(key)
    if value is None and not required:
        return math.nan
    if type(value) is bool or not isinstance(value, (int, float)):
        raise IngestError(path, f"{where}.{key} = {value!r}: expected a number ≥ 0")
    number = float(value)
    if not math.isnan(number) and (not math.isfinite(number) or number < 0):  # (fio's -nan: not measured)
        raise IngestError(path, f"{where}.{key} = {value!r}: expected a number ≥ 0")
    return number


def steady_state_columns(block, path, where: str) -> dict:
    """The steady-state columns of a job from fio's ``steadystate`` object (see the module docstring);
    :class:`~nvmemodel.errors.IngestError` naming the field for a value fio would not write."""
    if not isinstance(block, dict):
        raise IngestError(path, f"{where}: expected an object (fio's steady-state report)")
    ss = block.get("ss")
    if not isinstance(ss, str) or not ss.strip():
        raise IngestError(path, f"{where}.ss = {ss!r}: expected fio's criterion text (e.g. 'iops_slope:20%')")
    attained = block.get("attained")
    if attained not in (0, 1) or type(attained) not in (int, bool):
        raise IngestError(path, f"{where}.attained = {attained!r}: expected 0 or 1")
    criterion: Any = block.get("criterion")  # JSON: its type is checked below
    if isinstance(criterion, str):
        text = criterion.strip()
        try:
            value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            raise IngestError(path, f"{where}.criterion = {criterion!r}: expected a number or a percentage") from None
        if math.isinf(value):
            raise IngestError(path, f"{where}.criterion = {criterion!r}: expected a finite number or percentage")
    elif type(criterion) in (int, float) and not math.isinf(criterion):
        value = float(criterion)  # (signed: a slope that falls is negative)
    else:
        raise IngestError(path, f"{where}.criterion = {criterion!r}: expected a number or a percentage")
    data = block.get("data")
    data = data if isinstance(data, dict) else {}
    return {"ss_criterion": ss.strip(), "ss_attained": bool(attained),
            "ss_duration_s": _number(block, "duration", path, where, required=True),
            "ss_criterion_value": value,
            "ss_iops": _number(data, "iops_mean", path, f"{where}.data"),
            "ss_bw_bytes_per_s": _number(data, "bw_mean", path, f"{where}.data")}


def not_steady(table) -> list[str]:
    """The result files (``source_path``, with the run where a file holds several) of final rows whose job
    had fio's steady-state check and did not reach it; empty when every checked run did (or none was checked)."""
    if "ss_attained" not in table:
        return []
    # the mask from the two columns first: selecting the rows copies the whole table, which a read of many files
    # (none of them checked, as usual) need not pay for (ingest speed)
    failed = table["ss_attained"].eq(False).fillna(False).astype(bool)
    if "final" in table:
        failed &= table["final"].fillna(True).astype(bool)
    if not failed.any():
        return []
    bad = table[failed]
    where = bad["source_path"].astype(str)
    if "run" in bad and bad["run"].fillna(0).astype(int).gt(0).any():
        where = where + " (run " + bad["run"].astype("Int64").astype(str) + ")"
    return list(dict.fromkeys(where))


def steady_state_note(table, *, shown: int = 3) -> str:
    """One sentence naming the runs that did not reach steady state ('' if none), for warnings and notes."""
    bad = not_steady(table)
    if not bad:
        return ""
    listed = ", ".join(bad[:shown]) + (f" and {len(bad) - shown} more" if len(bad) > shown else "")
    return (f"{len(bad)} run(s) did not reach steady state (fio's ss= check ended without it): {listed}; their "
            "numbers may still be drifting (precondition the target, or run longer)")
