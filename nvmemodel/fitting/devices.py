"""The devices fio's disk statistics list, and the layer each name is — read by the layer fact
(:mod:`~nvmemodel.fitting.facts`) and by what buffered I/O says (:mod:`~nvmemodel.fitting.buffered`)."""

from __future__ import annotations

import re

__all__ = ["LAYERS", "layer_of", "listed_devices", "side_by_side"]

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


def side_by_side(rows) -> list[str]:
    """The job's own targets among the devices fio lists (``filename=/dev/loop0:/dev/loop1``, the table's
    ``target_names`` ``/dev/loop0;/dev/loop1``) where there are two or more: devices used side by side, not a stack
    (round 6 BC: two loop devices a job wrote to were named "loop0 over loop1"). A stack's lower devices (a dm's or md's
    members, a VM disk under its dm) are not the job's targets."""
    if "target_names" not in rows:
        return []
    targets = {t.rsplit("/", 1)[-1] for v in rows["target_names"].dropna().astype(str) for t in re.split(r"[;:]", v) if t}
    both = [d for d in listed_devices(rows) if d in targets] if "devices" in rows else []
    return both if len(both) >= 2 else []
