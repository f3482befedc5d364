"""What a curve's runs say about their CPU figures — the engine, polling, fio's pace, buffered or direct I/O, whole-second
CPU accounting, sleeps per reap — read once by the CPU claims (:mod:`~nvmemodel.fitting.cpu_claims`) and by the CPU
facts that sit beneath them (:mod:`~nvmemodel.fitting.in_thread_level`, :mod:`~nvmemodel.fitting.cpu_starved`), so
none of those imports the claims module."""

from __future__ import annotations

import numpy as np

__all__ = ["SLEPT_PER_REAP", "_coarse_step", "_run_flags", "_slept_per_reap", "run_flags"]


def _coarse_step(rows) -> float | None:
    """The step of fio's CPU figures where every usr and sys share of the runs is a whole multiple of 1/runtime
    (CPU time counted in whole seconds, as fio on Windows does: 1.67 % steps over 60 s runs), in CPUs; else None."""
    if rows is None or not {"cpu_usr", "cpu_sys", "runtime_s"} <= set(rows.columns):
        return None
    rt = rows["runtime_s"].to_numpy(float)
    vals = np.concatenate([rows["cpu_usr"].to_numpy(float) * rt, rows["cpu_sys"].to_numpy(float) * rt])
    vals = vals[np.isfinite(vals)]
    rt = rt[np.isfinite(rt) & (rt > 0)]
    if not rt.size or rt.min() < 5 or np.count_nonzero(vals > 0.5) < 2:
        return None  # short runs (< 5 s) make every share a near-multiple of 1/runtime: nothing told
    return float(1.0 / np.median(rt)) if np.all(np.abs(vals - np.round(vals)) < 0.02) else None


def run_flags(result, key, points) -> dict:
    """:func:`_run_flags` of a curve's runs, paced only where fio's pace held a point (pacing.pace_binds: the verdict
    the pacing sentence states): a pace no run reached sets no cost "at a set rate" (set after round 16 was read:
    r16_mickeydonkey optane nopoll qd, 2.84 µs per I/O at 99 % of a CPU refused as paced after "it did not bind", VC)."""
    from .claim import runs_rows
    from .pacing import pace_binds

    flags = _run_flags(runs_rows(result, points))
    if flags["paced"] and pace_binds(result, key) is False:
        flags["paced"] = []
    return flags


#: a job that switched context at least this share of once per reap of its queue (ctx ÷ I/Os × iodepth) in every run
#: slept for its completions: it did not spin or poll (set after round 29 was read, OB: r29_here-uringvda, io_uring
#: without polling, 1.00 switches a read at QD1 falling as 1/iodepth, told "CPU spent per second … spins or polls")
SLEPT_PER_REAP = 0.5


def _slept_per_reap(rows) -> bool:
    """Every run's context switches show its job slept about once per reap or more (:data:`SLEPT_PER_REAP`)."""
    import pandas as pd

    from ..ingest.context_switches import run_switches

    if rows is None or not len(rows) or "iodepth" not in rows or "source_path" not in rows:
        return False
    sw = run_switches(rows)
    if sw.empty:
        return False
    depth = pd.to_numeric(rows["iodepth"], errors="coerce").groupby(rows["source_path"].astype(str)).max()
    per = sw["per_io"].to_numpy(float) * depth.reindex(sw.index).to_numpy(float)
    return bool(per.size and np.isfinite(per).all() and (per >= SLEPT_PER_REAP).all())


def _run_flags(rows) -> dict:
    """What the runs say about their CPU figures (the rules of ``nm.io_costs``, :mod:`nvmemodel.hostcal.costs`):
    the engine, whether fio paced them, whether they were buffered."""
    from ..hostcal.costs import NOT_A_STACK, paces, polls

    out: dict = {"engine": "", "not_stack": "", "polling": "", "paced": [], "part_paced": "", "buffered": False,
           "direct": False, "step": None, "slept": False}
    if rows is None or not len(rows):
        return out
    if "ioengine" in rows:
        engines = set(rows["ioengine"].dropna().astype(str))
        out["engine"] = engines.pop() if len(engines) == 1 else ""
        out["not_stack"] = next((NOT_A_STACK[e] for e in sorted(set(rows["ioengine"].dropna().astype(str)))
                                 if e in NOT_A_STACK), "")
    out["polling"] = polls(rows) if all(polls(rows.iloc[[k]]) for k in range(len(rows))) else ""  # every run: r8 EA
    out["slept"] = _slept_per_reap(rows)
    out["paced"], out["part_paced"] = paces(rows)  # per direction (round 8, EB)
    if "direct" in rows:
        from ..jobs.fiooptions import BYPASS_ENGINES, METADATA_ENGINES, NO_STORAGE_ENGINES
        from .claim import stated

        d = stated(rows, "direct").dropna()
        # an engine that touches no storage has no page cache in its path whatever direct says (round 11, KB)
        # nor has one that goes around it (io_uring_cmd, spdk; round 13, PA)
        # nor has a metadata engine, which moves no data (filecreate …; round 13, PE)
        out["buffered"] = bool(len(d)) and not d.astype(bool).any() and out["engine"] not in (
            NO_STORAGE_ENGINES | BYPASS_ENGINES | METADATA_ENGINES)
        out["direct"] = len(d) == len(rows) and bool(len(d)) and bool(d.astype(bool).all())
    out["step"] = _coarse_step(rows)
    return out
