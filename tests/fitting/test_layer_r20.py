"""Round 20's layer classes (tests/data/explain_corpus/_blind_rounds/round20_hand_read_part1.md SA, SC's layer part;
part 2 RD), read before the rules these tests hold were set (docs/fitting.md names them): each rule on the spent r20
case that showed it and on counter-cases where it must not fire. The assertions recompute from the case's table what
the words claim.

SA: one loop device per block size, each run naming one, was "loop1, loop4, loop3, loop0 and loop2, the job's targets
side by side". SC: "its rates are that layer's" of a loop device fio's disk_util shows 13–78 % busy. RD: each 256 KiB
fio read was two nvme0n1 reads (1.99 device reads per fio read against 1.00 at 4–128 KiB), unsaid.
"""

from __future__ import annotations

import functools
import json
import pathlib

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.devices import BUSY, device_busy, devices_per_point, side_by_side
from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.merges import SPLIT, split_facts

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus"
VERIFY_BS = "r20_here-verify_loop_psync_md5-verify_randread_qd1_bs_repeats"
VERIFY_NJ = "r20_here-verify_loop_psync_md5-verify_randread64k_numjobs_repeats"
DEVCOUNT = "r20_here-devcount_loops_libaio_randread_qd8-per-dev_devcount_repeats"
DEVCOUNT_SEQ = "r20_here-devcount_loops_libaio_seqread128k_qd4-per-dev_devcount_repeats"
NERDST_RAND = "r20_nerdst_nvme-p7_randread_qd1_bs"
NERDST_SEQ = "r20_nerdst_nvme-p7_seqread_qd1_bs"
MAXSECTORS64K = "r5_here_blkio_riops_maxsectors64k_bs_repeats"  # max_sectors_kb = 64, set by its gen
PERSLICE = "r7_here_blkio_perslice_and_base_wiops_devcount_repeats"


@functools.lru_cache(maxsize=None)
def _fit(case_id):
    return fit_case_id(case_id)


def _layer(case_id) -> list[str]:
    return [c["text"] for c in _fit(case_id).claims() if c["kind"] == "layer"]


def _facts(case_id):
    r = _fit(case_id)
    return curve_facts(r, next(iter(r.fits)))


# ------------------------------------------------------------------ SA: devices side by side only within one run
def test_one_device_a_point_is_named_per_point_not_side_by_side():
    t = _fit(VERIFY_BS).table
    per = t.groupby("block_size_bytes")["devices"].agg(lambda v: sorted(set(v)))
    assert all(len(v) == 1 for v in per) and per.map(lambda v: v[0]).nunique() == len(per)  # the premise
    (text, *_) = _layer(VERIFY_BS)
    assert "side by side" not in text
    kib = {4096: "4 KiB", 16384: "16 KiB", 65536: "64 KiB", 262144: "256 KiB", 1048576: "1 MiB"}
    said = ", ".join(f"{v[0]} at {kib[int(bs)]}" for bs, v in per.items())
    assert f"each point on its own: {said}" in text, text


def test_devices_one_run_names_together_are_still_side_by_side():
    # counter-cases: N jobs on N loop devices at once (one report names them all), and round 7's slices
    t = _fit(DEVCOUNT).table
    assert t["devices"].str.count(";").max() >= 1  # the premise: one run names several
    assert "the job's targets side by side" in _layer(DEVCOUNT)[0]
    assert "name loop1, loop2, loop3 and loop4, the job's targets side by side" in _layer(PERSLICE)[0]


def test_side_by_side_reads_each_run_apart():
    apart = pd.DataFrame({"source_path": ["a", "b", "c"], "run": [0, 0, 0], "devices": ["loop0", "loop1", "loop2"],
                          "target_names": ["/dev/loop0", "/dev/loop1", "/dev/loop2"], "bs": [4096, 8192, 16384]})
    assert side_by_side(apart) == []
    assert devices_per_point(apart, "bs", [4096, 8192, 16384]) == [(4096.0, "loop0"), (8192.0, "loop1"),
                                                                   (16384.0, "loop2")]
    together = apart.assign(devices=["loop0", "loop0;loop1", "loop2"])
    assert side_by_side(together) == ["loop0", "loop1", "loop2"] and devices_per_point(together, "bs", [4096]) is None
    # one job's two targets in one report (fio filename=a:b), the disk list empty: still side by side
    targets = apart.assign(devices=None, target_names=["/dev/loop0:/dev/loop1", None, None])
    assert side_by_side(targets.assign(devices=["loop0;loop1", None, None])) == ["loop0", "loop1"]
    # the same device at every point is no per-point naming
    assert devices_per_point(apart.assign(devices="loop0"), "bs", [4096, 8192, 16384]) is None


# ------------------------------------------------------------------ SC: what the layer's utilisation shows
def _util(case_id) -> np.ndarray:
    t = _fit(case_id).table
    return np.array([float(u) for v in t["disk_util_pct"].dropna().astype(str) for u in v.split(";")])


def test_a_layer_idle_part_of_every_run_is_not_said_to_set_the_rates():
    u = _util(VERIFY_NJ)
    assert u.max() < 100 * BUSY  # the premise: loop0 idle part of every run
    (text, *_) = _layer(VERIFY_NJ)
    assert "its rates are" not in text and "that layer's" not in text
    assert f"loop0 {u.min():.0f}–{u.max():.0f} % busy a run" in text, text
    # round 28 (MD): the busy share is set against the share of loop0's counted reads that were fio's own (77–86 %):
    # below it at 1–4 jobs (idle there), one run of three reaching it at 6 — no longer "idle part of every run"
    assert "at numjobs = 1–4 it is below it, so loop0 was idle between requests there" in text
    assert "at numjobs = 6 some runs' share is below it" in text


def test_a_layer_busy_at_some_points_gets_its_util_and_no_idle_words():
    # counter-case: one device 94–95 % busy, six 80–84 %: neither idle in every run nor busy at the last point
    u = _util(DEVCOUNT_SEQ)
    assert u.max() >= 100 * BUSY > u.min()
    (text, *_) = _layer(DEVCOUNT_SEQ)
    assert f"each of them {u.min():.0f}–{u.max():.0f} % busy a run" in text
    assert "idle part of every run" not in text and "its rates are" not in text


def test_device_busy_reads_the_last_point_and_tables_without_util():
    rows = pd.DataFrame({"devices": ["dm-0;nvme0n1", "dm-0;nvme0n1", "dm-0;nvme0n1"], "x": [1, 2, 4],
                         "disk_util_pct": ["40;41", "80;82", "97.5;98"]})
    b = device_busy(rows, ["dm-0"], "x", 4.0)
    assert b == {"lo": 0.4, "hi": 0.975, "idle": False, "busy_last": True}
    assert device_busy(rows.assign(disk_util_pct=["40;41", "50;52", "60;62"]), ["dm-0"], "x", 4.0)["idle"]
    assert device_busy(rows.drop(columns="disk_util_pct"), ["dm-0"], "x", 4.0) is None
    assert device_busy(rows.assign(disk_util_pct=["40", "50", "60"]), ["dm-0"], "x", 4.0) is None  # misaligned
    one = pd.DataFrame({"devices": ["loop0"] * 2, "x": [1, 2], "disk_util_pct": [12.5, 99.0]})  # read as numbers
    assert device_busy(one, ["loop0"], "x", 2.0)["busy_last"]


def test_without_a_util_column_the_layer_words_are_unchanged():
    # counter-case: a table with no disk_util_pct (every table transcribed before round 20's reading)
    assert "disk_util_pct" not in _fit(PERSLICE).table or _fit(PERSLICE).table["disk_util_pct"].isna().all()
    assert "its rates are" in _layer(PERSLICE)[0] and "busy a run" not in _layer(PERSLICE)[0]


def test_fio_json_util_is_read_per_device():
    import nvmemodel as nm

    raw = sorted((CORPUS / DEVCOUNT / "raw").glob("dev3-r1.json"))
    t = nm.read_results(raw)
    doc = json.loads(raw[0].read_text())
    want = ";".join(f"{float(u['util']):.4g}" for u in doc["disk_util"])
    assert set(t["disk_util_pct"]) == {want} and set(t["devices"]) == {";".join(u["name"] for u in doc["disk_util"])}


# ------------------------------------------------------------------ RD: fio I/Os the block layer split
def _ratio(case_id) -> pd.Series:
    t = _fit(case_id).table
    t = t[t["direction"] == "read"]
    return (t["disk_read_ios"].astype(float) / t["ios"].astype(float)).groupby(t["block_size_bytes"]).median()


def test_a_256k_read_split_in_two_is_said_with_the_reads_in_flight():
    r = _ratio(NERDST_RAND)
    assert r[262144] > SPLIT * r[r.index < 262144].max()  # the premise: 1.99 against ~1.00
    f = _facts(NERDST_RAND).split.facts
    assert [f["x"][i] for i, s in enumerate(f["split"]) if s] == [262144.0]
    assert np.isclose(f["hi"][f["first"]], r[262144]) and np.isclose(f["base"], r[r.index < 262144].max())
    (text,) = [t for t in _layer(NERDST_RAND) if "per fio read" in t]
    assert f"count {r[262144]:.4g} nvme0n1 reads per fio read at block_size_bytes = 256 KiB" in text, text
    assert "each 256 KiB read reached nvme0n1 as 2 device reads of about 128 KiB" in text
    assert "With 1 I/O outstanding in fio, the device had up to 2 reads in flight at 256 KiB" in text
    assert "×2 the bytes in about the same time" in text  # 272 µs at 256 KiB against 286 µs at 128 KiB
    assert "the files do not record direct I/O" in text  # fio's normal output does not echo direct=1
    assert f"{r[262144]:.4g} is an upper bound" in text


def test_a_split_at_a_slower_point_does_not_claim_flat_time():
    # seqread: the 256 KiB run took 325 µs against 93 µs at 128 KiB — split, but no "same time"
    (text,) = [t for t in _layer(NERDST_SEQ) if "per fio read" in t]
    assert "reached nvme0n1 as 2 device reads of about 128 KiB" in text and "about the same time" not in text


def test_a_known_max_sectors_limit_is_found():
    # here-measured, spent: max_sectors_kb = 64 on the loop device; 128 KiB reads are 2 requests, 1 MiB 16
    f = _facts(MAXSECTORS64K).split.facts
    k = f["first"]
    assert f["x"][k] == 131072 and f["lo"][k] <= 2 <= f["hi"][k]
    big = f["x"].index(1048576.0)
    assert f["lo"][big] <= 16 <= f["hi"][big]
    (text,) = [t for t in _layer(MAXSECTORS64K) if "per fio read" in t]
    assert "each 128 KiB read reached loop0 as 2 device reads of about 64" in text


@pytest.mark.parametrize("case_id", [
    "r11_here-osync_loop_psync_randwrite_numjobs_repeats",      # 2.0–2.6 device writes per fio write at every point
    "r20_tutsunom_nvme0n1_4k-randread_32jobs_qd_repeats",       # 1.167 everywhere (ramp_time): no size step
    "r15_here-newfio_fio336-terse_loop_pvsync2_randwrite_bs_repeats",  # direct unrecorded, base runs 0.99–1.83
    "r14_here-ra_loop-ra128k_psync_buffered_seqread_bs_repeats",  # buffered: read-ahead, not the block layer
    VERIFY_BS,                                                   # a different device at every point
])
def test_no_split_without_a_size_step_on_one_device_with_direct_io(case_id):
    assert _facts(case_id).split is None
    assert not [t for t in _layer(case_id) if "split on the way" in t]


def _table(ratios, sizes, *, direct=True, runs=1):
    rows, sources = [], []
    for i, (q, s) in enumerate(zip(ratios, sizes)):
        src = [f"p{i}-r{j}.json" for j in range(runs)]
        sources.append(";".join(src))
        for p in src:
            rows.append({"source_path": p, "direction": "read", "ios": 10000, "io_bytes": 10000 * s,
                         "block_size_bytes": s, "devices": "nvme0n1", "disk_read_ios": int(round(10000 * q)),
                         "disk_write_ios": 0, "direct": direct, "runtime_s": 30.0})
    return pd.DataFrame(rows), pd.DataFrame({"x": sizes, "sources": sources})


def test_split_facts_guards():
    sizes = [4096, 16384, 65536, 131072, 262144]
    rows, pts = _table([1.0, 1.01, 1.0, 1.02, 2.0], sizes)
    f = split_facts(rows, pts)
    assert f is not None and f["split"] == [False] * 4 + [True] and np.isclose(f["lo"][4], 2.0 / 1.02)
    assert split_facts(*_table([1.0, 1.0, 1.0, 1.4, 1.8], sizes)) is None         # 1.8 < 1.5 × the base's 1.4
    assert split_facts(*_table([1.0, 1.0, 1.0, 1.45, 2.0], sizes)) is None        # ramp-like 1.45: 2.0 not split
    assert split_facts(*_table([1.0, 1.0, 1.4, 1.6, 2.4], sizes)) is None         # 1.6: neither one nor split
    assert split_facts(*_table([1.0, 2.0, 1.0, 1.0, 1.0], sizes)) is None         # not from some size on
    assert split_facts(*_table([0.5, 1.0, 1.0, 1.0, 2.0], sizes)) is None         # merged at the base
    assert split_facts(*_table([1.0, 1.0, 1.0, 1.0, 2.0], sizes, direct=False)) is None  # buffered
    assert split_facts(*_table([1.0, 1.0, 1.0, 1.0, 2.0], sizes, direct=None)) is not None  # unrecorded, base ≈ 1
    assert split_facts(*_table([1.2, 1.2, 1.2, 1.2, 2.4], sizes, direct=None)) is None  # unrecorded, base not ≈ 1
    assert split_facts(*_table([1.0] * 4 + [2.0], [4096] * 5)) is None            # one size: no split by size
    two = _table([1.0, 1.0, 1.0, 1.0, 2.0], sizes)[0].assign(devices="dm-0;nvme0n1")
    assert split_facts(two, _table([1.0] * 4 + [2.0], sizes)[1]) is None         # a stack counts each request twice
