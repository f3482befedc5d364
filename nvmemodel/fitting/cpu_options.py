"""Job options that put CPU work into every I/O or byte of fio's own thread (ingest's ``cpu_options``: verify=,
refill_buffers, buffer_compress_percentage=, dedupe_percentage=), named beside the CPU figures they explain, and the
causes a Little's-law shortfall can have, narrowed by fio's CPU figures at the points that fall short.

Set after round 20 was read (part 1 SH): r20_here-verify's three series ran ``verify=md5`` — fio hashing every block
it read, 34.8 µs per 16 KiB read, 140 µs per 64 KiB, ~2 ns a byte — and the tool read their CPU-bound level, their
rate that follows the CPU the jobs got and a one-stream byte rate without naming the option, and listed six causes of
fewer I/Os in flight where its own CPU figures pick two (the job's own work between reads at QD1, a CPU-bound
submitter from QD2)."""

from __future__ import annotations

import dataclasses

import numpy as np

from .claim import runs_rows
from .cpu_time import _cost_line, _sizes
from .facts import CPU_BOUND
from .wording import fmt_y

__all__ = ["cpu_work", "little_causes", "with_cpu_work"]

#: what each option makes fio's thread do (fio HOWTO, "Verification" and "Buffers and memory")
WHAT = {"verify": "fio checksums every block it writes or reads for verification, in the job's own thread",
        "refill_buffers": "fio refills the I/O buffer on every submit",
        "buffer_compress_percentage": "fio builds each buffer to that compressibility",
        "dedupe_percentage": "fio builds each buffer to that dedupe share"}


def cpu_work(result, points) -> str:
    """The CPU-work options every run of ``points`` states alike ("verify=md5"), "" where any run states none or
    they differ (a table without the column: "")."""
    rows = runs_rows(result, points)
    if rows is None or not len(rows) or "cpu_options" not in rows:
        return ""
    vals = {str(v) for v in rows["cpu_options"].astype(object)}
    one = vals.pop() if len(vals) == 1 else ""
    return "" if one in ("", "None", "<NA>", "nan") else one


def cpu_work_words(opt: str) -> str:
    """ "The runs set verify=md5 (fio checksums every block it writes or reads for verification, in the job's own
    thread)" """
    what = [WHAT[k] for k in dict.fromkeys(o.split("=")[0] for o in opt.split(";")) if k in WHAT]
    return f"The runs set {opt.replace(';', ', ')}" + (f" ({'; '.join(what)})" if what else "")


def with_cpu_work(result, cf, claims: list) -> list:
    """``claims`` with the first CPU sentence naming the CPU-work options every run set (one sentence: the option
    said once, where fio's CPU is)."""
    opt = cpu_work(result, cf.points)
    k = next((n for n, c in enumerate(claims) if c.kind == "cpu"), None)
    if not opt or k is None or opt in claims[k].text:
        return claims
    c = claims[k]
    return [*claims[:k], dataclasses.replace(c, text=f"{c.text} {cpu_work_words(opt)}: work per byte inside "
                                                     f"these CPU figures{_per_byte(result, cf, c.text)}."),
            *claims[k + 1:]]


def little_causes(result, cf, low: np.ndarray) -> str:
    """The causes fio's CPU figures show at the points whose in-flight fraction is far below 1 (``low``: a mask over
    ``cf.points``), "" where any such point is left unexplained: a job ≥ :data:`CPU_BOUND` busy is a CPU-bound
    submitter; a job at one I/O outstanding whose CPU per I/O filled ≥ 80 % of the time its I/O was not in flight
    (CPU per I/O ≥ 0.8 × (1 ÷ rate − latency)) spent that time on its own work."""
    f, p = cf.cpu, cf.points
    if f is None or low.size != len(p) or not low.any() or not {"iops", "lat", "out", "jobs"} <= set(p.columns):
        return ""
    share, cost = np.asarray(f.facts["share"], float), np.asarray(f.facts["cpu_s_per_io"], float)
    iops, lat, out, jobs = (p[c].to_numpy(float) for c in ("iops", "lat", "out", "jobs"))
    xs, x = p["x"].to_numpy(float), result.x
    from .claim import _xv

    opt = cpu_work(result, p)
    busy, own = [], []
    for k in np.flatnonzero(low):
        if not (np.isfinite(share[k]) and np.isfinite(cost[k]) and iops[k] > 0 and jobs[k] > 0):
            return ""
        gap = jobs[k] / iops[k] - lat[k]  # a job's time per I/O outside its I/O (one outstanding per job)
        if share[k] >= CPU_BOUND:
            busy.append(k)
        elif np.isclose(out[k], jobs[k]) and gap > 0 and cost[k] >= 0.8 * gap:
            own.append(k)
        else:
            return ""
    parts = []
    if own:
        k = own[0]
        parts.append(f"at {x} = {', '.join(_xv(result, xs[j]) for j in own)} the job's own work between I/Os "
                     f"({fmt_y(cost[k], 's')} of CPU per I/O, {cost[k] / lat[k]:.2g}× its I/O's {fmt_y(lat[k], 's')} "
                     f"mean latency" + (f"; {opt}" if opt else "") + ")")
    if busy:
        parts.append(f"at {x} = {', '.join(_xv(result, xs[j]) for j in busy)} a CPU-bound submitter (the job ≥ "
                     f"{CPU_BOUND:.0%} of one CPU)")
    return "; ".join(parts)


def _per_byte(result, cf, said: str) -> str:
    """Along block size, where fio's CPU per I/O is a + b·size within ``cpu_time.COST_TOL`` at every size (b > 0):
    "; along the sizes fio's CPU per I/O is 6.37 µs + 2.03 ns per byte …, one CPU's 0.493 GB/s of it" — the option's
    work per byte as a byte rate ("" otherwise, or where ``said`` already gives it)."""
    if result.x != "block_size_bytes" or "ns per byte" in said or cf.cpu is None:
        return ""
    per_io = np.asarray(cf.cpu.facts["cpu_s_per_io"], float)
    size = _sizes(cf.points)
    line = _cost_line(per_io, size)
    if line is None or line[1] <= 0 or np.ptp(size) <= 0:
        return ""
    a, b = line
    return (f"; along the sizes fio's CPU per I/O is {fmt_y(a, 's')} + {b * 1e9:.3g} ns per byte within 15 % at "
            f"every size ({fmt_y(per_io.min(), 's')} to {fmt_y(per_io.max(), 's')} measured): that work alone "
            f"runs at {fmt_y(1 / b, 'B/s')} on one CPU")
