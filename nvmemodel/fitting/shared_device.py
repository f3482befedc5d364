"""Targets that share one device: along a targets (files, namespaces) axis where the rows name the same device set at
every count — ``device_count`` one value at every run, or fio's disk statistics naming the same devices — each added
target adds outstanding I/O to that device, not capacity. The yardstick is then the device's own depth curve (Little's
law over the outstanding count), not linear scaling from one target, and "a load that did not grow with the targets"
is no cause where Little's law shows the in-flight count grew with them (set after round 32 was read: VA,
``r32_here-vdatargets`` 1–8 files on the one virtio disk vda, "19% of linear at 8 … a limit the targets share binds
(the host's path or CPU, a switch, the network, or a load that did not grow with the targets)").

A real device-count series (each target its own device: r20 devcount loops, r29 i3en, r30 RAID-0 presets) has a
``device_count`` that grows with the count, or no device named at all: nothing here fires.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .wording import _fx, fmt_y, span

__all__ = ["load_grew", "one_device", "one_device_words"]

#: Little's law (IOPS × mean latency) at least this share of the asked outstanding I/O at every point: the load the
#: count asked for was in flight (set after round 32 was read: VA, 0.998–1.001 of 8 × N in every run)
KEPT = 0.90


def _num(rows, col):
    return pd.to_numeric(rows[col], errors="coerce") if col in rows else None


def one_device(result, pts) -> dict | None:
    """``{"devices", "count", "busy"}`` where every run of the series names the same device set — ``device_count``
    stated and one value at every run, and fio's disk names (where given) one set — over ≥ 2 counts along the axis;
    None where the count of devices changes, is missing at some run, or no run names it."""
    from .claim import runs_rows

    rows = runs_rows(result, pts)
    if rows is None or not len(rows) or result.x not in rows or "device_count" not in rows:
        return None
    dc = _num(rows, "device_count")
    x = _num(rows, result.x)
    if dc.isna().any() or x.isna().any() or dc.nunique() != 1 or x.nunique() < 2:
        return None
    names = None
    if "devices" in rows:
        devs = rows["devices"].astype(object).fillna("").astype(str)
        sets = {";".join(sorted(d.split(";"))) for d in devs if d.strip()}
        if len(sets) > 1 or (sets and (devs.str.strip() == "").any()):
            return None
        names = sorted(next(iter(sets)).split(";")) if sets else None
    busy = None
    u = _num(rows, "disk_util_pct")
    if u is not None and u.notna().all() and len(u):
        busy = (float(u.min()), float(u.max()))
    return {"devices": names, "count": int(dc.iloc[0]), "busy": busy}


def load_grew(result, pts) -> dict | None:
    """``{"out": {x: outstanding}, "little": (lo, hi)}`` where every run states iodepth and numjobs, the outstanding
    I/O (iodepth × numjobs) grows with the count, and Little's law (IOPS × mean latency ÷ outstanding) is at least
    :data:`KEPT` at every run; None otherwise."""
    from .claim import runs_rows

    rows = runs_rows(result, pts)
    if rows is None or not len(rows) or result.x not in rows:
        return None
    cols = {c: _num(rows, c) for c in ("iodepth", "numjobs", "iops", result.x)}
    lat = next((_num(rows, c) for c in ("lat_mean_s", "clat_mean_s") if c in rows and _num(rows, c).notna().all()),
               None)
    if lat is None or any(v is None or v.isna().any() for v in cols.values()):
        return None
    out = cols["iodepth"] * cols["numjobs"]
    per_x = out.groupby(cols[result.x]).agg(["min", "max"])
    if (per_x["min"] != per_x["max"]).any() or len(per_x) < 2 or not per_x["min"].is_monotonic_increasing \
            or per_x["min"].iloc[-1] <= per_x["min"].iloc[0]:
        return None
    little = cols["iops"] * lat / out
    if not (little >= KEPT).all():
        return None
    return {"out": {float(k): float(v) for k, v in per_x["min"].items()},
            "little": (float(little.min()), float(little.max()))}


def one_device_words(result, x, y, dev: dict, grew: dict | None, noun: str) -> str:
    """The scaling sentence of targets on one device set: load, not capacity."""
    unit = result.y_unit
    names = dev["devices"]
    if dev["count"] == 1:
        where = f"one device ({names[0]} at every point)" if names and len(names) == 1 else "one device (device_count 1 at every point)"
    else:
        where = (f"the same {dev['count']} devices ({', '.join(names)}) at every point" if names else
                 f"the same {dev['count']} devices at every point")
    it = names[0] if names and len(names) == 1 else "that device" if dev["count"] == 1 else "those devices"
    steps = ", ".join(f"{y[i + 1] / y[i] - 1:+.0%}" for i in range(x.size - 1))
    steps += f" at the steps {' → '.join(_fx(v) for v in x)}"
    text = (f"All {_fx(x[-1])} {noun}s are on {where}: each added {noun} adds load to {it}, not capacity, so linear "
            f"scaling from one {noun} is no yardstick here. The total is {it}'s curve along the outstanding I/O: "
            f"{fmt_y(y[0], unit)} → {fmt_y(y[-1], unit)}")
    if grew is not None:
        o = grew["out"]
        text += f" for {_fx(o[float(x[0])])} → {_fx(o[float(x[-1])])} I/Os in flight"
    text += (f" ({steps}), each {noun}'s share falling from {fmt_y(y[0] / x[0], unit)} to "
             f"{fmt_y(y[-1] / x[-1], unit)}")
    if grew is not None:
        lo, hi = grew["little"]
        text += (f"; Little's law gives {span(format(lo, '.2f'), format(hi, '.2f'))} of the asked outstanding I/O at every run, so the load "
                 f"grew with the {noun}s")
    if dev["busy"] is not None:
        lo, hi = dev["busy"]
        text += f"; fio's disk_util shows {it} {span(format(lo, '.0f'), format(hi, '.0f'))} % busy a run"
    return text + "."
