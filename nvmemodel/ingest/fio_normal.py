"""fio's default human-readable ("normal") output, fio 2.x and 3.x, into table rows.

The normal output rounds its headline numbers ("IOPS=507k"), so this reader takes counts
from the exact fields: I/Os from the ``issued`` line, the run time from ``(…/4133msec)`` or
``runt=…``, and computes ``iops = ios / runtime`` and ``bytes/s = ios × bs / runtime`` as fio
itself does. Units: fio 3.x prints both binary and decimal (``BW=1982MiB/s (2078MB/s)``);
fio 2.x prints ``KB``/``MB``/``GB`` meaning **KiB/MiB/GiB** (its default ``kb_base=1024``).

Block sizes: the job header prints them exactly only as bytes (``4096B``); ``977KiB`` is
rounded (``bs=1MiB`` is 1,000,000 bytes under fio's default ``kb_base=1024``), so the size is
then the round number (a multiple of 4096, 1000 or 512 bytes) inside both the header's
rounding interval and the interval the most precise estimate allows (the printed bandwidth ÷
IOPS, or ``io=`` ÷ issued, each to half a unit of its last printed digit), else the header's
size; the estimate itself only where no header gives a size.

``--status-interval`` repeats the job blocks: every block after a ``Run status group`` line
starts the next report (``snapshot``); a new job header or version line starts a new run
(files appended to), also after a run that printed a header and a ``Run status group`` line
but no result block (it failed: a row with no numbers); only each run's last report is ``final``. A last report cut off before
its ``issued`` line (killed run) is dropped with a warning and leaves its run without a final
report. Only ``clat percentiles`` fill the ``clat_p*`` columns (not ``lat``/``sync``
percentiles). A job with ``err=`` ≠ 0 keeps a row with the error and no numbers.

Options fio echoes in its job header (rw, bs, ioengine, iodepth) are read from it; options it
never echoes in normal output (``direct``, ``numjobs`` without group reporting,
``percentage_random``: a random pattern's ``random_fraction``) stay unknown rather than defaulted.
"""

from __future__ import annotations

import math
import re
import warnings
from typing import Any

from ..errors import IngestError, IngestWarning
from .fio_options import workload_fields
from .schema import failed_job_rows, new_row

_HEADER = re.compile(r"^(?P<name>\S.*?): \(g=(?P<g>\d+)\): rw=(?P<rw>[^,]+), bs=(?P<bs>.*?), ioengine=(?P<engine>[^,]+), "
                     r"iodepth=(?P<qd>\d+)")
_RESULT = re.compile(r"^(?P<name>\S.*?): \(groupid=(?P<g>\d+), jobs=(?P<jobs>\d+)\): err=\s*(?P<err>-?\d+)")
_VERSION = re.compile(r"^fio-\d+\.\d+\S*$")
_NEW_DIR = re.compile(r"^\s+(?P<dir>read|write|trim|mixed)\s*: IOPS=(?P<iops>[\d.]+[kKmMgG]?), BW=(?P<bw>[^ ]+)"
                      r"(?: \((?P<bw2>[^)]*)\))?\((?P<io>[^/]+)/(?P<rt>\d+)msec\)")
_OLD_DIR = re.compile(r"^\s+(?P<dir>read|write|trim|mixed)\s*: io=(?P<io>[^,]+), bw=(?P<bw>[^,]+), iops=(?P<iops>[^,]+), "
                      r"runt=\s*(?P<rt>\d+)msec")
# (fio 2.0.x prints a number num2str did not scale with a space for its empty unit: "min=77 , max=937 , avg=232.06,")
_LAT = re.compile(r"^\s+(?P<kind>slat|clat|lat)\s+\((?P<unit>nsec|usec|msec)\):\s*min=\s*(?P<min>[\d.]+)[kKmM]? ?,"
                  r"\s*max=\s*(?P<max>[\d.]+)(?P<maxsfx>[kKmM]?) ?,\s*avg=\s*(?P<avg>[\d.]+),")
_PCT_HEAD = re.compile(r"^\s+(?P<kind>\w+) percentiles \((?P<unit>nsec|usec|msec)\):")
_PCT = re.compile(r"(?P<p>[\d.]+)th=\[\s*(?P<v>\d+)\]")
_CPU = re.compile(r"^\s+cpu\s*:\s*usr=(?P<usr>[\d.]+)%, sys=(?P<sys>[\d.]+)%(?:, ctx=(?P<ctx>\d+))?")
_ISSUED_NEW = re.compile(r"^\s+issued rwts?:\s*total=(?P<t>[\d,]+)")
_ISSUED_OLD = re.compile(r"^\s+issued\s*:\s*total=r=(?P<r>\d+)/w=(?P<w>\d+)(?:/d=(?P<d>\d+))?")
_DISK = re.compile(r"^\s+(?P<dev>[\w\-.]+): ios=(?P<r>\d+)/(?P<w>\d+)")
_UNIT = {"nsec": 1e-9, "usec": 1e-6, "msec": 1e-3}
_PCT_COLS = {"50.00": "clat_p50_s", "90.00": "clat_p90_s", "95.00": "clat_p95_s", "99.00": "clat_p99_s",
             "99.90": "clat_p99_9_s", "99.99": "clat_p99_99_s"}
_LAT_PCT_COLS = {key: "lat" + col[4:] for key, col in _PCT_COLS.items()}
_DIRS = ("read", "write", "trim")
_RUN_STATUS = re.compile(r"^Run status group \d+")
_CLIENT = re.compile(r"<([^<>\s]+)> ")  # fio --client prefixes each server's lines with <hostname>
_CLIENT_HELLO = re.compile(r"^hostname=\S+, be=\d+, .*\bfio=(fio-\S+?),")
_STARTING = re.compile(r"^Starting (\d+) (?:process|thread)")


def looks_like_fio_normal(head: str) -> bool:
    return bool(re.search(r"\(groupid=\d+, jobs=\d+\)", head)) or bool(re.search(r"^\S.*: \(g=\d+\): rw=", head, re.MULTILINE))


def _bs_from_header(text: str, path) -> dict[str, tuple[float, float] | None]:
    """'(R) 4096B-4096B, (W) …' or '8K-8K/8K-8K/8K-8K' → per direction the interval the printed
    size stands for ((lo, hi); lo == hi when printed exactly in bytes), None for a size range."""
    parts = re.findall(r"([\d.]+)([KMGTP]?)(i?B?)-([\d.]+)([KMGTP]?)(i?B?)", text)
    out: dict[str, tuple[float, float] | None] = {}
    for d, (n1, p1, u1, n2, p2, u2) in zip(_DIRS, parts):
        if (n1, p1) != (n2, p2):
            out[d] = None
            continue
        scale = 1024.0 ** " KMGTP".index(p1 or " ")  # fio prints binary multiples (2.x 'K' too)
        value = float(n1)
        out[d] = (value, value) if scale == 1 else ((value - 0.5) * scale, (value + 0.5) * scale)
    if not out:
        raise IngestError(path, f"job header bs={text!r}: expected block sizes like 4096B-4096B")
    return out


def _rate(text: str | None, *, binary_kb: bool) -> tuple[float, float]:
    """'19.7MiB/s' → (bytes/s, half a unit of the last printed digit, bytes/s)."""
    # ("All clients" sums print the unit without "B/s": "BW=35.4Gi (38.0G)")
    m = re.match(r"\s*([\d.]+)\s*([kKMGTP]?)(i?)(?:B/s|(?=[\s)]|$))", text or "")
    if not m:
        return math.nan, math.nan
    base = 1024.0 if (m[3] or binary_kb) else 1000.0
    scale = base ** " KMGTP".index(m[2].upper() or " ")
    decimals = len(m[1].partition(".")[2])
    return float(m[1]) * scale, 0.5 * 10.0**-decimals * scale


def _block_size(interval, d: dict, ios: float, in_flight: float = 0.0, others: tuple = ()) -> float:
    """The block size in bytes of one direction (see the module docstring). ``in_flight``: I/Os
    that may be issued but not done (an interim report's bytes lag its issued count); ``others``:
    the header's size intervals of the other directions."""
    rt = d["runtime_s"]
    estimates = [(bw / (ios / rt), err / (ios / rt)) for bw, err in d["rates"] if bw > 0 and rt > 0 and ios > 0]
    total, total_err = _amount(d["io_text"], binary_kb=d["binary_kb"])
    if total > 0 and ios > 0:  # io= / issued: not rounded by fio's rate arithmetic (2.1.11 misprints bw= decimals)
        estimates.append((total / ios, total_err / ios))
    if interval is not None and interval[0] == interval[1]:
        # fio's own BW= must agree with the header's exact size; else the header is not this block's
        lag = max(0.0, 1.0 - in_flight / ios) if ios > 0 else 0.0
        if any(not interval[0] * lag * 0.9 - err <= est <= interval[0] * 1.1 + err for est, err in estimates):
            fits = [o[0] for o in others if o is not None and o[0] == o[1] and all(
                o[0] * lag * 0.9 - err <= est <= o[0] * 1.1 + err for est, err in estimates)]
            if fits:  # another direction's size (trimwrite writes with the trim size; see below)
                return fits[0]
            raise IngestError(d["path"], f"job {d['job']!r}: the job header says bs={interval[0]:.0f} B but fio's "
                                         f"BW= and IOPS give {estimates[0][0]:.0f} B per I/O (expected them to agree)")
        return interval[0]
    if not estimates:
        if interval is not None:
            return (interval[0] + interval[1]) / 2
        return _bytes(d["io_text"], binary_kb=d["binary_kb"]) / ios
    est, err = min(estimates, key=lambda e: e[1])
    if interval is not None and ios > 0:
        # fio's BW= and IOPS= count different things by up to the I/Os in flight (bytes of I/Os completed after the
        # issued count was taken: fio 3.28 io_uring QD4, bs=1024KiB: BW=7425MiB/s, IOPS=7422 give 1,049,000 B):
        # within the header's printed interval that slack is the size's uncertainty, not a size of its own
        err += est * min(1.0, in_flight / ios)
    lo, hi = est - err, est + err
    if interval is not None and (max(lo, interval[0]) > min(hi, interval[1])) and others:
        # fio's BW= and io= contradict the header's size of this direction: a size the job was given for another
        # direction is the one it moved (rw=trimwrite / randtrimwrite writes the blocks it trimmed, of the trim
        # size: bs=4k,16k,8k writes 8 KiB blocks), never a size no job was given
        fits = [o for o in others if o is not None and max(lo, o[0]) <= min(hi, o[1])]
        interval = fits[0] if fits else interval
    if interval is not None:
        lo, hi = max(lo, interval[0]), min(hi, interval[1])
    for unit in (4096.0, 1000.0, 512.0):
        candidates = [k * unit for k in range(math.ceil(lo / unit), math.floor(hi / unit) + 1) if k > 0]
        if candidates:
            return min(candidates, key=lambda c: abs(c - est))
    if interval is not None:  # the header's size: never a size no job was given (QA s25 H6)
        return float(round((interval[0] + interval[1]) / 2))
    return est


def _amount(text: str, *, binary_kb: bool) -> tuple[float, float]:
    """'363326MB' → (bytes, half a unit of the last printed digit, bytes); NaN if not an amount."""
    m = re.match(r"\s*([\d.]+)\s*([kKMGTP]?)(i?)B", text or "")
    if not m:
        return math.nan, math.nan
    scale = (1024.0 if (m[3] or binary_kb) else 1000.0) ** " KMGTP".index(m[2].upper() or " ")
    return float(m[1]) * scale, 0.5 * 10.0 ** -len(m[1].partition(".")[2]) * scale


def _bytes(text: str, *, binary_kb: bool) -> float:
    """'8192MiB' → bytes; fio 2.x 'MB' means MiB."""
    m = re.match(r"([\d.]+)\s*([kKMGTP]?)(i?)B", text.strip())
    if not m:
        return math.nan
    base = 1024.0 if (m[3] or binary_kb) else 1000.0
    return float(m[1]) * base ** " KMGTP".index(m[2].upper() or " ")


def _parse_blocks(text: str, path):
    """(version, job headers per run, result blocks, devices per run, started jobs per run) from
    the text, blocks tagged with report and run."""
    version = None
    # run → (host, job name, group) → its header: job names need not be unique (two groups both named 'write', at
    # iodepth 1 and 64): a result block's header is the one of its own name *and* group
    headers: dict[int, dict[tuple, dict]] = {}
    blocks: list[dict] = []
    devices: dict[int, list[str]] = {}  # run → disk names of its "Disk stats"
    disk_ios: dict[int, list[int]] = {}  # run → [read requests, write requests] of those devices, summed
    cur: dict[str, Any] | None = None  # the job block being read
    direction = None
    pct_scale, pct_cols = None, _PCT_COLS
    in_disk = False
    report, run, status_seen, header_seen = 0, 0, False, False
    # closed: the run's "Run status group" line was read; a job header (or version line) after
    # it starts the next run, also when the run printed no result block (it failed: QA s25 H20)
    closed = False
    starts: dict[int, int] = {}  # run → jobs fio said it started
    host, client, section = None, False, 0
    for line in text.splitlines():
        if line.startswith("<") and (m := _CLIENT.match(line)):
            host, client, line = m[1], True, line[m.end():]
        elif line.startswith("hostname=") and (m := _CLIENT_HELLO.match(line)):
            client, version = True, version or m[1]
            continue
        if line.startswith("Starting ") and (m := _STARTING.match(line)):
            starts[run] = starts.get(run, 0) + int(m[1])
            continue
        if _VERSION.match(line.strip()):
            version = version or line.strip()
            if (blocks and not header_seen) or closed:
                run, report, status_seen, header_seen, closed = run + 1, report + 1, False, True, False
            continue
        if m := _HEADER.match(line):
            if (blocks and not header_seen) or closed:
                run, report, status_seen, header_seen, closed = run + 1, report + 1, False, True, False
            # headers belong to their run: appended runs of one job name differ in bs / iodepth
            # (fio 2.x prints rw=(null) for a pattern its name table lacks, trimwrite in 2.2: not said)
            h = {"name": m["name"], "rw": m["rw"].strip() if m["rw"].strip() != "(null)" else None, "bs": m["bs"],
                 "ioengine": m["engine"].strip(), "iodepth": m["qd"], "group": int(m["g"])}
            key = (host if client else None, m["name"], int(m["g"]))
            first = headers.setdefault(run, {}).setdefault(key, h)
            if first is not h and any(first[k] != h[k] for k in ("rw", "bs", "ioengine", "iodepth")):
                # one name twice in one group with different options: fio's result blocks (one per name and group
                # without a key of their own) cannot be told apart — never give one the other's options
                raise IngestError(path, f"job name {m['name']!r} appears twice in group {m['g']} with different "
                                        f"options ({_said(first)} and {_said(h)}): fio's results cannot be told "
                                        "apart; expected unique job names (or one name per stonewalled group)")
            continue
        if m := _RESULT.match(line):
            if status_seen:
                report, status_seen = report + 1, False
            header_seen = False
            cur = {"name": m["name"], "group": int(m["g"]), "jobs": int(m["jobs"]), "err": int(m["err"]), "dirs": {},
                   "cpu": None, "issued": None, "report": report, "run": run,
                   "all_clients": client and m["name"] == "All clients", "host": host if client else None,
                   "section": section}
            blocks.append(cur)
            direction, in_disk, pct_scale = None, False, None
            continue
        if _RUN_STATUS.match(line):  # (in client mode every server prints its own)
            status_seen, cur, direction, section = not client, None, None, section + client
            closed = closed or not client
            continue
        if line.startswith("Disk stats"):
            in_disk, cur = True, None
            continue
        if in_disk:
            if m := _DISK.match(line):
                devices.setdefault(run, []).append(m["dev"])
                ios = disk_ios.setdefault(run, [0, 0])
                ios[0] += int(m["r"])
                ios[1] += int(m["w"])
            continue
        if cur is None:
            continue
        if (m := _NEW_DIR.match(line)) or (m := _OLD_DIR.match(line)):
            direction, pct_scale = m["dir"], None
            if direction in cur["dirs"]:  # fio writes each direction once per job block
                raise IngestError(path, f"job {cur['name']!r}: a second {direction!r} line in one job block "
                                        "(expected one per direction)")
            old = m.re is _OLD_DIR
            rates = [_rate(m["bw"], binary_kb=old)] + ([] if old else [_rate(m["bw2"], binary_kb=False)])
            cur["dirs"][direction] = {"runtime_s": int(m["rt"]) / 1000.0, "io_text": m["io"], "binary_kb": old,
                                      "path": path, "job": cur["name"],
                                      "rates": [r for r in rates if not math.isnan(r[0])]}
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
            # completion- ('clat') and total-latency ('lat', lat_percentiles=1) percentiles; not 'sync' ones
            pct_scale = _UNIT[m["unit"]] if m["kind"] in ("clat", "lat") else None
            pct_cols = _PCT_COLS if m["kind"] == "clat" else _LAT_PCT_COLS
            continue
        if direction and line.lstrip().startswith("|"):
            if pct_scale:
                for p, v in _PCT.findall(line):
                    col = pct_cols.get(f"{float(p):.2f}")
                    if col:
                        cur["dirs"][direction][col] = int(v) * pct_scale
            continue
        if direction:
            # any other line ends the percentile table: the per-priority tables of cmdprio_percentage (fio 3.20-3.28
            # "high prio (50.34%) clat percentiles", 3.30 on "clat prio 1/0/0 (50.34% of IOs) percentiles") follow the
            # job's own and are not the job's
            pct_scale = None
        if m := _CPU.match(line):
            cur["cpu"] = (float(m["usr"]) / 100, float(m["sys"]) / 100, float(m["ctx"]) if m["ctx"] else math.nan)
            direction = None
            continue
        if m := _ISSUED_NEW.match(line):
            cur["issued"] = [float(x) for x in m["t"].split(",") if x]
            continue
        if m := _ISSUED_OLD.match(line):
            cur["issued"] = [float(m["r"]), float(m["w"]), float(m["d"] or 0)]
    return version, headers, blocks, devices, disk_ios, starts


def _said(h: dict) -> str:
    return f"rw={h['rw']}, bs={h['bs']}, ioengine={h['ioengine']}, iodepth={h['iodepth']}"


def _header(headers: dict, name: str, group: int, host: str | None = None):
    """The job header of a result block: the one of its name in its group (job names need not be unique:
    two stonewalled groups may both be 'write'), else the one header whose name begins with it (fio
    shortens long job names in the result line, not in the header)."""
    header = headers.get((host, name, group))
    if header is not None:
        return header
    named = [h for (_, n, _), h in headers.items() if n == name or (len(name) >= 32 and n.startswith(name))]
    for pick in ([h for h in named if h["group"] == group], named):  # (a client's header printed without its host)
        if pick and all(_said(h) == _said(pick[0]) for h in pick) and len({h["name"] for h in pick}) == 1:
            return pick[0]
    return None


def read_fio_normal(path, text: str | None = None) -> list[dict]:
    """Rows of a fio normal-output file (one row per job block and direction that did I/O)."""
    if text is None:
        with open(path, encoding="utf-8", errors="strict") as fh:
            text = fh.read()
    version, headers, blocks, devices, disk_ios, starts = _parse_blocks(text, path)
    # a group without any result block: its jobs failed to start (with group_reporting the
    # other jobs of a group that has a block are in that block)
    reported_groups = {(b["run"], b["group"]) for b in blocks}
    missing = [(run, key) for run, hs in headers.items() for key, h in hs.items()
               if (run, h["group"]) not in reported_groups]
    members_of: dict[tuple[int, int], list[dict]] = {}
    for run, hs in headers.items():
        for h in hs.values():
            members_of.setdefault((run, h["group"]), []).append(h)
    if not blocks and not missing:
        raise IngestError(path, "no fio job results found (expected lines like 'name: (groupid=0, jobs=1): err= 0')")
    if missing:  # fio prints no result block for a job that failed to start (JSON and terse have one)
        errors = [int(e) for e in re.findall(r"^fio: pid=\d+, err=(\d+)/", text, re.MULTILINE)]
        error = errors[0] if len(errors) == 1 and len(missing) == 1 else None
        named = ([key[1] for _, key in missing] if len(headers) == 1 else  # appended runs: say which run failed
                 [f"{key[1]} (run {run}: iodepth {headers[run][key]['iodepth']})" for run, key in missing])
        warnings.warn(f"{path}: job(s) {named} have a header but no results (failed to start?"
                      f"{f' fio error {error}' if error else ''}); a row with no numbers is kept for each",
                      IngestWarning, stacklevel=2)
        failed = []
        for run, key in missing:
            h, name = headers[run][key], key[1]
            fields, _ = workload_fields({k: v for k, v in h.items() if k not in ("bs", "group", "name")}, path)
            for unknown in ("direct", "numjobs"):
                fields.pop(unknown, None)
            if fields.get("random_fraction") == 1.0:  # (percentage_random is never echoed)
                fields["random_fraction"] = math.nan
            failed += failed_job_rows([], dict(tool="fio", tool_version=version, format="fio-normal",
                                               source_path=str(path), snapshot=0, final=True, job_name=name, run=run,
                                               job_index=list(headers[run]).index(key), group_id=h["group"], level="job", is_aggregate=False, error=error, **fields), [])
        if not blocks:
            return failed
    else:
        failed = []
    truncated = False
    last = blocks[-1]["report"]
    if any(b["issued"] is None for b in blocks if b["report"] == last) and len({b["report"] for b in blocks}) > 1:
        truncated = True  # a killed run: the report being written is incomplete
        blocks = [b for b in blocks if b["report"] != last]
        warnings.warn(f"{path}: the last report is truncated (run killed while writing?); it is not read and its "
                      "run has no final report", IngestWarning, stacklevel=2)
    _microsecond_interims(blocks)
    last_report = {b["run"]: b["report"] for b in blocks}
    last_run = blocks[-1]["run"]

    rows = []
    counts: dict[tuple, int] = {}
    for b in blocks:
        key = (b["report"], b["name"], b["group"], b["section"])
        counts[key] = counts.get(key, 0) + 1
    first_index: dict[int, int] = {}  # report → its first block
    for index, b in enumerate(blocks):
        first_index.setdefault(b["report"], index)
        header = None if b["all_clients"] else _header(headers.get(b["run"], {}), b["name"], b["group"], b["host"])
        opts = {k: v for k, v in (header or {}).items() if k not in ("bs", "group", "name")}
        fields, defaulted = workload_fields(opts, path, echoed=header is not None)
        for unknown in ("direct", "numjobs"):  # never echoed in normal output: unknown, not default
            fields.pop(unknown, None)
        defaulted = [c for c in defaulted if c not in ("direct", "numjobs")]  # (numjobs: counted below)
        if "read_fraction" in defaulted:  # rwmixread is not echoed either: use the realised mix
            r, w = (b["issued"] + [0.0, 0.0])[:2] if b["issued"] else (math.nan, math.nan)
            # unified_rw_reporting=mixed counts every I/O in the first field: the mix is not in the output
            unified = "mixed" in b["dirs"] and not set(b["dirs"]) & {"read", "write"}
            fields["read_fraction"] = r / (r + w) if r + w > 0 and not unified else math.nan
            defaulted.remove("read_fraction")
        if fields.get("random_fraction") == 1.0:  # percentage_random is never echoed here: unknown, not 100
            fields["random_fraction"] = math.nan
        grouped = b["jobs"] > 1
        members = members_of.get((b["run"], b["group"]), []) if grouped and header else []
        if header and len({h["bs"] for h in members}) > 1:  # a group of jobs with different block sizes: the mean is measured
            header = dict(header, bs="")
        sizes = _bs_from_header(header["bs"], path) if header and header["bs"] else {}
        mixed_patterns = len({h["rw"] for h in members}) > 1
        if mixed_patterns:  # the group's jobs ran different patterns: no one pattern describes it
            r, w = (b["issued"] + [0.0, 0.0])[:2]
            fields.update(pattern=None, random_fraction=math.nan, read_fraction=r / (r + w) if r + w else math.nan)
            defaulted = [c for c in defaulted if c not in ("pattern", "random_fraction", "read_fraction")]
        for col, key in (("iodepth", "iodepth"), ("ioengine", "ioengine")):
            if len({h[key] for h in members}) > 1:  # the first job's header does not describe the group
                fields[col] = None
        numjobs = b["jobs"] if grouped else counts[(b["report"], b["name"], b["group"], b["section"])]
        if b["issued"] is None:
            raise IngestError(path, f"job {b['name']!r}: no 'issued … total=' line, cannot count I/Os")
        common = dict(
            tool="fio", tool_version=version, format="fio-normal", source_path=str(path), snapshot=b["report"],
            final=b["report"] == last_report[b["run"]] and not (truncated and b["run"] == last_run),
            job_name=b["name"], job_index=index - first_index[b["report"]], group_id=b["group"],
            level="all-clients" if b["all_clients"] else "group" if grouped else "job", is_aggregate=b["all_clients"],
            hostname=b["host"] if not b["all_clients"] else None, run=b["run"], **fields, numjobs=numjobs,
            cpu_usr=b["cpu"][0] if b["cpu"] else math.nan, cpu_sys=b["cpu"][1] if b["cpu"] else math.nan,
            ctx=b["cpu"][2] if b["cpu"] else math.nan,
            devices=";".join(devices.get(b["run"], [])) or None, device_count=len(devices.get(b["run"], [])) or None,
            disk_read_ios=disk_ios.get(b["run"], (None, None))[0], disk_write_ios=disk_ios.get(b["run"], (None, None))[1],
            error=b["err"],
            defaulted=";".join(defaulted) or None,
        )
        job_rows = []
        for k, direction in enumerate((*_DIRS, "mixed")):
            d = b["dirs"].get(direction)
            ios = sum(b["issued"][:3]) if direction == "mixed" else (b["issued"][k] if k < len(b["issued"]) else 0.0)
            if d is None or ios <= 0:
                continue
            interval = sizes.get(direction) if direction != "mixed" else (
                sizes.get("read") if sizes.get("read") == sizes.get("write") else None)
            if header and not sizes:  # different sizes in one group: bytes from fio's own BW=, size their mean
                io_bytes = _measured_bytes(d)
                bs = io_bytes / ios
            else:
                depth = int(header["iodepth"]) if header and str(header["iodepth"]).isdigit() else 1
                bs = _block_size(interval, d, ios, in_flight=depth * b["jobs"],
                                 others=tuple(v for k2, v in sizes.items() if k2 != direction))
                io_bytes = ios * bs
            rt = d["runtime_s"]
            extra = {k2: v for k2, v in d.items() if k2.endswith("_s") and k2 != "runtime_s"}
            job_rows.append(new_row(
                **common, direction=direction, block_size_bytes=bs, runtime_s=rt, ios=ios, io_bytes=io_bytes,
                iops=ios / rt if rt > 0 else math.nan, bw_bytes_per_s=io_bytes / rt if rt > 0 else math.nan, **extra,
            ))
        if b["err"]:
            job_rows = failed_job_rows(job_rows, common, [])
            warnings.warn(f"{path}: job {b['name']!r} failed with fio error {b['err']}; its numbers are not tabulated "
                          "(row kept with the error column set)", IngestWarning, stacklevel=2)
        elif not job_rows and common["final"]:
            reason = ("is a CPU-load job (ioengine=cpuio) and does no I/O" if fields.get("ioengine") == "cpuio"
                      else "completed no I/O" if header else
                      "completed no I/O (fio printed no job header for it, as for a CPU-load ioengine=cpuio job)")
            warnings.warn(f"{path}: job {b['name']!r} {reason}; no row for it", IngestWarning, stacklevel=2)
        if any(r["direction"] == "mixed" for r in job_rows) and len(job_rows) > 1:
            for r in job_rows:  # unified_rw_reporting=both: the mixed row sums the read and write rows
                r["is_aggregate"] = r["is_aggregate"] or r["direction"] == "mixed"
        rows.extend(job_rows)
    _check_started(path, starts, blocks, headers, last_report)
    return rows + failed


def _block_bytes(b: dict) -> tuple[float, float]:
    """(bytes over the block's directions from their io= totals, its longest runtime in s)."""
    moved = sum(_bytes(d["io_text"], binary_kb=d["binary_kb"]) for d in b["dirs"].values())
    return moved, max((d["runtime_s"] for d in b["dirs"].values()), default=0.0)


def _microsecond_interims(blocks: list[dict]) -> None:
    """Make seconds of the runtimes fio 2.1 wrote in µs in its ``--status-interval`` interim reports (seen in
    2.1.11: ``runt=511972msec``, ``1536539msec``, ``2564466msec``, then the final report's ``runt= 3001msec``;
    the terse reader's :func:`~nvmemodel.ingest.fio_terse._microsecond_interims` says how they are told). The
    printed rates, derived from them, are scaled with them."""
    by_job: dict = {}
    for b in blocks:
        if b["dirs"] and not b["err"]:
            by_job.setdefault((b["run"], b["name"], b["group"], b["section"]), []).append(b)
    for seq in by_job.values():
        micro: list[dict] = []
        last_bytes, last_rt = _block_bytes(seq[-1])
        for a, b in zip(reversed(seq[:-1]), reversed(seq[1:])):
            (ka, ta), (kb, tb) = _block_bytes(a), _block_bytes(b)
            rate_a = ka / ta if ta > 0 else 0.0
            rate_last = last_bytes / last_rt if last_rt > 0 else 0.0
            if not (kb > ka and rate_a > 0 and 100 <= rate_last / rate_a <= 10_000):
                break
            b_micro = any(m is b for m in micro)
            if not ((not b_micro and ta / 1000 <= tb < ta) or (b_micro and tb >= ta)):
                break
            micro.append(a)
        for a in micro:
            for d in a["dirs"].values():
                d["runtime_s"] /= 1000.0
                d["rates"] = [(bw * 1000.0, err * 1000.0) for bw, err in d["rates"]]


def _measured_bytes(d: dict) -> float:
    """Bytes moved in one direction from fio's printed rates and total: the most precise of
    ``BW=`` (binary and decimal) × runtime and the ``(…MiB/…msec)`` total."""
    rt = d["runtime_s"]
    candidates = [(bw * rt, err * rt) for bw, err in d["rates"] if bw > 0]
    total = _bytes(d["io_text"], binary_kb=d["binary_kb"])
    if total > 0:
        digits = len(re.sub(r"[^\d]", "", d["io_text"]))
        candidates.append((total, total * 0.5 * 10.0 ** -max(digits - 1, 1)))
    return min(candidates, key=lambda c: c[1] / c[0])[0] if candidates else math.nan


def _check_started(path, starts: dict, blocks: list[dict], headers: dict, last_report: dict) -> None:
    """Warn when a run's final report holds fewer jobs than fio said it started ("Starting N
    processes"): the output was cut off, or jobs printed no result block (create_only)."""
    finals: dict[int, list[dict]] = {}
    for b in blocks:
        if b["report"] == last_report.get(b["run"]) and not b["all_clients"]:
            finals.setdefault(b["run"], []).append(b)
    for run, started in starts.items():
        final = finals.get(run, [])
        if not final and not any(b["run"] == run for b in blocks):
            continue  # a run without any result block: named as failed by read_fio_normal
        reported = sum(b["jobs"] for b in final)
        if reported < started:
            names = {b["name"] for b in final}
            silent = [n for _, n, _ in headers.get(run, {}) if n not in names and not any(n.startswith(x) for x in names)]
            warnings.warn(f"{path}: fio started {started} job(s) but the output holds results of {reported}"
                          + (f" (no result block for {silent}: create_only or cut off?)" if silent else
                             " (output cut off?)") + "; the rows read are kept", IngestWarning, stacklevel=3)
