"""What kind of load an x axis is (concurrency, block size, time or a label): below every module that chooses
models or words claims by it (api, claims), so neither imports the other for it."""

from __future__ import annotations

__all__ = ["BLOCK_SIZE", "CONCURRENCY", "DEVICES", "SHARES", "TIME", "axis_kind"]

#: x axes along which load is concurrency: queueing forms (Little's law, MVA) and scaling laws (USL, Amdahl)
CONCURRENCY = ("iodepth", "numjobs", "outstanding", "targets", "target_count", "drives", "devices", "device_count",
               "threads", "jobs", "qd", "queue_depth", "processors", "cpus", "cores", "load", "users", "sessions",
               "clients", "hosts", "nodes")
#: concurrency axes that add devices (each serves I/O in parallel), not concurrent requests: the drive-count axis of a
#: ceiling model, linear scaling's yardstick, a fixed load spread over more devices
DEVICES = ("drives", "targets", "target_count", "devices", "device_count")
#: x axes that are a block (transfer) size: the per-I/O + per-byte model
BLOCK_SIZE = ("block_size_bytes", "block_size", "bs")
#: x axes that are a share of the I/Os, not a load: no scaling law; a mix sweep is described against the harmonic
#: mix of its pure runs (QA5 G8: read_iops along read_fraction is the total rate times the share, by construction)
SHARES = ("read_fraction", "write_fraction", "rwmixread", "rwmixwrite")
#: x axes that are time: no scaling model (a time series is plotted, not fitted)
TIME = ("time_s", "time", "timestamp", "elapsed_s", "runtime_s")


def axis_kind(x: str) -> str:
    """``"concurrency"``, ``"block size"``, ``"time"``, ``"share"`` or ``"other"`` (a label: treated like concurrency)."""
    name = x.lower()
    if name in BLOCK_SIZE:
        return "block size"
    if name in TIME:
        return "time"
    if name in SHARES:
        return "share"
    return "concurrency" if name in CONCURRENCY else "other"
