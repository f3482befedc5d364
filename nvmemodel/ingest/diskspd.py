"""Microsoft DiskSpd ``-Rxml`` results into table rows (one per target path and direction).

The ``<Profile>`` echoes every option (block size, random or sequential, write ratio,
outstanding requests per thread, threads per file, OS cache), so nothing is defaulted. The
``<TimeSpan>`` holds per-thread, per-target byte and I/O counts (summed here over threads),
average latencies in ms (averaged weighted by I/O counts), the latency percentile table
(``<Latency><Bucket>``) and CPU use as a percentage of all logical processors, the mean over
its ``<CPU>`` entries: ``cpu_usr``/``cpu_sys`` are that mean × the number of entries, the CPUs'
worth the whole machine used during the run (every process, not DiskSpd's threads alone; NA
where the entries are missing), on every row of the run.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from ..errors import IngestError
from .schema import new_row

_PCT_COLS = {50.0: "clat_p50_s", 90.0: "clat_p90_s", 95.0: "clat_p95_s", 99.0: "clat_p99_s", 99.9: "clat_p99_9_s",
             99.99: "clat_p99_99_s"}


def looks_like_diskspd_xml(head: str) -> bool:
    return "<Results>" in head[:2048] and "<Tool>" in head and "<TimeSpan" in head


def _float(node, tag: str, path, where: str, *, required: bool = True) -> float:
    el = node.find(tag)
    if el is None or el.text is None or not el.text.strip():
        if required:
            raise IngestError(path, f"{where}: missing <{tag}>")
        return math.nan
    try:
        value = float(el.text)
    except ValueError:
        raise IngestError(path, f"{where}/<{tag}> = {el.text!r}: expected a number") from None
    if not math.isfinite(value) or value < 0:
        raise IngestError(path, f"{where}/<{tag}> = {el.text!r}: expected a finite number >= 0")
    return value


def _text(node, tag: str) -> str | None:
    el = node.find(tag)
    return el.text.strip() if el is not None and el.text else None


def read_diskspd_xml(path, text: str | None = None) -> list[dict]:
    """Rows of a DiskSpd XML result (``diskspd -Rxml``)."""
    if text is None:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise IngestError(path, f"malformed DiskSpd XML ({exc})") from None
    if root.tag != "Results":
        raise IngestError(path, f"root element <{root.tag}>: expected <Results> (diskspd -Rxml)")
    version = _text(root, "System/Tool/Version")
    host = _text(root, "System/ComputerName")
    profile_targets: dict[str | None, ET.Element] = {}  # a target's <Path> (None: none written) → its profile
    spec: ET.Element | None
    for spec in root.iterfind("Profile/TimeSpans/TimeSpan/Targets/Target"):
        profile_targets[_text(spec, "Path")] = spec
    spans = root.findall("TimeSpan")
    if not spans:
        raise IngestError(path, "no <TimeSpan> results")
    rows = []
    for s_index, span in enumerate(spans):
        where = f"TimeSpan[{s_index}]"
        seconds = _float(span, "TestTimeSeconds", path, where)
        if seconds <= 0:
            raise IngestError(path, f"{where}/<TestTimeSeconds> = {seconds:g}: expected a test time > 0 s")
        cpu = span.find("CpuUtilization/Average")
        # the average is over the machine's logical processors: × their number = CPUs' worth (QA s25 H25)
        n_cpus = len(span.findall("CpuUtilization/CPU"))
        usr = _float(cpu, "UserPercent", path, f"{where}/CpuUtilization/Average") / 100 * n_cpus \
            if cpu is not None and n_cpus else math.nan
        sys_ = _float(cpu, "KernelPercent", path, f"{where}/CpuUtilization/Average") / 100 * n_cpus \
            if cpu is not None and n_cpus else math.nan
        percentiles: dict[str, dict[str, float]] = {"read": {}, "write": {}}
        for bucket in span.iterfind("Latency/Bucket"):
            p = _float(bucket, "Percentile", path, f"{where}/Latency/Bucket")
            col = _PCT_COLS.get(p)
            if col:
                for direction, tag in (("read", "ReadMilliseconds"), ("write", "WriteMilliseconds")):
                    v = _float(bucket, tag, path, f"{where}/Latency/Bucket", required=False)
                    if not math.isnan(v):
                        percentiles[direction][col] = v * 1e-3
        totals: dict[str | None, dict] = {}
        for thread in span.iterfind("Thread"):
            for target in thread.iterfind("Target"):
                tpath = _text(target, "Path")
                t = totals.setdefault(tpath, {"read": [0.0, 0.0, 0.0], "write": [0.0, 0.0, 0.0], "threads": 0})
                t["threads"] += 1
                for direction, pre in (("read", "Read"), ("write", "Write")):
                    n = _float(target, f"{pre}Count", path, f"{where}/Thread/Target")
                    t[direction][0] += _float(target, f"{pre}Bytes", path, f"{where}/Thread/Target")
                    t[direction][1] += n
                    lat = _float(target, f"Average{pre}LatencyMilliseconds", path, f"{where}/Thread/Target",
                                 required=False)
                    t[direction][2] += (lat * n) if not math.isnan(lat) else math.nan
        if not totals:
            raise IngestError(path, f"{where}: no <Thread>/<Target> results")
        for index, (tpath, t) in enumerate(totals.items()):
            spec = profile_targets.get(tpath)
            if spec is None:
                raise IngestError(path, f"{where}: target {tpath!r} has results but no <Profile> entry")
            sw = f"Profile target {tpath!r}"
            # -r<align> writes <Random>align</Random>; RandomAccess stays false in 2.0.21a
            random = (_text(spec, "RandomAccess") or "false").lower() == "true" or spec.find("Random") is not None
            write_ratio = _float(spec, "WriteRatio", path, sw) / 100
            bs = _float(spec, "BlockSize", path, sw)
            requests = _float(spec, "RequestCount", path, sw)
            threads = _float(spec, "ThreadsPerFile", path, sw, required=False)
            if write_ratio > 1 or not 0 < bs <= 2**40 or not 1 <= requests <= 2**31 or threads > 2**31:
                raise IngestError(path, f"{sw}: WriteRatio {write_ratio * 100:g}, BlockSize {bs:g}, RequestCount "
                                        f"{requests:g}, ThreadsPerFile {threads:g}: expected 0-100 %, 1 B-1 TiB, "
                                        "1-2**31, up to 2**31")
            pattern = ("rand" if random else "") + ("read" if write_ratio == 0 else "write" if write_ratio == 1
                                                     else "rw")
            pattern = {"rw": "rw", "randrw": "randrw"}.get(pattern, pattern)
            for direction in ("read", "write"):
                nbytes, n, lat_sum = t[direction]
                if n <= 0:
                    continue
                rows.append(new_row(
                    tool="diskspd", tool_version=version, format="diskspd-xml", source_path=str(path),
                    snapshot=s_index, final=s_index == len(spans) - 1, job_name=None, job_index=index,
                    hostname=host, level="target", is_aggregate=False, pattern=pattern, direction=direction,
                    read_fraction=1 - write_ratio, random_fraction=1.0 if random else 0.0, block_size_bytes=bs,
                    iodepth=int(requests),
                    numjobs=int(threads if threads > 0 else t["threads"]),
                    direct=(_text(spec, "DisableOSCache") or "false").lower() == "true",
                    target_names=tpath, targets=1, runtime_s=seconds, ios=n, io_bytes=nbytes,
                    iops=n / seconds if seconds > 0 else math.nan,
                    bw_bytes_per_s=nbytes / seconds if seconds > 0 else math.nan,
                    lat_mean_s=lat_sum / n * 1e-3, cpu_usr=usr, cpu_sys=sys_, **percentiles[direction],
                ))
    return rows
