"""fio's default human-readable ("normal") output, fio 2.x and 3.x, into table rows.

The normal output rounds its headline numbers ("IOPS=507k"), so this reader takes counts
from the exact fields: I/Os from the ``issued`` line, the run time from ``(…/4133msec)`` or
``runt=…``, and computes ``iops = ios / runtime`` and ``bytes/s = ios × bs / runtime`` as fio
itself does. Units: fio 3.x prints both binary and decimal (``BW=1982MiB/s (2078MB/s)``);
fio 2.x prints ``KB``/``MB``/``GB`` meaning **KiB/MiB/GiB** (its default ``kb_base=1024``).

Options fio echoes in its job header (rw, bs, ioengine, iodepth) are read from it; options it
never echoes in normal output (``direct``, ``numjobs`` without group reporting) stay unknown
rather than defaulted.
"""

from __future__ import annotations

import math
import re

from ..errors import IngestError
from .fio_options import workload_fields
from .schema import new_row

_HEADER = re.compile(r"^(?P<name>\S.*?): \(g=(?P<g>\d+)\): rw=(?P<rw>[^,]+), bs=(?P<bs>.*?), ioengine=(?P<engine>[^,]+), "
                     r"iodepth=(?P<qd>\d+)")
_RESULT = re.compile(r"^(?P<name>\S.*?): \(groupid=(?P<g>\d+), jobs=(?P<jobs>\d+)\): err=\s*(?P<err>-?\d+)")
_VERSION = re.compile(r"^fio-\d+\.\d+\S*$")
_NEW_DIR = re.compile(r"^\s+(?P<dir>read|write|trim)\s*: IOPS=(?P<iops>[\d.]+[kKmMgG]?), BW=(?P<bw>[^ ]+)"
                      r"(?: \((?P<bw2>[^)]*)\))?\((?P<io>[^/]+)/(?P<rt>\d+)msec\)")
_OLD_DIR = re.compile(r"^\s+(?P<dir>read|write|trim)\s*: io=(?P<io>[^,]+), bw=(?P<bw>[^,]+), iops=(?P<iops>[^,]+), "
                      r"runt=\s*(?P<rt>\d+)msec")
_LAT = re.compile(r"^\s+(?P<kind>slat|clat|lat)\s+\((?P<unit>nsec|usec|msec)\):\s*min=\s*(?P<min>[\d.]+)[kKmM]?,"
                  r"\s*max=\s*(?P<max>[\d.]+)(?P<maxsfx>[kKmM]?),\s*avg=\s*(?P<avg>[\d.]+),")
_PCT_HEAD = re.compile(r"^\s+clat percentiles \((?P<unit>nsec|usec|msec)\):")
_PCT = re.compile(r"(?P<p>[\d.]+)th=\[\s*(?P<v>\d+)\]")
_CPU = re.compile(r"^\s+cpu\s*:\s*usr=(?P<usr>[\d.]+)%, sys=(?P<sys>[\d.]+)%")
_ISSUED_NEW = re.compile(r"^\s+issued rwts?:\s*total=(?P<t>[\d,]+)")
_ISSUED_OLD = re.compile(r"^\s+issued\s*:\s*total=r=(?P<r>\d+)/w=(?P<w>\d+)(?:/d=(?P<d>\d+))?")
_DISK = re.compile(r"^\s+(?P<dev>[\w\-.]+): ios=\d+/\d+")
_UNIT = {"nsec": 1e-9, "usec": 1e-6, "msec": 1e-3}
_PCT_COLS = {"50.00": "clat_p50_s", "90.00": "clat_p90_s", "95.00": "clat_p95_s", "99.00": "clat_p99_s",
             "99.90": "clat_p99_9_s", "99.99": "clat_p99_99_s"}
_DIRS = ("read", "write", "trim")


def looks_like_fio_normal(head: str) -> bool:
    return bool(re.search(r"\(groupid=\d+, jobs=\d+\)", head)) or bool(re.search(r"^\S.*: \(g=\d+\): rw=", head, re.M))


def _bs_from_header(text: str, path) -> dict[str, float | None]:
    """'(R) 4096B-4096B, (W) 4096B-4096B, (T) …' or '8K-8K/8K-8K/8K-8K' or '4096B-4096B,4096B-…'."""
    from ..units import parse_block_size

    parts = re.findall(r"([\d.]+[KMG]?i?B?)-([\d.]+[KMG]?i?B?)", text)
    out: dict[str, float | None] = {}
    for d, (lo, hi) in zip(_DIRS, parts):
        a, b = parse_block_size(lo), parse_block_size(hi)
        out[d] = a if a == b else None
    if not out:
        raise IngestError(path, f"job header bs={text!r}: expected block sizes like 4096B-4096B")
    return out


def _bytes(text: str, *, binary_kb: bool) -> float:
    """'8192MiB' → bytes; fio 2.x 'MB' means MiB."""
    m = re.match(r"([\d.]+)\s*([KMGTP]?)(i?)B", text.strip())
    if not m:
        return math.nan
    base = 1024.0 if (m[3] or binary_kb) else 1000.0
    return float(m[1]) * base ** " KMGTP".index(m[2] or " ")


def read_fio_normal(path, text: str | None = None) -> list[dict]:
    """Rows of a fio normal-output file (one row per job block and direction that did I/O)."""
    if text is None:
        with open(path, encoding="utf-8", errors="strict") as fh:
            text = fh.read()
    version = None
    headers: dict[str, dict] = {}
    blocks: list[dict] = []
    devices: list[str] = []
    cur = None
    direction = None
    pct_scale = None
    in_disk = False
    for line in text.splitlines():
        if _VERSION.match(line.strip()) and version is None:
            version = line.strip()
            continue
        if m := _HEADER.match(line):
            headers.setdefault(m["name"], {"rw": m["rw"].strip(), "bs": m["bs"], "ioengine": m["engine"].strip(),
                                           "iodepth": m["qd"]})
            continue
        if m := _RESULT.match(line):
            cur = {"name": m["name"], "group": int(m["g"]), "jobs": int(m["jobs"]), "dirs": {}, "cpu": None,
                   "issued": None}
            blocks.append(cur)
            direction, in_disk = None, False
            continue
        if line.startswith("Disk stats"):
            in_disk, cur = True, None
            continue
        if in_disk:
            if m := _DISK.match(line):
                devices.append(m["dev"])
            continue
        if cur is None:
            continue
        if (m := _NEW_DIR.match(line)) or (m := _OLD_DIR.match(line)):
            direction = m["dir"]
            cur["dirs"][direction] = {"runtime_s": int(m["rt"]) / 1000.0,
                                      "io_text": m["io"], "binary_kb": m.re is _OLD_DIR}
            continue
        if direction and (m := _LAT.match(line)):
            scale = _UNIT[m["unit"]]
            d = cur["dirs"][direction]
            d[f"{m['kind']}_mean_s"] = float(m["avg"]) * scale
            if m["kind"] == "lat" or (m["kind"] == "clat" and "lat_max_s" not in d):
                mx = float(m["max"]) * {"": 1, "k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6}[m["maxsfx"]]
                d["lat_max_s"] = mx * scale
            continue
        if direction and (m := _PCT_HEAD.match(line)):
            pct_scale = _UNIT[m["unit"]]
            continue
        if direction and pct_scale and line.lstrip().startswith("|"):
            for p, v in _PCT.findall(line):
                col = _PCT_COLS.get(f"{float(p):.2f}")
                if col:
                    cur["dirs"][direction][col] = int(v) * pct_scale
            continue
        if m := _CPU.match(line):
            cur["cpu"] = (float(m["usr"]) / 100, float(m["sys"]) / 100)
            direction = None
            continue
        if m := _ISSUED_NEW.match(line):
            cur["issued"] = [float(x) for x in m["t"].split(",") if x]
            continue
        if m := _ISSUED_OLD.match(line):
            cur["issued"] = [float(m["r"]), float(m["w"]), float(m["d"] or 0)]
    if not blocks:
        raise IngestError(path, "no fio job results found (expected lines like 'name: (groupid=0, jobs=1): err= 0')")

    rows = []
    counts: dict[tuple, int] = {}
    for b in blocks:
        counts[(b["name"], b["group"])] = counts.get((b["name"], b["group"]), 0) + 1
    for index, b in enumerate(blocks):
        header = headers.get(b["name"])
        opts = {k: v for k, v in (header or {}).items() if k != "bs"}
        fields, defaulted = workload_fields(opts, path, echoed=header is not None)
        for unknown in ("direct", "numjobs"):  # never echoed in normal output: unknown, not default
            fields.pop(unknown, None)
        if "read_fraction" in defaulted:  # rwmixread is not echoed either: use the realised mix
            r, w = (b["issued"] + [0.0, 0.0])[:2] if b["issued"] else (math.nan, math.nan)
            fields["read_fraction"] = r / (r + w) if r + w > 0 else math.nan
        sizes = _bs_from_header(header["bs"], path) if header else {}
        grouped = b["jobs"] > 1
        numjobs = b["jobs"] if grouped else counts[(b["name"], b["group"])]
        if b["issued"] is None:
            raise IngestError(path, f"job {b['name']!r}: no 'issued … total=' line, cannot count I/Os")
        for k, direction in enumerate(_DIRS):
            d = b["dirs"].get(direction)
            ios = b["issued"][k] if k < len(b["issued"]) else 0.0
            if d is None or ios <= 0:
                continue
            bs = sizes.get(direction)
            io_bytes = ios * bs if bs else _bytes(d["io_text"], binary_kb=d["binary_kb"])
            if not bs:
                bs = io_bytes / ios
            rt = d["runtime_s"]
            extra = {k2: v for k2, v in d.items() if k2.endswith("_s") and k2 != "runtime_s"}
            rows.append(new_row(
                tool="fio", tool_version=version, format="fio-normal", source_path=str(path), snapshot=0,
                final=True, job_name=b["name"], job_index=index, group_id=b["group"],
                level="group" if grouped else "job", is_aggregate=False, **fields, numjobs=numjobs,
                direction=direction, block_size_bytes=bs, runtime_s=rt, ios=ios, io_bytes=io_bytes,
                iops=ios / rt if rt > 0 else math.nan, bw_bytes_per_s=io_bytes / rt if rt > 0 else math.nan,
                cpu_usr=b["cpu"][0] if b["cpu"] else math.nan, cpu_sys=b["cpu"][1] if b["cpu"] else math.nan,
                devices=";".join(devices) or None, device_count=len(devices) or None, **extra,
            ))
    return rows
