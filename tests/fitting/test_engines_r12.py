"""Round 12's engine classes (hand reading part 1 MB, part 2 NE), each rule on a spent real case and on a case where
it must not fire: an engine fio flags FIO_SYNCIO is read as one I/O in flight per job only where the data do not
contradict it (IOPS × latency ÷ numjobs), and "faster than any drive" needs total latency clearly under the floor."""

from __future__ import annotations

import numpy as np
import pandas as pd

from nvmemodel.fitting.curves import QUEUED, synchronous
from tests.fitting import corpus_score as cs

STREAM = "r12_rocmnixl_7nvme-hipfile-stream_1m_iodepth"  # libhipfile, 8 jobs, IOPS × latency = 8 × iodepth


def _text(case_id):
    return " ".join(c["text"] for c in cs.fit_case_id(case_id).claims())


def test_a_sync_engine_whose_own_latency_shows_a_queue_is_read_at_its_depth():
    # MB: "libhipfile is synchronous; the outstanding I/O is numjobs (8)" beside 8.0, 16.0 … 511 in flight
    fit = cs.fit_case_id(STREAM)
    pts = fit.points
    assert sorted(pts["outstanding"]) == sorted(8 * pts["iodepth"])
    rows = pd.read_csv(cs.CORPUS / STREAM / "points.csv", low_memory=False)
    in_flight = rows["iops"] * rows["lat_mean_s"] / (rows["numjobs"] * rows["iodepth"])  # the depth was in flight
    assert np.all(np.abs(in_flight.to_numpy(float) - 1) < 0.05), in_flight
    assert synchronous(rows).tolist() == (rows["iodepth"] == 1).tolist()  # only QD1 (1 per job) is consistent
    text = " ".join(c["text"] for c in fit.claims())
    assert "synchronous" not in text and "iodepth had no effect" not in text, text


def test_a_sync_engine_that_holds_one_per_job_stays_synchronous():
    # counter-case (spent, round 12): vsync at iodepth 1–32, Little's law 0.98–1.00 with one I/O per job
    pts = cs.fit_case_id("r12_here-vsync_loop_vsync_seqread_iodepth_repeats").points
    assert (pts["outstanding"] == 1).all()
    # and libhipfile in its synchronous mode (1 MiB writes over 1–7 drives) keeps the class
    rows = pd.read_csv(cs.CORPUS / "r12_rocmnixl_nvme-hipfile-sync_1m-write_drives" / "points.csv", low_memory=False)
    assert synchronous(rows[rows["ioengine"] == "libhipfile"]).all()


def test_synchronous_needs_a_fio_sync_engine_and_no_queue_in_the_figures():
    rows = pd.DataFrame({"ioengine": ["psync", "psync", "libaio", "mystery", None],
                         "iops": [1000.0, 1000.0, 1000.0, 10.0, 10.0], "lat_mean_s": [1e-3, 2e-3, 1e-3, 1e-3, 1e-3],
                         "numjobs": [1, 2, 1, 1, 1]})
    # 1.0 and 2.0 ÷ 2 jobs = 1.0 per job hold; libaio, an engine fio does not know and none named are not classed
    assert synchronous(rows).tolist() == [True, True, False, False, False]
    rows.loc[1, "lat_mean_s"] = 2 * QUEUED * 1e-3 * 1.01  # above QUEUED per job: queued, not synchronous
    assert not synchronous(rows).iloc[1]


def test_faster_than_any_drive_is_judged_on_total_latency():
    # NE: libaio's 4.70 µs completion median + 3.53 µs mean submission is no faster than a drive
    for case_id in ("r12_here-sched_loop-bfq_libaio_randread_iodepth_repeats",
                    "r12_here-sched_loop-mqdeadline_libaio_randread_numjobs_repeats"):
        assert "Faster than any drive" not in _text(case_id), case_id


def test_a_read_clearly_below_any_drive_is_still_a_cache(tmp_path):
    # counter-case (seeded from the spent vsync case): the same loop0 path at half its latency, 2.4–2.5 µs, well under
    # the margin: the cache sentence must still be said
    src = cs.CORPUS / "r12_here-vsync_loop_vsync_seqread_iodepth_repeats"
    rows = pd.read_csv(src / "points.csv", low_memory=False)
    for col in [c for c in rows if c.endswith("_s") and ("lat" in c)]:
        rows[col] = pd.to_numeric(rows[col], errors="coerce") / 2
    rows.to_csv(tmp_path / "points.csv", index=False)
    (tmp_path / "case.json").write_text((src / "case.json").read_text())
    claims = cs.fit_case(tmp_path, cs.load_case(tmp_path)).claims()
    assert any(c["kind"] == "cache" for c in claims), [c["text"] for c in claims]
