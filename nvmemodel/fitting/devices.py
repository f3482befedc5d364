"""The devices fio's disk statistics list, and the layer each name is — read by the layer fact
(:mod:`~nvmemodel.fitting.facts`) and by what buffered I/O says (:mod:`~nvmemodel.fitting.buffered`)."""

from __future__ import annotations

import re

__all__ = ["LAYERS", "layer_of", "listed_devices"]

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
