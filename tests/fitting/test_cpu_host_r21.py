"""Round 21's CPU-verdict classes (``_blind_rounds/round21_hand_read_part1.md`` VD, VE; ``_part2.md`` WE), read by
:mod:`~nvmemodel.fitting.cpu_limits`:

- VD: jobs added while their summed CPU held one level, busy where it was reached, the CPU per I/O rising as the
  rate fell: the CPUs the host gave the jobs held it — no "give the host to decide" with an alternative (a rate held
  elsewhere at a fixed cost per I/O) that the rising cost excludes.
- VE: a job ≥ 90 % of one CPU at every point: CPU-limited throughout; a last rise is a lower cost, not "the data do not
  reach a ceiling"; the job's own thread was at its limit, so the rate one CPU sustains at each size is said.
- WE: every point's job below a quarter of a CPU, its share moving with the load: "far from a limit", as a nearly idle
  sibling's — not "what held the rate its CPU figures do not show".

Round 21 is spent: its cases are fitted here. Counter-cases: spent r16 zram numjobs (a level CPU at a cost within a
few %: "give the host to decide" stays), r11 pinned-CPU numjobs, r17 cpuquota bs (a share held at one level under a
25 % quota: no "far from a limit"; a rise with the job at 23–25 %: "the data do not reach a ceiling" stays), seeded
synthetic tables (a point at 30 % of a CPU: not far)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.cpu_limits import busy_throughout, far_from_limit, shared_level
from nvmemodel.fitting.facts import curve_facts
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore:'str' is not supported as a fill value")

NUMJOBS = "r21_here-uringbuf_loop-pagecache_iouring_buffered_randread_qd4_numjobs_repeats"
SEQ_BS = "r21_here-uringbuf_loop-pagecache_iouring_buffered_seqread_qd4_bs_repeats"
TV_1JOB = "r21_tieredvol_dm-stripe-nvme-2sata_2m-write_1job_qd"
TV_BS = "r21_tieredvol_dm-stripe-nvme-2sata_write_4jobs-qd32_bs"
TV_4JOBS = "r21_tieredvol_dm-stripe-nvme-2sata_2m-write_4jobs_qd"
ZRAM = "r16_here-zram_zram-lzorle_psync_randwrite_numjobs_repeats"
PIN = "r11_here-pin_tmpfs_psync_1cpu_randread_numjobs_repeats"
QUOTA_BS = "r17_here-cpuquota_loop_cfs25pct_libaio_randread_qd4_bs_repeats"


def _fit(case):
    return cs.fit_case_id(case)


def _cf(fit):
    return curve_facts(fit, next(iter(fit.chosen)))


def _texts(fit, kind: str) -> str:
    return " ".join(c["text"] for c in fit.claims() if c["kind"] == kind)


def _per_point(case, x: str) -> pd.DataFrame:
    p = pd.read_csv(cs.CORPUS / case / "points.csv")
    p["cpu"] = (p["cpu_usr"] + p["cpu_sys"]) * p["numjobs"]  # usr+sys: one job's, in CPUs; ios: the jobs' together
    p["cost"] = p["cpu"] * p["runtime_s"] / p["ios"]
    return p.groupby(x).agg(cpu=("cpu", "median"), cpu_mean=("cpu", "mean"), cost=("cost", "median"), iops=("iops", "mean"))


# ------------------------------------------------------------------------------ VD: a shared CPU budget, cost rose
def test_shared_budget_whose_cost_rose_is_cpu_bound():
    """1.84–1.90 CPUs at 2–6 jobs, 95 % of a CPU per job at 2, CPU per I/O 1.83 → 2.17–2.35 µs as the rate fell."""
    fit = _fit(NUMJOBS)
    h = shared_level(fit, _cf(fit))
    d = _per_point(NUMJOBS, "numjobs").loc[2:]
    assert h is not None and h["x"] == [2.0, 3.0, 4.0, 6.0] and h["whole"] == 2
    assert h["level"] == pytest.approx(d["cpu"].mean(), rel=0.01)
    assert min(h["cpus"]) == pytest.approx(d["cpu"].min(), rel=0.01)
    assert h["share_first"] >= 0.9 and h["share_last"] == pytest.approx(d["cpu"].iloc[-1] / 6, rel=0.02)
    assert h["cost_hi"] / h["cost_first"] == pytest.approx(d["cost"].max() / d["cost"].iloc[0], rel=0.02)
    text = _texts(fit, "cpu")
    assert "give the host — --host or a topology — to decide" not in text
    m = re.search(r"rose from ([\d.]+) µs to ([\d.]+) µs–([\d.]+) µs \(\+(\d+)% to \+(\d+)%\)", text)
    assert m and float(m[1]) == pytest.approx(1.83, abs=0.01) and (int(m[4]), int(m[5])) == (18, 29)
    assert "The jobs shared one CPU budget" in text and "the plateau is CPU-bound" in text and "about 2 CPUs" in text


@pytest.mark.parametrize("case", [ZRAM, PIN])
def test_level_cpu_at_one_cost_keeps_its_alternative(case):
    """zram: 1.90–1.98 CPUs at 2–8 jobs at 13.5–15.4 µs (−0.3 % at 3 jobs: no rising cost) — the "held elsewhere at a
    fixed cost" alternative stands; the pinned CPU is said by its own sentence."""
    fit = _fit(case)
    assert shared_level(fit, _cf(fit)) is None
    assert "shared one CPU budget" not in _texts(fit, "cpu")
    if case == ZRAM:
        # round 23 (ZD): each of the 2 jobs was 99.1 % busy at 2, so a rate held elsewhere (which leaves its jobs
        # idle part of the time) is ruled out: CPU-bound at those CPUs, as the case reads (cpu_bound True)
        assert "every job was busy at 2 and more jobs only shared those CPUs" in _texts(fit, "cpu")


# ------------------------------------------------------------------------------ VE: busy at every point
def test_busy_at_every_size_is_cpu_limited_not_short_of_a_ceiling():
    """seqread 4 KiB–1 MiB: the job at 91–99 % of a CPU at every size; the +20 % at 1 MiB is ×3.38 the CPU per I/O
    for ×4 the bytes."""
    fit = _fit(SEQ_BS)
    b = busy_throughout(fit, _cf(fit))
    d = _per_point(SEQ_BS, "block_size_bytes")
    assert b is not None and b["lo"] == pytest.approx(d["cpu_mean"].min(), abs=0.01) and b["lo"] >= 0.9
    text = fit.explain()
    assert "the data do not reach a ceiling" not in text and "CPU-limited throughout" in text
    m = re.search(r"([\d.]+) µs → ([\d.]+) µs of CPU per I/O, ×([\d.]+) for ×4 the bytes", text)
    ratio = d["cost"].loc[1048576] / d["cost"].loc[262144]
    assert m and float(m[3]) == pytest.approx(ratio, rel=0.02) and float(m[3]) < 4
    assert "no rate one CPU sustains is read" not in text
    m = re.search(r"1 MiB ([\d.]+) GB/s", text)  # 1 MiB ÷ its CPU per I/O
    assert m and float(m[1]) * 1e9 == pytest.approx(1048576 / d["cost"].loc[1048576], rel=0.02)


def test_rise_below_a_cpu_keeps_no_ceiling_words():
    """cpuquota bs: the job at 23–25 % of a CPU (a 25 % quota) while the rate rises: not busy throughout."""
    fit = _fit(QUOTA_BS)
    assert busy_throughout(fit, _cf(fit)) is None
    assert "the data do not reach a ceiling" in fit.explain() and "CPU-limited throughout" not in fit.explain()


# ------------------------------------------------------------------------------ WE: far below a CPU
@pytest.mark.parametrize("case, top", [(TV_1JOB, 0.174), (TV_BS, 0.064)])
def test_far_below_a_cpu_is_far_from_a_limit(case, top):
    fit = _fit(case)
    assert far_from_limit(_cf(fit), fit) == pytest.approx(top, abs=0.002)
    text = _texts(fit, "cpu")
    assert "far from a limit" in text and "its CPU figures do not show" not in text
    assert "below a quarter of one CPU at every" in text


def test_nearly_idle_sibling_keeps_its_words():
    text = _texts(_fit(TV_4JOBS), "cpu")
    assert "nearly idle: fio's own CPU was far from a limit" in text


def test_a_share_held_at_one_level_is_not_far():
    """cpuquota bs: 22.5–24.8 % of a CPU at every size (within SHARE_LEVEL): a quota's level, no "far"."""
    fit = _fit(QUOTA_BS)
    assert far_from_limit(_cf(fit), fit) is None
    assert "far from a limit" not in _texts(fit, "cpu")


def _synthetic(share, iops, x="iodepth"):
    """A seeded one-job table along ``x``: fio normal-output-like rows with the given usr+sys and IOPS."""
    import nvmemodel as nm

    rng = np.random.default_rng(21)
    rows = []
    for k, (s, r) in enumerate(zip(share, iops)):
        for run in range(3):
            rr = r * (1 + 0.01 * rng.standard_normal())
            rows.append({"tool": "fio", "source_path": f"p{k}-r{run}.txt", "run": 0, "job_name": "j",
                         "pattern": "random", "direction": "read", "read_fraction": 1.0, "random_fraction": 1.0,
                         "block_size_bytes": 4096, "iodepth": 2 ** k if x == "iodepth" else 4, "numjobs": 1,
                         "ioengine": "libaio", "direct": 1, "runtime_s": 10.0, "ios": rr * 10, "iops": rr,
                         "bw_bytes_per_s": rr * 4096, "lat_mean_s": (2 ** k) / rr, "cpu_usr": 0.3 * s,
                         "cpu_sys": 0.7 * s})
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=x, y="iops")


def test_synthetic_share_above_a_quarter_somewhere_is_not_far():
    fit = _synthetic([0.05, 0.1, 0.2, 0.3, 0.3], [10e3, 20e3, 40e3, 60e3, 61e3])
    assert far_from_limit(_cf(fit), fit) is None


def test_synthetic_moving_low_share_is_far():
    fit = _synthetic([0.02, 0.05, 0.1, 0.2, 0.2], [10e3, 20e3, 40e3, 60e3, 61e3])
    assert far_from_limit(_cf(fit), fit) == pytest.approx(0.2, abs=0.01)
