"""Whether the caps along block size speak for the largest size (round 32 WB).

A cap sentence says the level of its own stretch of sizes. Where that stretch is an IOPS stretch at the small sizes
and no byte cap holds the top ones, it says nothing of the largest size, so a lead claim that bytes/s still rise
there (or peak there) is not "said once" by it and stays. Set after round 32 was read (WB:
r32_ssdinternal_multipass-mac-vda-ext4_sync-direct-randread_bs, an IOPS stretch over 4–16 KiB silenced "still
rises" at 512 KiB → 1 MiB, 310 → 643 MB/s).
"""

from __future__ import annotations

import numpy as np


def below_top(cf) -> bool:
    """True where the only cap is an IOPS stretch ending below the largest size: no byte cap, no byte level read
    from the first size, no fall along the sizes and no one-stream level."""
    if cf.cap is None or cf.size_fall is not None or getattr(cf, "one_stream", None) is not None:
        return False
    s = cf.cap.facts
    if not s.get("iops_cap") or s.get("bytes_cap") or s.get("bytes_doubling") or not s.get("iops_flat"):
        return False
    x = cf.points["x"].to_numpy(float)
    return bool(x.size and np.isfinite(x).all() and s["iops_flat"][1] < x.max())
