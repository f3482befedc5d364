"""Round 20's CPU classes (``_blind_rounds/round20_hand_read_part2.md`` RC, RH; ``_part1.md`` SC, SH):

- RC: a waiting job's CPU per I/O follows its time per I/O (:mod:`~nvmemodel.fitting.cpu_time`): a level CPU share,
  a cost ×4.9–10.9 that no per-I/O + per-byte line describes, I/O in flight for the whole cycle — no per-byte reading,
  no rate one CPU sustains.
- RH: a CPU-bound level's one-CPU rate is the range its busy points' costs give, never the onset's one value below
  points it explains.
- SC: a rate that follows the CPU the jobs got at one cost, also where at the lightest load the job's CPU per I/O was
  ≥ 2× its I/O's own latency (its own work filled its cycle) — not "its CPU figures do not show".
- SH: fio options that put CPU work into each I/O or byte (ingest's ``cpu_options``: verify=md5 …) named beside the
  CPU figures; a Little's-law shortfall's causes narrowed by those figures.

Round 20 is spent: its cases are fitted here. Counter-cases: spent r20 here-verify bs (own work at 1.1× the read:
no share-held reading; cover < 0.75: no follows-time reading), spent r20 nerdst qd (no option named), a seeded synthetic
per-I/O + per-byte cost at a level share, ingest's option parsing."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.cpu_band import cost_worth
from nvmemodel.fitting.cpu_claims import unsaid_cost
from nvmemodel.fitting.cpu_time import follows_time
from nvmemodel.fitting.facts import curve_facts
from nvmemodel.ingest.fio_options import cpu_work_options
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore:'str' is not supported as a fill value")

RANDREAD_BS = "r20_nerdst_nvme-p7_randread_qd1_bs"
SEQREAD_BS = "r20_nerdst_nvme-p7_seqread_qd1_bs"
QD = "r20_nerdst_nvme-p7_4k-randread_qd"
V_IODEPTH = "r20_here-verify_loop_libaio_md5-verify_randread16k_iodepth_repeats"
V_NUMJOBS = "r20_here-verify_loop_psync_md5-verify_randread64k_numjobs_repeats"
V_BS = "r20_here-verify_loop_psync_md5-verify_randread_qd1_bs_repeats"


def _fit(case):
    return cs.fit_case_id(case, "blind20")


def _texts(fit, kind: str) -> list[str]:
    return [c["text"] for c in fit.claims() if c["kind"] == kind]


def _points(case) -> pd.DataFrame:
    return pd.read_csv(cs.CORPUS / case / "points.csv")


# ------------------------------------------------------------------------------ RC: CPU per I/O follows the time
@pytest.mark.parametrize("case, lo, hi", [(RANDREAD_BS, 15.2, 74.8), (SEQREAD_BS, 12.6, 137)])
def test_qd1_cost_along_size_follows_the_time_not_the_bytes(case, lo, hi):
    """The busy share stays 0.20–0.27 / 0.42–0.54 of a CPU while CPU per I/O goes ×4.92 / ×10.9: the time's, not the
    bytes'. Was: "a larger I/O costs more CPU (per-byte work …) … one CPU sustains 13.36 K IOPS, 3.5 GB/s"."""
    fit = _fit(case)
    text = " ".join(_texts(fit, "cpu"))
    assert "per-byte work" not in text and not re.search(r"one CPU sustains [\d.]", text)
    if not cost_worth(_points(case).eval("cpu_usr + cpu_sys")):
        # every run below half a CPU: no cost line at all (round 19 TE, cpu_band) — the reading is in the line left out
        text = unsaid_cost(fit, ())
    m = re.search(r"went from ([\d.]+) µs at block_size_bytes = 4 KiB to ([\d.]+) µs at 256 KiB, ×([\d.]+), while "
                  r"the job's CPU share stayed (\d+)%–(\d+)% of one CPU", text)
    assert m and float(m[1]) == pytest.approx(lo, abs=0.05) and float(m[2]) == pytest.approx(hi, rel=0.005)
    assert float(m[3]) == pytest.approx(hi / lo, rel=0.01)
    assert float(m[5]) / float(m[4]) <= 1.5  # the share level: what the reading rests on
    assert "follows the time each I/O took" in text and "not a per-I/O or per-byte cost" in text
    assert "per-byte work" not in text and not re.search(r"one CPU sustains [\d.]", text)


def test_one_size_two_costs_in_step_with_latency():
    """seqread 128 KiB: runs at 50.5 and 30.3 µs of CPU per I/O (×1.67) at 111 and 75.9 µs mean latency."""
    p = _points(SEQREAD_BS)
    q = p[p["block_size_bytes"] == 131072]
    cost = ((q["cpu_usr"] + q["cpu_sys"]) / q["iops"]).to_numpy() * 1e6
    text = " ".join(_texts(_fit(SEQREAD_BS), "cpu"))
    m = re.search(r"the runs at block_size_bytes = 128 KiB cost ([\d.]+) µs and ([\d.]+) µs \(×([\d.]+)\) at "
                  r"([\d.]+) µs and ([\d.]+) µs mean latency", text)
    assert m and float(m[1]) == pytest.approx(cost.max(), rel=0.005) and float(m[2]) == pytest.approx(cost.min(),
                                                                                                       rel=0.005)
    assert float(m[4]) > float(m[5])


def test_busy_or_own_work_jobs_are_not_read_as_waiting():
    """Counter-cases (spent): the md5 QD1 bs job (its I/O in flight 13–67 % of its cycle: it hashed between reads) and
    the CPU-bound iodepth job keep their own readings."""
    for case in (V_BS, V_IODEPTH):
        fit = _fit(case)
        assert follows_time(fit, curve_facts(fit, ())) is None
        assert "follows the time each I/O took" not in " ".join(_texts(fit, "cpu"))


@pytest.mark.parametrize("case, split, kept", [
    ("r2_here_pagecache_write_bs", "blind2", "at each size: 4 KiB 2.04 µs"),  # buffered copies: ×144 with the bytes
    ("r10_here-fio2111_loop_libaio_randread_terse_iodepth_repeats", "blind10", "at the saturation onset (iodepth = 4)"),
])
def test_costs_with_the_bytes_or_at_depth_keep_their_reading(case, split, kept):
    """Counter-cases (spent): a page-cache write job whose cost grows with its bytes at every step (no size at two
    costs, no ×2 bytes at one cost), and an iodepth series whose cost falls with depth at a level share (several I/Os
    per job: its time per I/O is not its I/O's latency): no follows-time reading."""
    fit = cs.fit_case_id(case, split)
    assert follows_time(fit, curve_facts(fit, ())) is None
    text = " ".join(_texts(fit, "cpu"))
    assert "follows the time" not in text
    # (a job below half a CPU at every point gets no cost line since round 19's TE: the line left out keeps it)
    assert kept in text or kept in unsaid_cost(fit, ())


def test_a_per_byte_cost_at_a_level_share_stays_per_byte():
    """Counter-case (SYNTHETIC, seeded): one libaio job at QD1 whose CPU per I/O is 5 µs + 0.4 ns per byte inside
    latencies of 20 µs + 1.6 ns per byte — a level share (≈ 0.25) with a cost linear in size: no follows-time reading."""
    rng = np.random.default_rng(20)
    bs = np.array([4096, 16384, 65536, 262144, 1048576])
    rows = []
    for r in range(2):
        lat = (20e-6 + 1.6e-9 * bs) * (1 + 0.01 * rng.standard_normal(bs.size))
        cost = (5e-6 + 0.4e-9 * bs) * (1 + 0.01 * rng.standard_normal(bs.size))
        iops = 1 / lat
        rows += [{"source_path": f"s/bs{b}-r{r}.json", "run": r, "block_size_bytes": b, "iodepth": 1, "numjobs": 1,
                  "ioengine": "libaio", "direct": 1, "iops": i, "bw_bytes_per_s": i * b, "lat_mean_s": t,
                  "cpu_usr": i * c, "cpu_sys": 0.0} for b, i, t, c in zip(bs, iops, lat, cost)]
    fit = nm.fit(pd.DataFrame(rows), x="block_size_bytes", y="bw_bytes_per_s")
    assert follows_time(fit, curve_facts(fit, ())) is None
    assert "follows the time" not in " ".join(_texts(fit, "cpu"))


# ------------------------------------------------------------------------------ RH: the rate one CPU sustains, a range
def test_cpu_bound_level_rate_is_the_range_of_its_busy_points():
    """nerdst qd: 6.87–7.41 µs at QD16–128 → 134.92–145.6 K IOPS, which brackets the 139.28 K level and every
    measurement (145.04 K at QD128). Was: "one CPU sustains 134.92 K IOPS" below both."""
    p = _points(QD).sort_values("iodepth")
    busy = p[p["iodepth"] >= 16]
    cost = ((busy["cpu_usr"] + busy["cpu_sys"]) / busy["iops"]).to_numpy()
    text = " ".join(_texts(_fit(QD), "cpu"))
    m = re.search(r"at those costs one CPU sustains ([\d.]+) K IOPS–([\d.]+) K IOPS per job", text)
    assert m and float(m[1]) * 1e3 == pytest.approx(1 / cost.max(), rel=0.001)
    assert float(m[2]) * 1e3 == pytest.approx(1 / cost.min(), rel=0.001)
    assert float(m[1]) * 1e3 <= busy["iops"].mean() <= float(m[2]) * 1e3
    assert float(m[2]) * 1e3 >= busy["iops"].max()
    assert "at that cost one CPU sustains" not in text


# ------------------------------------------------------------------------------ SC: the jobs' own work sets the rate
def test_jobs_own_work_sets_the_rate_below_one_cpu_each():
    """md5 psync numjobs: one cost (133–146 µs a run), 4.4× the read's latency at 1 job: the rate is the jobs' CPU ÷
    that cost. Was: "what held the rate its CPU figures do not show"."""
    text = " ".join(_texts(_fit(V_NUMJOBS), "cpu"))
    assert "its CPU figures do not show" not in text
    assert "its rate follows the CPU it got at one cost" in text
    m = re.search(r"at numjobs = 1 the job's CPU per I/O \(([\d.]+) µs\) was ([\d.]+)× its I/O's own mean latency "
                  r"\(([\d.]+) µs\)", text)
    assert m and float(m[2]) == pytest.approx(float(m[1]) / float(m[3]), rel=0.05) and float(m[2]) >= 2
    m = re.search(r"give the measured rate within ±(\d+)% at every point", text)
    assert m and int(m[1]) <= 5


def test_own_work_at_about_the_reads_latency_is_not_that_reading():
    """Counter-case (spent): the md5 QD1 bs job spent 14.7 µs of CPU per 4 KiB read of 13.9 µs (1.1×): no share-held
    reading; its near-limit sentence stays."""
    text = " ".join(_texts(_fit(V_BS), "cpu"))
    assert "its rate follows the CPU it got" not in text and "at or near its CPU limit" in text


# ------------------------------------------------------------------------------ SH: the option named, causes narrowed
@pytest.mark.parametrize("case", [V_IODEPTH, V_NUMJOBS, V_BS])
def test_verify_option_named_once_beside_the_cpu_figures(case):
    texts = [t for c in _fit(case).claims() for t in [c["text"]]]
    assert sum("The runs set verify=md5" in t for t in texts) == 1
    assert any("The runs set verify=md5" in t for t in _texts(_fit(case), "cpu"))


def test_per_byte_cost_of_the_option_along_size():
    """md5 QD1 bs: CPU per I/O 14.7 µs … 2.14 ms = 6.4 µs + 2.03 ns per byte (the hand read's ~6 µs + 2.0 ns/B)."""
    text = " ".join(_texts(_fit(V_BS), "cpu"))
    m = re.search(r"fio's CPU per I/O is ([\d.]+) µs \+ ([\d.]+) ns per byte within 15 % at every size", text)
    assert m and 4 <= float(m[1]) <= 9 and float(m[2]) == pytest.approx(2.03, abs=0.1)


def test_no_option_no_words():
    """Counter-case (spent, fio normal text, no option echoed): nothing named."""
    for case in (QD, SEQREAD_BS):
        assert not any("The runs set" in c["text"] for c in _fit(case).claims())


def test_little_shortfall_causes_from_the_cpu_figures():
    """md5 libaio iodepth: 0.34–0.97; QD1 the job hashed between reads (2.1× the read), QD2–4 it was ≥ 90 % busy.
    Was: six candidates (--thinktime, an fsync, fio's own work, batching, a CPU-bound submitter, a rate limit)."""
    text = " ".join(_texts(_fit(V_IODEPTH), "little"))
    assert "fio's CPU figures show why" in text and "--thinktime" not in text
    assert re.search(r"at iodepth = 1 the job's own work between I/Os \([\d.]+ µs of CPU per I/O, [\d.]+× its I/O's "
                     r"[\d.]+ µs mean latency; verify=md5\)", text)
    assert "at iodepth = 2, 4 a CPU-bound submitter" in text


def test_little_shortfall_unexplained_keeps_its_candidates():
    """Counter-case (SYNTHETIC): a job at 30 % of a CPU with a quarter of its depth in flight: the candidates stay."""
    x = [1, 2, 4, 8]
    iops = [10e3, 12e3, 13e3, 13.5e3]
    t = pd.DataFrame({"source_path": [f"s/qd{q}.json" for q in x], "iodepth": x, "numjobs": 1, "ioengine": "libaio",
                      "direct": 1, "block_size_bytes": 4096, "iops": iops, "lat_mean_s": [0.25 * q / i for q, i in
                                                                                          zip(x, iops)],
                      "cpu_usr": 0.3, "cpu_sys": 0.0})
    text = " ".join(_texts(nm.fit(t, x="iodepth", y="iops"), "little"))
    assert "far below 1" in text and "--thinktime" in text and "show why" not in text


# ------------------------------------------------------------------------------ ingest: the options read
@pytest.mark.parametrize("opts, want", [({"verify": "md5"}, "verify=md5"), ({"verify": "0"}, None),
                                        ({"verify": "null"}, None), ({"refill_buffers": ""}, "refill_buffers"),
                                        ({"buffer_compress_percentage": "0"}, None),
                                        ({"verify": "crc32c", "buffer_compress_percentage": "50"},
                                         "verify=crc32c;buffer_compress_percentage=50"), ({}, None)])
def test_cpu_work_options(opts, want):
    assert cpu_work_options(opts) == want


def test_raw_json_gives_the_column():
    t = nm.read_results(str(cs.CORPUS / V_NUMJOBS / "raw"))
    assert (t["cpu_options"] == "verify=md5").all()
