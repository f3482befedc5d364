"""Facts → claims: the sentences an explanation says first, each built from one fact of
:mod:`~nvmemodel.fitting.facts` and carrying that fact's numbers (``Claim.facts``).

What a curve shows comes before what any model says: the layer that served the I/O, where throughput saturates
(or that it does from the first point, or still rises), the caps along block size, the read/write mix, and what
fio's CPU accounting says per I/O. The model sentences of :mod:`~nvmemodel.fitting.claims` follow only where the
model describes the data (:func:`~nvmemodel.fitting.facts.model_trust`).
"""

from __future__ import annotations

import numpy as np

from .cpu_limits import shared_words
from .devices import BUSY, stack_words
from .knee_words import between_words, cpu_level_words, held_head, knee_sentence, rise_words
from .clat_little import clat_little_claims
from .fill_drain import fill_drain_claims
from .gaps import wide_gap
from .facts import (CPU_BOUND, DISTURBED, FLAT, LEVEL_STEP, MIX_BELOW, NO_GAIN, PAYS, TRUST_R2, CurveFacts, Fact,
                    last_gain, latency_step, LITTLE_TOL, queued_last)
from .run_noise import last_step_within, reversal
from .fall_shape import AGAINST
from .one_outstanding import known_one, one_words, queues
from .steps import GAIN_STEP, SUBMITTERS, cost_growth, latency_took, shrinking, submit_carried
from .wording import _count, _fx, _r2, cpus_words, fmt_y, span

__all__ = ["below_top_words", "noise_phrase", "cache_claims", "served_words", "cpu_claims", "direction_claims", "layer_claims", "lead_claims", "quiet_on_rise", "size_claims", "untrusted_claim"]

#: a curve whose bytes per I/O reach this (or differ between points) is stated in bytes/s beside IOPS
BIG_BLOCK = 65536


#: what a saturation sentence says where nothing in its own facts names what holds the level; the verification pass
#: (verify.one_holder) removes it where another sentence of the explanation names the holder with its proof
UNKNOWN_HOLDER = (" The files do not show what holds it: a rate cap or one serial server whose service time is that "
                  "latency would both look like this.")
STALL_HOLDER = (" (what held the I/O in flight is not in these numbers: an engine's or a per-job limit are the usual "
                "ones)")


def _claim(kind: str, text: str, fact: Fact | None = None, **extra):
    from .claim import Claim

    facts = dict(fact.facts) if fact is not None else {}
    facts.update(extra)
    return Claim(kind, text, facts)


def _xv(result, v) -> str:
    from .claim import _xv as xv

    return xv(result, v)


def _both(result, cf: CurveFacts, value: float, iops: float | None, bps: float | None) -> str:
    """A level in the curve's unit, with the other unit beside it where block sizes are large or mixed."""
    u = result.y_unit
    text = fmt_y(value, u)
    per_io = cf.points["bytes_per_io"].to_numpy(float)
    per_io = per_io[np.isfinite(per_io)]
    big = per_io.size and (per_io.max() >= BIG_BLOCK or np.ptp(per_io) > 0.01 * per_io.mean())
    if u == "1/s" and big and bps:
        text += f", {fmt_y(bps, 'B/s')}"
    elif u == "B/s" and iops and (result.x == "block_size_bytes" or _fixed_block(result, cf)):
        text += f", {fmt_y(iops, '1/s')}"
    return text


def io_size(result, cf: CurveFacts | None) -> float | None:
    """The bytes per I/O of a curve's runs where it is one size along x (the median of fio's bytes ÷ I/Os, or the
    table's one block size where fio's bytes are not in it); None where it changes or is not known."""
    if cf is None or result.x in ("block_size_bytes",):
        return None
    per_io = cf.points["bytes_per_io"].to_numpy(float)
    per_io = per_io[np.isfinite(per_io) & (per_io > 0)]
    table = getattr(result, "table", None)
    if not per_io.size and table is not None and "block_size_bytes" in getattr(table, "columns", ()):
        per_io = np.unique(np.asarray(table["block_size_bytes"], float))  # one size in the whole table, or no factor
        per_io = per_io[np.isfinite(per_io) & (per_io > 0)]
    if not per_io.size or np.ptp(per_io) > 0.01 * per_io.mean():  # bytes per I/O that change along x: no one factor
        return None
    if not _fixed_block(result, cf):
        return None
    return float(np.median(per_io))


def _fixed_block(result, cf: CurveFacts) -> bool:
    """The runs moved one block size each (whole bytes, the same in every run): not the mean of a bsrange/bssplit mix,
    which fio's bytes ÷ I/Os give as a fraction that differs per run — a count of random-size I/Os is no rate a reader
    compares (set after round 16 was read: r16_ssdbenchresults_jetson-nvme_seqwrite-128k-10m_qd32_numjobs, WD, "802
    IOPS" beside 4.23 GB/s for bsrange=128k-10m, 5.25–5.30 MB a run)."""
    from .claim import runs_rows

    rows = runs_rows(result, cf.points) if "sources" in cf.points else None
    if rows is None or "block_size_bytes" not in rows:
        return True
    from .facts import pd_num

    bs = pd_num(rows["block_size_bytes"]).dropna().to_numpy(float)
    return not bs.size or bool(np.all(bs == np.round(bs)) and np.ptp(bs) == 0)


def level_words(result, cf: CurveFacts | None, value: float, hi: float | None = None) -> str:
    """A level (a plateau, a cap, a maximum; ``value``–``hi`` for a range) in the curve's unit, with bytes/s beside
    IOPS where the runs moved ≥ 64 KiB per I/O (issue 28: engineers compare GB/s with the spec sheet), and IOPS
    beside bytes/s: the level times the bytes per I/O (:func:`io_size`)."""
    u = result.y_unit

    def rng(a, b, unit):
        return fmt_y(a, unit) if b is None else span(fmt_y(a, unit), fmt_y(b, unit))

    b = io_size(result, cf) if u in ("1/s", "B/s") else None
    if b is None:
        return rng(value, hi, u)
    if u == "1/s":
        if b < BIG_BLOCK:
            return rng(value, hi, u)
        other = rng(value * b, None if hi is None else hi * b, "B/s")
    else:
        other = rng(value / b, None if hi is None else hi / b, "1/s")
    return f"{rng(value, hi, u)}, {other}" if hi is None else f"{rng(value, hi, u)} ({other})"


def _noise_words(cf: CurveFacts) -> str:
    reps = cf.points["n_runs"].to_numpy(float)
    little = " and Little's law" if np.isfinite(cf.points["lat"].to_numpy(float)).all() else ""  # (no latency: r7 CF)
    if np.isfinite(reps).all() and (reps >= 2).all():
        return f"{int(reps.min())}–{int(reps.max())} runs a point" if reps.min() != reps.max() else \
            f"{int(reps.min())} runs a point, their spread the noise"
    known = reps[np.isfinite(reps)]
    if (known >= 2).any():  # repeats at some points only (blind4 lorrocks 4k-seqread QD: 1, 3 and 5 runs)
        lo = "1" if known.size < reps.size else f"{int(known.min())}"
        return (f"Repeats at some points only: {lo}–{int(known.max())} runs a point; their spread the noise where "
                f"there are any, the size of the steps{little} elsewhere")
    rv = reversal(cf.points["x"].to_numpy(float), cf.points["y"].to_numpy(float))
    sf = cf.saturation.facts if cf.saturation is not None else {}
    if rv is not None and not (sf.get("state") == "onset" and rv["x1"] <= sf.get("onset_x", -np.inf)):
        rv = None  # a rise only up to an onset: a level from the first point has none to step back on
    axis = f"{cf.saturation.facts['axis']} = " if cf.saturation is not None and cf.saturation.facts.get("axis") else ""
    back = ("" if rv is None else  # the series' own largest step back on its rise (round 21 VG: run_noise.reversal)
            f"; the rise itself steps back {-rv['fall']:+.0%} ({axis}{_fx(rv['x0'])} → {_fx(rv['x1'])}), so a step no "
            f"larger than that is not told from one run's scatter")
    return f"One run a point, so no repeats to measure a noise: read from the size of the steps{little}{back}"  # (r20 SI)


def noise_phrase(ev, change: float | None = None) -> str:
    """The yardstick a "beyond noise" verdict names: the repeats' noise, the scatter about a fit that describes the
    points — never the scatter of a fit the explanation says does not describe them (set after round 18 was read: QD,
    r18_vitastor-i22 bs, "+53 %, beyond the scatter about the fit" before "the per_io_byte fit … does not describe
    these points"): then the ±FLAT a level is read within where the ``change`` exceeds it and no point's runs stray
    beyond it, else an unknown noise. What it says of the runs and the fit comes from the evidence's noise facts
    (:mod:`~nvmemodel.fitting.run_noise`), never a fixed text (round 20 RA: "one run a point" beside points of two
    runs; "no fit that describes them" beside an R² 0.9993 fit that left 2 degrees of freedom)."""
    from .run_noise import band_not_noise, runs_words, why_no_noise

    b = getattr(ev, "noise_basis", None) or {}
    if ev.noise_source == "repeats":
        return "the repeat noise"
    runs = runs_words(b)
    if b.get("repeated"):  # repeats at some points: their runs' spread, the widest standing for the one-run points
        w = b["widest"]
        return (f"the runs' own noise ({runs}; each one-run point given the widest spread the repeats show, sd "
                f"{w['cv']:.0%})" if w else f"the runs' own noise ({runs})")
    if ev.noise_known and ev.noise_fit_describes:
        return "the scatter about the fit"
    if ev.noise_known and change is not None and abs(change) > FLAT and not band_not_noise(b):
        return f"the ±{FLAT:.0%} a level is read within" + (f", {runs}" if runs else "")
    if not b:
        return "an assumed noise (runs not repeated at every point and no fit that describes them: the real noise is not known)"
    return f"an assumed noise ({runs}, and {why_no_noise(b)}: the real noise is not known)"


def _what(result) -> str:
    direction = result.y.split("_", 1)[0] if result.y.startswith(("read_", "write_", "trim_")) else ""
    what = {"1/s": "IOPS", "B/s": "throughput"}.get(result.y_unit, result.y)
    return f"{direction} {what}" if direction else what


#: what each layer of :data:`~nvmemodel.fitting.facts.LAYERS` (and the network layers) is, in words
_LAYER_WORDS = {"network_fs": "a file system with no local block device beneath it (a network or memory file system)",
                "network_block": "a block device reached over the network", "gpu_direct": "GPUDirect Storage (cuFile)",
                "loop": "a loop device (an image file: its I/O may be served by the page cache of the host or VM)",
                "dm": "a device-mapper device (LVM, dm-crypt, multipath …)", "md": "an md software RAID array",
                "nbd": "a network block device", "rbd": "a Ceph RBD block device (a network block device)",
                "virtio": "a virtio disk inside a virtual machine (the hypervisor's storage layer)",
                "xen": "a Xen virtual disk (the hypervisor's storage layer)"}
#: what sets the rates of a layer that serves its I/O elsewhere, said instead of "its rates are that layer's" (round
#: 6, part 1 BG: on RBD that pointed at the client or network while 3 HDD OSDs, every write on each, held 250 IOPS)
_LAYER_RATES = {"rbd": "the rates are the Ceph cluster's: its OSDs serve every I/O (a replicated write completes once "
                       "every replica's OSD has it), so their drives, the replication and the network between set them "
                       "— not a drive of this host",
                "nbd": "the rates are those of the server behind it and its storage, over the network — not a drive "
                       "of this host"}


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
    elif layer == "beyond_device" and not f.facts.get("counted", True):  # no count of targets (round 15, TA)
        text = (f"{fmt_y(f.facts['per_target'], 'B/s')} is more than the x4 link of one Gen{f.facts['gen']} drive "
                f"carries ({fmt_y(f.facts['limit'], 'B/s')} after encoding), and the files do not count the drives: "
                f"several drives (striped or side by side) or a layer above them (a cache, a file or network layer) "
                f"served these I/Os.")
    elif layer == "beyond_device":
        text = (f"{fmt_y(f.facts['per_target'], 'B/s')} per target is more than the x4 link of a Gen{f.facts['gen']} "
                f"drive carries ({fmt_y(f.facts['limit'], 'B/s')} after encoding): a layer above the drives (a cache, "
                f"a file or network layer) served these I/Os, and no drive-level limit explains them.")
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
        rates = _LAYER_RATES.get(named[-1] if named else layer)
        below = f"a drive's limits apply only below {'it' if one else 'them'}"
        busy = f.facts.get("busy")
        hits = f.facts.get("hits")
        if hits and not rates:  # most reads never reached the device (round 21, VC: cache_hits.py)
            from .cache_hits import reached_sentence

            return [_claim("layer", reached_sentence(hits, said, what, result.x, lambda v: _xv(result, v)), f,
                           **({"layer": "page_cache"} if hits["ruled_out"] or hits["ruled_at"] else {}))]
        if busy is not None and not rates:  # what fio's disk_util shows, not a rate the layer set (round 20, SC)
            lo, hi = format(100 * busy["lo"], ".0f"), format(100 * busy["hi"], ".0f")
            devs = f.facts["devices"]
            who = devs[0] if len(devs) == 1 else "each point's device" if f.facts.get("per_point") else "each of them"
            shown = (f"fio's disk_util shows {who} "
                     f"{lo + ' %' if lo == hi else f'{lo}–{hi} %'} busy a run "
                     f"(the share of the job's time, ramp included, with a request at the device)")
            if busy["idle"]:
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


def _range_words(result, cf: CurveFacts, lo: float, hi: float) -> str:
    """A range of levels in the curve's unit, with the other unit beside it where :func:`level_words` gives one."""
    one = level_words(result, cf, lo)
    if ", " not in one:
        return span(fmt_y(lo, result.y_unit), fmt_y(hi, result.y_unit))
    return level_words(result, cf, lo, hi)


def _gains_words(result, xs, ys, i0: int = 0, last: int = 6) -> str:
    """Every step's gain per doubling of x from point ``i0`` (at most the ``last`` steps), with the first value:
    "from 0.8 GB/s at iodepth = 1: +75% (1 → 4), +35% (4 → 8), +13% (8 → 16) per doubling" (round 20 SF/RE: a rise
    told by one step hid its bend and its first point)."""
    from .steps import doubling_gains

    x, u = result.x, result.y_unit
    pct = lambda v: f"{v if abs(v) >= 0.005 else 0.0:+.0%}"  # noqa: E731  (never "-0%")
    i0 = max(i0, xs.size - 1 - last)
    g = doubling_gains(xs[i0:], ys[i0:])
    steps = ", ".join(f"{pct(v)} ({_xv(result, a)} → {_xv(result, b)}"
                      + (f": {pct(y1 / y0 - 1)} for ×{b / a:.3g})" if abs(b / a - 2) > 0.01 else ")")
                      for v, a, b, y0, y1 in zip(g, xs[i0:-1], xs[i0 + 1:], ys[i0:-1], ys[i0 + 1:]))
    first = f" (the first point {fmt_y(ys[0], u)} at {x} = {_xv(result, xs[0])})" if i0 > 0 else ""
    return f"from {fmt_y(ys[i0], u)} at {x} = {_xv(result, xs[i0])}{first}: {steps} per doubling of {x}"


def _bend_words(s: dict, shrink: bool = False) -> str:
    """Whether the gains per doubling shrink step over step beyond the noise (``steps.bends``: the last three
    steps), said; ``shrink``: every gain is below the one before, though not beyond the noise (steps.shrinking, round
    22 XC: never "do not shrink" beside a shrinking list)."""
    b = s.get("bend")
    if b is not None:
        return (f"the last two gains each smaller than the one before (by more than {GAIN_STEP * 100:.0f} points and "
                f"the noise): the rise slows")
    if s.get("last_falls"):
        return (f"only the last gain fell by more than {GAIN_STEP * 100:.0f} points and the noise: one step, not yet "
                f"a trend, so no approach to a ceiling is shown")
    if shrink:
        return (f"each gain is below the one before, but not each by more than {GAIN_STEP * 100:.0f} points and the "
                f"noise, so the gains alone do not show an approach to a ceiling")
    return (f"the gains do not shrink step over step (by more than {GAIN_STEP * 100:.0f} points and the noise), so no "
            f"approach to a ceiling is shown")


def _submit_words(lg: float, sub: dict) -> str:
    """" fio's mean latency grew +42% per doubling in it, in submission (slat a → b; completion c → d): each
    submission took longer (CPU work inside the submit call), not a queue" — the growth slat carries
    (steps.submit_carried, round 22 YE: never "queued" where the completion latency stayed flat)."""
    (s0, s1), (c0, c1) = sub["slat"], sub["clat"]
    return (f" fio's mean latency grew {lg:+.0%} per doubling in it, in submission (slat {fmt_y(s0, 's')} → "
            f"{fmt_y(s1, 's')}; completion latency {fmt_y(c0, 's')} → {fmt_y(c1, 's')}): each submission took longer "
            f"(CPU work inside the submit call), not a queue of the added load")


def _saturation_claim(result, cf: CurveFacts, ev=None):
    f = cf.saturation
    s, x, u = f.facts, result.x, result.y_unit
    p = cf.points  # (each point's level and latency: the kept runs' medians, facts.point_levels)
    xs, lat = p["x"].to_numpy(float), p["lat_kept"].to_numpy(float)
    ys = np.array([np.mean(r) for r in p["runs_kept"]])  # the steps' kept-run means (facts._saturation)
    what = _what(result)
    noise = _noise_words(cf)
    state = s["state"]
    if state == "rising":  # (a last rise is told on the means, against their standard error, as before the point table)
        ys, lat = p["y"].to_numpy(float), p["lat"].to_numpy(float)  # (and its latencies: one statistic a sentence)
        g = (ys[-1] / ys[-2]) ** (1 / np.log2(xs[-1] / xs[-2])) - 1
        step = (f"{fmt_y(ys[-2], u)} at {x} = {_xv(result, xs[-2])} → {fmt_y(ys[-1], u)} at "
                f"{_xv(result, xs[-1])}")
        ratio = xs[-1] / xs[-2]
        if abs(ratio - 2) > 0.01:  # a step of ×4 is two doublings: its own gain, then the gain per doubling
            step += f", {ys[-1] / ys[-2] - 1:+.0%} for ×{ratio:.3g} the {x}"
        cpu = cf.cpu.facts if cf.cpu is not None and cf.cpu.facts["cpu_bound"] else {}
        if cpu.get("at_x") == xs[-1] and cpu.get("how") == "job" and x in SUBMITTERS:
            # each added job brings its own CPU: no one job's CPU is the curve's ceiling (round 22 YE, steps.py)
            cg = cost_growth(cpu)
            cost = (f"; CPU per I/O rose ×{cg[1] / cg[0]:.3g} from {x} = {_xv(result, xs[0])} to "
                    f"{_xv(result, xs[-1])} ({fmt_y(cg[0], 's')} → {fmt_y(cg[1], 's')}), so each added job bought "
                    f"less" if cg and cg[1] > (1 + PAYS) * cg[0] else "")
            noise = (f"At the largest {x} each job was ≥ {CPU_BOUND:.0%} busy (fio's CPU accounting, below): each "
                     f"added job brought its own CPU, so no one job's CPU is the curve's ceiling{cost}. {noise}")
        elif cpu.get("at_x") == xs[-1] and cpu.get("how") == "job":  # the busy submitting job holds the last point
            noise = (f"At the largest {x} the submitting job was ≥ {CPU_BOUND:.0%} busy (fio's CPU accounting, "
                     f"below): the ceiling the curve approaches is that job's CPU. {noise}")
        sd, reps = p["y_std"].to_numpy(float), p["n_runs"].to_numpy(float)
        # the last doubling: from the largest load at or below half the largest (the step before it where none is)
        half = np.flatnonzero(xs <= xs[-1] / 2 * 1.01)
        j = int(half[-1]) if half.size else xs.size - 2
        tr = s.get("trend")
        gate = bool(np.isfinite(sd[[j, -1]]).all() and np.isfinite(reps[[j, -1]]).all() and (reps[[j, -1]] >= 2).all()
                    and ys[-1] - ys[j] <= 2.0 * float(np.hypot(sd[j] / np.sqrt(reps[j]), sd[-1] / np.sqrt(reps[-1]))))
        queued = queued_last(p, j) if "little" in p and "out" in p else None
        if gate and not tr and queued is not None and g < 2 * PAYS:  # +22 % a doubling still pays (r4 numjobs)
            # the runs overlap, but the latency says where the added load went: with Little's law holding, a small
            # gain for latency grown nearly with the load means the added I/O waited (set after round 12 was read:
            # r12_here-loopdio_loop-dio-on_libaio_randread_iodepth_repeats, MA: +10 % for ×1.80 the latency)
            return _claim("saturation", f"Measured {what} is near saturation at the largest {x}: the last step "
                                        f"({step}) gained {g:+.0%} per doubling of {x} while fio's mean latency grew "
                                        f"×{queued['lat_growth']:.3g} ({fmt_y(lat[j], 's')} → {fmt_y(lat[-1], 's')}) "
                                        f"and Little's law held ({span(format(queued['little_lo'], '.2f'), format(queued['little_hi'], '.2f'))}): "
                                        f"the added load mostly queued. The runs of the last two points overlap (sd "
                                        f"{fmt_y(sd[j], u)} and {fmt_y(sd[-1], u)}), so the level is not read from "
                                        f"them. {noise}.", f, state="near", **queued)
        if gate and not tr:
            # with repeats, a last gain within twice the standard error of the two means' difference is their noise:
            # no "still rises" (issue 28: "where repeats exist, noise from them"; blind2's loop_iodepth_64k and
            # loop_psync_numjobs: +12 % with runs spanning each other)
            return _claim("saturation", f"Measured {what} gained {g:+.0%} per doubling of {x} in the last step "
                                        f"({step}), within the repeats' noise (sd {fmt_y(sd[-2], u)} and "
                                        f"{fmt_y(sd[-1], u)} over {int(reps[-2])} and {int(reps[-1])} runs): these "
                                        f"runs do not tell a last rise from a level, so neither a ceiling nor a "
                                        f"continued rise is claimed. {noise}.", f, state="unresolved")
        if gate and tr is not None:
            # each of the last doublings paid at no higher latency: rising, whatever the last pair's runs (r11 KF)
            t = tr["from_index"]
            return _claim("saturation", f"Measured {what} still rises at the largest {x}: the means gained "
                                        f"{', '.join(format(g, '+.0%') for g in tr['gains'])} per doubling of {x} from "
                                        f"{_xv(result, xs[t])} to {_xv(result, xs[-1])} ({fmt_y(ys[t], u)} → "
                                        f"{fmt_y(ys[-1], u)}) while fio's mean latency at {_xv(result, xs[-1])} "
                                        f"({fmt_y(lat[-1], 's')}) was no higher than at {_xv(result, xs[t])} "
                                        f"({fmt_y(lat[t], 's')}), Little's law {span(format(tr['little_lo'], '.2f'), format(tr['little_hi'], '.2f'))}: "
                                        f"the added load was paid for, not queued, so no ceiling is reached within the "
                                        f"data, though the runs of the last two points overlap. {noise}.", f)
        i0, alone = xs.size - 2, ""
        if not gate and j < xs.size - 2 and last_step_within(p):
            # the last step alone lies within its runs: the rise is read over the last doubling, the span the verdict
            # came from, and the sentence says both — one verdict per step, shared with the model sentence
            # (run_noise.last_step_within; set after round 20 was read, SB: r20_here-devcount … psync randwrite)
            i0 = j
            g = (ys[-1] / ys[j]) ** (1 / np.log2(xs[-1] / xs[j])) - 1
            step = f"{fmt_y(ys[j], u)} at {x} = {_xv(result, xs[j])} → {fmt_y(ys[-1], u)} at {_xv(result, xs[-1])}"
            if abs(xs[-1] / xs[j] - 2) > 0.01:
                step += f", {ys[-1] / ys[j] - 1:+.0%} for ×{xs[-1] / xs[j]:.3g} the {x}"
            kept = p["runs_kept"].iloc[j], p["runs_kept"].iloc[-1]
            if all(np.size(k) >= 2 for k in kept) and np.min(kept[1]) > np.max(kept[0]):
                step += f"; every run at {_xv(result, xs[-1])} above every run at {_xv(result, xs[j])}"
            alone = (f"; the last step alone ({_xv(result, xs[-2])} → {_xv(result, xs[-1])}, "
                     f"{ys[-1] / ys[-2] - 1:+.0%}) is within its runs' noise")
        if s.get("collapsed_from") is not None and not alone:  # the last doubling pays a small part of the one before (r7 CF)
            grew = p["out"].to_numpy(float)[[-2, -1]]
            grew = (f" and ×{grew[1] / grew[0]:.3g} the outstanding I/O" if np.isfinite(grew).all() and grew[0] > 0
                    and abs(grew[1] / grew[0] - ratio) > 0.01 * ratio else "")
            return _claim("saturation", f"Measured {what} gained {s['collapsed_from']:+.0%} per doubling of {x} up to "
                                        f"{x} = {_xv(result, xs[-2])}, then only {g:+.0%} per doubling in the last "
                                        f"step ({step}{grew}): near saturation between {x} = {_xv(result, xs[-2])} and "
                                        f"{_xv(result, xs[-1])}, its level at or above {level_words(result, cf, ys[-1])}"
                                        f", the last point. {noise}.", f, state="near", onset_x=float(xs[-1]),
                          plateau=float(ys[-1]), plateau_iops=float(p["iops"].iloc[-1]),
                          plateau_bytes_per_s=float(p["bytes_per_s"].iloc[-1]))
        # the statistic named only where a point has runs to take it over (round 20 SI; one run a point: no label)
        named = " by the means" if "n_runs" in p and float(np.nanmax(p["n_runs"].to_numpy(float))) >= 2 else ""
        added = (f"the last doubling of {x} added {g:+.0%}" if alone else
                 f"the last step added {g:+.0%} per doubling" + (f" of {x}" if s.get("slowing") else ""))
        # fio's mean latency over the same span, from the same statistic as the rates (means: round 20 SB, "+21 %"
        # from means beside "+58 %" from medians, unlabelled)
        lg = (lat[-1] / lat[i0]) ** (1 / np.log2(xs[-1] / xs[i0])) - 1 if np.isfinite(lat[[i0, -1]]).all() else np.nan
        sub = submit_carried(p, i0) if np.isfinite(lg) and lg > g else None
        if s.get("slowing"):  # the gains shrink step over step (steps.bends): round 20 RF
            waited = ("" if not (np.isfinite(lg) and lg > g) else _submit_words(lg, sub) if sub else
                      f" while fio's mean latency grew {lg:+.0%} per doubling — most of the added load queued")
            return _claim("saturation", f"Measured {what} still rises at the largest {x}, more slowly: "
                                        f"{_gains_words(result, xs, ys)} — {_bend_words(s)}; {added}{named} "
                                        f"({step}){waited}{alone}, so the curve is approaching a ceiling it has not "
                                        f"reached within the data. {noise}.", f)
        bend = latency_step(p, xs.size - 2) if "little" in p and "out" in p else None
        if bend is not None:  # latency flat, then a step at the last one: the added load mostly waited (round 18 ZD)
            grew = f"×{bend['step_load']:.3g} the {'outstanding I/O' if np.isfinite(p['out'].iloc[-1]) else x}"
            return _claim("saturation", f"Measured {what} still rises at the largest {x}, but bends there: the last "
                                        f"step added {g:+.0%} per doubling ({step}) while fio's mean latency, "
                                        f"{span(fmt_y(bend['lat_lo'], 's'), fmt_y(bend['lat_hi'], 's'))} from {x} = "
                                        f"{_xv(result, xs[0])} to {_xv(result, xs[-2])}, grew ×{bend['lat_step']:.3g} "
                                        f"to {fmt_y(lat[-1], 's')}: {grew} bought {bend['step_gain']:+.0%} of a "
                                        f"possible {bend['step_load'] - 1:+.0%}, the rest spent waiting (Little's law "
                                        f"holds: {span(*(f'{bend[k]:.2f}' for k in ('little_lo', 'little_hi')))}). "
                                        f"No ceiling is reached within the data. {noise}.", f, state="rising", **bend)
        lat_words = (f"; fio's mean latency grew {lg:+.0%} per doubling in it, more than the throughput (part of the "
                     f"added load queued)" if np.isfinite(lg) and lg > g and not sub else
                     ";" + _submit_words(lg, sub) if sub else "")
        shrink = shrinking(xs, ys) is not None
        took = latency_took(p, i0) if shrink and not alone and xs.size >= 4 else None
        if took is not None:  # every gain smaller than the last, and the last doubling mostly waited (round 22 XC)
            lo, hi = took["little"]
            return _claim("saturation", f"Measured {what} still rises at the largest {x}, more slowly: step by step "
                                        f"{_gains_words(result, xs, ys)} — {_bend_words(s, True)}; but {added}{named} "
                                        f"({step}) while fio's mean latency grew {lg:+.0%} per doubling "
                                        f"({fmt_y(took['lat'][0], 's')} → {fmt_y(took['lat'][1], 's')}) with the I/O "
                                        f"asked for in flight (Little's law {span(f'{lo:.2f}', f'{hi:.2f}')}): most of "
                                        f"the added load waited, so the curve is approaching a limit it has not "
                                        f"reached within the data. {noise}.", f)
        shape = (f" Step by step {_gains_words(result, xs, ys)} — {_bend_words(s, shrink)}." if xs.size >= 4 else
                 f" Step by step {_gains_words(result, xs, ys)}." if xs.size == 3 else "")
        return _claim("saturation", f"Measured {what} still rises at the largest {x}: {added}{named} "
                                    f"({step}){alone}{lat_words}, so no ceiling is reached within the data.{shape} "
                                    f"{noise}.", f)
    if state == "no_queue":
        return None
    if state == "overlap":  # round 9 GA: the runs overlap, the mean or median gains PAYS: cannot tell
        r0, r1 = s["runs0"], s["runs1"]
        runs = (f" (runs {span(fmt_y(min(r0), u), fmt_y(max(r0), u), ' to ')} and "
                f"{span(fmt_y(min(r1), u), fmt_y(max(r1), u), ' to ')})" if r0 and r1 else "")
        return _claim("saturation", f"From {x} = {_xv(result, s['x0'])} to {_xv(result, s['x1'])} the mean {what} "
                                    f"gained {s['gain']:+.0%} per doubling ({fmt_y(s['y0'], u)} → {fmt_y(s['y1'], u)}) "
                                    f"and the median {s['med_gain']:+.0%}, but the runs of the two overlap{runs}: these "
                                    f"runs cannot tell a rise from a level, so no onset, plateau or fall is claimed.", f, state="unresolved")
    if state == "noisy":
        runs = (f", {fmt_y(s['runs_lo'], u)} to {fmt_y(s['runs_hi'], u)}" if s.get("runs_lo") is not None else
                f" (sd up to {s['cv']:.0%} of the mean)")
        by = f"×{s['ratio']:.3g}" if np.isfinite(s["ratio"]) else "more than any step between the points"
        return _claim("saturation", f"The repeats of one {x} differ by {by} (at {x} = {_xv(result, s['x'])}{runs}), "
                                    f"more than any step between the points' levels: no onset, level or fall can be "
                                    f"read from these runs.", f, state="unresolved")
    if s.get("no_latency"):  # runs wider than every step, no step gaining PAYS, no latency proof: the measurement
        from .sync_time import queue_clause  # a latency column filled: not "no latency" (round 21, VB)

        qw = queue_clause(result, p)
        qw = ", and the files give no latency to tell whether the added load queued" if qw is None else qw
        return _claim("saturation", f"Measured {what} gains nothing with {x} beyond the noise of its runs: a level "
                                    f"from the first point, {level_words(result, cf, s['plateau'])} (the mean of the "
                                    f"{s['n_runs']} runs kept; the points' levels, each the median of its kept runs, "
                                    f"{span(fmt_y(s['plateau_lo'], u), fmt_y(s['plateau_hi'], u), ' to ')} over {x} = "
                                    f"{span(_xv(result, s['onset_x']), _xv(result, s['plateau_x_to']))}), its runs "
                                    f"anywhere from {fmt_y(s['runs_lo'], u)} to {fmt_y(s['runs_hi'], u)}; from the "
                                    f"first point to the last the level gained {s['gain']:+.0%} per doubling of {x}. "
                                    f"The repeats of one {x} differ by up to ×{s['ratio']:.3g} (at {x} = "
                                    f"{_xv(result, s['x'])}), more than any step between the points' levels, so no "
                                    f"onset or fall is read between them{qw}. {noise}.", f)
    if s.get("within_noise"):  # runs wider than every step, yet the load from x_k on queued: the level and its runs
        k0 = s.get("below_x") is not None  # (r10 HB from the first point; r11 KC from a later one, the wide runs below)
        frm = f"holds a level from {x} = {_xv(result, s['onset_x'])} on" if k0 else "is saturated from the first point"
        wide = (f"The runs at {x} = {_xv(result, s['below_x'])} differ by ×{s['below_ratio']:.3g} "
                f"({fmt_y(s['below_lo'], u)} to {fmt_y(s['below_hi'], u)}): whether the level starts there is not told "
                f"from them" if k0 else
                f"The repeats of one {x} differ by up to ×{s['ratio']:.3g} (at {x} = {_xv(result, s['x'])}), more than "
                f"any step between the points' levels, so no onset or fall is read between them")
        return _claim("saturation", f"Measured {what} {frm}, {'its runs' if k0 else 'at a level its runs put'} "
                                    f"anywhere from {fmt_y(s['runs_lo'], u)} to {fmt_y(s['runs_hi'], u)} (the mean of "
                                    f"the {s['n_runs']} runs kept {level_words(result, cf, s['plateau'])}; the points' levels, "
                                    f"each the median of its kept runs, "
                                    f"{span(fmt_y(s['plateau_lo'], u), fmt_y(s['plateau_hi'], u), ' to ')} over {x} = "
                                    f"{span(_xv(result, s['onset_x']), _xv(result, s['plateau_x_to']))}): from "
                                    f"{_xv(result, s['onset_x']) + ' to ' + _xv(result, s['plateau_x_to']) if k0 else 'the first point to the last'} "
                                    f"the level gained {s['gain']:+.0%} per doubling of {x} while fio's mean latency grew "
                                    f"×{s['lat_last'] / s['lat_first']:.3g} ({fmt_y(s['lat_first'], 's')} → "
                                    f"{fmt_y(s['lat_last'], 's')}) for ×{s['load_growth']:.3g} the {x}, with the I/O asked "
                                    f"for in flight ({span(format(s['little_lo'], '.2f'), format(s['little_hi'], '.2f'))} by Little's "
                                    f"law): the added load queued. {wide}. {noise}.", f)
    level = _both(result, cf, s["plateau"], s.get("plateau_iops"), s.get("plateau_bytes_per_s"))
    if level == fmt_y(s["plateau"], u):  # the table gave one unit only: the other from the bytes per I/O
        level = level_words(result, cf, s["plateau"])
    # every range through wording.span: a plateau whose ends round alike is one value, not "X to X" (blind3)
    rng = span(fmt_y(s['plateau_lo'], u), fmt_y(s['plateau_hi'], u), " to ")
    over = f"{x} = {span(_xv(result, s['onset_x']), _xv(result, s['plateau_x_to']))}"
    latw = ""
    if s.get("lat_first") and s.get("lat_last") and s["lat_last"] > s["lat_first"]:
        latw = (f" fio's mean latency grows ×{s['lat_last'] / s['lat_first']:.3g} over it, "
                f"{fmt_y(s['lat_first'], 's')} → {fmt_y(s['lat_last'], 's')}, {little_growth_words(s)}.")
    one = s["plateau_points"] - s.get("plateau_split", 0)  # (a point whose runs split has no level: UA)
    kw = knee_sentence(result, s)  # an onset that had not queued: the points past the knee counted there (round 19 TB)
    plateau = (f" Plateau {level}: {rng} over {over}" + ("." if kw else f", {s['plateau_points']} points.")
               if " to " in rng else f" Plateau {level} over {over}." if kw and one == s["plateau_points"] else
               f" Plateau {level} at each of the {s['plateau_points']} points over {over}." if one == s["plateau_points"]
               else f" Plateau {level} over {over}, at the {'one point' if one == 1 else f'{one} points'} whose runs "
                    f"do not split.")
    rb = s.get("robust")
    if rb:  # runs far below their point's others are left out of the level and said (round 7, part 2 CA)
        left = ", ".join(f"{fmt_y(v, u)} at {_xv(result, a)}" for a, v in rb["left"])
        plateau = (f" Plateau {level}, the mean of {rb['kept']} of the {rb['runs']} runs over {over} ({rng}); "
                   f"{len(rb['left'])} run{'s' if len(rb['left']) > 1 else ''} more than {DISTURBED:.0%} below "
                   f"the median of the level's runs ({fmt_y(rb['median'], u)}) and below the fastest run of {'its' if len(rb['left']) == 1 else 'their'} "
                   f"point ({left}) left out: {'a run' if len(rb['left']) == 1 else 'runs'} slowed, not the level.")
    if state == "from_first":
        text = (f"Measured {what} is saturated from the first point: no later point gains {PAYS:.0%} per doubling of "
                f"{x} over it."
                f"{plateau}{latw}")
        out = p["out"].to_numpy(float)
        mixed = directions_words(result, cf)
        if mixed:
            text += mixed
        elif _targets(result, cf) > 1:  # several targets are not one path (round 6 BC: filename=/dev/loop0:/dev/loop1)
            text += (f" The jobs spread their I/O over {_targets(result, cf):g} targets side by side: the level is not "
                     f"one serial path's service time (a rate per target, or a cap or pace, sets it).")
        elif np.isfinite(out[0]) and out[0] == 1 and np.isfinite(lat[0]) and lat[0] > 0 and u == "1/s" \
                and abs((1 / lat[0]) / ys[0] - 1) <= 0.25 and not s.get("tail") and known_one(result, p):
            # a flat median: not each I/O's time; the one I/O only where numjobs is named, the queueing only where
            # the latency grew with the load (one_outstanding; set after round 21's fixes were reviewed: asct)
            text += (f" With one I/O in flight each took {fmt_y(lat[0], 's')}, and 1 ÷ {fmt_y(lat[0], 's')} = "
                     f"{fmt_y(1 / lat[0], '1/s')}: a limit reached at the first point"
                     + (", and more outstanding I/O only queues in front of it." if queues(result, p) else ".")
                     + UNKNOWN_HOLDER)
        elif np.isfinite(out[0]) and out[0] > 1:
            text += f" The limit is reached at or below the smallest load measured, {_fx(out[0])} I/Os outstanding."
        elif np.isfinite(out[0]) and out[0] == 1:  # without fio's latency 1 ÷ IOPS is each I/O's mean time by
            # Little's law (set after round 21 was read: WF, r21_noxdb … 1m-seqwrite_qd, nothing said); the count only
            # where numjobs is named and fio's latency, where given, puts one I/O in flight (one_outstanding, asct)
            io = float(p["iops"].iloc[0]) if "iops" in p else float("nan")
            text += one_words(result, p, io)
        return _claim("saturation", f"{text} {noise}.", f, stated_level=s.get("plateau"),
                      holder_unknown=UNKNOWN_HOLDER if UNKNOWN_HOLDER in text else "")
    if s.get("between") is not None and state == "onset":  # one point on the level (round 6 BD)
        k, a = s["onset_index"], s["between"]
        j = int(np.flatnonzero(xs == a)[0])
        was = (f"fio's mean latency, {fmt_y(lat[j], 's')}, was ×{lat[j] / lat[:j].min():.3g} the "
               f"{fmt_y(lat[:j].min(), 's')} of lighter loads")
        why = (f"at {x} = {_xv(result, a)} {was}, still the unloaded one, so the rate still grew with the load there "
               f"(Little's law)" if s.get("between_why") == "unloaded" else
               f"the step from {_xv(result, a)} spans ×{xs[j + 1] / xs[j]:.3g} the {x} and still added "
               f"{ys[j + 1] / ys[j] - 1:+.0%}, so where in it the level was reached is not measured (at {x} = "
               f"{_xv(result, a)} {was}: part of the load queued there already)")
        return _claim("saturation", f"Measured {what} reaches its level between {x} = {_xv(result, a)} and "
                                    f"{_xv(result, xs[k])}: {why}; the "
                                    f"step to {_xv(result, xs[k])} added {ys[k] / ys[k - 1] - 1:+.0%} for "
                                    f"×{xs[k] / xs[k - 1]:.3g} the {x} while the latency grew "
                                    f"×{lat[k] / lat[k - 1]:.3g} — the added load queued. The level, {level}, rests "
                                    f"on the one point measured on it ({x} = {_xv(result, xs[k])}). {noise}.", f)
    before, stated = "", s.get("plateau")
    if s.get("gain_before") is not None:
        k = s["onset_index"]
        own = (f"{ys[k] / ys[k - 1] - 1:+.0%} for ×{xs[k] / xs[k - 1]:.3g} the {x}, "
               if abs(xs[k] / xs[k - 1] - 2) > 0.01 else "")  # the step's own gain first (round 5: +4.5 % for ×1.06)
        before = (f" Up to it the load still paid: {own}{s['gain_before']:+.0%} per doubling from "
                  f"{fmt_y(ys[k - 1], u)} at {x} = {_xv(result, xs[k - 1])}.")
        if wide_gap(xs[k - 1], xs[k]):  # no gain per doubling over unsampled doublings (round 21 WC: gaps.py)
            before = (f" Up to it the load still paid: {ys[k] / ys[k - 1] - 1:+.0%} for ×{xs[k] / xs[k - 1]:.3g} the "
                      f"{x}, from {fmt_y(ys[k - 1], u)} at {x} = {_xv(result, xs[k - 1])}, with no point between: "
                      f"the level is reached somewhere in ({_xv(result, xs[k - 1])}, {_xv(result, xs[k])}], "
                      f"not measured closer.")
            if k > 1:
                before += (f" The rise began at {fmt_y(ys[0], u)} at {x} = {_xv(result, xs[0])} (×{ys[k] / ys[0]:.3g} "
                           f"to the onset for ×{xs[k] / xs[0]:.3g} the {x}).")
        elif 2 <= k <= 4:  # every step from the first point, not the last one only (set after round 20 was read: RE)
            before = f" Up to it the load still paid, {_gains_words(result, xs[:k + 1], ys[:k + 1])}."
        elif k > 4:  # many steps: the last one's gain, and where the rise began
            before += (f" The rise began at {fmt_y(ys[0], u)} at {x} = {_xv(result, xs[0])} (×{ys[k] / ys[0]:.3g} "
                       f"to the onset for ×{xs[k] / xs[0]:.3g} the {x}).")
    br = s.get("by_runs")
    if br is not None and s.get("gain_before") is not None:  # runs spread past the steps: the rise read on the runs
        k, lo, hi = s["onset_index"], br["runs_lo"], br["runs_hi"]
        i = max(i for i in range(k) if lo[k] > hi[i])
        a, b = br["apart"]
        before = (f" The runs of one {x} differ by up to ×{br['ratio']:.3g} (at {x} = {_xv(result, br['x'])}), so a "
                  f"step is read only where the runs of two points do not overlap: every run at {_xv(result, xs[k])} "
                  f"({span(fmt_y(lo[k], u), fmt_y(hi[k], u), ' to ')}) is above every run at {_xv(result, xs[i])} "
                  f"(the highest {fmt_y(hi[i], u)})" + (f", and every run at {_xv(result, xs[b])} above every run at "
                                                     f"{_xv(result, xs[a])}" if (a, b) != (i, k) else "") + ".")
        hb = s.get("held_back")
        if hb is not None:  # the earlier point the runs' test passed, held back by the means (round 20 SD)
            own = (f" ({hb['step']:+.0%} for ×{hb['ratio']:.3g} the {x})" if abs(hb["ratio"] - 2) > 0.01 else "")
            above = (f"every run at {_xv(result, hb['x'])} is above every run at {_xv(result, hb['above_x'])} and "
                     if hb["above_x"] is not None else "")
            before += (f" At {x} = {_xv(result, hb['x'])} {above}no later point's runs lie above its runs either, but "
                       f"the means still gained {hb['gain']:+.0%} per doubling from {_xv(result, hb['x'])} to "
                       f"{_xv(result, hb['x_next'])}{own} over runs that overlap: these runs do not tell whether the "
                       f"level starts at {_xv(result, hb['x'])}, so the onset is read at {_xv(result, xs[k])}, where "
                       f"neither the runs nor the means of a later point gain {PAYS:.0%} per doubling.")
    pts = cf.points
    split = bool(pts["split"][(pts["x"] >= s["onset_x"]) & (pts["x"] <= s["plateau_x_to"])].any())
    if ev is not None and ev.plateau is not None and state == "onset" and ev.plateau["x_from"] == s["onset_x"] \
            and not rb and not split:  # (its mean pools every run: over a split point, no group's level — UA)
        # the noise test of evidence.py finds the same plateau: its words (mean and sd of every run in it) lead
        from .claim import _level_runs

        first = level_words(result, cf, ev.plateau["value"])  # IOPS and bytes/s at large blocks (issue 28)
        stated = ev.plateau["value"]  # (the number said, for the verification pass)
        text = (f"Measured {what} flattens at {first} ({_level_runs(result, ev.plateau)}): "
                f"saturated from {x} = {_xv(result, s['onset_x'])}: no later point gains {PAYS:.0%} per doubling of {x} "
                f"over it"
                + (f" ({_both(result, cf, s['plateau'], s.get('plateau_iops'), s.get('plateau_bytes_per_s'))})"
                   if level != fmt_y(s["plateau"], u) and first == fmt_y(ev.plateau["value"], u) else "")
                + f".{kw}{latw}{before}")
    else:
        text = (f"Measured {what} saturates from {x} = {_xv(result, s['onset_x'])}: no later point gains {PAYS:.0%} "
                f"per doubling of {x} over it.{plateau}{kw}{latw}{before}")
    if state == "falls":
        d = s["falls"]
        drop = f"{d['drop']:.0%}" if f"{d['drop']:.0%}" != f"{FLAT:.0%}" else f"{d['drop']:.1%}"  # 10.1 %, > 10 %
        head = (f"Measured {what} peaks at {level_words(result, cf, d['y_max'])} at {x} = {_xv(result, d['x_max'])} and falls "
                f"{drop} to {fmt_y(ys[-1], u)} at {x} = {_xv(result, xs[-1])}, " +
                (f"every run at {_xv(result, xs[-1])} below every run at {_xv(result, d['x_max'])}." if d.get("apart")
                 else f"more than {d['basis']} varies."))
        if d.get("held"):  # the peak repeated by the next points: held from a to b, falls from c (round 19 UG)
            head = held_head(result, what, level_words(result, cf, d["y_max"]), d, f"{fmt_y(ys[-1], u)} at {x} = "
                             f"{_xv(result, xs[-1])}", drop,
                             f"every run at {_xv(result, xs[-1])} below every run at {_xv(result, d['x_max'])}."
                             if d.get("apart") else f"beyond {d['basis']}.")
        la, one = d.get("level_after"), d.get("one_step")
        if one is not None and not la and not d.get("held"):  # one step down, then a lower level held to the last
            # point (round 20 SE)
            head = (f"Measured {what} peaks at {level_words(result, cf, d['y_max'])} at {x} = "
                    f"{_xv(result, d['x_max'])} and falls in one step to {x} = {_xv(result, one['x_from'])} "
                    f"({one['step']:+.0%}, every run at {_xv(result, one['x_from'])} below every run at "
                    f"{_xv(result, d['x_max'])}), then holds a lower level to {_xv(result, one['x_to'])}: "
                    f"{_range_words(result, cf, one['lo'], one['hi'])} over {one['points']} points, its runs "
                    f"{span(fmt_y(one['runs_lo'], u), fmt_y(one['runs_hi'], u), ' to ')}.")
        tr = (la or {}).get("trend")  # the later points drift one way: a further fall, no level (round 21 WA)
        if la and la.get("high") is not None:  # two levels, each of ≥ 2 points: the step between them (round 5 AA)
            head = (f"Measured {what} steps down between two levels: {level_words(result, cf, la['high'])} "
                    f"({span(fmt_y(la['high_lo'], u), fmt_y(d['y_max'], u), ' to ')} over {x} = "
                    f"{span(_xv(result, la['high_from']), _xv(result, d['x_max']))}, {la['high_points']} points), then "
                    f"{level_words(result, cf, la['value'])} ({span(fmt_y(la['lo'], u), fmt_y(la['hi'], u), ' to ')} "
                    f"over {x} = {span(_xv(result, la['x_from']), _xv(result, la['x_to']))}, {la['points']} points): "
                    f"a step of −{drop} between {x} = {_xv(result, d['x_max'])} and {_xv(result, la['x_from'])}, not a "
                    f"decline along {x}; with one run a point a change between the runs is not told from an effect "
                    f"of {x}.")
            if tr:  # (round 21 WA: the later "level" drifts one way)
                head = (f"Measured {what} steps down from {level_words(result, cf, la['high'])} "
                        f"({span(fmt_y(la['high_lo'], u), fmt_y(d['y_max'], u), ' to ')} over {x} = "
                        f"{span(_xv(result, la['high_from']), _xv(result, d['x_max']))}, {la['high_points']} points) "
                        f"to {fmt_y(tr['y_from'], u)} at {x} = {_xv(result, la['x_from'])}, {_trend_words(result, tr)}; "
                        f"with one run a point a change between the runs is not told from an effect of {x}.")
            text = (f"{head} It saturates from {x} = {_xv(result, s['onset_x'])} (no later point gains {PAYS:.0%} "
                    f"per doubling over it).{kw}{latw}{before}")
            return _claim("saturation", f"{between_words(result, s, text)} {noise}.", f)
        if la:  # one high single-run point, then a level: the level is the reading, the point beside it (blind3 Q)
            head = (f"Measured {what} is level at {level_words(result, cf, la['value'])} "
                    f"({span(fmt_y(la['lo'], u), fmt_y(la['hi'], u), ' to ')} over {x} = "
                    f"{span(_xv(result, la['x_from']), _xv(result, la['x_to']))}, {la['points']} points) after one "
                    f"higher point, {fmt_y(d['y_max'], u)} at {x} = {_xv(result, d['x_max'])}: the drop of "
                    f"{1 - ys[xs > d['x_max']][0] / d['y_max']:.1%} to {fmt_y(ys[xs > d['x_max']][0], u)} at "
                    f"{_xv(result, la['x_from'])} is that one step, not a decline along {x}, and with one run a point a single high point is not "
                    f"told from a change between the runs.")
            if tr:  # the points after the one step drift one way beyond the band: no level (round 21 WA)
                head = (f"Measured {what} peaks at {level_words(result, cf, d['y_max'])} at {x} = "
                        f"{_xv(result, d['x_max'])} and drops {1 - tr['y_from'] / d['y_max']:.1%} in one step to "
                        f"{fmt_y(tr['y_from'], u)} at {x} = {_xv(result, la['x_from'])} (with one run a point a single "
                        f"high point is not told from a change between the runs), {_trend_words(result, tr)}.")
        steps = d.get("steps") or []
        if not la and sum(abs(g) > LEVEL_STEP for _, _, g in steps) >= 2:  # a fall spread over steps: each (round 6 BA)
            head += (" Step by step: " + ", ".join(
                f"{g:+.1%} ({x} = {_xv(result, a)} → {_xv(result, b)})" for a, b, g in steps) + ".")
        held = d.get("held")
        if s["plateau_points"] < 2 or (held and s["onset_x"] == d["x_max"]):  # the maximum is the onset itself (held
            # or not): no stretch before it to give a range over
            text = (f"{head} No later point gains {PAYS:.0%} per doubling of {x} over the maximum"
                    + (", the first point measured" if s["onset_index"] == 0 else "") + f".{kw}{latw}{before}")
        else:
            # the peak is its runs' mean, the level the points' medians: where the peak point prints two values, each
            # is named (set after round 19 was read: r19_here-batch … batch32 numjobs, UB, "peaks at 149.57 K" beside
            # "136.06 K IOPS to 144.80 K IOPS over numjobs = 1–2", nj 2's mean and median)
            two = s.get("robust") is None and fmt_y(d["y_max"], u) != fmt_y(s["plateau_hi"], u)
            stat = " by each point's median run (the peak above is its runs' mean)" if two else ""
            to = held["x_to"] if held else d["x_max"]
            text = (f"{head} It saturates from {x} = {_xv(result, s['onset_x'])} (no later point gains {PAYS:.0%} "
                    f"per doubling over it); up to {f'{x} = {_xv(result, to)}' if held else 'the maximum'}{stat}: "
                    f"{level}, {rng} over {x} = {span(_xv(result, s['onset_x']), _xv(result, to))}.{kw}{latw}{before}")
    if br is not None:  # no later point's runs lie above the onset's by PAYS per doubling (round 6 BE)
        text = text.replace(f"no later point gains {PAYS:.0%} per doubling of {x} over it",
                            f"no later point's runs lie above its runs by {PAYS:.0%} per doubling of {x}"
                            + (", nor does a later mean gain that much over its mean" if s.get("held_back") else ""))
    qn = s.get("onset_noise")
    if qn is not None:  # a later mean gains PAYS, within its runs' noise: that test decided, said (round 18 ZA)
        said = (f"no later point gains {PAYS:.0%} per doubling of {x} over it beyond its runs' noise ({x} = "
                f"{_xv(result, qn['x'])}: {qn['gain']:+.0%} per doubling by means, runs "
                f"{span(fmt_y(qn['runs'][0], u), fmt_y(qn['runs'][1], u), ' to ')} against "
                f"{span(fmt_y(qn['onset_runs'][0], u), fmt_y(qn['onset_runs'][1], u), ' to ')} at {x} = "
                f"{_xv(result, s['onset_x'])}, within twice the means' standard error)")
        text = text.replace(f"no later point gains {PAYS:.0%} per doubling of {x} over it", said)
        text = text.replace(f"no later point gains {PAYS:.0%} per doubling over it", said)
    lo_step, hi_step = s.get("step_lo"), s.get("step_hi")
    if lo_step is not None and br is None and (hi_step >= PAYS or lo_step <= -PAYS) and state != "falls":
        text += _after_onset(result, s, lo_step, hi_step)
    text = between_words(result, s, text)  # (after the phrases above replaced theirs: "over it" names the onset)
    text += _split_words(result, cf, s.get("onset_x"))
    return _claim("saturation", f"{text} {noise}.", f, stated_level=stated)


def _trend_words(result, tr: dict) -> str:
    """A one-signed drift after a step (fall_shape.trend_after), its steps each said: no level (round 21 WA)."""
    x, u, down = result.x, result.y_unit, tr["change"] < 0
    each = all((g < 0) == down and g != 0 for _, _, g in tr["steps"])
    return (f"then {'falls a further' if down else 'rises again by'} {abs(tr['change']):.1%} to {fmt_y(tr['y_to'], u)} "
            f"at {x} = {_xv(result, tr['x_to'])}, "
            + ("every step " + ("down" if down else "up") if each else
               f"no step back {'up' if down else 'down'} beyond {AGAINST:.0%}")
            + " (" + ", ".join(f"{g:+.1%} {_xv(result, a)} → {_xv(result, b)}" for a, b, g in tr["steps"])
            + f"): no level after the step, a {'decline' if down else 'rise'} along {x}")


def _split_words(result, cf: CurveFacts, x_from) -> str:
    """Points on the level whose kept runs split in two groups (facts.point_levels): they have no single level, and
    a level pooled over them is no rate a run sat at — said, not averaged away (set after round 12 was read: NA,
    r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats, "flattens at 79.04 K" over 42–43 K and 114 K at QD32)."""
    from .facts import point_levels

    if x_from is None:
        return ""
    u, parts = result.y_unit, []
    for i, d in enumerate(point_levels(result, cf.points)):
        if d["split"] and d["x"] >= x_from:
            v = np.sort(_runs_kept(result, cf, i, d))
            g = int(np.argmax(v[1:] / v[:-1])) + 1
            parts.append(f"{_xv(result, d['x'])} ({span(fmt_y(v[0], u), fmt_y(v[g - 1], u))} and "
                         f"{span(fmt_y(v[g], u), fmt_y(v[-1], u))})")
    if not parts:
        return ""
    return (f" At {result.x} = {', '.join(parts)} the runs split into two groups more than ×2 apart: "
            f"{'that point has' if len(parts) == 1 else 'those points have'} no single level (these files do not "
            f"show which group is the undisturbed one).")


def _runs_kept(result, cf: CurveFacts, i: int, d: dict):
    from .facts import _run_values

    v = _run_values(result, cf.points, i)
    return np.array([r for r in v if not any(np.isclose(r, t) for t in d["stalled"])], float)


def _targets(result, cf: CurveFacts) -> float:
    """How many targets each run's jobs used side by side (:func:`~nvmemodel.fitting.devices.parallel_targets`: files,
    or the bottom devices fio lists — a stacked device and its drive are one path), else 1."""
    from .claim import runs_rows
    from .devices import parallel_targets

    rows = runs_rows(result, cf.points)
    return parallel_targets(rows) if rows is not None else 1.0


def fit_words(model: str, n: int, joint: str, r2: float, cf: CurveFacts, ev=None) -> str:
    """The sentence naming the model kept and its R², said only where the model's parameters are read (the trust fact:
    R² ≥ TRUST_R2; curve_claims): elsewhere the model and its R² are summary()'s (round 7 part 1 CH; rounds 3 and 4
    class T had set "explains p % of the variance", round 7 read before it went)."""
    return f"{model} fits {n} point{'s' if n != 1 else ''}{joint} with R² = {_r2(r2)}."


def states_level(cf: CurveFacts | None, ev=None, axis: str = "") -> bool:
    """The data facts state a level: the saturation fact's onset, from the first point, near or falls; a measured cap or
    fall along block size; or the evidence's flat line, plateau or fall (along block size the flat line only: IOPS fall
    there as blocks grow whatever binds). The model sentences then state no knee, limit,
    asymptote, ceiling or mechanism (σ, κ, a serial fraction): those stay in summary() and params (one fact, one story;
    set after round 8 was read: r8_ingimarsson_nvme_512b-randread_sqpoll_qd's knee 4.01 "only adds queueing latency"
    beside +41 % measured past it, r8_satishg_24sata-bx500-hba_4k-randwrite_qd4_numjobs's USL σ, κ and a 1.6× "contention
    alone" limit, r8_ezfio62_firecuda530's Amdahl limit with a CI above the measured saturated level)."""
    s = cf.saturation.facts if cf is not None and cf.saturation is not None else {}
    state = s.get("state")
    if state in ("onset", "from_first", "falls", "overlap") or (state == "rising" and s.get("collapsed_from") is not None):
        return True  # (overlap: the runs cannot tell a rise from a level — no model reads a knee or limit into it)
    if cf is not None and (cf.cap or cf.size_fall or cf.one_stream) is not None:  # (one stream: round 17 YA/YB)
        return True
    if ev is None or state == "rising":
        return False
    return bool(ev.flat) or (axis != "block_size_bytes" and bool(ev.plateau or ev.falls))


def stall_claim(result, cf: CurveFacts | None):
    """The load that stopped being one: from x = a the I/O in flight (IOPS × fio's mean latency) stayed level while
    the outstanding I/O asked for grew ≥ ×4 — said instead of a serial-fraction or contention limit (blind4 class Z),
    which describes a load that kept adding work."""
    st = cf.saturation.facts.get("in_flight_stall") if cf is not None and cf.saturation is not None else None
    if not st:
        return None
    x = result.x
    rng = span(f"{st['lo']:.3g}", f"{st['hi']:.3g}")
    rng = f" ({rng})" if rng != f"{st['in_flight']:.3g}" else ""
    return _claim("model", f"From {x} = {_xv(result, st['x_from'])} to {_xv(result, st['x_to'])} the I/O in flight "
                           f"(measured IOPS × fio's mean latency, Little's law) stayed at about {st['in_flight']:.3g}"
                           f"{rng} while the outstanding I/O asked for grew ×{st['asked_to'] / st['asked_from']:.3g} "
                           f"to {_fx(st['asked_to'])}: more {x} did not put more I/O in flight, so {x} stopped being "
                           f"a load there — the level is not read as a serial fraction's or contention's limit"
                           f"{STALL_HOLDER}.", cf.saturation, interpreted=False, holder_unknown=STALL_HOLDER)


def stalled_words(result, cf: CurveFacts | None) -> str:
    """The runs the host stalled (facts.stalled_runs) counted, and the level of the others; "" where none. Said once,
    with the level that no load changed (round 12 MD/NC)."""
    from .facts import stalled_runs

    st = stalled_runs(result, cf.points) if cf is not None else None
    if st is None:
        return ""
    u, n = result.y_unit, len(st["left"])
    at = ", ".join(f"{fmt_y(v, u)} at {_xv(result, a)}" for a, v in st["left"])
    return (f" {n} of {st['runs']} runs {'was' if n == 1 else 'were'} stalled ({at}): fio's own figures show it — their mean "
            f"latency is ×{span(format(st['mean_lo'], '.3g'), format(st['mean_hi'], '.3g'))} their point's fastest "
            f"run's, far more than their median grew, and their CPU at most half its: rare long waits off the CPU, "
            f"not a slower typical I/O (the files do not show what held them: a loaded host or a throttle); the other {st['kept']} runs: {fmt_y(st['value'], u)} "
            f"({span(fmt_y(st['lo'], u), fmt_y(st['hi'], u))}).")


def directions_words(result, cf: CurveFacts) -> str:
    """A mixed read/write curve level from its first point, told per direction where the table has them: each
    direction's latency at the first point (the IOPS-weighted mean is no time any I/O took) and the slow direction at
    a level of its own, which the fixed mix turns into the total's level (blind4 class Y)."""
    from .facts import directions

    d = directions(result, cf.saturation.facts.get("key", ())) if cf.saturation is not None else None
    if d is None:
        return ""
    x, p = result.x, cf.points
    rl, wl = d["read_lat_mean_s"][0], d["write_lat_mean_s"][0]
    if not (min(rl, wl) > 0 and max(rl, wl) / min(rl, wl) >= 2):  # one latency for both: one service time it is
        return ""
    lat0 = p["lat"].to_numpy(float)[0]
    text = (f" At {x} = {_xv(result, d['x'][0])} reads took {fmt_y(rl, 's')} and writes {fmt_y(wl, 's')}"
            + (f" ({fmt_y(lat0, 's')} weighted by their I/O)" if np.isfinite(lat0) else "")
            + ": no one service time.")
    slow = d["level"]
    if slow is None:
        return text
    share = d["read_share"] if slow == "read" else 1 - d["read_share"]
    iops, bps = d[f"{slow}_iops"], d[f"{slow}_bw_bytes_per_s"]
    lvl = float(np.mean(iops))
    plateau = cf.saturation.facts.get("plateau_iops")
    if not plateau or abs(lvl / share / plateau - 1) > 0.05:  # rows per job, or a mix not held: no total from it
        return text
    other = "write" if slow == "read" else "read"
    ratio = float(np.min(d[f"{slow}_lat_mean_s"] / d[f"{other}_lat_mean_s"]))
    text += (f" The {slow}s, with fio's latency ≥ ×{ratio:.3g} the {other}s' at every {x}, sit at "
             f"{span(fmt_y(iops.min(), '1/s'), fmt_y(iops.max(), '1/s'))} "
             f"({span(fmt_y(bps.min(), 'B/s'), fmt_y(bps.max(), 'B/s'))}) throughout: a level of their own, which "
             f"the fixed mix ({share:.0%} {slow}s) turns into a total of {fmt_y(lvl, '1/s')} ÷ {share:.2f} = "
             f"{fmt_y(lvl / share, '1/s')}; more outstanding I/O queues in front of the {slow}s.")
    return text


def _capped(result, key) -> dict | None:
    """A direction held at a cap of its own along block size or read share, y being the total (else None)."""
    from .curves import Y_COLUMNS
    from .facts import directions

    if result.x not in ("block_size_bytes", "read_fraction") or result.y not in Y_COLUMNS \
            or Y_COLUMNS[result.y][1] is not None:
        return None
    d = directions(result, key)
    return d.get("capped") if d is not None else None


def direction_claims(result, key, cf: CurveFacts) -> list:
    """Along block size and read share, a mixed curve whose total is y: the direction held at a cap of its own
    (:func:`~nvmemodel.fitting.facts.directions`' ``capped``), named with its cap, and the total as that cap ÷ the
    direction's share where the points show it (round 6, part 1 BB and BF: "a byte cap of 83.1 MB/s" of a 50/50
    total whose reads sit at ~40 MB/s; reads at ~2.0 K IOPS at every read share, unsaid)."""
    from .facts import directions

    c = _capped(result, key)
    if c is None:
        return []
    d = directions(result, key)
    x, u, slow, other = result.x, c["unit"], c["direction"], c["other"]
    i = c["from_index"]
    what = "byte" if u == "B/s" else "IOPS"
    text = (f"The {slow}s sit at {span(fmt_y(c['lo'], u), fmt_y(c['hi'], u))} from {x} = {_xv(result, c['x_from'])} to "
            f"{_xv(result, c['x_to'])} ({c['points']} points), with fio's {slow} latency ≥ ×{c['lat_ratio']:.3g} the "
            f"{other}s' there: a {slow} {what} cap of about {fmt_y(c['level'], u)}, measured — the {slow}s' cap, not "
            f"the total's.")
    if c["total_holds"]:
        shares = c["shares"]
        if len(set(shares)) == 1:
            text += (f" The {other}s follow it through the mix fio keeps ({shares[0]:.0%} {slow}s by I/O count), so "
                     f"the total is that cap ÷ the {slow} share: {fmt_y(c['level'], u)} ÷ {shares[0]:.2f} = "
                     f"{fmt_y(c['level'] / shares[0], u)}.")
        else:
            xs = d["x"][i:] if d is not None else []
            text += (f" The {other}s follow it through the mix, so the total is that cap ÷ the {slow} share: "
                     f"{', '.join(fmt_y(v, u) for v in c['predicted'])} at {x} = "
                     f"{', '.join(_xv(result, v) for v in xs)}, measured "
                     f"{', '.join(fmt_y(v, u) for v in c['totals'])}.")
    return [_claim("direction", text, None, **{k: v for k, v in c.items() if k != "predicted"})]


def little_growth_words(s: dict) -> str:
    """How fio's latency growth over a plateau compares with Little's law's (R = N ÷ X): "as Little's law gives" only
    where it holds within :data:`~nvmemodel.fitting.facts.LITTLE_TOL` (blind4: ×44 for ×64 the load at a check of
    0.2–0.5 was said to be so); else the growth the law would give, for the reader to compare."""
    if "lat_little_growth" not in s:
        return "as Little's law gives at a fixed rate"
    load, exp = s["lat_load_growth"], s["lat_little_growth"]
    if s.get("tail"):  # the mean grew, the median did not: a tail, not a queue (r14 RA) — the law's arithmetic unsaid
        return tail_words(s["tail"])
    sub = submission_words(s.get("submission"))
    if s["lat_little_holds"]:
        return f"as Little's law gives at that rate (×{exp:.3g} for ×{load:.3g} the outstanding I/O){sub}"
    return (f"for ×{load:.3g} the outstanding I/O; Little's law, with all of it in flight at the rates measured, "
            f"would give ×{exp:.3g}{sub}")  # no pointer to a check another claim may not print (round 14 SB)


def submission_words(sub: dict | None) -> str:
    """Where the total mean's growth was fio's submission latency (facts._submission_growth): where the time went,
    from fio's own slat and clat means — no tail is read from completion percentiles (round 19 UA)."""
    if not sub:
        return ""
    sl, cl = sub["slat"], sub["clat"]
    comp = (f", its completion latency (clat) {span(fmt_y(cl[0], 's'), fmt_y(cl[1], 's'), ' → ')}"
            if np.isfinite(cl).all() else "")
    return (f"; the growth is in submission: fio's submission latency (slat) {fmt_y(sl[0], 's')} → "
            f"{fmt_y(sl[1], 's')}{comp} (means over each point's runs)")


def tail_words(t: dict) -> str:
    """The mean's growth put where fio's percentiles put it: the median flat, the 99.9th percentile (and the maximum,
    of the last point's one run) grown — a few I/Os held for long, not every I/O queued — and how many were served at
    a time (rate × median latency) of the outstanding I/O."""
    p9, mx = t["p99_9"], t["max"]
    tail = (f"its 99.9th percentile {fmt_y(p9[0], 's')} → {fmt_y(p9[1], 's')}" if np.isfinite(p9).all() else "")
    if tail and p9[1] <= (1 + LITTLE_TOL) * p9[0]:  # in fewer than 1 I/O in 1000 (r6 null, r11 tmpfs on one CPU)
        tail = (f"its 99.9th percentile {span(fmt_y(p9[0], 's'), fmt_y(p9[1], 's'), ' → ')}, no higher: in fewer "
                f"than 1 I/O in 1000")
    if np.isfinite(mx) and t["max_runs"] == 1:
        tail += (", " if tail else "") + f"the slowest I/O {fmt_y(mx, 's')} at the last point"
    out = f" of the {_fx(t['out'])} outstanding" if np.isfinite(t["out"]) else ""
    n = f"{t['served']:.2g}" if t["served"] < 10 else f"{t['served']:.0f}"  # 0.32 in service is not "about 0"
    return (f"but its median stays at {span(fmt_y(t['p50_lo'], 's'), fmt_y(t['p50_hi'], 's'))}: the growth is in the "
            f"tail{' (' + tail + ')' if tail else ''} — a few I/Os held for long, not every I/O queued; the rate × the "
            f"median latency puts about {n} I/Os in service at a time{out}")


def _after_onset(result, s: dict, lo_step: float, hi_step: float) -> str:
    """What the steps after the onset do when one of them is large: one step is that step (no range of one); steps
    all up are a creep towards the level, less than the onset rule's 10 % per doubling over the onset (near
    saturation, not scatter); steps both ways scatter about the level."""
    x = result.x
    if s["plateau_points"] == 2:
        cn = s.get("noise") or {}
        if abs(hi_step) > FLAT and cn.get("rel", 0.0) > abs(hi_step):  # beyond ±FLAT, inside the repeats (round 9 FA)
            return (f" The one point after the onset is {hi_step:+.0%} from it: inside the spread of this curve's "
                    f"repeats (at {x} = {_xv(result, cn['x'])} the lowest run is {cn['rel']:.0%} below the highest) — "
                    f"neither a fall nor a rise is told from it.")
        return (f" The one point after the onset is {hi_step:+.0%} from it: within what a level is read in — neither "
                f"a fall nor a rise the onset rule missed.")
    steps = span(f"{lo_step:+.0%}", f"{hi_step:+.0%}", " … ")
    if lo_step > 0:
        return (f" After the onset it still creeps up step by step ({steps}), each later point less than {PAYS:.0%} "
                f"per doubling of {x} above the onset: near saturation, its largest value "
                f"{fmt_y(s['plateau_hi'], result.y_unit)} at the last point.")
    if hi_step < 0:
        return (f" After the onset it drifts down step by step ({steps}), less than a fall beyond what a level is "
                f"read in.")
    return (f" After the onset the points scatter step to step ({steps}): the onset is where the level is first "
            f"reached, read within that scatter.")


def _cap_words(what: str, cap: float, runs: tuple | None, u: str) -> str:
    """"a byte cap of X or a little above, measured", or — where a kept run of the flat stretch lies above X by more
    than the ±FLAT a level is read within — the level with its runs' range and no cap (round 13 QA; a blkio throttle's
    runs 2.4 % above its mean-read cap, r7_here_blkio_wiops_seqwrite_bs_repeats, keep the cap)."""
    if runs is None or runs[1] <= (1 + FLAT) * cap:
        return f"{what} of {fmt_y(cap, u)} or a little above, measured" + (
            f" (its runs {span(fmt_y(runs[0], u), fmt_y(runs[1], u))})" if runs and runs[0] < (1 - FLAT) * cap else "")
    return (f"its runs spread {span(fmt_y(runs[0], u), fmt_y(runs[1], u))}, up to {runs[1] / cap - 1:.0%} above "
            f"{fmt_y(cap, u)}: a level of these runs, not a cap they show")


def _cap_claims(result, cf: CurveFacts, capped: dict | None = None) -> list:
    out = []
    f = cf.cap
    if f is not None:
        s = f.facts
        parts = []
        if s["iops_cap"]:
            lo, hi = s["iops_range"]
            head = (f"IOPS are flat at {span(fmt_y(lo, '1/s'), fmt_y(hi, '1/s'))} from {_xv(result, s['iops_flat'][0])} "
                    f"to {_xv(result, s['iops_flat'][1])} " + (f"(within {FLAT:.0%} of one another)" if not s.get(
                        "iops_noise") else f"(×{hi / lo:.3g} apart, within the ×{s['iops_noise']:.3g} a size's own "
                                           f"runs vary: one level)"))
            bo = s.get("by_outstanding")
            if s.get("paced"):  # fio's pace, not a cap (blind4 r4_here_rateiops_bs_loop)
                parts.append(f"{head}: fio's pace, not a cap of the device or the host")
            elif bo is not None:
                n_out = f"{_fx(bo['outstanding'])} I/O{'' if bo['outstanding'] == 1 else 's'} outstanding"
                lat = span(fmt_y(bo["lat"][0], "s"), fmt_y(bo["lat"][1], "s"))
                # issue 28 point 2: a rate the outstanding I/O limits is that, not a cap — also where the latency
                # holds over a wide span of sizes (set after round 11 was read: r11_myconfzns_…_seqread_psync-qd1_bs,
                # LC: "an IOPS cap … measured at 1 I/O outstanding" for psync's 1 ÷ 95 µs)
                wide = (f"; the latency holds over ×{bo['span']:.3g} the size: a per-I/O time the bytes do not add to"
                        if bo["wide"] else "")
                parts.append(f"{head}: {n_out} ÷ fio's mean latency ({lat}) = {fmt_y(bo['bound'], '1/s')}, the "
                             f"rate that much outstanding I/O allows at that latency{wide} — not shown to be a cap "
                             f"({served_words(result, cf)[1]} would tell)")
            elif s.get("one_depth"):  # the rate at the one depth measured (round 13, QC)
                more = served_words(result, cf)[1]
                if _cpu_busy(cf, int(np.sum(cf.points["x"].to_numpy(float) <= s["iops_flat"][1]))):
                    more = "more jobs, not a deeper queue,"  # the CPU claim names the busy job (r10 980pro 1-core)
                parts.append(f"{head}, all at {_fx(s['one_depth'])} I/Os outstanding: the rate at that depth, not "
                             f"shown to be a cap ({more} would tell)")
            else:
                parts.append(f"{head}: " + _cap_words("an IOPS cap", s["iops_cap"], s.get("iops_runs"), "1/s"))
        held = capped is not None and capped["unit"] == "B/s"  # one direction's byte cap (round 6, part 1 BB)
        if s["bytes_cap"] and capped is not None and held:
            lo, hi = s["bytes_range"]
            parts.append(f"bandwidth is flat at {span(fmt_y(lo, 'B/s'), fmt_y(hi, 'B/s'))} from "
                         f"{_xv(result, s['bytes_flat'][0])} to {_xv(result, s['bytes_flat'][1])}: the {capped['direction']}s' "
                         f"byte cap and the {capped['other']}s the mix carries with them (below), not one byte cap of "
                         f"the total")
        elif s["bytes_cap"] and s["bytes_points"] >= 3:
            lo, hi = s["bytes_range"]
            rise = rise_words(result, s.get("bytes_rise"))  # the sizes below the level, its onset (round 19 UF)
            head = (f"{rise}{'it' if rise else 'bandwidth'} is flat at {span(fmt_y(lo, 'B/s'), fmt_y(hi, 'B/s'))} from "
                    f"{_xv(result, s['bytes_flat'][0])} to {_xv(result, s['bytes_flat'][1])}"
                    + (" (each size the median of its kept runs" if s.get("by_runs") else "")
                    + (f"{'; ' if s.get('by_runs') else ' ('}×{hi / lo:.3g} apart, within the ×{s['bytes_noise']:.3g} "
                       f"a size's own runs vary: one level)" if s.get("bytes_noise") else ")" if s.get("by_runs") else ""))
            if s.get("bytes_depth"):  # the byte level at the one depth measured: as the IOPS one (round 13 QC)
                d = s["bytes_depth"]
                parts.append(f"{head}, all at {_fx(d)} I/O{'' if d == 1 else 's'} outstanding: "
                             + _depth_bytes_words(result, cf, s) + _held_words(result, s))
            else:
                parts.append(f"{head}: " + _cap_words("a byte cap", s["bytes_cap"], s.get("bytes_runs"), "B/s")
                             + _held_words(result, s))
        elif s["bytes_cap"]:
            bw = cf.points["bytes_per_s"].to_numpy(float)
            a, b = bw[-2], bw[-1]  # in size order, as measured
            from .facts import _run_values

            # a gain the rounding or the runs cannot tell from none is no gain: the limit is measured (round 14 RB)
            ra, rb = (_run_values(result, cf.points, i) for i in (len(bw) - 2, len(bw) - 1))
            overlap = bool(ra.size and rb.size and rb.min() <= ra.max())
            gains = b >= a * (1 + NO_GAIN) and not overlap
            parts.append(f"bandwidth is nearly level at the two largest sizes ({fmt_y(a, 'B/s')} at "
                         f"{_xv(result, s['bytes_flat'][0])}, {fmt_y(b, 'B/s')} at {_xv(result, s['bytes_flat'][1])}): "
                         + (f"it approaches a byte limit at or above {fmt_y(max(a, b), 'B/s')}, not measured beyond"
                            if gains else f"a byte limit near {fmt_y(max(a, b), 'B/s')}, the larger block no faster"
                            + ((f" ({b / a - 1:+.2%} in the means, within the runs' spread)" if overlap else
                                f" ({b / a - 1:+.2%})") if b >= a else ""))
                         + _held_words(result, s))
        elif s.get("bytes_doubling"):  # a byte level from the first size, by doubling (round 17 YC)
            d = s["bytes_doubling"]
            (b0, b1), (x0, x1), dep = d["bytes"], d["sizes"], d["depth"]
            fl = (f"; with {_fx(dep)} I/O{'' if dep == 1 else 's'} outstanding the bytes in flight grew "
                  f"×{x1 / x0:.3g} ({_bytes(dep * x0)} → {_bytes(dep * x1)}) for ×{b1 / b0:.3g} the bandwidth"
                  if dep else "")
            parts.append(f"bandwidth gains under {FLAT:.0%} per doubling of the size at every step from the first "
                         f"size ({d['per_max']:+.0%} the largest): {fmt_y(b0, 'B/s')} at {_xv(result, x0)} to {fmt_y(b1, 'B/s')} at "
                         f"{_xv(result, x1)} (×{b1 / b0:.3g} over ×{x1 / x0:.3g} the size; IOPS "
                         f"{fmt_y(d['iops'][0], '1/s')} → {fmt_y(d['iops'][1], '1/s')}): a byte level from the "
                         f"first size, not one reached only at the largest sizes{fl}; the files do not show what "
                         f"holds it")
        text = "Measured " + "; ".join(parts)
        if s["crossover_bytes"] and s["bytes_points"] >= 3 and not held:
            il = s.get("by_outstanding") or s.get("one_depth")
            depth_only = s.get("bytes_depth") and (not s.get("bytes_inflight") or _stretch_busy(cf, s) is not None)
            bl = "byte level" if depth_only else "byte cap"
            two = (f"The {'IOPS level' if il else 'IOPS cap'} and the {bl}" if il or bl == "byte level" else
                   "The two caps", "IOPS level" if il else "IOPS cap")
            text += (f". {two[0]} cross at about {_bytes(s['crossover_bytes'])} ({bl} ÷ {two[1]}): "
                     f"min({two[1]}, {bl} ÷ block size) — a roofline — describes the points")
            if s.get("rms_log_smooth") is not None:
                better = s["rms_log_roofline"] <= s["rms_log_smooth"]
                text += (f" {'better than' if better else 'less well than'} the smooth per-I/O + per-byte form "
                         f"(RMS log error {s['rms_log_roofline']:.3g} against {s['rms_log_smooth']:.3g})")
        out.append(_claim("cap", text + ".", f))
    o = cf.outstanding
    little = _little_depth(cf)
    if o is not None and little:  # no depth in the files: Little's law gave it, and it holds at every size (r18 QD)
        iops, x = cf.points["iops"].to_numpy(float), cf.points["x"].to_numpy(float)
        out.append(_claim("outstanding", f"One I/O in flight at every size: {little}, so 1 ÷ IOPS is each I/O's "
                                         f"time — {fmt_y(1 / iops[0], 's')} at {_xv(result, x[0])} to "
                                         f"{fmt_y(1 / iops[-1], 's')} at {_xv(result, x[-1])} — and the rate at every "
                                         f"size is what one I/O at a time allows at that latency; a ceiling of "
                                         f"{served_words(result, cf)[0]} is not measured at this depth (a deeper queue "
                                         f"or more jobs would tell).", o))
    elif o is not None:
        s = o.facts
        more = served_words(result, cf)[1]
        busy = _cpu_shares(cf, [int(np.argmin(np.abs(cf.points["x"].to_numpy(float) - s["x"])))])
        if busy is not None:  # the job's CPU, not the depth (round 16 VB: zram QD1 4 KiB at 99 % of a CPU)
            more = f"its job was {busy[0]:.0%} busy on its CPU there: more jobs, not a deeper queue,"
        out.append(_claim("outstanding", f"At {_xv(result, s['x'])}, {_fx(s['outstanding'])} I/O"
                                         f"{'' if s['outstanding'] == 1 else 's'} outstanding ÷ "
                                         f"{fmt_y(s['lat'], 's')} mean latency = {fmt_y(s['bound'], '1/s')} (measured "
                                         f"{fmt_y(s['measured'], '1/s')}): the small-block rate is what that much "
                                         f"outstanding I/O allows at that latency; an IOPS ceiling of "
                                         f"{served_words(result, cf)[0]} is not measured at this depth; "
                                         f"{more} would tell.", o))
    o = cf.one_stream
    if o is not None:
        s = o.facts
        what, more = served_words(result, cf)
        more = more if "synchronous" in more else "more jobs or a deeper queue"
        busy = _cpu_shares(cf, range(len(cf.points)))
        if busy is not None:  # the job's CPU did both terms: a deeper queue overlaps nothing of it (round 16 VB)
            more = (f"its job was {span(f'{busy[0]:.0%}', f'{busy[1]:.0%}')} busy on its CPU at every size: more "
                    f"jobs, not a deeper queue,")

        def sz(v):  # a size below 1 KiB with its unit (never "from 512 to 512 KiB")
            return _xv(result, v) if v >= 1024 else f"{_fx(v)} B"

        miss = (f"within {abs(s['worst_miss']):.1%} at every size (the worst, at {sz(s['worst_x'])})"
                + (", each size the median of its kept runs" if s["by_runs"] else ""))
        little = _little_depth(cf)
        head = "One serial stream: with 1 I/O outstanding at every size" + (f" ({little})" if little else "")
        top = s.get("top_level")
        if top is not None:  # the largest sizes level below the line's B: the measured level, not B (round 19 TA)
            lo, hi = top["bytes"]
            level = fmt_y(hi, "B/s") if lo == hi else span(fmt_y(lo, "B/s"), fmt_y(hi, "B/s"))
            out.append(_claim("one stream", f"{head}, its bytes/s level at the largest sizes: {level} over "
                                            f"{sz(top['x'][0])} to {sz(top['x'][1])} ({top['n']} sizes, "
                                            f"{top['step']:+.2%} from the first to the last), the larger I/O no "
                                            f"faster: one stream's measured level, not shown to be a cap of "
                                            f"{what.split(' (')[0]} ({more} would tell).", o))
            return out
        rate = (f"{fmt_y(s['bytes_per_s'], 'B/s')} is one stream's byte rate,"
                if s["bytes_per_s"] <= s["most_bytes"] * (1 + NO_GAIN) else
                f"{fmt_y(s['bytes_per_s'], 'B/s')} is the line's byte rate, above the most measured "
                f"({fmt_y(s['most_bytes'], 'B/s')} at {sz(s['most_x'])}): extrapolated, not measured, and")
        out.append(_claim("one stream", f"{head}, 1 ÷ IOPS is each "
                                        f"I/O's time, and {fmt_y(s['per_io_s'], 's')} per I/O + the size ÷ "
                                        f"{fmt_y(s['bytes_per_s'], 'B/s')} gives it {miss}, from "
                                        f"{sz(s['sizes'][0])} to {sz(s['sizes'][1])}: "
                                        f"{rate} not shown to "
                                        f"be a cap of {what.split(' (')[0]} ({more} would tell).{_band_words(s, sz, cf.cap)}", o))
        # the line first: it describes every size, a flat stretch only the largest (round 20 SG)
        out = [c for c in out if c.kind == "one stream"] + [c for c in out if c.kind != "one stream"]
    return out


def _band_words(s: dict, sz, cap: Fact | None = None) -> str:
    """The measured bytes/s at the largest sizes (``facts.one_stream``'s band) and the sizes below it, each with the
    per-I/O term's share of its time (set after round 20 was read: SG); where the cap claim states that stretch, it is
    named, not repeated."""
    band = s.get("band")
    if band is None:
        return ""
    B = lambda v: fmt_y(v, "B/s")  # noqa: E731
    lo, hi = band["lo"], band["hi"]
    level = B(hi) if B(lo) == B(hi) else span(B(lo), B(hi))
    runs = (f"; each the median of its kept runs, the runs {span(B(band['runs'][0]), B(band['runs'][1]), ' to ')}"
            if band.get("runs") else "")
    shares = (f"the per-I/O time {band['share'][0]:.1%} of each I/O's time at {sz(band['x'][0])} and "
              f"{band['share'][1]:.1%} at {sz(band['x'][1])}")
    said = cap is not None and cap.facts.get("bytes_flat") is not None and cap.facts.get("bytes_points", 0) >= 3 \
        and tuple(cap.facts["bytes_flat"]) == tuple(band["x"])
    if said:
        text = (f" The flat stretch from {sz(band['x'][0])} (the next sentence) is the line's level, {shares}")
    else:
        text = (f" Measured bytes/s: {level} over {sz(band['x'][0])} to {sz(band['x'][1])} ({band['n']} sizes within "
                f"{FLAT:.0%} of one another{runs}), {shares}")
    if band.get("below") is not None:
        first = (f", rising from {B(band['first_bytes'])} at {sz(band['first_x'])}"
                 if band["first_x"] != band["below_x"] else "")
        text += (f"; below it {B(band['below_bytes'])} at {sz(band['below_x'])} (the per-I/O time "
                 f"{band['below_share']:.1%} of its time){first}")
    return text + "."


def _little_depth(cf: CurveFacts) -> str:
    """How one I/O in flight is known where the files give no depth (``facts._one_in_flight_by_little``), or ""."""
    n = cf.points["out_little"].to_numpy(float) if "out_little" in cf.points else np.array([np.nan])
    if not np.isfinite(n).all():
        return ""
    return (f"the files give no iodepth, but IOPS × the mean latency is "
            f"{span(f'{n.min():.2f}', f'{n.max():.2f}')} at every size (Little's law)")


def _depth_bytes_words(result, cf: CurveFacts, s: dict) -> str:
    """What the byte level at one depth is, by its proof (set after round 16 was read): the job's CPU where it was
    busy at every size of the stretch (VB, r16 zram seqread QD1: 97–100 % of a CPU, each I/O done inside its
    submission — a deeper queue adds nothing to it); a byte limit where the bytes in flight grew ≥ ×4 over it with
    Little's law holding (WB, r16 xnvme QD16); else the rate at that depth, not shown to be a cap."""
    n = len(cf.points)
    stretch = range(n - s["bytes_points"], n)
    busy = _stretch_busy(cf, s)
    if busy is not None:
        share = _submit_share(result, cf, stretch)
        sub = (f"; fio's submission latency {span(f'{share[0]:.0%}', f'{share[1]:.0%}')} of its total: each I/O was "
               f"done inside its submission" if share is not None and share[0] >= CPU_BOUND else "")
        return (f"the job was {span(f'{busy[0]:.0%}', f'{busy[1]:.0%}')} busy on its CPU at every size of it{sub}: "
                f"the job's CPU holds the rate; more jobs, not a deeper queue, would tell")
    fl = s.get("bytes_inflight")
    if fl is not None:
        lo, hi = fl["bytes"]
        check = span(f"{fl['little'][0]:.2f}", f"{fl['little'][1]:.2f}")
        return (f"the bytes in flight grew ×{fl['growth']:.3g} ({_bytes(lo)} → {_bytes(hi)}) and fio's mean latency "
                f"×{fl['lat'][1] / fl['lat'][0]:.3g} ({fmt_y(fl['lat'][0], 's')} → {fmt_y(fl['lat'][1], 's')}), "
                f"as Little's law gives at one byte rate (IOPS × mean latency ÷ outstanding I/O {check}):"
                f" more bytes in flight only queued — "
                + _cap_words("a byte cap", s["bytes_cap"], s.get("bytes_runs"), "B/s"))
    return f"the byte rate at that depth, not shown to be a cap ({served_words(result, cf)[1]} would tell)"


def _stretch_busy(cf: CurveFacts, s: dict) -> tuple[float, float] | None:
    """:func:`_cpu_shares` over the flat byte stretch of the cap fact ``s``."""
    n = len(cf.points)
    return _cpu_shares(cf, range(n - s["bytes_points"], n))


def _cpu_shares(cf: CurveFacts, idx) -> tuple[float, float] | None:
    """The lowest and highest CPU share of the points ``idx`` where every one of their jobs was ≥ CPU_BOUND busy
    (fio's usr+sys) and the series neither polls nor spends CPU that bought no I/O; None otherwise. The per-point
    "spinning" flag is not read: it compares I/Os per job across points, which along block size differ by the size."""
    if cf.cpu is None or cf.cpu.facts.get("spins") or cf.cpu.facts.get("polled"):
        return None
    share = cf.cpu.facts.get("share") or []
    idx = list(idx)
    if not idx or max(idx) >= len(share):
        return None
    vals = [share[k] for k in idx]
    if not all(np.isfinite(v) and v >= CPU_BOUND for v in vals):
        return None
    return float(min(vals)), float(max(vals))


def _submit_share(result, cf: CurveFacts, idx) -> tuple[float, float] | None:
    """fio's submission latency as a share of its total (slat ÷ lat, each point's runs' mean) over points ``idx``:
    near 1 the engine or device did the I/O inside the submitting call (zram, a synchronous service)."""
    from .claim import runs_rows
    from .facts import pd_num

    rows = runs_rows(result, cf.points)
    if rows is None or not {"slat_mean_s", "lat_mean_s", "source_path"} <= set(rows.columns):
        return None
    out = []
    for k in idx:
        srcs = set(str(cf.points["sources"].iloc[k]).split(";"))
        r = rows[rows["source_path"].astype(str).isin(srcs)]
        sl, la = pd_num(r["slat_mean_s"]), pd_num(r["lat_mean_s"])
        if not len(r) or sl.isna().any() or la.isna().any() or (la <= 0).any():
            return None
        out.append(float((sl / la).mean()))
    return min(out), max(out)


def _cpu_busy(cf: CurveFacts, n: int) -> bool:
    """Every one of the first ``n`` points' jobs ≥ CPU_BOUND busy on a CPU and not spinning (fio's usr+sys)."""
    if cf.cpu is None or n < 1:
        return False
    share, spin = cf.cpu.facts.get("share") or [], cf.cpu.facts.get("spinning") or []
    if len(share) < n or len(spin) < n:
        return False
    return all(np.isfinite(share[k]) and share[k] >= CPU_BOUND and not spin[k] for k in range(n))


def _held_words(result, s: dict) -> str:
    """The smaller blocks that made more bandwidth than the byte cap, held by their job's CPU or the IOPS cap: said,
    so the cap does not read as exceeded unexplained (round 10, JD)."""
    if not s.get("held_above"):
        return ""
    cpu = [(x, v, sh) for x, v, sh in s["held_above"] if sh is not None]
    roof = [(x, v) for x, v, sh in s["held_above"] if sh is None]
    said = [f"{_xv(result, x)} made {fmt_y(v, 'B/s')} with its job {sh:.0%} busy on a CPU" for x, v, sh in cpu]
    said += [f"{_xv(result, x)} made {fmt_y(v, 'B/s')} at the IOPS cap" for x, v in roof]
    return f" (more at a smaller block: {'; '.join(said)} — a point so held does not show the byte limit)"


def _is_level(x: np.ndarray, v: np.ndarray) -> bool:
    """No adjacent step of ``v`` changes it by FLAT or more per doubling of ``x``: a level (round 10, HD)."""
    with np.errstate(all="ignore"):
        per = (v[1:] / v[:-1]) ** (1 / np.log2(x[1:] / x[:-1])) - 1
    return bool(np.all(np.isfinite(per)) and np.all(np.abs(per) < FLAT))


def size_step(result, ev) -> dict | None:
    """Along block size with bandwidth fitted, each side of the step in the unit it is level in — bytes/s, else IOPS,
    else none — and the step between the adjacent points (set after round 10 was read: r10_dgfiobench_palacios…_bs,
    HD: 8.6 → 48.6 MB/s at 4–32 KiB, ×1.6–×1.9 a doubling, was printed as a 25.9 MB/s level and ×55.5 a ratio of
    means where the adjacent step is ×27.5)."""
    if result.x != "block_size_bytes" or result.y_unit != "B/s" or not ev.step:
        return None
    k = int(np.searchsorted(ev.x, ev.step["high"]["x_from"]))
    sides = []
    for idx in (slice(0, k), slice(k, None)):
        x, v = ev.x[idx], ev.y[idx]
        unit = "B/s" if _is_level(x, v) else ("1/s" if _is_level(x, v / x) else None)
        sides.append({"unit": unit, "x": x, "bytes": v, "iops": v / x})
    return {"sides": sides, "levels": all(sd["unit"] for sd in sides), "k": k, "step": float(ev.y[k] / ev.y[k - 1])}


def stream_evidence(result, key):
    """:func:`~nvmemodel.fitting.claim.curve_evidence` without a step where one serial stream's line describes every
    size (``facts.one_stream``): one regime, no "two regimes" (set after round 17 was read: YA,
    r17_openzfs7834_…_qd1-1job_sync_bs, "jumps ×5.97 … two regimes?" beside its own R² 0.9993 fit)."""
    import dataclasses

    from .claim import curve_evidence
    from .facts import curve_facts

    ev, struct = curve_evidence(result, key)
    if ev.step and curve_facts(result, key).one_stream is not None:
        ev = dataclasses.replace(ev, step=None)
    return ev, struct


def step_sides(result, ev) -> str:
    """What the two sides of a step are: "levels", or "regimes" along block size where one is no level."""
    return "regimes" if (size_step(result, ev) or {"levels": True})["levels"] is False else "levels"


def size_step_text(result, ev, level) -> str | None:
    """The step sentence along block size (see :func:`size_step`); ``level`` words a side level in bytes/s."""
    st = size_step(result, ev)
    if st is None:
        return None
    x, k = result.x, st["k"]

    def side(sd, p):
        lo, hi = _xv(result, sd["x"][0]), _xv(result, sd["x"][-1])
        iops = span(fmt_y(sd["iops"].min(), "1/s"), fmt_y(sd["iops"].max(), "1/s"))
        if sd["unit"] == "B/s":
            return level(p)
        if sd["unit"] == "1/s":
            return f"an IOPS level of {iops} at {x} = {span(lo, hi)} (bandwidth grows with the size there)"
        g = sd["bytes"][-1] / sd["bytes"][-2] - 1 if p is ev.step["high"] and len(sd["x"]) >= 2 else 0.0
        return (f"{fmt_y(sd['bytes'][0], 'B/s')} at {lo} to {fmt_y(sd['bytes'][-1], 'B/s')} at {hi} ({iops})"
                + (f", still rising at the largest block ({g:+.0%})" if g >= FLAT else ""))

    lo, hi = (side(sd, ev.step[n]) for sd, n in zip(st["sides"], ("low", "high")))
    at = (f"between {x} = {_xv(result, ev.x[k - 1])} ({fmt_y(ev.y[k - 1], 'B/s')}) and {_xv(result, ev.x[k])} "
          f"({fmt_y(ev.y[k], 'B/s')})")
    if st["levels"]:
        return (f"Measured bandwidth shows two levels: {lo}, then {hi} — a step of ×{st['step']:.3g} {at}: two "
                f"regimes? (what holds the lower level does not hold the upper one).")
    return (f"Measured bandwidth jumps ×{st['step']:.3g} {at}: below it {lo}; from it {hi}; neither side is level in "
            f"bandwidth or IOPS — two regimes? (what holds the smaller blocks does not hold the larger ones).")


def _bytes(v: float) -> str:
    from .claim import _bytes as b

    return b(v)


def _one_in_flight(cf: CurveFacts) -> bool:
    """Every run of the curve had one I/O outstanding (iodepth × jobs, or one per job for a synchronous engine)."""
    out = cf.points["out"].to_numpy(float)
    return bool(out.size and np.isfinite(out).all() and np.all(out <= 1.0))


def _stalled_out(result, cf: CurveFacts) -> str:
    """The stalled runs a level left out, named (their signature is told once, with the saturation words); no level
    of the others pooled across the axis — along a read share that is no one point's level."""
    from .facts import stalled_runs

    st = stalled_runs(result, cf.points)
    if st is None:
        return ""
    n = len(st["left"])
    at = ", ".join(f"{fmt_y(v, result.y_unit)} at {_xv(result, a)}" for a, v in st["left"])
    return (f" {n} of {st['runs']} runs {'was' if n == 1 else 'were'} stalled by fio's own figures (mean latency "
            f"×{span(format(st['mean_lo'], '.3g'), format(st['mean_hi'], '.3g'))} their point's fastest run's, CPU at "
            f"most half its) and are left out: {at}.")


def _mix_claim(result, cf: CurveFacts):
    f = cf.mix
    s, u = f.facts, result.y_unit
    i = int(np.argmax(s["deficits"]))
    r, h = s["shares"][i], s["harmonic"][i]
    measured = h * (1 - s["deficits"][i])
    rg = s.get("ranges")

    def runs(d):  # the kept runs' range beside a level read from them
        return f", runs {span(fmt_y(rg[d][0], u), fmt_y(rg[d][1], u))}" if rg else ""

    from .paced_mix import paced_mix_words

    paced = paced_mix_words(result, cf, runs)  # pure runs at fio's pace: no harmonic mix (round 22 XE)
    if paced is not None:
        return _claim("mix", paced, f)
    head = (f"Along the read share the pure runs make {fmt_y(s['read'], u)} (reads{runs('read')}) and "
            f"{fmt_y(s['write'], u)} (writes{runs('write')}){' — each the median of its kept runs' if rg else ''}; if "
            f"each I/O took its own direction's time, a mix would make 1/X = r/R + (1 − r)/W (the harmonic mix).")
    lo, hi = min(s["deficits"]), max(s["deficits"])  # shortfalls below the harmonic mix (negative: above it)

    def side(d):
        return f"{abs(d):.0%} {'below' if d > 0 else 'above'}"

    where = side(hi) if np.isclose(lo, hi) else (f"between {side(lo)} and {side(hi)} it" if lo < 0 < hi else
                                                 f"{span(*sorted((f'{abs(lo):.0%}', f'{abs(hi):.0%}'), key=lambda v: float(v[:-1])), ' to ')} "
                                                 f"{'below' if lo > 0 else 'above'} it")  # low to high (blind3/4)
    if s.get("loads_differ"):
        loads = ", ".join(_fx(v) for v in s["loads_differ"])
        tail = (f" But the runs were made at different loads ({loads} I/Os outstanding): the harmonic mix compares "
                f"each direction at the mix's own load, so the mixes lie {where} it without telling interference "
                f"from the load — measure every share at one iodepth × numjobs to compare them.")
    elif s.get("in_noise"):
        n = s["in_noise"]
        tail = (f" The mixes' medians lie up to {n['deficit']:.0%} below it, but the runs reach the line: at a read "
                f"share of {n['share']:.2g} they spread {span(fmt_y(n['lo'], u), fmt_y(n['hi'], u))} against "
                f"{fmt_y(n['line_lo'], u)} from the pure points' lowest runs — no shortfall beyond the runs' own scatter "
                f"(these runs cannot tell interference from it)." + _stalled_out(result, cf))
    elif s["below_harmonic"]:
        tail = (f" Mixes fall below it, by up to {s['deficit']:.0%} at a read share of {r:.2g} ({fmt_y(measured, u)} "
                f"against {fmt_y(h, u)}): reads and writes interfere beyond sharing the device's time, on the device "
                f"or the path to it (these files cannot tell which: e.g. writes stalling reads on a drive — "
                f"program/erase, write buffering — or in a target or link between).")
    elif lo < -MIX_BELOW and s.get("above_in_noise"):  # above only within the pure runs' own spread (round 19 UD)
        n = s["above_in_noise"]
        tail = (f" The mixes' medians lie {where}: none falls more than {MIX_BELOW:.0%} below it, and the "
                f"{n['excess']:.0%} above it at a read share of {n['share']:.2g} is inside the runs' own scatter: the "
                f"line through the pure points' highest runs gives {fmt_y(n['line_hi'], u)} there, and that mix's runs "
                f"({span(fmt_y(n['lo'], u), fmt_y(n['hi'], u))}) reach it — no mix lies above it beyond the scatter, "
                f"so these runs show neither overlap nor faster mixed I/O.")
    elif lo < -MIX_BELOW and _one_in_flight(cf):
        # one I/O at a time: nothing overlaps, so a mix above the harmonic mix is I/Os that each took less time
        # than in the pure runs (blind2's marcm24 sync read-share at QD 1 was "served in parallel")
        tail = (f" The mixes lie {where}: none falls more than {MIX_BELOW:.0%} below it. With one I/O in flight at a "
                f"time nothing was served in parallel: above it, each mixed I/O took less time on average than the "
                f"pure runs' (compare fio's latency of each direction).")
    elif lo < -MIX_BELOW:
        tail = (f" The mixes lie {where}: none falls more than {MIX_BELOW:.0%} below it, and above it the two directions "
                f"overlap (separate limits or paths for reads and writes, served in parallel).")
    else:
        tail = (f" The mixes lie {where} (within {MIX_BELOW:.0%}): little interference beyond sharing the "
                f"device's time.")
    return _claim("mix", head + tail, f)


def lead_claims(result, cf: CurveFacts, ev) -> list:
    """The first claims of a curve from its facts (an empty list: the caller describes the data itself)."""
    if ev.step is not None:  # two levels: the step sentence of claims._measured says what the data show
        return []
    if cf.saturation is not None:
        c = _saturation_claim(result, cf, ev)
        # (round 21 WG: fill_drain.py; VG: clat_little.py)
        return ([c] + fill_drain_claims(result, cf) + clat_little_claims(result, cf)) if c is not None else []
    if cf.mix is not None:
        return [_mix_claim(result, cf)]
    return []


def creep_words(result, m: dict, noise: str, cf: CurveFacts | None = None) -> str:
    """Along block size: the means' climb into the largest point that no level is read over (see
    :func:`~nvmemodel.fitting.evidence.shape_evidence`; round 11 KA); "" where there is none. "Within the noise"
    only where the kept runs of the two sizes overlap (set after round 15 was read, UB: r15_here-newfio_fio336-terse_
    loop_pvsync2_randwrite_bs, "+33 % … within the repeat noise" while every 256 KiB run lay above every 128 KiB run)."""
    from .facts import point_levels

    c = m.get("creeps")
    if not c:
        return ""
    u = result.y_unit
    how = f"within {noise}"
    p = cf.points if cf is not None else None
    if p is not None and "x" in p:
        lv = {d["x"]: d for d in point_levels(result, p)}
        a, b = lv.get(float(c["x_from"])), lv.get(float(c["x_to"]))
        if a and b and a["runs"] and b["runs"] and b["lo"] > a["hi"]:
            how = f"every run at {_xv(result, c['x_to'])} above every run at {_xv(result, c['x_from'])}"
    return (f"its means still rise {c['rise']:+.0%} per doubling from {fmt_y(c['y_from'], u)} at "
            f"{_xv(result, c['x_from'])} to {fmt_y(c['y_to'], u)} at {_xv(result, c['x_to'])}, {how}: no "
            f"level is read from these runs.")


def size_iops_text(result, cf: CurveFacts | None, ev, noise: str) -> str:
    """IOPS along block size: a level only where no adjacent step moves ≥ FLAT per doubling (a ×15 range "within the
    noise" is no level: round 11 KE); trims move no data, so no bandwidth is said for them (:func:`~.facts.trims`)."""
    from .facts import trims

    u, x0, x1 = result.y_unit, _xv(result, ev.x[0]), _xv(result, ev.x[-1])
    bw = ev.y * ev.x
    trim = cf is not None and trims(result, cf.points)
    data = (" A trim moves no data: no bandwidth is read from these runs." if trim else None)
    if ev.y[0] - ev.y[-1] > ev.beyond_noise(0, ev.y.size - 1):  # IOPS fall with block size whatever binds
        return (f"Measured IOPS fall from {fmt_y(ev.y[0], u)} at {x0} to {fmt_y(ev.y[-1], u)} at {x1} as blocks grow"
                + (f".{data}" if trim else f", while bandwidth goes from {fmt_y(bw[0], 'B/s')} to "
                                           f"{fmt_y(bw[-1], 'B/s')}."))
    lo, hi = float(np.min(ev.y)), float(np.max(ev.y))
    if not (hi <= (1 + FLAT) * lo or _is_level(ev.x, ev.y)):
        return (f"Measured IOPS go from {fmt_y(ev.y[0], u)} at {x0} to {fmt_y(ev.y[-1], u)} at {x1} ({fmt_y(lo, u)}–"
                f"{fmt_y(hi, u)}, ×{hi / lo:.3g} apart, within {noise}): the runs of a size spread too widely for a "
                f"level or a fall to be read." + (data or ""))
    return (f"Measured IOPS stay at {span(fmt_y(lo, u), fmt_y(hi, u))} from {x0} to {x1} (within {noise}): a limit "
            f"on I/Os per second, not on bytes" + (f".{data}" if trim else
                                                 f"; bandwidth grows with the block size, from {fmt_y(bw[0], 'B/s')} "
                                                 f"to {fmt_y(bw[-1], 'B/s')}, with no bandwidth ceiling reached."))


def size_claims(result, cf: CurveFacts, key=None) -> list:
    """Along block size, after the data sentence: the caps the data show (a direction's own, with ``key``: see
    :func:`direction_claims`), the outstanding I/O at small blocks."""
    capped = _capped(result, key) if key is not None else None
    out = _cap_claims(result, cf, capped) if cf.cap or cf.outstanding or cf.one_stream is not None else []
    if cf.small_sizes is not None:
        said = _small_sizes_claim(result, cf.small_sizes, stream_evidence(result, key)[0].step if key is not None else None)
        out += [said] if said is not None else []
    f = cf.size_fall
    if f is not None:
        s = f.facts
        # the peak in IOPS beside bytes/s at large blocks (set after round 15 was read, TF: r15 spdk-initiator qd,
        # "peaks at 23.1 GB/s" at 128 KiB, no IOPS)
        io = (f", {fmt_y(s['bytes_max'] / s['x_max'], '1/s')}," if s["x_max"] >= BIG_BLOCK else "")
        head = (f"Measured bandwidth peaks at {fmt_y(s['bytes_max'], 'B/s')}{io} at {_xv(result, s['x_max'])} and falls "
                f"{s['drop']:.0%} to {fmt_y(s['bytes_last'], 'B/s')} at {_xv(result, s['x_last'])}, more than "
                f"{s['basis']}: larger blocks were slower here")
        if s.get("level_after"):  # the level after the peak, from its runs (round 18 ZB)
            text, kind = _level_after_words(result, s), "falls" if s["level_after"]["beyond"] else "level"
            out.insert(0, _claim(kind, text, f))
            return out
        if s.get("held"):  # the peak's job was busy on its CPU or on the IOPS cap: no byte limit read (round 10 JD)
            sh = s["held"][0]
            why = f"its job was {sh:.0%} busy on a CPU" if sh is not None else "the IOPS were at their cap"
            text = f"{head}; at {_xv(result, s['x_max'])} {why}, so the peak does not show the byte limit."
            if s.get("cpu_level"):  # the sizes the CPU held at a byte level: that level first (round 19 UF)
                text = f"{cpu_level_words(result, s['cpu_level'])}. Within it {text[len('Measured '):]}"
        elif s.get("bytes_runs") and s["bytes_runs"][1] > (1 + FLAT) * s["bytes_max"]:
            # the peak's own runs scatter past the band: no byte limit is read from it (one story: not "the byte
            # limit" and "not a cap" together — tests/data/qa4/uringbs, 64 KiB runs 2.04 and 3.90 GB/s)
            lo, hi = s["bytes_runs"]
            text = (f"{head}; the runs at {_xv(result, s['x_max'])} spread {span(fmt_y(lo, 'B/s'), fmt_y(hi, 'B/s'))}, "
                    f"up to {hi / s['bytes_max'] - 1:.0%} above {fmt_y(s['bytes_max'], 'B/s')}: no byte limit is read "
                    f"from them.")
        elif s.get("band"):  # a flat top band, one step down, a lower level: no peak (round 21 WB)
            bd, B = s["band"], (lambda v: fmt_y(v, "B/s"))  # noqa: E731
            (x0, x1), (a0, a1), k = bd["x"], bd["after_x"], bd["band"][1] - bd["band"][0] + 1
            m = bd["after"][1] - bd["after"][0] + 1
            text = (f"Measured bandwidth is level at {span(B(bd['lo']), B(bd['hi']), ' to ')} from {_xv(result, x0)} to "
                    f"{_xv(result, x1)} ({k} sizes within {FLAT:.0%} of one another, IOPS "
                    f"{fmt_y(bd['iops'][0], '1/s')} → {fmt_y(bd['iops'][1], '1/s')} for ×{x1 / x0:.3g} the size), then "
                    f"steps down {abs(bd['step']):.0%} in one step to {_xv(result, a0)}"
                    + (f" and holds {span(B(bd['after_lo']), B(bd['after_hi']), ' to ')} up to {_xv(result, a1)} ({m} sizes)"
                       if m >= 2 else f" ({B(bd['after_lo'])}, the largest size)")
                    + f": larger blocks were slower here from {_xv(result, a0)} on. The most bandwidth measured, "
                    f"{B(s['bytes_max'])}{io} at {_xv(result, s['x_max'])}, lies inside that level, no peak; it is "
                    f"the byte limit these data show — "
                    + _cap_words("a byte cap", s["bytes_max"], s.get("bytes_runs"), "B/s") + ".")
        else:
            text = (f"{head}, and the most bandwidth measured is the byte limit these data show — "
                    + _cap_words("a byte cap", s["bytes_max"], s.get("bytes_runs"), "B/s") + ".")
        out.insert(0, _claim("falls", text, f))
    return out


def _small_sizes_claim(result, f: Fact, step: dict | None = None):
    """The request-time steps and IOPS levels of ``facts.small_sizes``, beside the byte sentence (round 18 ZE); a
    step the curve's own "two levels" sentence already says (``step``, the evidence's) is not said twice."""
    s = f.facts
    I, sz = (lambda v: fmt_y(v, "1/s")), (lambda v: _xv(result, v) if v >= 1024 else f"{_fx(v)} B")  # noqa: E731
    steps = [st for st in s["steps"] if not (step and (st["x_from"], st["x_to"]) == (step["low"]["x_to"],
                                                                                    step["high"]["x_from"]))]
    if not steps and not s["levels"]:
        return None
    text = []
    if steps:
        said = []
        for st in steps:
            (i0, i1), (b0, b1), (l0, l1) = st["iops"], st["bytes"], st["lat"]
            lat = f"; fio's mean latency {fmt_y(l0, 's')} → {fmt_y(l1, 's')}" if np.isfinite([l0, l1]).all() else ""
            said.append(f"×{i0 / i1:.3g} from {sz(st['x_from'])} to {sz(st['x_to'])} ({I(i0)} → {I(i1)}{lat})"
                        + (": the larger request took less time" if st["faster"] else f", the bandwidth no higher there ({fmt_y(b0, 'B/s')} → "
                                                   f"{fmt_y(b1, 'B/s')}), though {sz(st['next'][0])} gains "
                                                   f"×{st['next'][1] / b1:.3g} over it again"))
        o = steps[0]["out"]
        per = (f"{_fx(o)} I/O{'' if o == 1 else 's'} outstanding ÷ IOPS" if np.isfinite(o) else
               "1 ÷ IOPS at one depth")
        text.append(f"Along the sizes the time of a request ({per}) steps: " + "; ".join(said))
    if s["levels"]:
        lv = [f"{span(I(v['lo']), I(v['hi']))} from {sz(v['x_from'])} to {sz(v['x_to'])}" for v in s["levels"]]
        band = f"within {FLAT:.0%} of one another" + (" or their runs' own spread" if s["by_runs"] else "")
        # at one I/O outstanding a level is one I/O's time the bytes did not add to (Little's law, the files' own)
        one = [v for v in s["levels"] if v.get("lat") and v["out"] == 1]
        by = (f"; at 1 I/O outstanding each is 1 ÷ fio's mean latency there ("
              + " and ".join(span(fmt_y(v["lat"][0], "s"), fmt_y(v["lat"][1], "s")) for v in one) + ")"
              if len(one) == len(lv) else "")
        text.append(("IOPS hold at " if steps else "Along the sizes IOPS hold at ") + " and at ".join(lv)
                    + f" ({'each ' if len(lv) > 1 else ''}{band}{by})")
    why = " The files do not show what sets these steps." if steps else "" if by else \
        " The files do not show what sets that rate."
    return _claim("small sizes", "; ".join(text) + "." + why, f)


def _level_after_words(result, s: dict) -> str:
    """The rise to a bandwidth peak along block size, the level of the sizes after it read from their runs, and the
    peak beside that level — a fall only beyond the level's own noise (set after round 18 was read: ZB)."""
    a = s["level_after"]
    x0, b0 = a["rise_from"]
    B = lambda v: fmt_y(v, "B/s")  # noqa: E731
    runs = "every kept run" if a["by_runs"] else "one run a size"
    text = (f"Measured bandwidth rises ×{s['bytes_max'] / b0:.3g} from {B(b0)} at {_xv(result, x0)} to "
            f"{B(s['bytes_max'])} at {_xv(result, s['x_max'])} (×{s['x_max'] / x0:.3g} the size), then is flat at {span(B(a['lo']), B(a['hi']))} "
            f"({runs}) from {_xv(result, a['x_from'])} to {_xv(result, a['x_to'])} while IOPS fall in proportion to "
            f"the size ({fmt_y(a['iops'][0], '1/s')} → {fmt_y(a['iops'][1], '1/s')}): "
            # a limit is an upper bound of what was measured: below a peak beyond its noise it is those sizes' level
            + (f"a byte level of about {B(a['value'])} over those sizes" if a["beyond"] else
               f"a byte limit of about {B(s['bytes_max'])}") + f", first reached at {_xv(result, a['onset_x'])}")
    if s.get("held"):
        sh = s["held"][0]
        why = f"its job was {sh:.0%} busy on a CPU" if sh is not None else "the IOPS were at their cap"
        return text + f"; at {_xv(result, s['x_max'])} {why}, so that peak is no byte limit."
    pk = (f"its runs {span(B(a['peak_runs'][0]), B(a['peak_runs'][1]))}" if a["peak_runs"] else "one run")
    if a["beyond"]:
        return (text + f"; {_xv(result, s['x_max'])} ({pk}) lies above every {'run' if a['by_runs'] else 'point'} "
                f"of that level ({_xv(result, s['x_last'])} {s['drop']:.0%} lower): larger blocks were slower here "
                f"than {_xv(result, s['x_max'])}.")
    return text + f"; {_xv(result, s['x_max'])} ({pk}) reaches into that level: no fall beyond its noise."


def untrusted_claim(result, key, cf: CurveFacts, prior=()):
    """The model is kept but does not describe the points: say so, and read none of its parameters."""
    t = cf.trust.facts
    model = t["name"]
    # (a miss beyond 50 % at two points is listed point by point in the caution before this sentence)
    miss = (f"; it misses a point by {t['max_miss']:.0%}" if np.isfinite(t["max_miss"]) and 0.25 < t["max_miss"]
            and not any("misses" in c.text and "more than 50 %" in c.text for c in prior) else "")
    return _claim("model", f"The {model} fit (R² = {_r2(t['r2'])}{miss}) does not describe these points closely "
                           f"enough (R² ≥ 0.9 and no point missed by more than 25 %) for its knee, limit or "
                           f"parameters to be read as facts about them (they are in params and summary()).", cf.trust,
                  untrusted=True)


def quiet_on_rise(cf: CurveFacts, claims: list) -> list:
    """``claims`` without the untrusted model's caution (:func:`untrusted_claim`) where the explanation says the series
    still rises — the saturation fact's state "rising", or a "still rises" claim that survived the last checks: no
    model is read on a rising series, so no caution about reading one either (set after round 19 was read: TD, what
    round 18's rule left; r20_tutsunom_sdb-hdd-deadline_4k-randread_qd1_numjobs_repeats, "The amdahl fit (R² = 0.8523)
    does not describe these points closely enough …" after "still rises")."""
    rising = cf.saturation.facts["state"] == "rising" if cf.saturation is not None else \
        any(c.kind == "rising" for c in claims)
    return [c for c in claims if not (c.kind == "model" and c.facts.get("untrusted"))] if rising else claims


def cpu_claims(result, cf: CurveFacts) -> list:
    """A CPU-bound plateau or cap, from fio's CPU per I/O (never per byte)."""
    f = cf.cpu
    if f is not None and f.facts.get("spare"):
        sp, x = f.facts["spare"], result.x
        return [_claim("cpu", f"fio's CPU accounting: from {x} = {_xv(result, sp['from_x'])} on the jobs "
                              f"together used a level {cpus_words(sp['level_cpus'], '.3g')} however many were added — fewer than "
                              f"the {cpus_words(sp['seen_cpus'], '.3g')} the jobs of this result used at {sp['seen_at']}: the "
                              f"host had CPUs to spare, so the plateau is not the host's CPUs saturated.", f,
                       cpu_bound=False)]
    if f is None or f.facts["cpu_bound"] is False:
        return []
    s, x = f.facts, result.x
    if s["cpu_bound"] is None and (shared := shared_words(result, cf)):  # round 21 (VD): its cost rose, not held
        return [_claim("cpu", shared, f, cpu_bound=True)]  # (the verdict the words give, for the checks)
    if s["cpu_bound"] is None:  # the jobs' total CPU level while jobs were added: all busy only if that is every CPU
        return [_claim("cpu", f"fio's CPU accounting: from {x} = {_xv(result, s['level_from_x'])} on the jobs together "
                              f"used a level {cpus_words(s['level_cpus'], '.3g')} however many were added. A rate held by "
                              f"something else at a fixed CPU cost per I/O does that too: if this host has about "
                              f"{cpus_words(s['level_cpus'], '.0f')} for fio, they were all busy and the plateau is CPU-bound "
                              f"(give the host — --host or a topology — to decide).", f)]
    if s["how"] == "engine":
        # fio's CPU can read 0 (a run of a few ms: below its resolution) — then no cost is read from it
        cost = (f" — {fmt_y(s['at_cpu_s_per_io'], 's')} of CPU per I/O at {x} = {_xv(result, s['at_x'])}, "
                f"{fmt_y(s['iops_per_cpu'], '1/s')} per CPU" if s.get("iops_per_cpu") is not None else
                f" (fio's CPU figure at {x} = {_xv(result, s['at_x'])} is 0, below its resolution: no cost per I/O is "
                f"read from it)")
        return [_claim("cpu", f"fio's {s['engine']} engine does no I/O: its rate is what the CPU can submit and "
                              f"complete{cost}; its rate is CPU-bound, no device is involved.", f)]
    if s["how"] == "host":  # round 10 (JA): the summed CPU stopped growing at one cost — the level it gives
        h = s["host"]
        cpus = span(f"{h['lo']:.3g}", f"{h['hi']:.3g}")
        return [_claim("cpu", f"fio's CPU accounting: the jobs together used {cpus_words(cpus)} (usr+sys) at every point from "
                              f"{x} = {_xv(result, h['x_from'])} to {_xv(result, h['x_to'])} while jobs were added "
                              f"({h['share_last']:.0%} of one CPU per job at {_xv(result, h['x_to'])}), at one cost of "
                              f"{span(fmt_y(h['cost_lo'], 's'), fmt_y(h['cost_hi'], 's'))} of CPU per I/O at every "
                              f"point; {cpus_words(h['level'], '.3g')} ÷ {fmt_y(h['cost'], 's')} per I/O = "
                              f"{fmt_y(h['rate'], '1/s')}, the level ({span(fmt_y(h['iops_lo'], '1/s'), fmt_y(h['iops_hi'], '1/s'))} "
                              f"measured there), and {cpus_words(h['level'], '.3g')} is {h['whole']} whole CPUs within 1 %: the "
                              f"CPUs the host gave the jobs (about {h['whole']}) held it.", f)]
    if s["how"] == "machine" and s.get("pin"):  # round 11 (KD): the files name the CPUs fio could use
        h, n = s["pin"], s["cores"]
        cpus = span(f"{h['lo']:.3g}", f"{h['hi']:.3g}")
        text = (f"fio's jobs were pinned to {n} CPU{'s' * (n != 1)} (cpus_allowed={h['spec']}): from {x} = "
                f"{_xv(result, s['at_x'])} on the jobs together used {cpus_words(cpus)} (usr+sys) however many were added, "
                f"at {span(fmt_y(h['cost_lo'], 's'), fmt_y(h['cost_hi'], 's'))} of CPU per I/O; {n} "
                f"CPU{'s' * (n != 1)} ÷ {fmt_y(h['cost'], 's')} per I/O = {fmt_y(n / h['cost'], '1/s')} "
                f"({span(fmt_y(h['iops_lo'], '1/s'), fmt_y(h['iops_hi'], '1/s'))} measured there): the plateau is "
                f"the pinned CPU{'s' * (n != 1)} saturated.")
    elif s["how"] == "machine":
        text = (f"fio's CPU accounting: from {x} = {_xv(result, s['at_x'])} on the jobs together used a level "
                f"{cpus_words(s['cpus'], '.3g')} however many were added, {s['cpus'] / s['cores']:.0%} of the host's {s['cores']} "
                f"({fmt_y(s['at_cpu_s_per_io'], 's')} of CPU per I/O): they had all the CPU they could get — the "
                f"plateau is CPU-bound, not a device limit.")
    else:
        who = "the job" if s["cpus"] / s["job_cpu_share"] < 1.5 else "each job"
        jobs = f"the submitting job{'s' if who == 'each job' else ''}"
        rising = cf.saturation is not None and cf.saturation.facts["state"] == "rising"
        # a still-rising curve has no level: its last point is what the busy job could submit, and more of the load
        # axis cannot raise it much for that job — more jobs can
        held = (f"the rate there is CPU-bound ({jobs}, ≥ {CPU_BOUND:.0%} busy): each job's rate is what its CPU "
                f"sustains at that cost, and each added job brings its own CPU (round 22 YE)" if rising and x in SUBMITTERS
                else f"the rate there is CPU-bound ({jobs}, ≥ {CPU_BOUND:.0%} busy): a larger {x} cannot raise it much for "
                f"{'that job' if who == 'the job' else 'those jobs'} — more jobs can" if rising else
                f"the level is CPU-bound ({jobs}, ≥ {CPU_BOUND:.0%} busy), not a device queue")
        lo, hi, to = s["one_cost"] or (0, 0, 0)
        proof = (f" ({span(fmt_y(lo, 's'), fmt_y(hi, 's'))} at every point ≥ {CPU_BOUND:.0%} busy up to {x} = "
                 f"{_xv(result, to)}: one cost)" if s["one_cost"] else "")
        polled = (f" At {x} = {', '.join(_xv(result, v) for v in s['polled']['x'])} {s['polled']['why']} (no reading "
                  f"of fio's CPU there)." if s.get("polled") else "")
        # on a CPU-bound level the rate one CPU sustains is the range its busy points' costs give, never the onset's
        # one value below points it explains (set after round 20 was read: r20_nerdst_nvme-p7_4k-randread_qd,
        # "one CPU sustains 134.92 K IOPS" under a 139.28 K level and 145 K measured at 6.87 µs, RH)
        rate = (f"at those costs one CPU sustains {span(fmt_y(1 / hi, '1/s'), fmt_y(1 / lo, '1/s'))}"
                if s["one_cost"] and lo > 0 and hi > lo else f"at that cost one CPU sustains "
                f"{fmt_y(s['iops_per_cpu'], '1/s')}")
        text = (f"fio's CPU accounting at {x} = {_xv(result, s['at_x'])}: {who} used {s['job_cpu_share']:.0%} of a "
                f"CPU (usr+sys), {fmt_y(s['at_cpu_s_per_io'], 's')} of CPU per I/O{proof} — {rate} per job: "
                f"{held}.{polled}")
    return [_claim("cpu", text, f)]


def below_top_words(result, ev) -> str:
    """What a model's limit below the largest measurement is: where the last doubling of load still paid
    :data:`PAYS` the data are still rising and the model bent before they did; else a level the points scatter
    about. Neither is a ceiling of the data."""
    g = last_gain(ev.x, ev.y) if result.x != "block_size_bytes" else np.nan
    cf = _facts_of(result, ev)
    state = cf.saturation.facts["state"] if cf is not None and cf.saturation is not None else None
    n = len(ev.y)
    # the last step's verdict is the one the saturation sentence reads (run_noise.last_step_within, round 20 SB);
    # the evidence's own test only where the points table gives none
    within = last_step_within(cf.points) if cf is not None else None
    if within is None:
        within = getattr(ev, "noise_source", None) == "repeats" and n >= 2 and \
            ev.y[-1] - ev.y[-2] <= ev.beyond_noise(n - 1, n - 2)
    if np.isfinite(g) and g >= PAYS and state in (None, "rising") and within:
        # the last gain is inside the repeats' noise: no "still rise" (one story with the saturation sentence)
        return (f"the last step ({g:+.0%} per doubling of {result.x}) is within the repeats' noise, and the model "
                f"bends below the largest measurement — not a ceiling of these data")
    if np.isfinite(g) and g >= PAYS and state in (None, "rising"):  # (a saturated curve's last step is its scatter)
        return (f"the data still rise at the largest {result.x} ({g:+.0%} per doubling in the last step), so the "
                f"model bends before they do — not a ceiling of these data")
    return "a level the points scatter about, not a ceiling of these data"


def served_words(result, cf: CurveFacts) -> tuple[str, str]:
    """(what served the I/O, what more load would be) for a sentence about a limit not measured at this load: "the
    device" and "a deeper queue" unless the facts say otherwise — the page cache (buffered I/O: memory, not a
    device) or another layer the files name, and "more jobs" for a synchronous engine (one I/O in flight per job
    whatever iodepth says)."""
    from .curves import synchronous
    from .claim import runs_rows

    layer = cf.layer.facts["layer"] if cf.layer is not None else None
    what = {"page_cache": "the page cache (memory, not a device)", None: "the device",
            "buffered_device": "the device"}.get(
        layer, "the layer that served the I/O")
    served = cf.layer.facts.get("served") if cf.layer is not None else None
    if layer == "none":  # an engine that touches no storage (net …): what its I/O goes through (round 10, HF)
        what = cf.layer.facts["path"]
    elif layer == "page_cache" and served == "device_part":  # the device served reads in every run (round 22, XB)
        from .page_reads import served_what

        assert cf.layer is not None  # (the layer above is its fact's)
        what = served_what(cf.layer.facts)
    elif layer == "page_cache" and served == "unknown":  # no evidence either way
        what = "the page cache or the device (buffered I/O: which served it is not shown)"
    elif layer == "page_cache" and served == "waited":  # each read slept (fio's ctx per read: round 17, XE)
        what = "what each read waited on (a device or a user-space server: not shown which)"
    elif layer == "page_cache" and served == "writeback":  # buffered.py's write-back rule
        what = "the write-back from the page cache to the device"
    rows = runs_rows(result, cf.points)
    engines = set(rows["ioengine"].dropna().astype(str)) if rows is not None and "ioengine" in rows else set()
    sync = bool(engines) and bool(synchronous(rows).all())
    # fio has no asynchronous engine for a socket or the CPU (engines/net.c, cpu.c …): there only more jobs would
    # (set after round 11 was read: r11_here-net_tcp-loopback_write_bs_repeats, KG)
    from ..jobs.fiooptions import NO_STORAGE_ENGINES

    alt = "more jobs" if engines <= NO_STORAGE_ENGINES else "more jobs or an async engine"
    more = (f"{alt} ({', '.join(sorted(engines))} is synchronous: one I/O in flight per job)"
            if sync
            else "a deeper queue")
    return what, more


def _facts_of(result, ev) -> CurveFacts | None:
    """The facts of the curve whose points ``ev`` holds (None: no such curve)."""
    from .facts import curve_facts

    for key in result.chosen:
        cf = curve_facts(result, key)
        xs, ys = cf.points["x"].to_numpy(float), cf.points["y"].to_numpy(float)
        if xs.size == np.size(ev.x) and np.allclose(xs, np.sort(ev.x)) and np.allclose(np.sort(ys), np.sort(ev.y)):
            return cf
    return None


def _state_of(result, ev) -> str | None:
    """The saturation fact's state of the curve whose points ``ev`` holds (None: no such fact)."""
    cf = _facts_of(result, ev)
    return cf.saturation.facts["state"] if cf is not None and cf.saturation is not None else None


#: load axes that add devices, not concurrent requests: along them a fixed number of jobs spreads over more devices
DEVICE_AXES = ("drives", "devices", "device_count", "targets", "target_count")


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
