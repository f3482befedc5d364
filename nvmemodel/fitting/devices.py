"""The devices fio's disk statistics list, and the layer each name is — read by the layer fact
(:mod:`~nvmemodel.fitting.facts`) and by what buffered I/O says (:mod:`~nvmemodel.fitting.buffered`)."""

from __future__ import annotations

import re

__all__ = ["LAYERS", "MAPPER_TARGET", "STACKING", "bottom_counts", "mapper_targets", "devices_per_point", "layer_of", "listed_devices", "parallel_targets",
           "side_by_side", "stack_words", "device_busy", "vm_described"]

#: disk-statistics device names → the layer they are (fio's disk_util lists the devices it saw)
LAYERS = (("loop", r"^loop\d"), ("dm", r"^dm-\d"), ("md", r"^md\d"), ("nbd", r"^nbd\d"), ("rbd", r"^rbd\d"),
          ("virtio", r"^vd[a-z]"), ("xen", r"^xvd[a-z]"))


def listed_devices(rows) -> list[str]:
    """The devices fio's disk statistics list for these runs (the table's ``devices``), in fio's order — the device a
    job used first, then the disks beneath it (``dm-0;vda``) — each once."""
    names: list[str] = []
    for v in rows["devices"].dropna().astype(str):
        for d in v.split(";"):
            if d and d not in names:
                names.append(d)
    return names


def layer_of(device: str) -> str | None:
    """The layer a device name in fio's disk statistics is (:data:`LAYERS`), or None (a disk: ``sda``, ``nvme0n1``)."""
    return next((layer for layer, pat in LAYERS if re.match(pat, device)), None)


#: the layers whose devices have slaves (``/sys/block/<dev>/slaves``): fio's disk statistics list such a device and
#: then the devices beneath it — the only stack fio's disk list shows
STACKING = ("dm", "md")


def side_by_side(rows) -> list[str]:
    """The devices fio lists that were used side by side, where there are two or more: every device it lists when none
    is a dm or md device (only those have slaves fio lists beneath them: loop, virtio, SCSI and NVMe devices listed
    together are siblings), else the job's own targets among them (``target_names``). Round 6 BC: ``filename=
    /dev/loop0:/dev/loop1`` was "loop0 over loop1"; round 7 CD (set after round 7 was read: r7_here_blkio_perslice…):
    one job section per loop slice under group_reporting, where ingest leaves ``target_names`` empty, was "loop1 over
    loop2 over loop3 over loop4". A stack's lower devices (a dm's or md's members, a VM disk under its dm) are not."""
    names = listed_devices(rows) if "devices" in rows else []
    # side by side only where one run (one report) names several: devices that differ from point to point were used
    # one at a time (set after round 20 was read: r20_here-verify_loop_psync_md5-verify_randread_qd1_bs_repeats, SA:
    # one loop device per block size, "loop1, loop4, loop3, loop0 and loop2, the job's targets side by side")
    together = max((len(g) for g in _per_report(rows, "devices")), default=0)
    if len(names) >= 2 and not any(layer_of(d) in STACKING for d in names):
        return names if together >= 2 else []
    if "target_names" not in rows:
        return []
    for targets in _per_report(rows, "target_names"):
        both = [d for d in names if d in {t.rsplit("/", 1)[-1] for t in targets}]
        if len(both) >= 2:
            return both
    return []


def _per_report(rows, col: str) -> list[list[str]]:
    """Per report (a source file's run), the names its rows list in ``col`` (``devices`` or ``target_names``), each
    once: what one run used at once."""
    if col not in rows:
        return []
    keys = [c for c in ("source_path", "run") if c in rows]
    groups = rows.groupby([rows[c].astype(str) for c in keys], sort=False) if keys else [(None, rows)]
    out = []
    for _, g in groups:
        names = list(dict.fromkeys(d for v in g[col].dropna().astype(str) for d in re.split(r"[;:]", v) if d))
        out.append(names)
    return out


def devices_per_point(rows, xcol: str, xs) -> list[tuple[float, str]] | None:
    """(x, device) per point where every run names one device and the devices differ from point to point (each
    point run on its own device, one at a time), in the points' order; None otherwise (round 20, SA)."""
    if "devices" not in rows or xcol not in rows:
        return None
    if any(len(g) != 1 for g in _per_report(rows, "devices")):
        return None
    import pandas as pd

    x = pd.to_numeric(rows[xcol], errors="coerce")
    out = []
    for v in xs:
        named = set(rows.loc[(x - float(v)).abs() <= 1e-9 * max(1.0, abs(float(v))), "devices"].dropna().astype(str))
        if len(named) != 1:
            return None
        out.append((float(v), named.pop()))
    return out if len({d for _, d in out}) >= 2 else None


def bottom_counts(rows):
    """Per run, how many bottom devices fio's disk statistics list (a dm or md device stands over the devices fio lists
    after it: ``dm-0;nvme0n1`` is one drive, ``md0;sdb;sdc`` two); where a run names no device, fio's ``device_count``
    (a float Series, NaN where neither is known)."""
    import pandas as pd

    names = rows["devices"].astype(object) if "devices" in rows else pd.Series([None] * len(rows), index=rows.index)
    counts = (pd.to_numeric(rows["device_count"], errors="coerce") if "device_count" in rows
              else pd.Series(float("nan"), index=rows.index))
    out = counts.astype(float).copy()
    for i, v in zip(rows.index, names):
        listed = [d for d in v.split(";") if d] if isinstance(v, str) else []
        if listed:
            out.loc[i] = float(len([d for d in listed if layer_of(d) not in STACKING]) or len(listed))
    return out


def parallel_targets(rows) -> float:
    """How many targets the runs' jobs used side by side (at least 1): the most files a run names (``targets``) or the
    most bottom devices fio lists for one run (:func:`bottom_counts`) — one path through ``dm-0;nvme0n1`` counts once
    (set after round 16 was read: r16_ssdbenchresults_jetson-nvme-luks…, WA: dm-crypt over its drive was "2 targets
    side by side"); an md's members count each (striped drives are parallel)."""
    import pandas as pd

    n = 1.0
    if "targets" in rows:
        t = pd.to_numeric(rows["targets"], errors="coerce").dropna()
        n = max(n, float(t.max()) if len(t) else 1.0)
    b = bottom_counts(rows).dropna()
    return max(n, float(b.max())) if len(b) else n


def stack_words(names: list[str]) -> str:
    """The devices fio lists as they stand: a dm or md device "over" the devices fio lists after it, devices side by
    side joined with commas and "and" — "md0 over sdb, sdc and sdd", "dm-0 over vda", "loop1, loop2 and loop3" (round 7
    part 1 CD: an md's members, or sibling slices, are not stacked on one another)."""
    if len(names) >= 2 and layer_of(names[0]) in STACKING:
        return f"{names[0]} over {stack_words(names[1:])}"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}" if names else ""


#: a device at least this busy (fio's disk_util) in a run had a request in flight nearly all of it
BUSY = 0.9


def device_busy(rows, names: list[str], xcol: str, last: float) -> dict | None:
    """How busy fio's disk statistics say the devices ``names`` were (``disk_util_pct``, aligned with ``devices``):
    the lowest and highest share over every run and device, whether every one is below :data:`BUSY` (each device
    idle part of every run) and whether every one at the last point (``xcol`` = ``last``) is at or above it. None
    where a run names one of them without its share (set after round 20 was read: r20_here-verify … numjobs, SC:
    "its rates are that layer's" of a loop device 13–78 % busy while the jobs' own CPU work held the rate)."""
    import pandas as pd

    if "disk_util_pct" not in rows or "devices" not in rows or not names:
        return None
    x = pd.to_numeric(rows[xcol], errors="coerce") if xcol in rows else pd.Series(float("nan"), index=rows.index)
    shares, at_last = [], []
    for devs, utils, xv in zip(rows["devices"].astype(object), rows["disk_util_pct"].astype(object), x):
        if not isinstance(devs, str) or not devs:
            continue
        d = devs.split(";")
        u = (str(utils).split(";") if isinstance(utils, str) else  # one device: the table may read it as a number
             [str(utils)] if isinstance(utils, (int, float)) and utils == utils else [])
        if len(u) != len(d):
            return None
        for name, v in zip(d, u):
            if name in names:
                try:
                    share = float(v) / 100.0
                except ValueError:
                    return None
                shares.append(share)
                if abs(float(xv) - last) <= 1e-9 * max(1.0, abs(last)):
                    at_last.append(share)
    if not shares:
        return None
    return {"lo": min(shares), "hi": max(shares), "idle": max(shares) < BUSY,
            "busy_last": bool(at_last) and min(at_last) >= BUSY}


#: a device-mapper volume's node: /dev/mapper/<name> or /dev/dm-N (LVM volumes' /dev/<vg>/<lv> links are not read:
#: the path alone does not say they are one)
MAPPER_TARGET = r"^/dev/(mapper/[^/:;]+|dm-\d+)$"


def mapper_targets(rows) -> list[str] | None:
    """The jobs' targets where every run's are device-mapper volumes (:data:`MAPPER_TARGET`) and fio's disk
    statistics list no device at all (so no member is named): each once, in order. None otherwise (set after round 21
    was read: r21_tieredvol_dm-stripe-nvme-2sata_*, WD: /dev/mapper/testpool in every row, disk_util empty, and no
    sentence said whose rates these were)."""
    if rows is None or not len(rows) or "target_names" not in rows:
        return None
    if "devices" in rows and rows["devices"].astype(object).fillna("").astype(str).ne("").any():
        return None
    targets = rows["target_names"].astype(object)
    if targets.isna().any():
        return None
    names = list(dict.fromkeys(t for v in targets.astype(str) for t in re.split(r"[:;]", v) if t))
    if not names or not all(re.match(MAPPER_TARGET, t) for t in names):
        return None
    return names


#: what each layer is, in words (the layer sentence's and the buffered sentence's: here, so that neither imports the
#: other)
_LAYER_WORDS = {"network_fs": "a file system with no local block device beneath it (a network or memory file system)",
                "network_block": "a block device reached over the network", "gpu_direct": "GPUDirect Storage (cuFile)",
                "loop": "a loop device (an image file: its I/O may be served by the page cache of the host or VM)",
                "dm": "a device-mapper device (LVM, dm-crypt, multipath …)", "md": "an md software RAID array",
                "nbd": "a network block device", "rbd": "a Ceph RBD block device (a network block device)",
                "virtio": "a virtio disk inside a virtual machine (the hypervisor's storage layer)",
                "xen": "a Xen virtual disk (the hypervisor's storage layer)",
                "vm_disk": "a virtual disk of a VM guest (the hypervisor's device model and the host's storage beneath)"}


#: words in a target's description that put the I/O inside a VM on a virtual disk → the layer (set after round 27
#: was read, GG: r27_chvirtio's "virtio-blk disk of a Cloud Hypervisor guest" / "… of a QEMU/libvirt guest", no disk
#: statistics and no layer said). "VM" alone is not enough: a cloud VM's local NVMe is passed through (r27_lisapr629)
VM_DESCRIBED = (("virtio", r"virtio"), ("vm_disk", r"\bguest\b|cloud.hypervisor|firecracker|virtual disk"))
#: a description that says the opposite
NOT_VM = r"not (virtuali[sz]ed|in a vm|a vm)|bare.metal|\bhost side\b"


def vm_described(rows) -> str | None:
    """The layer (``virtio`` or ``vm_disk``) where every run's target description (``target_names``) puts the I/O on
    a virtual disk inside a VM (:data:`VM_DESCRIBED`) and fio's disk statistics list no device; else None."""
    if rows is None or not len(rows) or "target_names" not in rows:
        return None
    if "devices" in rows and rows["devices"].astype(object).fillna("").astype(str).ne("").any():
        return None
    names = rows["target_names"].astype(object)
    if names.isna().any():
        return None
    text = set(names.astype(str))
    if any(re.search(NOT_VM, t, re.I) for t in text):
        return None
    for layer, pat in VM_DESCRIBED:
        if all(re.search(pat, t, re.I) for t in text):
            return layer
    return None
