"""CPU cost per I/O from the user's own fio runs: ``nm.io_costs(table)``, ``nvmemodel ingest --costs``.

fio reports, for every job, the user and system CPU it used as a share of ONE CPU over the job's run time
(``usr_cpu``/``sys_cpu``, tabulated by ingest as ``cpu_usr``/``cpu_sys`` in CPUs). A job's CPU seconds are that
share times its run time (times the jobs merged into a ``group_reporting`` row); divided by the I/Os the job
completed (every direction) they are its cost per I/O. With the clock known (a catalog host, or given) they
are cycles per I/O, the unit of the model's ``host.cycles_per_io`` (docs/physics.md §4).

What fio's figure holds and what it does not (docs/hosts.md, "Cost per I/O from your own runs"):

* the job's own thread (fio counts it with ``getrusage(RUSAGE_THREAD)``, ``lib/getrusage.c``, where the OS has it,
  as Linux does): submission, completion reaping, fio's
  own per-I/O work, and the interrupt and softirq work that lands while that thread runs. Completions handled
  while the thread sleeps are charged to whatever else runs, so a run that waited on its device may undercount;
  a kernel SQPOLL thread and io-wq workers are not counted at all;
* a run paced by ``rate_iops``/``rate``/``thinktime`` spends its CPU at the rate it was told to keep, not at
  saturation: its figure is listed, flagged, and not used as the stack's cost;
* buffered I/O (``direct=0``) pays the page cache per I/O, which is not the direct path the model's stacks
  charge: flagged and not used; the ``null`` engine is fio's own work per I/O with no I/O stack at all (the
  floor every stack's figure includes), ``cpuio`` burns CPU by design: neither is a stack's cost;
* a polling engine (SPDK) keeps its CPU busy whatever the rate: per I/O that is the cost at saturation only
  where the run was CPU-bound; io_uring's ``hipri`` and ``sqthread_poll`` (table columns where ingest found
  them) and ``t/io_uring`` are read the same way (:func:`polls`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # for annotations only: pandas loads on first use
    import pandas as pd

    from ..topology.host import Host

#: What the cost functions read: a results table, or result files and folders (:func:`nvmemodel.read_results`).
ResultsInput: TypeAlias = "pd.DataFrame | str | os.PathLike[str] | Iterable[str | os.PathLike[str]]"

__all__ = ["ENGINE_STACK", "costs_document", "io_costs", "run_costs"]

#: fio ioengine → the model's ``workload.io_stack`` (``nvmemodel.IoStack``) whose cost its runs measure. The
#: synchronous engines share one path (a system call per I/O, the caller waits): psync's.
ENGINE_STACK = {"libaio": "libaio", "io_uring": "io_uring", "psync": "psync", "pvsync": "psync", "pvsync2": "psync",
                "sync": "psync", "vsync": "psync", "spdk": "spdk", "spdk_bdev": "spdk", "windowsaio": "windows_storport"}
#: Engines whose CPU per I/O is not a cost of an I/O stack, and why.
NOT_A_STACK = {"null": "the null engine: fio's own work per I/O, no I/O stack (the floor every stack's figure "
                       "includes)",
               "cpuio": "the cpuio engine burns CPU by design: no cost per I/O"}
#: Engines that poll for completions (their CPU is busy whatever the rate).
POLLING = ("spdk", "spdk_bdev")
#: fio job options (table columns of ingest, 1/0/missing) under which fio's CPU share is no load: ``hipri`` makes the
#: job spin on its completions; under ``sqthread_poll`` a kernel thread fio does not count submits, and the job's
#: thread waits for completions re-reading the ring without a system call (fio ``engines/io_uring.c``
#: ``fio_ioring_getevents`` in fio 3.13, 3.35 and 3.42: ``io_uring_enter`` only ``if (!o->sqpoll_thread)``): it spins
POLL_OPTIONS = {"hipri": "the jobs polled for their completions (hipri): busy whatever held the rate",
                "sqthread_poll": "a kernel thread fio does not count submitted the I/O (sqthread_poll), and the job's "
                                 "thread waited for completions by re-reading the ring, never sleeping (fio's "
                                 "io_uring engine): busy whatever held the rate"}
#: CPU per I/O growing by more than this share from a lighter load to a heavier one at the same bytes per I/O: not
#: one cost (set after round 7 was read: r7_bergstartup_sn540-local-hipri, each job 100 % busy while CPU per I/O grew
#: 3.07 → 11.05 µs and the rate stayed within 6 % from 3 jobs)
COST_GROWTH = 0.15
#: ... where, besides, the CPU added bought less than 1/this of the I/O per CPU the lighter point's bought (the added
#: CPU ÷ the added IOPS > this × the lighter point's cost): it was no work per I/O. Set with round 7's hipri series
#: (×3.3 and more) read, and mcgrof's libaio numjobs 1 → 2 (both jobs ≥ 99 % busy, cost 2.62 → 3.15 µs, IOPS ×1.66:
#: ×1.5, a CPU limit that more jobs lifted) seen as the case it must not catch
MARGINAL = 2.0


def polls(rows) -> str:
    """Why fio's busy CPU share of these runs is no load ("" where the table does not say they poll): a polling
    engine (SPDK), ``hipri`` or ``sqthread_poll`` set in a run (:data:`POLL_OPTIONS`), or ``t/io_uring``, which polls
    its completions unless run with ``-p0``."""
    import pandas as pd

    if rows is None or not len(rows):
        return ""
    if "ioengine" in rows and rows["ioengine"].astype(str).isin(POLLING).any():
        return "the engine polls for its completions: busy whatever held the rate"
    for col, why in POLL_OPTIONS.items():
        if col in rows and (pd.to_numeric(rows[col], errors="coerce") > 0).any():
            from .poll_proof import hipri_slept

            if col == "hipri" and hipri_slept(rows) is not None:
                continue  # asked for, but every I/O slept at a low share: no polling (round 24 CD, poll_proof.py)
            return why
    if "tool" in rows and rows["tool"].astype(str).eq("t/io_uring").any():
        return "t/io_uring polls for its completions unless run with -p0: busy whatever held the rate"
    return ""


#: fio options that pace a run (table column → option name)
PACES = (("rate_iops", "rate_iops"), ("rate_bytes_per_s", "rate"), ("thinktime_s", "thinktime"))


def paces(rows) -> tuple[list[str], str]:
    """``(paces, note)``: the options fio paced every direction's I/O of these runs by, or — where a pace held only
    some directions — none and what share of the I/O it held, with the read share measured against the one asked
    where they differ by more than 10 points (set after round 8 was read: r8_here-rate_writeonly20m, ``rate=,20m``
    on the writes while the unpaced reads made 97-99 % of the I/O of a 50/50 job)."""
    import numpy as np
    import pandas as pd

    if rows is None or not len(rows):
        return [], ""
    on = {name: pd.to_numeric(rows[col], errors="coerce").fillna(0).to_numpy(float) > 0 for col, name in PACES
          if col in rows}
    names = [n for n, v in on.items() if v.any()]
    ios = pd.to_numeric(rows["ios"], errors="coerce").fillna(0).to_numpy(float) if "ios" in rows else None
    paced = np.logical_or.reduce(list(on.values())) if on else np.zeros(len(rows), bool)
    if not names or paced.all() or ios is None or "direction" not in rows or not ios.sum() > 0:
        return names, ""
    dirs = " and ".join(sorted(set(rows["direction"].astype(str)[paced]))) + "s"
    note = (f"only the {dirs} were paced ({', '.join(names)}): {ios[paced].sum() / ios.sum():.0%} of the I/Os; the "
            f"rest ran unpaced, so this is no cost at a set rate")
    rd = rows.assign(r=np.where(rows["direction"].astype(str).eq("read"), ios, 0), n=ios).groupby("source_path")
    got, asked = (rd["r"].sum() / rd["n"].sum()).to_numpy(float), rd["read_fraction"].first().to_numpy(float) \
        if "read_fraction" in rows else np.array([np.nan])
    if np.isfinite(asked).all() and np.any(np.abs(got - asked) > 0.1):
        note += (f"; fio did not keep the mix asked ({asked.min():.0%} reads): reads were "
                 f"{_range_pct(got.min(), got.max())} of the I/Os")
    return [], note


def _range_pct(lo: float, hi: float) -> str:
    return f"{lo:.0%}" if f"{lo:.0%}" == f"{hi:.0%}" else f"{lo:.0%}–{hi:.0%}"


def polls_at(rows, col: str, xs) -> list[str]:
    """:func:`polls` of the runs at each load ``xs`` (the rows whose ``col`` is that value, within 0.5 %), each
    point judged on its own runs (set after round 8 was read: r8_ingimarsson liburing, one sqthread_poll run of 8
    voided the CPU of all); every point's all rows where the rows do not give ``col``."""
    import numpy as np
    import pandas as pd

    if rows is None or col not in rows:
        return [polls(rows)] * len(xs)
    v = pd.to_numeric(rows[col], errors="coerce").to_numpy(float)
    return [polls(rows[np.isclose(v, float(x), rtol=0.005)]) for x in xs]


def cost_growth(per_io, iops, size, among) -> tuple[int, int] | None:
    """``(i, j)``: of the points ``among`` (indices in load order), the pair i before j at the same bytes per I/O (±1 %)
    whose CPU per I/O grew the most, where it and the CPU grew by more than :data:`COST_GROWTH` and the CPU added
    bought little I/O (:data:`MARGINAL`); else None — CPU per I/O that is one cost across the steps is work, CPU
    that grows with the load while the rate stays level is not (jobs that spin or poll)."""
    best, pair = 1.0 + COST_GROWTH, None
    for a, i in enumerate(among):
        for j in among[a + 1:]:
            if not (abs(size[j] / size[i] - 1) <= 0.01 and per_io[i] > 0 and per_io[j] / per_io[i] > best):
                continue
            added_io, cpu_i, cpu_j = iops[j] - iops[i], per_io[i] * iops[i], per_io[j] * iops[j]
            little = added_io <= 0 or (cpu_j - cpu_i) / added_io > MARGINAL * per_io[i]
            if cpu_j > (1 + COST_GROWTH) * cpu_i and little:
                best, pair = float(per_io[j] / per_io[i]), (int(i), int(j))
    return pair


#: busy points (same bytes per I/O) whose CPU per I/O differs by more than this factor: not one cost, so the busy share
#: is no CPU limit (set after round 8 was read: r8_ingimarsson sqpoll, 99.9 % busy at QD1-64 while the cost fell
#: 11.6 → 2.6 µs; liburing and 2-job io_uring, CPU-bound at 4.0-4.2 and 4.7-4.9 µs, seen as cases it must not catch)
ONE_COST = 1.5


def not_one_cost(per_io, size, among) -> tuple[int, int] | None:
    """``(i, j)``: of the points ``among``, the pair at the same bytes per I/O (±1 %) whose CPU per I/O differs the
    most, where it differs by more than ×:data:`ONE_COST`; else None."""
    pairs = [(int(i), int(j)) for i in among for j in among
             if abs(size[j] / size[i] - 1) <= 0.01 and per_io[j] > 0 and per_io[i] > ONE_COST * per_io[j]]
    return max(pairs, key=lambda ij: per_io[ij[0]] / per_io[ij[1]], default=None)


#: Engines that cannot poll or spin for a completion (fio's hipri and sqthread_poll exist only for io_uring and
#: pvsync2): a level CPU share of theirs is not "CPU spent per second" (round 6, BG: psync jobs sleeping per read)
CANNOT_POLL = ("sync", "psync", "vsync", "pvsync", "libaio", "posixaio", "mmap", "windowsaio", "solarisaio", "net",
               "netsplice", "splice", "e4defrag", "falloc", "ftruncate", "filecreate", "filestat", "filedelete")
#: Engines whose I/O is issued or completed by threads other than the job's own, which fio does not count: fio's
#: usr/sys are ``getrusage(RUSAGE_THREAD)`` of the job thread (fio ``lib/getrusage.c``, ``stat.c``
#: ``update_rusage_stat``), so their figure per I/O leaves those threads' work out.
HELPER_THREADS = {"posixaio": "posixaio: glibc's AIO issues the I/O from helper threads of its own (one at a time "
                              "for each open file's requests), and fio counts only the job's own thread (getrusage "
                              "of the thread): their CPU is not in the figure",
                  "rbd": "rbd: librbd's and librados' own threads do the I/O work, and fio counts only the job's own "
                         "thread (getrusage of the thread): their CPU is not in the figure",
                  "rados": "rados: librados' own threads do the I/O work, and fio counts only the job's own thread "
                           "(getrusage of the thread): their CPU is not in the figure",
                  "glusterfs_async": "glusterfs_async: gfapi's own threads do the I/O work and call fio back "
                                     "(glfs_pread_async), and fio counts only the job's own thread (getrusage of the "
                                     "thread): their CPU is not in the figure"}
#: Engines whose CPU figure is known to leave part of the I/O path out, and what (docs/physics.md §4, "Windows").
#: fio on Windows keeps whole seconds of the thread's CPU time (``os/windows/posix.c`` ``getrusage``: "getrusage()
#: doesn't care about anything other than seconds") and ``windowsaio`` reaps completions in a thread of its own
#: (``engines/windowsaio.c`` ``IoCompletionRoutine``, unless ``no_completion_thread`` is set), outside the job's figure.
WINDOWS = {"windowsaio": "Windows: fio counts the job's CPU in whole seconds (+-1 s over the run) and leaves out "
                         "windowsaio's completion thread (unless no_completion_thread=1): a lower bound of the cost"}


#: io_uring's ``sqthread_poll``: a kernel SQ-poll thread submits the I/O (the kernel's io_uring ``io_sq_thread``, a
#: thread of its own), which fio's usr/sys — the job thread's ``getrusage(RUSAGE_THREAD)`` — do not count, while the job
#: thread waits for completions re-reading the ring (:data:`POLL_OPTIONS`): its figure is neither the I/O's cost nor a
#: load (set after round 18 was read: r18_msf2fsbench zn540 4klbaf and 512lbaf qd1 zones-numjobs, "0.0067 % → 0.25 % of
#: it in the kernel (sys)" and a CPU per I/O ×7.16 printed for them, QB)
SQPOLL = ("the runs set sqthread_poll: io_uring's kernel SQ-poll thread submitted the I/O, and fio counts only the "
          "job's own thread (getrusage of the thread), which waited for completions by re-reading the ring, never "
          "sleeping")


def unseen_work(rows) -> str:
    """Why fio's CPU figure of these runs leaves out the threads that did their I/O ("" where it does not): an engine
    of :data:`HELPER_THREADS` (fio ``engines/posixaio.c`` ``aio_read``: glibc's helper threads; ``rbd.c``,
    ``rados.c``, ``glusterfs_async.c``: the libraries' threads) or ``windowsaio``, whose completions a thread of its
    own reaps (``engines/windowsaio.c`` ``IoCompletionRoutine``, unless ``no_completion_thread``) and whose CPU fio on
    Windows keeps in whole seconds, or io_uring's ``sqthread_poll`` set in every run (:data:`SQPOLL`). The job
    thread's figure then only follows how many I/Os it handed over, never whether the threads doing them ran: no
    reading of "the process was off the CPU" is made from it (set after round 17 was read:
    r5_here_loop_posixaio_iodepth_repeats, runs 2.7–28.3 K at one depth on a host at load 8 taken as host-stalled by
    the job's 1–8 % CPU)."""
    import pandas as pd

    if rows is not None and len(rows) and "sqthread_poll" in rows \
            and bool((pd.to_numeric(rows["sqthread_poll"], errors="coerce").fillna(0) > 0).all()):
        # every run (not known — NA, as ingest leaves an io_uring job's unechoed flag — is not set: r2_here_loop
        # _iouring_libaio_iodepth); a series partly polled is judged point by point (polls_at, round 8 EA)
        return SQPOLL
    if rows is None or "ioengine" not in rows:
        return ""
    eng = set(rows["ioengine"].dropna().astype(str))
    if hit := sorted(eng & set(HELPER_THREADS)):
        return HELPER_THREADS[hit[0]]
    return WINDOWS["windowsaio"] if "windowsaio" in eng else ""


#: A job at least this busy (usr + sys, in CPUs) is said to be CPU-bound.
CPU_BOUND = 0.95
_DIRECTIONS = ("read", "write", "trim", "mixed")


def _clock(host, clock_hz) -> tuple[float, str]:
    """``(clock Hz, where it comes from)``: a catalog host's (name or :class:`~nvmemodel.Host`), or the one given;
    NaN and "" with neither."""
    from ..errors import ParameterError

    if host is not None and clock_hz is not None:
        raise ParameterError("clock_hz", clock_hz, "either host= or clock_hz=, not both")
    if clock_hz is not None:
        from ..units import parse_frequency

        hz = parse_frequency(clock_hz) if isinstance(clock_hz, str) else float(clock_hz)
        if not (math.isfinite(hz) and 1e8 <= hz <= 1e10):
            raise ParameterError("clock_hz", clock_hz, "a core clock between 100 MHz and 10 GHz, e.g. 2.1GHz")
        return hz, f"given: {hz / 1e9:g} GHz"
    if host is None:
        return math.nan, ""
    if isinstance(host, str):
        from ..topology.host import host_from_text

        host = host_from_text(host)
    src = host.sources("libaio").get("host.clock_hz")
    return float(host.clock_hz), (f"host {host.key or host.name}: {host.clock_hz / 1e9:g} GHz"
                                  + (f" ({src.status}: base clock)" if src is not None else ""))


def _table(table):
    if hasattr(table, "columns"):
        return table
    from ..ingest import read_results

    return read_results(table)


def run_costs(table: ResultsInput, *, host: str | Host | None = None,
              clock_hz: float | str | None = None) -> pd.DataFrame:
    """One row per fio job (or ``group_reporting`` group) of ``table``: its CPU seconds and cycles per I/O.

    Parameters
    ----------
    table : pandas.DataFrame or path(s)
        A results table (:func:`nvmemodel.read_results`) or result files and folders.
    host : str or Host, optional
        The machine the runs were made on, for its clock (a catalog name such as ``intel-xeon-platinum-8380``).
    clock_hz : float or str, optional
        The core clock instead (``2.1e9`` or ``"2.1GHz"``).

    Returns
    -------
    pandas.DataFrame
        Columns ``source_path, run, job_name, tool, ioengine, stack, direct, direction, pattern, block_size_bytes,
        iodepth, jobs, ios, runtime_s, cpu_busy`` (usr + sys per job, in CPUs), ``cpu_seconds, cpu_s_per_io,
        cycles_per_io, use`` (whether it counts as its stack's cost) and ``note`` (why not, or what to know).
        Interim snapshots, aggregate rows and failed jobs are left out; rows without a CPU figure (tools other
        than fio report the whole machine's CPU) are listed with ``use`` False.
    """
    import numpy as np
    import pandas as pd

    df = _table(table)
    hz, clock_src = _clock(host, clock_hz)
    keep = df[(df["final"].fillna(True)) & ~(df["is_aggregate"].fillna(False))
              & df["direction"].isin(_DIRECTIONS) & (df["error"].fillna(0) == 0)]
    rows = []
    keys = ["source_path", "run", "snapshot", "job_index", "hostname"]
    verified = df[df["direction"] == "verify"]  # a write job's read-back phase: its CPU is in the job's figure
    verified = set(map(tuple, verified[keys].astype(object).where(verified[keys].notna(), None).values.tolist()))
    for key, g in keep.groupby(keys, dropna=False, sort=False):
        first = g.iloc[0]
        tool = str(first["tool"])
        engine = None if pd.isna(first["ioengine"]) else str(first["ioengine"])
        ios = float(g["ios"].sum())
        runtime = float(g["runtime_s"].max())
        busy = float(first["cpu_usr"] + first["cpu_sys"])
        grouped = str(first["level"]) == "group"
        jobs = int(first["numjobs"]) if grouped and not pd.isna(first["numjobs"]) else (1 if not grouped else None)
        directions = sorted(set(g["direction"]))
        direction = directions[0] if len(directions) == 1 else "mixed"
        sizes = set(g["block_size_bytes"].dropna())
        bs = float(next(iter(sizes))) if len(sizes) == 1 else (float(g["io_bytes"].sum()) / ios if ios else math.nan)
        notes, use = [], True
        stack = ENGINE_STACK.get(engine) if engine else None
        if tool != "fio":
            use, stack = False, None
            notes.append(f"{tool} reports the whole machine's CPU (every process), not the job's: not used")
        elif not math.isfinite(busy):
            use = False
            notes.append("no CPU figure in this output")
        elif jobs is None:
            use = False
            notes.append("a group_reporting row whose job count (numjobs) is not known")
        elif not ios > 0 or not runtime > 0:
            use = False
            notes.append("no completed I/O")
        elif busy <= 0:
            use = False
            notes.append("fio measured no CPU time (a run too short to measure)")
        defaulted = set(str(first["defaulted"]).split(";")) if not pd.isna(first["defaulted"]) else set()
        if engine in NOT_A_STACK:
            use = False
            notes.append(NOT_A_STACK[engine])
        elif engine is None and tool == "fio":
            use = False
            notes.append("ioengine not in this output: no stack to charge")
        elif engine and stack is None and tool == "fio":
            use = False
            notes.append(f"no I/O stack of the model for ioengine={engine}")
        elif "ioengine" in defaulted:
            notes.append(f"ioengine not echoed: fio's default ({engine}) assumed")
        paced = [f"{name}={first[col]:g}" for col, name in (("rate_iops", "rate_iops"), ("rate_bytes_per_s", "rate"),
                                                            ("thinktime_s", "thinktime_s"))
                 if col in g and not pd.isna(first[col]) and float(first[col]) > 0]
        if paced:
            use = False
            notes.append(f"paced ({', '.join(paced)}): CPU per I/O at a set rate, not the stack's cost at saturation")
        if first["direct"] is False or (not pd.isna(first["direct"]) and not bool(first["direct"])):
            if use:
                notes.append("buffered (direct=0" + (", fio's default: not echoed" if "direct" in defaulted else "")
                             + "): page-cache work per I/O, not the direct path the model's stacks charge")
            use = False
        elif pd.isna(first["direct"]) and use:
            notes.append("direct= not in this output (whether the runs bypassed the page cache is not known)")
        if verified and tuple(None if pd.isna(k) else k for k in key) in verified:
            use = False
            notes.append("a verify phase: its read-back shares the job's CPU but not its I/O count")
        if use and str(first["format"]).startswith("fio-json") and (pd.isna(first["device_count"])
                                                                    or int(first["device_count"]) == 0):
            notes.append("fio named no disk under this run (a file system in memory or over the network, or disk "
                         "statistics off): check that a device was read")
        poll = polls(g)
        if poll:
            notes.append(f"polls ({poll}): the cost at saturation only where the run was CPU-bound")
        if engine in HELPER_THREADS:
            notes.append(HELPER_THREADS[engine] + " (a lower bound of the cost)")
        if engine in WINDOWS:
            notes.append(WINDOWS[engine])
        if math.isfinite(busy) and busy >= CPU_BOUND and not poll:  # a polling job is busy whatever held it
            notes.append(f"CPU-bound (≥ {CPU_BOUND:.0%} of a CPU per job)")
        cpu_s = busy * runtime * (jobs or math.nan)
        per_io = cpu_s / ios if ios > 0 else math.nan
        rows.append({"source_path": first["source_path"], "run": first["run"], "job_name": first["job_name"],
                     "tool": tool, "ioengine": engine, "stack": stack,
                     "direct": None if pd.isna(first["direct"]) else bool(first["direct"]), "direction": direction,
                     "pattern": first["pattern"], "block_size_bytes": bs, "iodepth": first["iodepth"],
                     "jobs": jobs, "ios": ios, "runtime_s": runtime, "cpu_busy": busy, "cpu_seconds": cpu_s,
                     "cpu_s_per_io": per_io, "cycles_per_io": per_io * hz, "use": use, "note": "; ".join(notes)})
    out = pd.DataFrame(rows, columns=["source_path", "run", "job_name", "tool", "ioengine", "stack", "direct",
                                      "direction", "pattern", "block_size_bytes", "iodepth", "jobs", "ios",
                                      "runtime_s", "cpu_busy", "cpu_seconds", "cpu_s_per_io", "cycles_per_io", "use",
                                      "note"])
    out["cycles_per_io"] = out["cycles_per_io"].astype(float)
    out.attrs.update(clock_hz=hz, clock_source=clock_src)
    if np.isnan(hz):
        out.attrs["clock_source"] = ("not known: give the catalog CPU (--host, host=) or the clock (--clock, clock_hz=) "
                                     "for cycles per I/O")
    return out


def io_costs(table: ResultsInput, *, host: str | Host | None = None,
             clock_hz: float | str | None = None) -> pd.DataFrame:
    """CPU seconds and cycles per I/O by engine, direction, block size and queue depth, with the spread over runs.

    Parameters are those of :func:`run_costs`. Returns a pandas DataFrame with one row per (``ioengine``,
    ``stack``, ``direct``, ``direction``, ``block_size_bytes``, ``iodepth``, ``use``): ``runs``, the median, lowest
    and highest ``cpu_s_per_io`` and ``cycles_per_io`` over those runs (``_lo``, ``_hi``), the median ``cpu_busy``,
    ``use`` (the group counts as its stack's cost: not paced, not buffered, a stack of the model), ``note`` and
    ``files`` (the result files, ';'-separated). ``attrs``: ``clock_hz``, ``clock_source``. The queue depth is
    kept apart because the cost per I/O falls as it rises (measured here with libaio on a virtio disk: about
    117,000 cycles per I/O at iodepth 1, 18,000 at 128): at iodepth 1 every I/O pays a sleep and a wake-up.

    Examples
    --------
    >>> import nvmemodel as nm                                              # doctest: +SKIP
    >>> nm.io_costs(nm.read_results("results/"), host="intel-xeon-platinum-8380")   # doctest: +SKIP
    """
    import pandas as pd

    runs = run_costs(table, host=host, clock_hz=clock_hz)
    keys = ["ioengine", "stack", "direct", "direction", "block_size_bytes", "iodepth", "use"]
    rows = []
    runs = runs.assign(iodepth=runs["iodepth"].astype("Int64"))
    for key, g in runs.groupby(keys, dropna=False, sort=True):
        vals = g["cpu_s_per_io"].dropna()
        cyc = g["cycles_per_io"].dropna()
        parts = [part for n in g["note"] if n for part in n.split("; ")]
        note = "; ".join(f"{part} ({parts.count(part)} of {len(g)} runs)" if parts.count(part) < len(g) else part
                         for part in dict.fromkeys(parts))
        rows.append({**dict(zip(keys, key)), "runs": len(g),
                     "cpu_s_per_io": vals.median() if len(vals) else math.nan,
                     "cpu_s_per_io_lo": vals.min() if len(vals) else math.nan,
                     "cpu_s_per_io_hi": vals.max() if len(vals) else math.nan,
                     "cycles_per_io": cyc.median() if len(cyc) else math.nan,
                     "cycles_per_io_lo": cyc.min() if len(cyc) else math.nan,
                     "cycles_per_io_hi": cyc.max() if len(cyc) else math.nan,
                     "cpu_busy": g["cpu_busy"].median(), "note": note,
                     "files": ";".join(dict.fromkeys(str(p) for p in g["source_path"]))})
    cols = keys[:-1] + ["runs", "cpu_s_per_io", "cpu_s_per_io_lo", "cpu_s_per_io_hi", "cycles_per_io",
                        "cycles_per_io_lo", "cycles_per_io_hi", "cpu_busy", "use", "note", "files"]
    out = pd.DataFrame(rows, columns=cols)
    out = out.sort_values(["use", "stack", "block_size_bytes", "iodepth"], ascending=[False, True, True, True],
                          kind="stable", na_position="last").reset_index(drop=True)
    out.attrs.update(runs.attrs)
    return out


#: Schema name of the JSON :func:`costs_document` writes (``nvmemodel ingest --costs-out``).
COSTS_SCHEMA = "nvmemodel.io-costs/1"


def _num(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else float(x)


def costs_document(costs) -> dict:
    """The JSON document of an :func:`io_costs` table (schema ``nvmemodel.io-costs/1``, docs/hosts.md)."""
    import pandas as pd

    entries = []
    for r in costs.itertuples(index=False):
        entries.append({
            "stack": None if pd.isna(r.stack) else str(r.stack), "ioengine": None if pd.isna(r.ioengine)
            else str(r.ioengine), "direct": None if pd.isna(r.direct) else bool(r.direct),
            "direction": str(r.direction), "block_size_bytes": _num(r.block_size_bytes), "runs": int(r.runs),
            "cpu_seconds_per_io": {"median": _num(r.cpu_s_per_io), "min": _num(r.cpu_s_per_io_lo),
                                   "max": _num(r.cpu_s_per_io_hi)},
            "cycles_per_io": {"median": _num(r.cycles_per_io), "min": _num(r.cycles_per_io_lo),
                              "max": _num(r.cycles_per_io_hi)},
            "cpu_busy": _num(r.cpu_busy), "iodepth": None if pd.isna(r.iodepth) else int(r.iodepth),
            "use": bool(r.use), "note": r.note,
            "files": [f for f in r.files.split(";") if f]})
    return {"schema": COSTS_SCHEMA, "clock_hz": _num(costs.attrs.get("clock_hz", math.nan)),
            "clock_source": costs.attrs.get("clock_source", ""), "costs": entries}


def format_costs(costs) -> str:
    """The table as text: one line per group, cycles where the clock is known, the notes below."""
    import pandas as pd

    lines = [f"{'engine':<10} {'stack':<9} {'dir':<6} {'bs':>8} {'QD':>4} {'runs':>4} {'µs CPU/IO':>10} {'cycles/IO':>10} "
             f"{'range (cycles or µs)':>22} {'busy':>5}  use"]
    hz = costs.attrs.get("clock_hz", math.nan)
    notes = []
    for r in costs.itertuples(index=False):
        bs = "" if not r.block_size_bytes == r.block_size_bytes else (
            f"{r.block_size_bytes / 1024:g}K" if r.block_size_bytes % 1024 == 0 else f"{r.block_size_bytes:.0f}B")
        if math.isfinite(hz):
            spread = f"{r.cycles_per_io_lo:,.0f}-{r.cycles_per_io_hi:,.0f}"
            cyc = f"{r.cycles_per_io:,.0f}"
        else:
            spread, cyc = f"{r.cpu_s_per_io_lo * 1e6:.3g}-{r.cpu_s_per_io_hi * 1e6:.3g} µs", "-"
        n = ""
        if r.note:
            notes.append(r.note)
            n = f" [{len(notes)}]"
        lines.append(f"{'-' if pd.isna(r.ioengine) else str(r.ioengine):<10} {str(r.stack if r.stack == r.stack and r.stack else '-'):<9} "
                     f"{r.direction:<6} {bs:>8} {'' if pd.isna(r.iodepth) else int(r.iodepth):>4} {r.runs:>4} {r.cpu_s_per_io * 1e6:>10.3g} {cyc:>10} {spread:>22} "
                     f"{r.cpu_busy:>5.0%}  {'yes' if r.use else 'no'}{n}")
    lines.append(f"clock: {costs.attrs.get('clock_source', '')}")
    lines += [f"[{i}] {n}" for i, n in enumerate(notes, 1)]
    return "\n".join(lines)
