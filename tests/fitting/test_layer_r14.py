"""What served the I/O, from fio's own disk statistics and the engine (round 14, classes SE, SC, SD): per-run device
reads split buffered runs into cache-served and device-served ones; a memory-speed proof holds for the series; no
"one CPU sustains" where part of the path's work is outside fio's thread."""

import copy
import json
import pathlib
import warnings

import pytest

from tests.fitting import corpus_score as cs
from nvmemodel.fitting.cpu_claims import unsaid_cost

RA = "r14_here-ra_loop-ra{}_psync_buffered_seqread_bs_repeats"


def _fit(case_id, split):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.fit_case_id(case_id, split)


def _kinds(res):
    return {c["kind"] for c in res.claims()}


def test_ingest_keeps_the_device_reads_of_every_run(tmp_path):
    import nvmemodel as nm

    raw = cs.CORPUS / RA.format("2560k") / "raw"
    if not raw.is_dir():
        pytest.skip("round 14's case is not in this corpus")
    src = raw / "bs128k-r2.json"
    doc = json.loads(src.read_text())
    want = sum(u["read_ios"] for u in doc["disk_util"])
    assert want > 0
    assert int(nm.read_results(src)["disk_read_ios"].iloc[0]) == want
    # two devices (a layer over a disk): the counts are summed; one without counts: unknown, not zero
    two = copy.deepcopy(doc)
    two["disk_util"].append({**doc["disk_util"][0], "name": "vda", "read_ios": 7, "write_ios": 3})
    (tmp_path / "two.json").write_text(json.dumps(two))
    t = nm.read_results(tmp_path / "two.json")
    assert int(t["disk_read_ios"].iloc[0]) == want + 7 and t["devices"].iloc[0] == "loop0;vda"
    bare = copy.deepcopy(doc)
    del bare["disk_util"][0]["read_ios"]
    (tmp_path / "bare.json").write_text(json.dumps(bare))
    assert nm.read_results(tmp_path / "bare.json")["disk_read_ios"].isna().all()


def test_buffered_runs_split_by_device_reads_r14():
    """SE: 16 of 21 runs had no loop0 read (the 16 fastest): said apart, and no trend read across the two kinds."""
    res = _fit(RA.format("2560k"), "blind14")
    (layer,) = [c for c in res.claims() if c["kind"] == "layer"]
    reads = layer["facts"]["reads"]
    assert layer["facts"]["served"] == "split" and (reads["runs"], reads["cache"]) == (21, 16)
    assert reads["cache_bps"][0] > reads["device_bps"][1]  # every cache-served run faster than every device one
    assert "16 of the 21 runs loop0 did no read" in layer["text"]
    assert _kinds(res) <= {"layer", "cache", "cpu", "little", "caution"}
    assert "beyond the repeat noise" not in res.explain() and "rises" not in res.explain()


def test_buffered_runs_the_device_read_in_keep_their_reading_r14():
    """Counter: loop0 read in every run (20.7-30.5 K requests): no split, the reading along block size stays."""
    res = _fit(RA.format("0"), "blind14")
    (layer,) = [c for c in res.claims() if c["kind"] == "layer"]
    assert layer["facts"]["served"] == "device_part"
    assert "served reads in every run" in layer["text"] and "how busy it was is not" not in layer["text"]
    assert _kinds(res) - {"layer", "cache", "cpu", "little", "caution"}  # the curve is still read


def test_buffered_writes_are_not_judged_by_device_reads_r5():
    """Counter: buffered writes (write-back is not per run) keep their layer sentence; no read count decides."""
    res = _fit("r5_here_blkio_wbps_buffered_write_bs_repeats", "blind5")
    (layer,) = [c for c in res.claims() if c["kind"] == "layer"]
    assert layer["facts"]["reads"] is None and layer["facts"]["served"] not in ("split", "cache", "device_part")


def test_no_one_cpu_rate_beneath_buffered_io_r14():
    """SD: buffered reads over loop0 get no "one CPU sustains" (the loop worker and read-ahead are off fio's thread)."""
    for ra in ("0", "128k", "2560k"):
        res = _fit(RA.format(ra), "blind14")
        # (round 19 TE: jobs at 5.8–19 % of a CPU, so the cost line is not said: unsaid_cost gives it)
        text = res.explain() + " " + " ".join(unsaid_cost(res, k) for k in res.fits)
        assert "one CPU sustains" in text and "no rate one CPU sustains is read" in text, ra
        assert "CPU sustains 9" not in text and "sustains 35" not in text and "185" not in text, ra
        assert "read-ahead" not in text, ra  # loop0 named: its worker is the part left out


def test_one_cpu_rate_kept_on_a_direct_local_drive_r10():
    """Counter: direct reads on nvme0n1 (no layer between) keep the rate one CPU sustains."""
    text = _fit("r10_jackserver_nvme0n1_4k-randread_qd", "blind10").explain()
    assert "one CPU sustains" in text and "no rate one CPU sustains is read" not in text


def test_memory_speed_proof_holds_for_the_series_r14():
    """SC: psync reads of one file over loop0 at 4.6-7.4 us per job: the cache served every point, not numjobs = 1."""
    res = _fit("r14_here-nrreq_loop-nrreq4_psync_randread_numjobs_repeats", "blind14")
    (cache,) = [c for c in res.claims() if c["kind"] == "cache"]
    assert cache["facts"]["every_point"] and "served every point" in cache["text"]
    assert "left out" not in cache["text"]


def test_one_rule_for_the_path_off_fios_thread():
    """SD/RE as one rule (cpu_claims.off_thread): a listed layer wins, then buffered I/O above a named device."""
    from types import SimpleNamespace

    from nvmemodel.fitting.cpu_claims import BUFFERED_OFF, NOT_WHOLE_PATH, off_thread
    from nvmemodel.fitting.facts import Fact

    def cf(**facts):
        return SimpleNamespace(layer=Fact("layer", facts, "seeded"))

    assert off_thread(cf(layer="page_cache", devices=["loop0"]), True) == NOT_WHOLE_PATH["loop"]
    assert off_thread(cf(layer="page_cache", devices=["sda"]), True) == BUFFERED_OFF
    assert off_thread(cf(layer="virtio", devices=["vda"]), False) == NOT_WHOLE_PATH["virtio"]
    # counters: direct I/O on a local drive, buffered I/O with no device named (tmpfs), no layer fact at all
    assert off_thread(cf(layer="page_cache", devices=["nvme0n1"]), False) == ""
    assert off_thread(cf(layer="page_cache", devices=[]), True) == ""
    assert off_thread(SimpleNamespace(layer=None), False) == ""


def test_buffered_tmpfs_keeps_its_one_cpu_rate_r6():
    """Counter: buffered writes to tmpfs (no device beneath): the copy is the path's work, the rate is read."""
    text = _fit("r6_here_tmpfs_psync_sharedfile_randwrite_numjobs_repeats", "blind6").explain()
    assert "one CPU sustains" in text and "no rate one CPU sustains is read" not in text
