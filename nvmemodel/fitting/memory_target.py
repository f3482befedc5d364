"""A target the files themselves name as memory — an SPDK malloc or null bdev, a RAM disk (brd ``ram*``), zram,
null_blk, persistent-memory DIMMs or a pmem/DAX namespace, tmpfs or ramfs files: no drive and no PCIe link is in the
path, so no drive's or link's limit is the yardstick (set after round 32 was read: UA, ``r32_spdk2104`` "Malloc0
(SPDK malloc bdev: RAM)" at 155 GB/s told "a layer above the drives (a cache, a file or network layer) served these
I/Os"; ``r32_optanestudy8`` "6 interleaved Intel Optane DC persistent memory DIMMs" told "the files do not count the
drives").

Device kinds are matched, not the word: "RAM" alone ("DRAM-less SSD", "the array's RAM cache") names no memory target.
"""

from __future__ import annotations

import re

__all__ = ["memory_target", "memory_words"]

#: (pattern over the target's own text, what it is) — device kinds only (set after round 32 was read: UA)
MEMORY_KINDS = (
    (r"\bmalloc\s*bdev\b|^\s*malloc\d+\b", "an SPDK malloc bdev (RAM)"),
    (r"\bnull\s*bdev\b", "an SPDK null bdev (no data stored)"),
    (r"persistent[ -]memory|\bDC\s?PMM\b|\bNVDIMM|/dev/pmem\d|^\s*pmem\d+\b|/dev/dax\d|\bdevdax\b",
     "persistent memory (DIMMs on the memory bus)"),
    (r"/dev/ram\d|^\s*ram\d+\b|\bbrd\b|\bRAM ?disk\b", "a RAM disk"),
    (r"/dev/zram\d|^\s*zram\d+\b", "zram (compressed RAM)"),
    (r"/dev/nullb\d|^\s*nullb\d+\b|\bnull_blk\b", "null_blk (no data stored)"),
    (r"\btmpfs\b|\bramfs\b|^/dev/shm/", "files in memory (tmpfs/ramfs)"),
)
#: a network or a remote server named in the same text: the path is not memory alone (an SPDK null bdev behind an
#: NVMe-oF target over RDMA: the network may set the rate), so nothing is said here (set after round 32 was read)
REMOTE = r"nvme-?of|nvmf|\brdma\b|\btcp\b|iscsi|network|remote|\bnbd\b|\brbd\b|\bceph\b|\bnfs\b|omni-?path|infiniband"
#: a count of memory modules written in the target's text ("6 interleaved … DIMMs")
_MODULES = re.compile(r"\b(\d+)\s*(?:x\s*)?(?:[\w.-]+\s+){0,7}?(DIMMs|NVDIMMs|modules)\b", re.I)


def memory_target(rows) -> dict | None:
    """``{"what", "name", "modules"}`` where every row's target text (``target_names``, or fio's disk names) names one
    of :data:`MEMORY_KINDS`; None otherwise (a mix of memory and drives, or nothing said)."""
    from ..jobs.fiooptions import METADATA_ENGINES

    if "ioengine" in rows:  # an engine that moves no data (filecreate, filestat …): no rate of the memory's
        engines = set(rows["ioengine"].dropna().astype(str))
        if engines and engines <= METADATA_ENGINES:
            return None
    texts = []
    for col in ("target_names", "devices"):
        if col in rows:
            texts += [t for t in rows[col].dropna().astype(str).unique() if t.strip()]
    if not texts:
        return None
    kinds = set()
    for t in texts:
        if re.search(REMOTE, t, re.I):
            return None
        hit = next((what for pat, what in MEMORY_KINDS if re.search(pat, t, re.I)), None)
        if hit is None:
            return None  # one target not named as memory: say nothing here
        kinds.add(hit)
    if len(kinds) != 1:
        return None
    names = [n for t in (rows["target_names"].dropna().astype(str).unique() if "target_names" in rows else [])
             for n in t.split(";") if n.strip()] or [n for t in texts for n in t.split(";") if n.strip()]
    names = list(dict.fromkeys(names))
    m = _MODULES.search(texts[0])
    name = names[0] if len(names[0]) <= 120 else names[0][:119] + "…"
    if len(names) > 1:
        name += f" and {len(names) - 1} more"
    return {"what": kinds.pop(), "name": name, "modules": int(m.group(1)) if m else None,
            "module_word": m.group(2).rstrip("s") if m else None}


def memory_words(facts: dict, peak_bps: float | None, per_job: str = "") -> str:
    """The layer sentence of a memory target: what it is, no drive or link, and the rate per module where the text
    counts them."""
    from .wording import fmt_y

    text = (f"The target is memory — {facts['what']}, as the files name it ({facts['name']}): no drive or PCIe link "
            f"is in the path, so no drive's or link's limit applies; the memory and the CPU work per I/O set these "
            f"rates")
    n = facts.get("modules")
    if n and peak_bps is not None and n > 1:
        text += (f"; {fmt_y(peak_bps, 'B/s')} over the {n} {facts['module_word']}s the files name is "
                 f"{fmt_y(peak_bps / n, 'B/s')} a {facts['module_word']}")
    return text + per_job + "."
