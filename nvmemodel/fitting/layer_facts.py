"""The layer that served the I/O: a network engine, a bypass, a device stack, reads faster than any drive (a cache),
hosts sharing a target, and what the block layer merged or split (fio's disk statistics).
"""

from __future__ import annotations

import re

import numpy as np

from ..jobs.fiooptions import BYPASS_ENGINES, METADATA_ENGINES, NO_STORAGE_ENGINES, PASSTHROUGH_TARGET
from .devices import (STACKING, device_busy, devices_per_point, layer_of, listed_devices, mapper_targets,
                      parallel_targets, side_by_side)
from .fact_base import Fact, pd_num
from .point_runs import possible_percentiles


#: fio engines that do their I/O over a network → the layer
NETWORK_ENGINES = {"rbd": "rbd", "nfs": "network_fs", "libiscsi": "network_block", "nbd": "nbd",
                   "http": "network_fs", "libcufile": "gpu_direct", "rados": "rbd", "libhdfs": "network_fs",
                   "gfapi": "network_fs", "gfapi_async": "network_fs"}


#: the fastest read a drive completes: Intel's Optane SSD P5800X, typical 4 KiB read latency "< 5 µs" (Intel's
#: P5800X product brief; recalled, not re-verified here). Its predecessor, the P4800X, measured 8.9 µs mean and 9 µs
#: median for 4 kB random reads at QD1 under fio (AnandTech 11209, "Checking Intel's Numbers"), against Intel's
#: "< 10 µs" typical. A path through another layer (a VM's disk, a network, a loop image) adds its own round trip.
READ_FLOOR_S = 5e-6
#: on a path with no layer named, a read is flagged only below this share of :data:`READ_FLOOR_S` (a drive may beat
#: its typical figure; fio's clock and the kernel's path are not the device's), so no real drive is called a cache
BARE_SHARE = 0.5
#: through a named layer a read is flagged at or below this share of :data:`READ_FLOOR_S`. Round 12 asked for a
#: margin (r12_here-vsync_loop_vsync_seqread_iodepth_repeats, NE, 4.96 µs), but 0.9 also drops blind5's kvm1 guest
#: (5.00 µs median through dm-0 over vda, read right by hand): left at 1 until a margin keeps both.
CLEAR = 1.0
#: engines whose reads a drive does not serve (memory, no I/O): no floor applies
NO_FLOOR_ENGINES = ("null", "cpuio", "mmap", "dev-dax", "libpmem", "pmemblk", "filecreate", "filestat", "filedelete")
#: disk-statistics names of memory-backed block devices (RAM disk, null_blk, persistent memory, zram): no floor
MEMORY_DEVICES = r"^(ram\d|nullb\d|pmem\d|zram\d)"


def _layer(result, p) -> Fact | None:
    """The layer that most likely served the I/O, from the result files' own record."""
    from .claim import runs_rows

    rows = runs_rows(result, p)
    if rows is None or not len(rows):
        return None
    engines = set(rows["ioengine"].dropna().astype(str)) if "ioengine" in rows else set()
    if engines and engines <= {"null", "cpuio"}:
        return None  # an engine that does no I/O: the CPU fact says so ("no device is involved"), once
    if engines and engines <= NO_STORAGE_ENGINES:
        # fio's engine touches no storage (net: TCP/UDP messages; set after round 10 was read: r10_dgfiobench_*, HF)
        path = {"net": "the network stack", "netsplice": "the network stack", "rdma": "the RDMA network"}.get(
            min(engines), "memory and the CPU")
        return Fact("layer", {"layer": "none", "devices": [], "engine": ", ".join(sorted(engines)), "path": path},
                    f"fio's {', '.join(sorted(engines))} engine touches no storage")
    bypass = _bypass(rows, engines)
    if bypass is not None:  # no page cache or block layer in the path: direct=0 and empty disk stats prove nothing
        return bypass
    if "direct" in rows and not (engines and engines <= METADATA_ENGINES):  # no data, no page cache (r13 PE)
        from .claim import stated

        d = stated(rows, "direct").dropna()  # a direct=0 the reader filled in proves nothing (round 11, KB)
        if len(d) and not bool(d.astype(bool).any()):  # what served them needs evidence (fitting/buffered.py)
            from .buffered import buffered_fact

            return Fact("layer", buffered_fact(rows), "the runs used buffered I/O (direct=0)")
        if not len(d):  # direct not stated: the page cache only where fio's own write count shows it (round 23 ZB)
            from .buffered import buffered_fact
            from .write_cache import device_writes

            if device_writes(rows) is not None and "devices" in rows and listed_devices(rows):
                b = buffered_fact(rows)
                if b["served"] == "cache_writes":
                    return Fact("layer", {**b, "direct_stated": False},
                                "fio's disk statistics count far fewer write requests than writes")
    if "devices" in rows:
        names = listed_devices(rows)
        stack = [(d, layer_of(d)) for d in names]
        layers = [lay for _, lay in stack if lay is not None]
        if layers:  # fio lists a layered device, then the disks beneath it: each is named, top to bottom, and the
            # fact's layer is the lowest (the one the others pass their I/O down to: a VM's vda under its dm-0)
            hit = [d for d, lay in stack if lay == layers[-1]]
            side = side_by_side(rows)  # the job's own targets are side by side, not stacked (round 6 BC)
            # devices one run at a time, differing from point to point: named per point (round 20, SA)
            apart = [] if side or any(lay in STACKING for lay in layers) or len(names) < 2 else \
                (devices_per_point(rows, result.x, p["x"].to_numpy(float)) or [])
            busy = device_busy(rows, hit, result.x, float(p["x"].iloc[-1]))  # fio's disk_util (round 20, SC)
            from .busy_window import busy_window  # which runs' busy share was their whole I/O time (round 28, MD)

            window = busy_window(rows, hit, result.x, busy)
            from .stacked_busy import unaccounted  # md's 0 % is no counter, not idleness (round 27, HB)

            blind = unaccounted(rows, hit, stack, busy,
                                lambda ns: device_busy(rows, ns, result.x, float(p["x"].iloc[-1])))
            from .cache_hits import reached  # reads that never reached the device (round 21, VC)

            from .cluster_site import directions, site  # a kernel rbd/nbd device's servers (round 28, KB)

            from .layer_load import direct_writes  # device writes per fio write under direct I/O (round 29, OE)

            writes = direct_writes(rows) if len(names) == 1 else None
            return Fact("layer", {"layer": layers[-1], "devices": hit, "all_devices": names, "stack": stack,
                                  **({"writes": writes} if writes else {}),
                                  "site": site(rows), "directions": directions(rows),
                                  "side_by_side": side, "per_point": apart, "busy": busy, "hits": reached(rows, result.x),
                                  **({"window": window} if window else {}),
                                  **({"unaccounted": blind} if blind else {})},
                        f"fio's disk statistics name one device a run, {', '.join(names)}" if apart else
                        f"fio's disk statistics name {(' and ' if side else ' over ').join(names)}")
    shared = _shared_between_hosts(rows)
    if shared is not None:
        return shared
    for engine, layer in NETWORK_ENGINES.items():
        if engines == {engine}:
            from .cluster_site import directions, site  # where the servers ran, as the rows say (round 28, KB)

            where = site(rows)
            return Fact("layer", {"layer": layer, "devices": [], "engine": engine, "site": where,
                                  "directions": directions(rows)},
                        f"fio's {engine} engine sends every I/O to the storage servers"
                        + (" on this same node, over loopback" if where == "same_node" else
                           " over the network" if where == "elsewhere" else ""))
    from .memory_target import memory_target  # a target the files name as memory (round 32, UA)

    mem = memory_target(rows)
    if mem is not None:
        return Fact("layer", {"layer": "memory", "devices": [], **mem},
                    f"the files name the target as memory ({mem['what']})")
    if "devices" in rows and "format" in rows and "target_names" in rows:
        fmt = rows["format"].astype(str)
        devs = rows["devices"].astype(object).fillna("").astype(str)
        targets = rows["target_names"].dropna().astype(str)
        # fio's JSON lists the block devices under the files it used; none at all under files (not /dev nodes)
        # proves no layer: fio maps a file's st_dev to no disk under btrfs, ZFS, overlayfs, network and memory file
        # systems alike (set after round 10 was read: r10_swissknife_lvm-nvme-btrfs_…, btrfs on dm-3 over nvme1n1, JE)
        windows = targets.str.contains(r"^[A-Za-z]:|\\", regex=True).any()  # fio on Windows keeps no disk stats
        if fmt.str.startswith("fio-json").all() and (devs == "").all() and len(targets) and not windows \
                and not targets.str.startswith("/dev/").any():
            return Fact("layer", {"layer": "unknown", "devices": [], "targets": sorted(set(targets))[:3]},
                        "fio's disk statistics list no block device under the files the jobs used")
    bps = p["bytes_per_s"].to_numpy(float)
    # normal output echoes no filename=: fio's disk stats still count them (a stacked device and its drive once)
    targets = parallel_targets(rows)
    counted = any(col in rows and pd_num(rows[col]).notna().any() for col in ("targets", "device_count"))
    top = link_limit()
    if np.isfinite(bps).any() and np.nanmax(bps) / max(targets, 1.0) > top[0]:
        # an empty count is no count of one: several drives striped or side by side carry more than one link, so
        # without a count no drive is excluded (set after round 15 was read: TA, r15_wickist-rcraid md RAID0 of
        # 4×990 PRO, 27.7 GB/s said "per target" and "no drive-level limit explains them")
        return Fact("layer", {"layer": "beyond_device", "limit": top[0], "gen": top[1], "counted": counted,
                              "per_target": float(np.nanmax(bps) / max(targets, 1.0))},
                    f"more bytes per second {'per target ' if counted else ''}than a Gen{top[1]} x4 link carries")
    mapper = mapper_targets(rows)  # a device-mapper target, no member listed (round 21, WD)
    if mapper:
        return Fact("layer", {"layer": "dm", "devices": [], "targets": mapper, "mapper": True},
                    f"the jobs' target{'s' if len(mapper) > 1 else ''} {', '.join(mapper)} "
                    f"{'are device-mapper volumes' if len(mapper) > 1 else 'is a device-mapper volume'}")
    from .devices import vm_described  # a target described as a VM's virtual disk (round 27, GG)

    vm = vm_described(rows)
    if vm is not None:
        return Fact("layer", {"layer": vm, "devices": [], "described": True},
                    "the jobs' target is described as a virtual disk inside a VM (the files list no disk statistics)")
    return None


def _bypass(rows, engines: set) -> Fact | None:
    """The layer fact of runs whose engine (:data:`~nvmemodel.jobs.fiooptions.BYPASS_ENGINES`) or target (an NVMe or
    SCSI generic character node, an SPDK transport ID) goes around the page cache and the block layer, when fio's disk
    statistics name no device: the engine explains the empty statistics, once (round 13, QB and PA)."""
    if not engines:
        return None
    targets = rows["target_names"].dropna().astype(str) if "target_names" in rows else None
    char = targets is not None and len(targets) and targets.str.contains(PASSTHROUGH_TARGET, regex=True).all()
    if not (engines <= BYPASS_ENGINES or char):
        return None
    if "devices" in rows and rows["devices"].astype(object).fillna("").astype(str).ne("").any():
        return None
    engine = ", ".join(sorted(engines))
    return Fact("layer", {"layer": "bypass", "devices": [], "engine": engine,
                          "user_space": engines <= {"spdk", "spdk_bdev"}},
                f"fio's {engine} engine reaches the device around the kernel's block layer")


def _cache_served(result, p, layer: Fact | None) -> Fact | None:
    """Points whose reads completed faster than any drive can serve them through the path the files name: a direct
    (``direct`` not 0) read at one I/O in flight per job (any number of jobs) whose median (else mean) latency is at
    or below :data:`READ_FLOOR_S` through a layer that adds a round trip (a VM's disk, a network, a loop image, device-mapper, md), or below
    :data:`BARE_SHARE` of it with no layer named. The verdict is the series': every point (one way for every run —
    one loop image, or no device — with every run's reads reaching it where fio counts them), else only points far
    from the rest (≥ 2× the floor apart: blind5's kvm1 guest, 5 µs at 4 KiB through dm-0 over vda between 310 and
    486 µs, part 2 #9), which are left out of the size and CPU comparisons; else none. Memory-backed devices and
    engines (``ram*``, ``nullb*``, ``pmem*``, the null and mmap engines …) have no floor."""
    from .claim import runs_rows
    from .curves import synchronous

    rows = runs_rows(result, p)
    if rows is None or not len(rows) or result.x not in rows or "direction" not in rows:
        return None
    if layer is not None and layer.facts.get("layer") in ("page_cache", "beyond_device", "none", "memory"):
        return None  # buffered I/O is the page cache's already; beyond a link: the layer fact says it
    if "ioengine" in rows and rows["ioengine"].dropna().astype(str).isin(NO_FLOOR_ENGINES).any():
        return None
    if "devices" in rows and any(re.match(MEMORY_DEVICES, d) for d in listed_devices(rows)):
        return None
    r = rows[rows["direction"].astype(str) == "read"]
    if "direct" in r:
        d = r["direct"]
        r = r[~(d.notna() & ~d.astype(object).fillna(True).astype(bool))]  # direct=0 rows: the page cache's
    if not len(r) or "numjobs" not in r:
        return None
    depth = pd_num(r["iodepth"]) if "iodepth" in r else None
    sync = synchronous(r)
    # one I/O in flight per job, however many jobs: each job's latency is one read's (set after round 14 was read:
    # r14_here-nrreq_loop-nrreq4_psync_randread_numjobs, 4.6-7.4 µs medians at every numjobs, numjobs = 1 alone
    # flagged, SC)
    one = (depth == 1) | sync if depth is not None else sync
    r = possible_percentiles(r[one.fillna(False).astype(bool)])
    lat, how = None, ""
    for col, what in (("lat_p50_s", "median"), ("clat_p50_s", "median"), ("lat_mean_s", "mean"),
                      ("clat_mean_s", "mean")):
        if col in r and pd_num(r[col]).notna().any():
            lat, how = pd_num(r[col]), what
            break
    if lat is None:
        return None
    if col.startswith("clat_") and "slat_mean_s" in r and pd_num(r["slat_mean_s"]).notna().any():
        # a drive's figure is the whole read: completion leaves out fio's submission, ≈ 3 µs through libaio (set
        # after round 12 was read: r12_here-sched_loop-bfq_libaio_randread_iodepth_repeats, NE, 4.70 µs + 3.53 µs)
        lat, how = lat + pd_num(r["slat_mean_s"]).fillna(0.0), f"{how} completion + mean submission"
    layered = layer is not None and layer.facts.get("layer") not in ("unknown", "bypass")  # no layer's round trip
    floor = (CLEAR if layered else BARE_SHARE) * READ_FLOOR_S
    per_x = lat.groupby(pd_num(r[result.x])).median()
    hits = [(float(x), float(v)) for x, v in per_x.items() if np.isfinite(v) and (v <= floor if layered else v < floor)]
    if not hits:
        return None
    from .claim import stated

    direct = bool("direct" in r and stated(r, "direct").notna().all() and r["direct"].astype(bool).all())
    # the verdict is the series', not each point's against a threshold: where every run went one way — the same loop
    # image beneath (a loop device's backing is one file), or no device at all — and fio's disk statistics, where
    # they count, show every read run's reads reaching it, the fastest reads say what that way is, and every point
    # was served by it (set after round 15 was read: r15_here-ext4 nrfiles32 numjobs, 4.70-5.09 µs medians over
    # loop0 at every numjobs, numjobs = 4 left "device" at 5.09 µs, UD); a path that is a VM's disk or a drive may
    # hit a cache in one run only (r5_nknytk kvm1: 4 KiB 5 µs between 310 and 486 µs at 512 B and 32 KiB)
    devs = rows["devices"].astype(object).fillna("").astype(str) if "devices" in rows else None
    one_way = devs is not None and devs.nunique() == 1 and (layer is not None and layer.facts.get("layer") == "loop"
                                                         or devs.iloc[0] == "")
    counts = pd_num(r["disk_read_ios"]) if "disk_read_ios" in r else None
    if one_way and counts is not None and counts.notna().any():
        one_way = bool(counts.notna().all() and (counts > 0).all())
    rest = per_x[~per_x.index.isin([h[0] for h in hits])].dropna()
    every = one_way or len(hits) >= len(p)
    if not every and not (rest > 2 * floor).all():
        return None  # a threshold's hair between points of one path the files do not show: none is said to be served
    pts = [min(hits, key=lambda h: h[1])] if every else hits  # kvm1's 4 KiB alone: a cache hit in that run only
    return Fact("cache", {"points": [(x, v, how) for x, v in pts], "floor_s": floor, "direct": direct, "every_point": every,
                          "device_floor_s": READ_FLOOR_S, "layered": layered,
                          "reads": (float(counts.min()), float(counts.max()))
                          if counts is not None and counts.notna().any() and one_way else None,
                          "path": list(layer.facts.get("all_devices") or layer.facts.get("devices") or [])
                          if layer is not None else []},
                f"a direct read at one I/O in flight with a {how} latency "
                f"{'at or below' if layered else 'below'} {floor * 1e6:g} µs")


def _shared_between_hosts(rows) -> Fact | None:
    """A network file system, from what any tool's results say: every run was driven from several client hosts at
    once (a ``hosts`` count > 1: elbencho ``--hosts``, a multi-client run) against one path that is not a block
    device node, and no local block device is recorded under it. One namespace written from several machines at
    once is shared storage reached over the network (NFS, Lustre, a burst buffer …); several hosts each testing
    their own disk record that disk (fio's disk statistics) or a ``/dev`` path, and are left alone."""
    if "hosts" not in rows:
        return None
    hosts = pd_num(rows["hosts"])
    if not (hosts.notna().all() and (hosts > 1).all()):
        return None
    col = next((c for c in ("target_names", "path", "filename") if c in rows), None)
    paths = sorted(set(rows[col].dropna().astype(str))) if col else []
    devs = rows["devices"].astype(object).fillna("").astype(str) if "devices" in rows else None
    if len(paths) != 1 or paths[0].startswith("/dev/") or (devs is not None and (devs != "").any()):
        return None
    tool = ""
    if "tool" in rows:
        tools = set(rows["tool"].dropna().astype(str))
        tool = tools.pop() if len(tools) == 1 else ""
    n = int(hosts.min()) if hosts.min() == hosts.max() else None
    who = f"{n} client hosts" if n else f"{int(hosts.min())}–{int(hosts.max())} client hosts"
    return Fact("layer", {"layer": "network_fs", "devices": [], "targets": paths, "hosts": float(hosts.max()),
                          "tool": tool},
                f"{who} drove every run{f' ({tool})' if tool else ''} against one path, {paths[0]}, with no local "
                f"block device recorded")


def total_latency(result, p) -> bool:
    """Whether the curve's mean latency is fio's total one (submission + completion: ``lat_mean_s`` in every run,
    read from fio's own output). A completion latency leaves out the submission, and a table typed from text may
    hold either under "Lat=": IOPS × such a latency ÷ outstanding I/O is no in-flight share, and no cause is read
    from it (set after round 13 was read: r13_cephpr27392 iouring/libaio bs, PC: "only 60 % were in flight … what
    submits the I/O held it" from a latency whose kind the source does not state)."""
    from .claim import runs_rows

    rows = runs_rows(result, p) if "sources" in p else None
    if rows is None or not len(rows) or "lat_mean_s" not in rows or pd_num(rows["lat_mean_s"]).isna().any():
        return False
    return not ("format" in rows and (rows["format"].astype(object).fillna("").astype(str) == "transcribed").any())


def link_limit() -> tuple[float, int]:
    """The bytes per second one direction of an x4 link of the newest PCIe generation among the catalogued drives
    carries after encoding (protocol overhead only lowers it), and that generation."""
    from ..standards import pcie as sp
    from ..topology.drive import drive_catalog

    gen = int(max(d.gen for d in drive_catalog().values()))
    return float(4 * sp.GT_PER_S[gen] * 1e9 * sp.ENCODING[gen] / 8.0), gen


def _merged(result, p, sat) -> Fact | None:
    """fio's I/Os per device I/O where the block layer merged them (:func:`~nvmemodel.fitting.merges.merge_facts`)."""
    from .claim import runs_rows
    from .merges import MERGED, merge_facts

    m = merge_facts(runs_rows(result, p), p, sat.facts["state"] if sat is not None else None)
    return None if m is None else Fact("merged", m, f"fio's disk statistics count more than {MERGED:g} fio "
                                                    f"{m['direction']}s per {m['device']} {m['direction']}")


def _split(result, p) -> Fact | None:
    """Several device I/Os per fio I/O from some size on: the block layer split them
    (:func:`~nvmemodel.fitting.merges.split_facts`; round 20, RD)."""
    from .claim import runs_rows
    from .merges import SPLIT, split_facts

    m = split_facts(runs_rows(result, p), p)
    return None if m is None else Fact("split", m, f"fio's disk statistics count at least {SPLIT:g} times as many "
                                                   f"{m['device']} {m['direction']}s per fio {m['direction']} at the "
                                                   f"larger sizes as at the smaller")
