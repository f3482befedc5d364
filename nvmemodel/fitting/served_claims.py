"""What served the I/O and how it was reshaped on the way: the layer (network, device stack, a file system), a cache
that served reads faster than any drive, merges and splits by the block layer, and the fan-out over devices.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .axes import DEVICES
from .devices import _LAYER_WORDS, BUSY, stack_words
from .evidence import TRUST_R2
from .fact_base import FLAT, CurveFacts
from .fact_words import _bytes, _claim, _xv
from .wording import _count, _fx, _r2, fmt_y, span


#: what is said of a series whose runs fio's disk statistics split into cache-served and device-served ones: the
#: facts of the runs (layer, CPU, Little's law, cautions), no trend, level or model read across the two kinds (set after
#: round 14 was read: r14_here-ra_loop-ra2560k's "+146 %, beyond the repeat noise" between cache hits and misses, SE)
_OF_RUNS = {"layer", "cache", "cpu", "little", "caution"}


def one_kind(cf: CurveFacts, claims: list) -> list:
    """``claims``, less every reading along the points where the layer fact split the runs into two kinds."""
    split = cf.layer is not None and cf.layer.facts.get("served") == "split"
    return [c for c in claims if c.kind in _OF_RUNS] if split else claims


def layer_claims(result, cf: CurveFacts) -> list:
    """The layer that served the I/O, then any point faster than a drive through it (:func:`cache_claims`)."""
    from .disk_counts import uncounted_claims  # a device named with no I/O counted on it (round 19, TF)

    return (_layer_claim(result, cf) + uncounted_claims(result, cf) + cache_claims(result, cf)
            + merge_claims(result, cf) + split_claims(result, cf))


def _grows_per_device(result, cf: CurveFacts) -> bool:
    """Along devices, a rate per device that grows at every count (device_steps.grows_per_device, round 30 PD)."""
    from .device_steps import grows_per_device
    from .linear_scaling import noun_of as _noun

    if _noun(result.x) is None or cf.points is None or len(cf.points) < 3:
        return False
    p = cf.points.sort_values("x")
    return grows_per_device(p["x"].to_numpy(float), p["y"].to_numpy(float)) is not None


def _memory_rates(result, cf: CurveFacts) -> tuple:
    """(the peak bytes/s, ", X a job at the peak" where the rows give more than one job) for a memory target's
    sentence (round 32, UA)."""
    from .claim import runs_rows

    p = cf.points
    if p is None or not len(p) or "bytes_per_s" not in p:
        return None, ""
    bps = p["bytes_per_s"].to_numpy(float)
    if not np.isfinite(bps).any():
        return None, ""
    i = int(np.nanargmax(bps))
    rows = runs_rows(result, p)
    per_job = ""
    if rows is not None and "numjobs" in rows and "iops" in p and result.x in rows:
        at = rows[pd.to_numeric(rows[result.x], errors="coerce") == float(p["x"].iloc[i])]
        jobs = pd.to_numeric(at["numjobs"], errors="coerce").dropna().unique()
        iops = float(p["iops"].iloc[i])
        if len(jobs) == 1 and jobs[0] > 1 and np.isfinite(iops):
            per_job = (f"; at the peak ({result.x} = {_xv(result, float(p['x'].iloc[i]))}) {fmt_y(iops, '1/s')} "
                       f"over {jobs[0]:g} jobs is {fmt_y(iops / jobs[0], '1/s')} a job")
    return float(bps[i]), per_job


def _layer_claim(result, cf: CurveFacts) -> list:
    f = cf.layer
    if f is None:
        return []
    layer = f.facts["layer"]
    if layer in ("page_cache", "buffered_device") or "served" in f.facts:  # buffered I/O: what served it (buffered.py)
        from .buffered import buffered_sentence

        text = buffered_sentence(f.facts)
        from .page_reads import missed_layer

        if (lay := missed_layer(f.facts)) is not None:  # every page-sized read went to the device (round 22, XB)
            return [_claim("layer", text, f, layer=lay)]
    elif layer == "none":  # said once, with no drive words (round 10, HF)
        text = (f"fio's {f.facts['engine']} engine touches no storage (its I/O goes through {f.facts['path']} only): "
                f"no drive, file system or page cache set these rates.")
    elif layer == "bypass":  # the engine explains the empty disk statistics, said once (round 13, QB and PA)
        how = ("drives the device from user space: no kernel block layer" if f.facts.get("user_space") else
               "passes its commands to the device through a character device: no block device")
        text = (f"fio's {f.facts['engine']} engine {how}, so fio's disk statistics are empty, and no page cache, "
                f"whatever direct says.")
    elif layer == "unknown":  # no disk named is no layer proved (round 10, JE): the claim names none
        return [_claim("layer", f"{f.evidence[0].upper()}{f.evidence[1:]}, and fio names none under btrfs, ZFS, "
                                f"overlayfs, network and memory file systems alike: what lay beneath the files is "
                                f"unknown from them.", f, layer=None)]
    elif layer == "memory":  # the files name the target as memory: no drive or link words (round 32, UA)
        from .memory_target import memory_words

        text = memory_words(f.facts, *_memory_rates(result, cf))
    elif layer == "beyond_device" and not f.facts.get("counted", True):  # no count of targets (round 15, TA)
        text = (f"{fmt_y(f.facts['per_target'], 'B/s')} is more than the x4 link of one Gen{f.facts['gen']} drive "
                f"carries ({fmt_y(f.facts['limit'], 'B/s')} after encoding), and the files do not count the drives: "
                f"not one drive — several drives (striped or side by side), memory or a cache served these I/Os.")
    elif layer == "beyond_device" and _grows_per_device(result, cf):  # the rate per device grows with the count
        # (set after round 30 was read: PD, r30_scyllaio … i8g … read-bw, a total ∝ n² told "a layer above the drives
        # (a cache, …) served these I/Os")
        from .linear_scaling import noun_of

        text = (f"{fmt_y(f.facts['per_target'], 'B/s')} per {noun_of(result.x) or 'target'} is more than the x4 link "
                f"of a Gen{f.facts['gen']} drive carries ({fmt_y(f.facts['limit'], 'B/s')} after encoding), and the "
                f"rate per {noun_of(result.x) or 'target'} grows with the count: no drive-level limit explains these "
                f"figures, and nothing in the files shows what served them (a cache would give a level, not a rate "
                f"per device that grows with the count) — they need checking.")
    elif layer == "beyond_device":
        text = (f"{fmt_y(f.facts['per_target'], 'B/s')} per target is more than the x4 link of a Gen{f.facts['gen']} "
                f"drive carries ({fmt_y(f.facts['limit'], 'B/s')} after encoding): not one drive — memory, a cache or "
                f"several drives served these I/Os, and no single drive's limit explains them.")
    elif f.facts.get("mapper"):  # a /dev/mapper target, no member listed (round 21, WD: devices.mapper_targets)
        one = len(f.facts["targets"]) == 1
        text = (f"{f.evidence[0].upper()}{f.evidence[1:]} (LVM, dm-crypt, a stripe, multipath …): the rates are "
                f"{'that volume' if one else 'those volumes'}'s, and fio's disk statistics list no device, so "
                f"{'its' if one else 'their'} members — and which of them held the rate — are not in the files.")
    else:
        what = _LAYER_WORDS[layer]
        if layer == "network_fs" and f.facts.get("hosts"):
            what = "a network file system (one namespace written from several hosts at once: NFS, a parallel file system, a burst buffer …)"
        said = (f"fio's disk statistics name {', '.join(f.facts['devices'])}" if f.facts.get("devices") else
                f"{f.evidence[0].upper()}{f.evidence[1:]}")
        stack = f.facts.get("stack") or []
        named = list(dict.fromkeys(lay for _, lay in stack if lay is not None))
        if f.facts.get("per_point"):  # one device a run, each point its own (set after round 20 was read, SA)
            said = ("fio's disk statistics name one device a run, each point on its own: "
                    + ", ".join(f"{d} at {_xv(result, v)}" for v, d in f.facts["per_point"]))
        elif f.facts.get("side_by_side") and len(f.facts["side_by_side"]) == len(stack):  # the job's targets (round 6)
            said = f"fio's disk statistics name {stack_words([d for d, _ in stack])}, the job's targets side by side"
        elif len(stack) > 1:  # every layer fio lists, top to bottom (blind5's dm-0 over a VM's vda, part 2 AE)
            said = f"fio's disk statistics name {stack_words([d for d, _ in stack])}"  # md0 over sdb and sdc (r7 CD)
            what = ", then ".join(_LAYER_WORDS[lay] for lay in named)
        one = len(named) <= 1
        whose = "that layer's" if one else "those layers'"
        from .cluster_site import rates_words  # where the servers ran, reads vs writes (round 28, KB)

        top = named[-1] if named else layer
        rates = rates_words(top, f.facts.get("site"), f.facts.get("directions") or [])
        below = f"a drive's limits apply only below {'it' if one else 'them'}"
        busy = f.facts.get("busy")
        hits = f.facts.get("hits")
        if hits and not rates:  # most reads never reached the device (round 21, VC: cache_hits.py)
            from .cache_hits import reached_sentence

            return [_claim("layer", reached_sentence(hits, said, what, result.x, lambda v: _xv(result, v)), f,
                           **({"layer": "page_cache"} if hits["ruled_out"] or hits["ruled_at"] else {}))]
        if f.facts.get("unaccounted") and not rates:  # md's 0 % is a counter it does not keep (round 27, HB)
            from .stacked_busy import unaccounted_words

            text = f"{said}: the I/O went through {what}; {unaccounted_words(f.facts['unaccounted'], result.x)}."
        elif busy is not None and not rates:  # what fio's disk_util shows, not a rate the layer set (round 20, SC)
            lo, hi = format(100 * busy["lo"], ".0f"), format(100 * busy["hi"], ".0f")
            devs = f.facts["devices"]
            who = devs[0] if len(devs) == 1 else "each point's device" if f.facts.get("per_point") else "each of them"
            shown = (f"fio's disk_util shows {who} "
                     f"{lo + ' %' if lo == hi else f'{lo}–{hi} %'} busy a run "
                     f"(the share of the job's time, ramp included, with a request at the device)")
            if f.facts.get("writes"):  # the device's writes per fio write under direct I/O (round 29, OE)
                from .layer_load import layer_load_words

                shown += layer_load_words(f.facts["writes"], devs[0], 1.0)
            win = f.facts.get("window")
            if win and (win["busy_x"] or win["mixed_x"] or win.get("counter_x")):  # busy for the whole I/O time at some points (round 28, MD)
                from .busy_window import window_words

                text = f"{said}: the I/O went through {what}; {shown}; {window_words(win, devs[0], result)}; {below}."
            elif busy["idle"]:
                text = (f"{said}: the I/O went through {what}; {shown}: idle part of every run, so the layer alone "
                        f"did not hold the rate; {below}.")
            elif busy["busy_last"]:  # busy is not saturated (a device may serve requests in parallel): no rate
                text = (f"{said}: the I/O went through {what}; {shown}, at least {BUSY:.0%} in every run at the "
                        f"largest {result.x}; {below}.")
            else:
                text = f"{said}: the I/O went through {what}; {shown}; {below}."
        else:
            text = (f"{said}: the I/O went through {what}; "
                    + (f"{rates}." if rates else f"its rates are {whose}, and {below}."))
    return [_claim("layer", text, f)]


def cache_claims(result, cf: CurveFacts) -> list:
    """Points faster than any drive through the path the files name (:func:`~nvmemodel.fitting.facts._cache_served`)."""
    f = cf.cache
    if f is None:
        return []
    s = f.facts
    at = "; ".join(f"at {result.x} = {_xv(result, x)}, a {how} read latency of {fmt_y(lat, 's')}"
                   for x, lat, how in s["points"])
    floor = fmt_y(s["device_floor_s"], "s")
    path = (f"and the path through {' over '.join(s['path'])} adds its own round trip to that" if s["path"] else
            "and the path through the layer adds its own round trip to that") if s["layered"] else \
        f"and this is below half of that"
    hits = (cf.layer.facts.get("hits") or {}) if cf.layer is not None else {}  # direct ruled out (round 21, VC)
    direct = "with direct I/O" if s.get("direct") else "the reads buffered (direct I/O ruled out, above)" if hits.get(
        "ruled_out") else "with direct I/O not ruled out (the files do not record it)"
    who = (f"{'' if s.get('direct') else 'the page cache; ' if hits.get('ruled_out') else 'the page cache, had the reads been buffered; '}a host's page cache beneath "
           f"a VM's disk, memory beneath a loop image, or a cache in the layer")
    head = (f"Faster than any drive: {at}, at one I/O in flight per job{',' if hits.get('ruled_out') and not s.get('direct') else ''} {direct}. No drive completes a read that fast "
            f"— the fastest, Intel's Optane SSD P5800X, is specified at about {floor} (its product brief), {path}.")
    if s.get("every_point"):
        way = (f" Every run went the same way (fio's disk statistics: {' over '.join(s['path'])} in every run"
               + (", " + span(*(f"{n:,.0f}" for n in s["reads"])) + " reads a run" if s.get("reads") else "")
               + "):" if s["path"] else " No run names a device:")
        text = f"{head}{way} memory or a cache served every point ({who}), not a drive: the rates are not a drive's."
    else:
        one = len(s["points"]) == 1
        text = (f"{head} A cache served {'this point' if one else 'these points'} ({who}), not the device: "
                f"{'it is' if one else 'they are'} left out of the size and CPU comparisons.")
    return [_claim("cache", text, f)]


def merge_claims(result, cf: CurveFacts) -> list:
    """fio's I/Os per device I/O where the block layer merged them (:mod:`~nvmemodel.fitting.merges`), and on a
    fall whether the device's I/Os rose or fell with fio's (round 18, QC)."""
    f = cf.merged
    if f is None:
        return []
    from .merges import MERGED

    s, x = f.facts, result.x
    d, r, n = s["direction"], s["ratio"], len(s["ratio"])
    said = list(dict.fromkeys([0, s["first_merged"], s["most"], n - 1]))
    tag = {s["first_merged"]: " (the first above 2)" if s["first_merged"] else "", s["most"]: " (the most)"}
    steps = ", ".join(f"{r[i]:.3g} at {x} = {_xv(result, s['x'][i])}{tag.get(i, '')}" for i in said)
    m, sizes = s["most"], np.asarray(s["fio_size"], float)
    one = sizes.max() <= 1.01 * sizes.min()  # one I/O size at every point (not a block-size series)
    fios = f"fio's {_bytes(float(np.median(sizes)))} {d}s" if one else f"fio's {d}s"
    text = (f"fio's disk statistics count the {d}s {s['device']} completed: fio {d}s per device {d} {steps} — "
            f"above {MERGED:g} at {s['merged']} of the {n} points: there the block layer merged {fios} into larger "
            f"device {d}s. At {x} = {_xv(result, s['x'][m])}: {_count(s['device_ios'][m])} device {d}s for fio's "
            f"{_count(s['fio_ios'][m])} in a run, at least {_bytes(s['device_size_lo'][m])} of fio's data each and "
            f"at most {_count(s['device_rate_hi'][m])} device {d}s/s"
            + (f" — the IOPS measured count {fios}, not the device's" if result.y_unit == "1/s" else "")
            + ". fio counts the device's I/Os from the job's start, any ramp_time included, and its own only after "
              "the ramp: the ratios and sizes are lower bounds, the device's rate an upper one.")
    fall = s.get("fall")
    if fall is not None:
        k, j = fall["from"], fall["to"]
        fio = (s["fio_ios"][k], s["fio_ios"][j])
        dev = (s["device_ios"][k], s["device_ios"][j])
        way = (f"while the device's rose ×{dev[1] / dev[0]:.3g}" if dev[1] > dev[0] else
               f"and the device's fell too (×{dev[1] / dev[0]:.3g})")
        text += (f" From the peak at {x} = {_xv(result, s['x'][k])} to {x} = {_xv(result, s['x'][j])} (runs of "
                 f"{s['runtime_s'][k]:.3g} s each) fio's {d}s fell {1 - fio[1] / fio[0]:.0%} a run ({_count(fio[0])} "
                 f"→ {_count(fio[1])}) {way} ({_count(dev[0])} → {_count(dev[1])}): fio {d}s per device {d} "
                 f"{r[k]:.3g} → {r[j]:.3g}"
                 + (f" — the device completed more {d}s, each carrying fewer of fio's: the fall came with less "
                    f"merging, not with fewer device {d}s." if dev[1] > dev[0] else "."))
    return [_claim("layer", text, f, layer=None)]


def split_claims(result, cf: CurveFacts) -> list:
    """Device I/Os per fio I/O where the block layer split fio's I/Os from some size on
    (:func:`~nvmemodel.fitting.merges.split_facts`), and what that means for the I/O in flight at the device
    (set after round 20 was read: r20_nerdst_nvme-p7_randread_qd1_bs, RD)."""
    f = cf.split
    if f is None:
        return []
    s, x = f.facts, result.x
    d, dev, k, j = s["direction"], s["device"], s["first"], s["below"]
    lo, hi = s["lo"][k], s["hi"][k]
    whole = [n for n in range(2, int(np.ceil(hi)) + 2) if 0.97 * lo <= n <= 1.03 * hi]
    many = f"{whole[0]}" if len(whole) == 1 else f"{lo:.3g}–{hi:.3g}"
    by_size = x == "block_size_bytes"
    sz = [float(v) for v in (s["x"] if by_size else s["fio_size"])]
    size = _bytes(sz[k])
    parts = (f"about {_bytes(sz[k] / whole[0])}" if len(whole) == 1 else f"{_bytes(sz[k] / hi)}–{_bytes(sz[k] / lo)}")
    at = [i for i, v in enumerate(s["split"]) if v]
    where = (f"at {x} = {_xv(result, s['x'][k])}" if len(at) == 1 else
             f"from {x} = {_xv(result, s['x'][k])} on ({', '.join(format(s['hi'][i], '.4g') for i in at)})")
    base = span(f"{s['base_lo']:.4g}", f"{s['base']:.4g}")
    text = (f"fio's disk statistics count {hi:.4g} {dev} {d}s per fio {d} {where}, against {base} at the smaller "
            f"sizes (up to {x} = {_xv(result, s['x'][j])}): each {size} {d} reached {dev} as {many} device {d}s "
            f"of {parts} (split on the way: a request-size limit of the device's queue such as max_sectors_kb, the "
            f"device's own maximum transfer, or a file system above it)"
            + ("" if s["direct"] else " — the files do not record direct I/O, but at the smaller sizes every run "
                                      "counted one device I/O per fio I/O, as direct I/O does")
            + ".")
    p = cf.points
    out = float(p["out"].iloc[k]) if "out" in p else np.nan
    lat = p["lat"].to_numpy(float) if "lat" in p else np.full(len(p), np.nan)
    if np.isfinite(out) and out > 0:
        n = f"{whole[0] * out:g}" if len(whole) == 1 else f"{int(np.floor(hi * out + 1e-9))}"
        text += f" With {out:g} I/O outstanding in fio, the device had up to {n} {d}s in flight at {size}"
        if np.isfinite(lat[[j, k]]).all():
            text += (f": each fio {d} there ended when the last of its {many} device {d}s did ({fmt_y(lat[k], 's')} "
                     f"against {fmt_y(lat[j], 's')} at {_bytes(sz[j])}) — not one device {d}'s time")
            if abs(lat[k] / lat[j] - 1) <= FLAT and sz[k] >= 1.5 * sz[j]:
                text += (f"; ×{sz[k] / sz[j]:.3g} the bytes in about the same time, the parts served at once, "
                         f"which is why bytes/s grew with the size at a flat time per fio {d}")
        text += "."
    if result.y_unit == "1/s":
        text += f" The IOPS measured count fio's {d}s, not the device's."
    text += (f" fio counts the device's I/Os from the job's start, any ramp_time included, and its own only after "
             f"the ramp: {hi:.4g} is an upper bound"
             + (f"; divided by the smaller sizes' {s['base']:.4g} it gives {lo:.4g}, a lower one." if lo < hi else
                ", and the smaller sizes' count (at most 1) leaves no ramp to take off."))
    return [_claim("layer", text, f, layer=None)]


#: load axes that add devices, not concurrent requests: along them a fixed number of jobs spreads over more devices
DEVICE_AXES = DEVICES


def synced_words(result) -> str:
    """' every write was followed by an fsync (fsync=1)' where every write row of the table records one (ingest's
    ``fsync_every`` / ``fdatasync_every``), else ''."""
    import pandas as pd

    from ..ingest.summary import usable_rows

    tbl = result.table
    if tbl is None or "direction" not in tbl:
        return ""
    rows = usable_rows(tbl)
    rows = rows[rows["direction"] == "write"]
    for col, name in (("fsync_every", "fsync"), ("fdatasync_every", "fdatasync")):
        v = pd.to_numeric(rows[col], errors="coerce") if col in rows else None
        if v is not None and not rows.empty and v.notna().all() and (v == 1).all():
            return f"every write was followed by an {name} ({name}=1)"
    return ""


def fan_out_claim(result, cf: CurveFacts | None, r2: float):
    """A USL fit along an axis of devices at a load that did not grow with it (the jobs the same at every point): σ
    and κ are not read as contention or coherency between concurrent requests — the time per I/O is described instead
    (round 5, read before this rule: one fsync=1 job over an md RAID-0 of 1 to 1920 RAM disks, "peaks at
    device_count ≈ 0.892")."""
    if cf is None or result.x.lower() not in DEVICE_AXES:
        return None
    p = cf.points
    jobs = p["jobs"].to_numpy(float)
    if np.isfinite(jobs).all() and jobs.size and jobs.max() > jobs.min():
        return None  # more jobs with more devices: the load grew, and the scaling law's words apply
    x, y = p["x"].to_numpy(float), p["y"].to_numpy(float)
    tbl = result.table
    recorded = "numjobs" in tbl.columns and bool(tbl["numjobs"].notna().all())
    if not recorded:
        # no job count in the files: the load is unknown, not one job (set after round 31 was read: SB,
        # r31_spdk3097_vfio-user-spdk2401-qemu-p31_qd128_targets, "the load did not grow (1 job at every targets)"
        # where each VM ran its own load generator)
        text = (f"The USL fit (R² = {_r2(r2)}) is not read as contention or coherency: the files do not record the "
                f"jobs at each {result.x}, so whether more requests competed at larger {result.x} is not known.")
        return _claim("model", text, None, interpreted=False)
    load = (f"{_fx(jobs[0])} job{'s' if jobs[0] != 1 else ''} at every {result.x}" if np.isfinite(jobs).all() and
            jobs.size else f"no sign that the jobs grew with {result.x}")
    sync = synced_words(result)
    text = (f"The USL fit (R² = {_r2(r2)}) is not read as contention or coherency: along {result.x} the load did not "
            f"grow ({load}{'; ' + sync if sync else ''}), so no more requests competed at larger {result.x}.")
    if result.y_unit == "1/s" and x.size >= 3 and np.all(y > 0):
        t = 1.0 / y
        b, a = np.polyfit(x, t, 1)
        fit_r2 = 1.0 - np.sum((t - (a + b * x)) ** 2) / np.sum((t - t.mean()) ** 2)
        if fit_r2 >= TRUST_R2 and b > 0:
            text += (f" The time per I/O (1 ÷ IOPS) grows along a line, ≈ {fmt_y(a, 's')} + {fmt_y(b, 's')} per "
                     f"{result.x} (R² = {_r2(fit_r2)}): each added device adds work to every I/O.")
    return _claim("model", text, None, interpreted=False)
