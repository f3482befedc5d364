"""Round 15, classes TA and TB (set after round 15 was read; no blind round has tested them): a rate beyond one drive's
link with no count of drives excludes no drive; "one higher point" only where the peak is the only point above the
later level."""

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from tests.fitting import corpus_score as cs

RAID = "r15_wickist-rcraid_md-raid0-4x990pro_1m-seqread_{}"
KI = "r15_spdk-iopacing_nvmf-rdma-16nvme_128k-randread_kernel-initiator-8jobs_qd"


def _fit(case_id):
    if not (cs.CORPUS / case_id).is_dir():
        pytest.skip(f"{case_id} is not in this corpus")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.fit_case_id(case_id, "blind15")


def _one(res, kind):
    (c,) = [c for c in res.claims() if c["kind"] == kind]
    return c


def _table(x, y, xname="iodepth", **cols):
    # SYNTHETIC: one run a point, 1 MiB reads
    return pd.DataFrame([{"source_path": f"synthetic/{xname}{a}.json", xname: a, "direction": "read",
                          "block_size_bytes": 1 << 20, "bw_bytes_per_s": b, "iops": b / (1 << 20), **cols}
                         for a, b in zip(x, y)])


@pytest.mark.parametrize("axis", ["4jobs_iodepth", "qd16_numjobs"])
def test_md_raid0_beyond_one_link_with_no_drive_count_excludes_no_drive(axis):
    # TA: 27.7 / 25.9 GB/s over md RAID0 of 4 drives, the files' target and device counts empty
    c = _one(_fit(RAID.format(axis)), "layer")
    assert c["facts"]["layer"] == "beyond_device" and c["facts"]["counted"] is False
    assert "per target" not in c["text"] and "no drive-level limit" not in c["text"]
    assert "several drives" in c["text"]


def test_a_counted_single_target_beyond_its_link_still_says_not_one_drive():
    # counter-case: one target counted, 40 GB/s from it — no drive's link carries that (round 32 UA: "not one drive",
    # never "a layer above the drives" as a fact)
    y = [1e10, 2e10, 3e10, 4e10]
    c = _one(nm.fit(_table([1, 2, 4, 8], y, xname="numjobs", targets=1), x="numjobs", y="bytes_per_s"), "layer")
    assert c["facts"]["counted"] is True and c["facts"]["per_target"] > c["facts"]["limit"]
    assert "per target" in c["text"] and "not one drive — memory, a cache or several drives" in c["text"]
    assert "above the drives" not in c["text"]


def test_a_rise_to_a_limit_then_a_fall_is_no_single_high_point():
    # TB: 20.5, 23.1, then 13.0–13.4 GB/s: the point before the peak is above the later level too
    res = _fit(KI)
    c = _one(res, "saturation")
    fall = c["facts"]["falls"]
    assert fall is not None and not fall.get("level_after")
    assert "one higher point" not in c["text"] and "peaks at" in c["text"]


def test_a_lone_peak_above_a_level_is_still_one_higher_point():
    # counter-case (SYNTHETIC, blind3 Q's shape): the point before the peak lies below the later level
    y = [6.0e9, 9.7e9, 8.3e9, 8.2e9, 8.5e9, 8.4e9]
    c = _one(nm.fit(_table([1, 4, 8, 16, 32, 64], y), x="iodepth", y="bytes_per_s"), "saturation")
    assert (c["facts"].get("falls") or {}).get("level_after", {}).get("value") is not None
