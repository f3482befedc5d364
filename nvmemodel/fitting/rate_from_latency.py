"""Rates that were derived from the latency they would be checked against: Little's law cannot test them.

Set after round 25 was read (EB: r25_vktest_unnamed-volume-200iops_4k-randread-randwrite_libaio_qd_by-pattern,
"IOPS × completion latency ÷ outstanding I/O = 1.00 at every point; … fio kept the I/O asked for outstanding", where
the repository stored only fio's mean completion latency and the transcription derived each rate as iodepth ÷ clat:
the product is 1 to 1e-16 in all 18 rows, an identity returned as a finding). fio measures a run's rate (its I/O count
over its runtime) and its latencies separately and prints each rounded, so on real output IOPS × latency ÷ outstanding
scatters by at least a few parts in a thousand even where the queue was held full (round 25 btrfscow 0.9927–0.9994 a
run; datajournal 0.026–0.060). A table with no I/O count whose every row gives exactly 1 has one number made from the
other: the check is said to check nothing, and no conclusion on the I/O in flight is drawn from it.
"""
from __future__ import annotations

import numpy as np

__all__ = ["EXACT", "rates_derived", "DERIVED_WORDS"]

#: |IOPS × latency ÷ outstanding − 1| under which every row of a table is an identity, not a measurement: real fio
#: output, whose rate and latency are measured apart and printed to 4–6 significant digits, is never this exact; a
#: rate computed as outstanding ÷ latency in floating point is (1e-16). Set after round 25 was read (EB, vktest).
EXACT = 1e-6

#: what the Little sentences say in place of a verdict where :func:`rates_derived` holds
DERIVED_WORDS = ("the table gives no I/O count and IOPS × latency ÷ outstanding I/O is 1 exactly (to 1e-6) in every "
                 "row: the rates were derived from the latency (outstanding ÷ latency), so Little's law checks "
                 "nothing here and says nothing about the I/O in flight")


def rates_derived(result, p) -> bool:
    """Every usable row of the runs behind ``p`` (a curve's points, with their ``sources``) gives no I/O count and an
    IOPS × mean latency (total where given, else completion) ÷ iodepth (or ÷ iodepth × numjobs) within :data:`EXACT`
    of 1; False where the table does not name its files or any row lacks what the test needs."""
    import pandas as pd

    tbl = getattr(result, "table", None)
    if tbl is None or "source_path" not in tbl or "sources" not in p or "iops" not in tbl or "iodepth" not in tbl:
        return False
    from ..ingest.summary import usable_rows

    srcs = {s for v in p["sources"].astype(str) for s in v.split(";") if s}
    r = usable_rows(tbl)
    r = r[r["source_path"].astype(str).isin(srcs)]
    if not len(r):
        return False
    if "ios" in r and pd.to_numeric(r["ios"], errors="coerce").notna().any():
        return False  # a count over a runtime is a measured rate
    num = lambda c: pd.to_numeric(r[c], errors="coerce").to_numpy(float) if c in r else np.full(len(r), np.nan)  # noqa: E731
    lat = num("lat_mean_s")
    lat = np.where(np.isfinite(lat), lat, num("clat_mean_s"))
    iops, depth = num("iops"), num("iodepth")
    jobs = np.nan_to_num(num("numjobs"), nan=1.0)
    if not (np.isfinite(lat).all() and np.isfinite(iops).all() and np.isfinite(depth).all() and (depth > 0).all()):
        return False
    one = np.abs(iops * lat / depth - 1) < EXACT
    many = np.abs(iops * lat / (depth * jobs) - 1) < EXACT
    return bool((one | many).all())
