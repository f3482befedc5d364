"""What buffered I/O (``direct=0``) says about the layer that served it — only what the files show.

Buffered I/O *may* be served by the page cache, but whether it was is a question of evidence, not of the flag
(round 2's hand reading, class J: O_SYNC 8 KiB writes on ZFS with the disk 94–96 % busy were told "the page cache
may have served them"). The evidence read here, in this order:

* every run a write whose every write was flushed (fio ``fsync=1`` / ``fdatasync=1``) onto a block device: each
  I/O waited for the device — the device served them (an ``fsync`` option not echoed is not taken as set); onto a
  layer fio's disk statistics name (``loop*``, ``dm-*``, ``md*``, ``nbd*``, ``rbd*``), that layer is named instead:
  the flush is as durable and as fast as what lies beneath it (round 5, part 1 AC);
* a device-busy column in the files (``disk_busy_pct``: iostat ``%b``, fio's ``disk_util``): ≥ :data:`BUSY_AT_LIMIT`
  at the busiest point, the device was at its limit and served them; below it the device worked, and how much
  memory served is not shown;
* fio's JSON on Linux with no block device under the files (fio lists the disks beneath the files it used): what
  lay beneath is unknown (fio names no disk under tmpfs, btrfs, ZFS, overlayfs or network file systems alike;
  round 10, JE), and only that the I/O went through the page cache is said;
* writes whose every run lasted ≥ :data:`WRITEBACK` × the time its writes took (fio's runtime, which includes the
  flush of the dirty pages at close, against I/Os × mean latency ÷ iodepth; unpaced runs only): the page cache took
  the writes, and write-back to the device beneath set the rate (``served = "writeback"``; round 5, part 1 AI);
* fio's own disk statistics per run (``disk_read_ios``: the read requests the devices beneath completed during the
  run): a buffered read run whose devices completed no read at all was served by the page cache; one whose device
  read was served, at least in part, by the device (fio counts requests, not bytes, so how much is not shown). Where a
  series' runs split into the two kinds, they are said apart and no curve is read across them (set after round 14
  was read: r14_here-ra_loop-ra2560k, SE: 16 of 21 runs had no loop0 read, and they were the 16 fastest);
* none of these: unknown — said as unknown, not as "may have served".

The fact keeps ``layer = "page_cache"`` unless the device is shown to have served the I/O (``"buffered_device"``),
so a reader who takes the layer from the fact still learns that buffered I/O was used."""

from __future__ import annotations

import re

import numpy as np

from .memory_bounds import CTX_NEVER, MEMORY_LATENCY  # (a leaf module: memory_writes needs them too)

__all__ = ["BUSY_AT_LIMIT", "WRITEBACK", "buffered_fact", "buffered_sentence"]

#: a buffered write run that lasted at least this many times the time its writes took waited for write-back
WRITEBACK = 2.0
#: a device at least this busy (iostat %b, fio disk_util) at the busiest point served the I/O at its limit
BUSY_AT_LIMIT = 0.9
_BUSY_COLUMN = re.compile(r"^(disk|device)_(busy|util)(_pct)?$")


def _busy(rows) -> tuple[str, float, float] | None:
    """(column, lowest, highest) device-busy share (0–1) recorded in the runs' rows, or None."""
    import pandas as pd

    for col in rows.columns:
        if _BUSY_COLUMN.match(str(col)):
            v = pd.to_numeric(rows[col], errors="coerce").dropna().to_numpy(float)
            if v.size:
                v = v / 100.0 if str(col).endswith("_pct") else v
                return str(col), float(v.min()), float(v.max())
    return None


def _synced(rows) -> bool:
    """Every run a write and every write flushed (fsync=1 or fdatasync=1)."""
    import pandas as pd

    if "direction" not in rows or not len(rows) or not (rows["direction"].astype(str) == "write").all():
        return False
    every = None
    for col in ("fsync_every", "fdatasync_every"):
        if col in rows:
            one = (pd.to_numeric(rows[col], errors="coerce") == 1).fillna(False).astype(bool)  # NA: not echoed
            every = one if every is None else (every | one)
    return bool(every is not None and every.all())


def _no_block_device(rows) -> bool:
    """fio's JSON on Linux listed no block device under files that are not /dev nodes."""
    if not {"format", "devices", "target_names"} <= set(rows.columns):
        return False
    fmt, devs = rows["format"].astype(str), rows["devices"].astype(object).fillna("").astype(str)
    targets = rows["target_names"].dropna().astype(str)
    windows = targets.str.contains(r"^[A-Za-z]:|\\", regex=True).any()  # fio on Windows keeps no disk stats
    return bool(fmt.str.startswith("fio-json").all() and (devs == "").all() and len(targets) and not windows
                and not (targets.str.startswith("/dev/") & ~targets.str.startswith("/dev/shm/")).any())  # /dev/shm: tmpfs


def _num(rows, col):
    import pandas as pd

    return pd.to_numeric(rows[col], errors="coerce") if col in rows else pd.Series(np.nan, index=rows.index)


def _writeback(rows) -> dict | None:
    """Buffered writes whose every run lasted far longer than its writes took: fio's ``runtime_s`` (the job's own
    runtime, which includes the flush of its dirty pages when it closes the file) at least :data:`WRITEBACK` × the
    time in its writes (I/Os × mean latency ÷ I/Os in flight). The rest was spent waiting for the page cache to be
    written back, so write-back to the device beneath set the rate. Paced runs (``rate_iops``, ``rate``,
    ``thinktime``) sleep between writes by design and are not read so."""
    if "direction" not in rows or not len(rows) or not (rows["direction"].astype(str) == "write").all():
        return None
    for col in ("rate_iops", "rate_bytes_per_s", "thinktime_s"):
        if col in rows and (_num(rows, col).fillna(0) > 0).any():
            return None
    from .sync_time import job_seconds, sync_time

    lat = _num(rows, "lat_mean_s").fillna(_num(rows, "clat_mean_s"))
    depth = (_num(rows, "iodepth").fillna(1).clip(lower=1)) if "iodepth" in rows else 1.0
    busy = _num(rows, "ios") * lat / depth
    # each job's time, not job-seconds summed over a group-reported row's jobs, against the wall-clock runtime (set
    # after round 21 was read: r21_here-syncfr … randwrite4k numjobs "its writes took at most 0.56 s" of 1.5 s over
    # 3 jobs, 0.37 s each, part 1 VH; … seqwrite128k numjobs left "unknown" by the sum, VB)
    for r, jobs in job_seconds(rows) or []:
        if len(r) == 1:
            busy.loc[r.index] = busy.loc[r.index] / jobs
    run = _num(rows, "runtime_s")
    ok = busy.notna() & run.notna() & (busy > 0)
    if not ok.all() or not len(rows) or not (run >= WRITEBACK * busy).all():
        return None
    jobs = bool((_num(rows, "numjobs").fillna(1) > 1).any())
    return {"runtime_lo_s": float(run.min()), "runtime_hi_s": float(run.max()), "writes_hi_s": float(busy.max()),
            "share_lo": float((1 - busy / run).min()), "sync": sync_time(rows), "jobs": jobs}


def _device_reads(rows) -> dict | None:
    """Per report (one fio run): fio's read I/Os and rate, and the read requests fio's disk statistics counted on the
    devices beneath (``disk_read_ios``); None unless every run read and every report holds one run's count (a report
    of several stonewalled groups counts them together) — ``cache``: the runs with no device read."""
    need = {"source_path", "direction", "ios", "bw_bytes_per_s", "disk_read_ios"}
    if not need <= set(rows.columns) or not len(rows) or not (rows["direction"].astype(str) == "read").all():
        return None
    keys = [c for c in ("block_size_bytes", "iodepth", "numjobs") if c in rows]
    runs = []
    for _, r in rows.groupby(rows["source_path"].astype(str), sort=False):
        dev = _num(r, "disk_read_ios").dropna().unique()
        if dev.size != 1 or any(r[k].nunique(dropna=False) > 1 for k in keys) or not (_num(r, "ios") > 0).all():
            return None
        runs.append((float(dev[0]), float(_num(r, "bw_bytes_per_s").sum())))
    dev, bps = np.array(runs).T
    cache = dev == 0
    return {"runs": int(dev.size), "cache": int(cache.sum()),
            "cache_bps": (float(bps[cache].min()), float(bps[cache].max())) if cache.any() else None,
            "device_bps": (float(bps[~cache].min()), float(bps[~cache].max())) if (~cache).any() else None,
            "device_reads": (float(dev[~cache].min()), float(dev[~cache].max())) if (~cache).any() else None}


CTX_WAITED = 0.9
#: a job at this share of one CPU or more is busy: ``facts.CPU_BOUND`` (not imported: facts imports this module)
JOB_BUSY = 0.9


def _ctx(rows) -> dict | None:
    """fio's context switches per read (``ctx`` ÷ ``ios``, each run's jobs summed) and the job's usr+sys, where every
    run read with one job: ``kind`` "memory" where every run switched ≤ :data:`CTX_NEVER` per read with its job
    ≥ 90 % busy (the job never slept: no read waited on a device), "waited" where every run switched ≥
    :data:`CTX_WAITED` per read with its job below 90 % (each read slept: it waited on another party — a device or a
    user-space server such as FUSE's); None otherwise or where ctx is not in the files (set after round 17 was read:
    r17_fuseboc tmpfs, 2-9 switches for 20 K-2.6 M reads at 100 % of a CPU, and FUSE, 1.00-4.00 per read at 21-60 %,
    all told "the page cache or the device … unknown", XE). fio's ctx counts voluntary and involuntary switches
    (getrusage), so ≈ 0 is the stronger reading: a sleep cannot hide in it."""
    need = {"source_path", "direction", "ios", "cpu_usr", "cpu_sys"}
    if not need <= set(rows.columns) or not len(rows) or not (rows["direction"].astype(str) == "read").all():
        return None
    if "numjobs" in rows and not (_num(rows, "numjobs") == 1).all():
        return None  # (one job's usr+sys is its share of one CPU; a group's is not)
    if "ctx" not in rows or _num(rows, "ctx").isna().any():
        return _memory_latency(rows)
    from ..ingest.context_switches import run_switches

    sw = run_switches(rows)  # each run's: each job's ctx once over the run's I/Os
    g = rows.assign(_cpu=_num(rows, "cpu_usr") + _num(rows, "cpu_sys")).groupby(rows["source_path"].astype(str))
    cpu = g["_cpu"].max().reindex(sw.index)
    io, ctx = sw["ios"], sw["ctx"]
    if not (len(sw) and io.notna().all() and ctx.notna().all() and cpu.notna().all() and (io > 0).all()):
        return None
    per = sw["per_io"].to_numpy(float)
    cpu = cpu.to_numpy(float)
    out = {"per_lo": float(per.min()), "per_hi": float(per.max()), "ctx_lo": float(ctx.min()),
           "ctx_hi": float(ctx.max()), "ios_lo": float(io.min()), "ios_hi": float(io.max()),
           "cpu_lo": float(cpu.min()), "cpu_hi": float(cpu.max()), "runs": int(per.size)}
    if per.max() <= CTX_NEVER and cpu.min() >= JOB_BUSY:
        return {**out, "kind": "memory"}
    if per.min() >= CTX_WAITED and cpu.max() < JOB_BUSY:
        return {**out, "kind": "waited"}
    return None


def _memory_latency(rows) -> dict | None:
    """Without fio's ctx: ``kind`` "memory" where every run's job was ≥ :data:`JOB_BUSY` on CPU and each read's mean
    latency (fio's total, else its completion latency) was below :data:`MEMORY_LATENCY` — a time no storage device
    serves a read in, with the job on CPU throughout: a memory copy (set after round 23 was read, ZF:
    r23_j2pcnotes … sync-buffered, 1.31 µs reads at 99.9 % of a CPU told "the page cache or the device … unknown")."""
    from .curves import synchronous

    lat = _num(rows, "lat_mean_s").fillna(_num(rows, "clat_mean_s"))
    # a run of a synchronous engine without fio's latency: one read at a time per job, so jobs ÷ IOPS bounds a read's
    # time from above (it is the whole cycle)
    cycle = _num(rows, "numjobs").fillna(1) / _num(rows, "iops")
    lat = lat.fillna(cycle.where(synchronous(rows).to_numpy(bool) & (cycle > 0)))
    g = rows.assign(_lat=lat, _cpu=_num(rows, "cpu_usr") + _num(rows, "cpu_sys")).groupby(
        rows["source_path"].astype(str))
    lat, cpu = g["_lat"].max(), g["_cpu"].max().dropna()  # the runs that report fio's CPU (at least one)
    if not (lat.notna().all() and len(cpu) and (lat > 0).all()):
        return None
    if lat.max() < MEMORY_LATENCY and cpu.min() >= JOB_BUSY:
        return {"kind": "memory", "lat_lo": float(lat.min()), "lat_hi": float(lat.max()),
                "cpu_lo": float(cpu.min()), "cpu_hi": float(cpu.max()), "runs": int(lat.size)}
    return None


def buffered_fact(rows) -> dict:
    """The layer fact's numbers for runs that used buffered I/O: ``layer``, ``served`` (``device``, ``no_device``
    or ``unknown``), the devices fio named, and the evidence (``busy``, ``synced``, ``writeback``).

    Every write flushed onto a layer fio's disk statistics name (``loop*``, ``dm-*``, ``md*``, ``nbd*``, ``rbd*``)
    waited for that layer, not for a drive: the layer is named (``layer = "loop"`` …) and the flush is as durable
    and as fast as what lies beneath it (blind5's ext4 fsync over loop0, part 1 AC)."""
    from .devices import layer_of
    from .write_cache import device_writes

    names = sorted({x for v in rows["devices"].dropna().astype(str) for x in v.split(";") if x}) \
        if "devices" in rows else []
    busy = _busy(rows)
    reads = _device_reads(rows) if names else None
    out = {"layer": "page_cache", "devices": names, "served": "unknown", "synced": False, "busy": None,
           "writeback": None, "reads": reads}
    if busy is not None:
        out["busy"] = {"column": busy[0], "lo": busy[1], "hi": busy[2]}
    layered = [(d, layer_of(d)) for d in names if layer_of(d) in ("loop", "dm", "md", "nbd", "rbd")]
    wb = _writeback(rows) if not _no_block_device(rows) else None
    if _synced(rows) and layered:  # the flush waited for the layer fio names, not a drive
        out.update(layer=layered[0][1], served="device", synced=True, through=layered[0][0])
        if len(layered) == 1:  # its busy share and writes per fio write (round 25 EG)
            from .layer_load import layer_load

            out["load"] = layer_load(rows, _busy(rows))
    elif _synced(rows) and not _no_block_device(rows):  # fsync on tmpfs waits for no device
        out.update(layer="buffered_device", served="device", synced=True)
    elif wb is not None:  # the page cache took the writes; write-back to the device beneath set the rate
        out.update(served="writeback", writeback=wb)
    elif busy is not None and busy[2] >= BUSY_AT_LIMIT:
        out.update(layer="buffered_device", served="device")
    elif busy is None and _no_block_device(rows):
        from .tmpfs_paths import tmpfs_dir

        out["served"] = "no_device"
        out["tmpfs"] = tmpfs_dir(rows)  # files on a RAM file system by their path (round 24, CF)
    elif names and (dw := device_writes(rows)) is not None:  # ≤ 1 request per 10 random page writes (round 23 ZB)
        out.update(served="cache_writes", writes=dw)
    elif reads is not None:  # fio's own count of the device's reads, run by run
        out["served"] = "cache" if reads["cache"] == reads["runs"] else "split" if reads["cache"] else "device_part"
        if out["served"] == "device_part":  # page-sized reads: requests a read bound the hits (round 22, XB)
            from .page_reads import page_reads

            out["pages"] = page_reads(rows)
    from .end_flush import end_flush  # a final flush fio counts in the job's time (round 28, ME)

    out["end_flush"] = end_flush(rows)
    if out["served"] in ("unknown", "no_device") and (ctx := _ctx(rows)) is not None:
        out["ctx"] = ctx  # fio's context switches per read tell whether each read slept (round 17, XE)
        if out["served"] == "unknown":
            out["served"] = ctx["kind"]
    elif out["served"] in ("unknown", "no_device") and not out.get("tmpfs"):
        from .memory_writes import memory_writes  # writes that never waited (round 28, MJ)

        if (mw := memory_writes(rows)) is not None:
            out["memory_writes"] = mw
    return out


def _count(v: float) -> str:
    return f"{v / 1e6:.3g} M" if v >= 1e6 else f"{v / 1e3:.3g} K" if v >= 1e3 else f"{v:.0f}"


def _beneath_words(devices) -> str:
    """"the device beneath", or, for one device of a layer with words (:data:`devices._LAYER_WORDS`), that
    device said as what it is: "the device beneath, a loop device (an image file: …),"."""
    from .devices import layer_of
    from .devices import _LAYER_WORDS

    lay = layer_of(devices[0]) if len(devices) == 1 else None
    return f"the device beneath, {_LAYER_WORDS[lay]}," if lay in _LAYER_WORDS else "the device beneath"


def buffered_sentence(facts: dict) -> str:
    """The layer sentence for buffered runs, from :func:`buffered_fact`'s numbers; with the final flush fio counts
    in the job's time where every write run set one (:mod:`.end_flush`, round 28 ME)."""
    text = _buffered_sentence(facts)
    if facts.get("end_flush") and not facts.get("synced"):  # (a flush after each write already says more)
        from .end_flush import end_flush_words

        text += end_flush_words()
    return text


def _buffered_sentence(facts: dict) -> str:
    head = "The runs used buffered I/O (direct=0)"
    b = facts.get("busy")
    busy = (f"the disks beneath were {b['lo']:.0%}–{b['hi']:.0%} busy ({b['column']} in these files)" if b and
            round(100 * b["lo"]) != round(100 * b["hi"]) else
            f"the disks beneath were {b['hi']:.0%} busy ({b['column']} in these files)" if b else "")
    if facts.get("synced") and facts.get("through"):
        d = facts["through"]
        what = {"loop": "a loop device over an image file: as durable and as fast as the file beneath it, which "
                        "these files do not show",
                "dm": "a device-mapper device: as durable and as fast as the devices beneath it",
                "md": "an md software RAID array: as durable and as fast as its member disks",
                "nbd": "a network block device: as durable and as fast as the server beneath it",
                "rbd": "a Ceph RBD (network) block device: as durable and as fast as the cluster beneath it"}.get(
            facts["layer"], "a layer above the drives")
        from .layer_load import layer_load_words

        load = layer_load_words(facts.get("load"), d, BUSY_AT_LIMIT)
        if load:  # how loaded the layer was: "that layer's" is not "at that layer's limit" (round 25 EG)
            return (f"{head}, but every write was flushed (fsync/fdatasync after each) to {d}, {what}; each write "
                    f"waited for that layer, not for memory, and a drive's limits apply only below it{load}.")
        return (f"{head}, but every write was flushed (fsync/fdatasync after each) to {d}, {what}; the rates are "
                f"that layer's, not memory's, and a drive's limits apply only below it.")
    if facts.get("synced"):
        from .devices import _LAYER_WORDS, layer_of

        devs = facts.get("devices") or []
        lay = layer_of(devs[0]) if len(devs) == 1 else None
        if lay in _LAYER_WORDS:  # the device's kind, as for direct I/O (set after round 28 was read: vdafsync, MF)
            d = devs[0]
            own = (f"{d} was {b['lo']:.0%}–{b['hi']:.0%} busy ({b['column']} in these files)" if b and
                   round(100 * b["lo"]) != round(100 * b["hi"]) else
                   f"{d} was {b['hi']:.0%} busy ({b['column']} in these files)" if b else "")
            return (f"{head}, but every write was flushed (fsync/fdatasync after each): each waited for {d}, "
                    f"{_LAYER_WORDS[lay]}, so the rates are that device's, not memory's, and a drive's limits apply "
                    f"only below it" + (f"; {own}" if own else "") + ".")
        return (f"{head}, but every write was flushed (fsync/fdatasync after each): each waited for the device, so "
                f"the rates are the device's, not memory's" + (f"; {busy}" if busy else "") + ".")
    if facts.get("served") == "cache_writes" and facts.get("writes"):  # fio's count of the device's writes (r23 ZB)
        from .write_cache import write_words

        if not facts.get("direct_stated", True):
            head = "The runs did not ask for O_DIRECT (no direct=1 in these files)"
        return write_words(head, facts["writes"], ", ".join(facts.get("devices") or []) or "the device")
    w = facts.get("writeback")
    if facts.get("served") == "writeback" and w:
        devs = ", ".join(facts.get("devices") or []) or "the device"
        runs = (f"{w['runtime_lo_s']:.1f} s" if round(w["runtime_lo_s"], 1) == round(w["runtime_hi_s"], 1) else
                f"{w['runtime_lo_s']:.1f}–{w['runtime_hi_s']:.1f} s")
        from .devices import layer_of

        # a layer fio names (loop, dm …) is named, not "the device's … not memory's": what backs it is not in the
        # files (round 21, VH: loop0 over a tmpfs file)
        layers = [d for d in facts.get("devices") or [] if layer_of(d) in ("loop", "dm", "md", "nbd", "rbd")]
        whose = (f"{', '.join(layers)}'s (what lies beneath {'it' if len(layers) == 1 else 'them'} is not in the "
                 f"files)" if layers else "the device's beneath, not memory's")
        who = "each job's" if w.get("jobs") else "its"
        t = w.get("sync")
        from .sync_time import SYNC_HELD, sync_words

        if t is not None and t["sync"][0] >= SYNC_HELD:  # the jobs waited in their syncs (round 21, VA/VB)
            name = t["kind"] if t["kind"] in ("fsync", "fdatasync", "sync_file_range") else "its sync calls"
            one = t["jobs"] <= 1
            return (f"{head}: each run lasted {runs} (fio's runtime), while {sync_words(t)} (at most "
                    f"{w['writes_hi_s']:.2g} s of writes{'' if one else ' a job'}): the page cache took the writes, "
                    f"and {'the job' if one else 'each job'} waited "
                    f"in {name} for the write-back of its writes to {devs}, so the rates are that write-back's — {whose}.")
        return (f"{head}: each run lasted {runs} (fio's runtime, which includes writing back its dirty pages), while "
                f"{who} writes took at most {w['writes_hi_s']:.2g} s (fio's write latency × the writes): the page "
                f"cache took the writes, and the rest of each run waited for write-back to {devs}, so the rates are "
                f"that write-back's — {whose}.")
    if facts.get("served") == "device":
        return (f"{head}, but {busy}, at their limit at the busiest point: the device served the I/O, and the "
                f"rates are the device's, not memory's.")
    ctx = facts.get("ctx")
    if ctx is not None and "lat_hi" in ctx:  # no ctx in the files: the reads' latency and the job's CPU (round 23 ZF)
        from .wording import fmt_y, span

        lat = span(fmt_y(ctx["lat_lo"], "s"), fmt_y(ctx["lat_hi"], "s"))
        busy = span(f"{100 * ctx['cpu_lo']:.1f} %", f"{100 * ctx['cpu_hi']:.1f} %")
        return (f"{head}, and a read took {lat} (fio's mean latency, or 1 ÷ IOPS of a synchronous job where no latency "
                f"is given) while the job used {busy} of a CPU — below "
                f"{fmt_y(MEMORY_LATENCY, 's')}, faster than any storage device serves a read, with the job on CPU "
                f"throughout: memory (the page cache or a RAM file system) served the reads, no device's time is in "
                f"them, and the level is the CPU's.")
    if ctx is not None:
        from .wording import span

        lo_c, hi_c, lo_p, hi_p = (f"{ctx['ctx_lo']:,.0f}", f"{ctx['ctx_hi']:,.0f}", f"{ctx['per_lo']:.2f}",
                                  f"{ctx['per_hi']:.2f}")
        n = f"{span(lo_c, hi_c)} context switches for {span(_count(ctx['ios_lo']), _count(ctx['ios_hi']))} reads a run"
        busy = span(f"{100 * ctx['cpu_lo']:.0f} %", f"{100 * ctx['cpu_hi']:.0f} %")
        if ctx["kind"] == "memory":
            said = (f"{head}, and the job almost never slept: fio counted {n} (at most {ctx['per_hi']:.2g} per "
                    f"read) while it used {busy} of a CPU — memory (the page cache) served the reads, and none "
                    f"waited on a device")
        else:
            said = (f"{head}, and each read slept: fio counted {span(lo_p, hi_p)} "
                    f"context switches per read (ctx ÷ I/Os) while the job used {busy} of a CPU — the reads waited on "
                    f"another party, a device beneath or a user-space server (FUSE), which these files do not show; "
                    f"the page cache alone did not serve them")
        if facts.get("served") == "no_device":
            said += "; fio's disk statistics name no block device under the files"
        return said + "."
    if facts.get("memory_writes"):  # writes that never waited (round 28, MJ)
        from .memory_writes import memory_writes_words

        return memory_writes_words(head, facts["memory_writes"], facts.get("served") == "no_device")
    if facts.get("served") == "no_device" and facts.get("tmpfs"):
        return (f"{head}, through the page cache; the files lie under {facts['tmpfs']}, which Linux mounts as tmpfs, "
                f"and fio's disk statistics name no block device beneath them: served from memory (tmpfs pages), no device's time "
                f"is in the rates.")
    if facts.get("served") == "no_device":
        # no disk named proves no layer (fio names none under btrfs, ZFS, overlayfs …; round 10, JE): only what
        # direct=0 proves is said
        return (f"{head}, through the page cache; fio's disk statistics name no block device under the files, and "
                f"fio names none under tmpfs, btrfs, ZFS, overlayfs and network file systems alike: what lay beneath "
                f"the page cache is unknown from these files.")
    c = facts.get("reads")
    if facts.get("served") in ("cache", "split", "device_part") and c:
        from .devices import layer_of
        devs, n = ", ".join(facts["devices"]), c["runs"]

        def rate(lo_hi) -> str:
            from .wording import fmt_y

            lo, hi = lo_hi
            return fmt_y(lo, "B/s") if round(lo, -6) == round(hi, -6) else f"{fmt_y(lo, 'B/s')}–{fmt_y(hi, 'B/s')}"

        def reads(lo_hi) -> str:
            lo, hi = lo_hi
            return f"{lo:,.0f}" if lo == hi else f"{lo:,.0f}–{hi:,.0f}"

        if facts["served"] == "cache":
            return (f"{head}, and fio's disk statistics count no read on {devs} during any of the {n} runs: the page "
                    f"cache (memory) served every read, so the rates are memory's and the CPU's, not the device's.")
        # the device beneath said as what it is where its layer has words (a loop device over an image file …), as
        # the layer sentence says it (set after round 26 was read: r26_here-squashfs, "the device beneath" for
        # loop0, FD)
        beneath = _beneath_words(facts["devices"])
        if facts["served"] == "device_part" and facts.get("pages"):  # requests per page-sized read (round 22, XB)
            from .page_reads import page_words

            pg = facts["pages"]
            lay = layer_of(facts["devices"][0]) if len(facts["devices"]) == 1 else None
            return (f"{head}; fio's disk statistics count {reads(c['device_reads'])} read requests on {devs} in each "
                    f"run: {beneath} served reads in every run; {page_words(pg, devs, lay)}"
                    + ("" if pg["all_pages"] else "; above a page fio counts requests, not bytes, so how much the "
                       "page cache served there is not shown") + ".")
        if facts["served"] == "device_part":
            return (f"{head}; fio's disk statistics count {reads(c['device_reads'])} read requests on {devs} in each "
                    f"run: {beneath} served reads in every run (fio counts requests, not bytes, so how much "
                    f"the page cache served besides is not shown).")
        return (f"{head}, and the runs are of two kinds (fio's disk statistics, run by run): in {c['cache']} of the "
                f"{n} runs {devs} did no read — the page cache served them ({rate(c['cache_bps'])}) — and in the "
                f"other {n - c['cache']} it did {reads(c['device_reads'])} reads ({rate(c['device_bps'])}). The "
                f"points mix the two kinds, so no trend or level along them is read.")
    if busy:
        return (f"{head}; {busy}, short of their limit: the device was working, but how much of the I/O the page "
                f"cache (memory) served is not shown; read every limit below with that in mind.")
    if facts.get("devices"):
        return (f"{head}: fio's disk statistics name {', '.join(facts['devices'])} beneath the files, but how busy it "
                f"was is not in the results read here, so whether the page cache (memory) or the device served them "
                f"is unknown; a limit below may be either's.")
    return (f"{head}: no device-busy or disk statistics for the runs are in these files, so whether the page cache "
            f"(memory) or the device served them is unknown here; a limit below may be either's.")
