"""Round 19's class TE (``_blind_rounds/round19_hand_read_part2.md``): fio's CPU per I/O and "one CPU sustains N IOPS"
printed for jobs far from any CPU limit (r19_lsvdrbd … 3hdd at 14 % of a CPU: "27.8 µs … one CPU sustains 35.92 K
IOPS"; r19_silentzns … seqread at 5.8 %: "6.05 µs … 165.40 K IOPS") while series at 0.8–4.7 % got "nearly idle" and
none. Rule (``cpu_band.cost_worth``): the cost line is said where some point of the series had a job at ≥ 50 % of one
CPU (within a doubling of its CPU limit) or the cost is an argument (it grew while the rate fell); elsewhere the share
is said and the cost line left to ``cpu_claims.unsaid_cost``. Round 20 showed the class too (r20_tutsunom nvme0n1 at 22 %).
Counters: a series with a job at 64 % (cost said), one whose cost rose ×2.37 while its rate fell (said though its
jobs stayed below half a CPU), a CPU-bound series (the CPU fact's cost stays). Rounds 19 and 20 are spent.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from nvmemodel.fitting.cpu_band import COST_WORTH, cost_worth
from nvmemodel.fitting.cpu_claims import unsaid_cost
from nvmemodel.fitting.facts import curve_facts
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")

HDD3 = "r19_lsvdrbd_nvmetcp-spdk-rbd-3hdd_4k-randread_iouring_qd"
SEQREAD = "r19_silentzns_femu-zns-direct_16k-seqread-sync_zone-per-job_numjobs"
NVME32 = "r20_tutsunom_nvme0n1_4k-randread_32jobs_qd_repeats"
QEMU = "r9_stefanha_kvm-virtio-blk_qemu720_4k-randread_qd"
RKT = "r5_samyaple_rkt4p_4k-randrw_qd1_readshare"
BRD = "r19_lsvdrbd_nvmetcp-spdk-brd-ramdisk_4k-randread_iouring_qd"


def _cpu(fit):
    return [c for c in fit.claims() if c["kind"] == "cpu"]


def _shares(fit):
    """Each point's CPU per job from the table (usr+sys ÷ jobs), the figure the band reads."""
    f = curve_facts(fit, next(iter(fit.fits))).cpu.facts
    return np.asarray(f["share"], float), np.asarray(f["cpu_s_per_io"], float)


@pytest.mark.parametrize("case_id,split", [(HDD3, "blind19"), (SEQREAD, "blind19"), (NVME32, "blind20")])
def test_te_no_cost_line_for_jobs_far_from_a_cpu_limit(case_id, split):
    fit = cs.fit_case_id(case_id, split)
    share, per_io = _shares(fit)
    assert np.nanmax(share) < COST_WORTH  # 14 %, 5.8 %, 22 % at their busiest points: far from one CPU
    (c,) = _cpu(fit)
    assert re.search(r"of one CPU( per job)?[;,.]", c["text"])  # the share is said …
    assert "one CPU sustains" not in c["text"], c["text"]  # … and no cost line; since round 29 (OE, cost_brief) the
    # figure alone, short, said as no limit the rates came near
    assert c["text"].count("CPU per I/O") == 1 and "so this cost is no limit these rates came near" in c["text"]
    # the cost is there for a user who asks (cpu_claims.unsaid_cost), with the onset's figure
    unsaid = unsaid_cost(fit, next(iter(fit.fits)))
    onset = curve_facts(fit, next(iter(fit.fits))).saturation.facts["onset_index"]
    got = float(re.search(r"\): ([\d.]+) µs", unsaid)[1]) * 1e-6
    assert got == pytest.approx(per_io[onset], rel=0.005) and "one CPU sustains" in unsaid


def test_te_hdd3_figure_kept_in_facts_is_the_table_s():
    # 0.1405 CPU for 5046 IOPS at QD128 (the hand reading's 27.8 µs), one job
    fit = cs.fit_case_id(HDD3, "blind19")
    t = fit.table.sort_values("iodepth")
    row = t[t["iodepth"] == 128].iloc[0]
    want = (row["cpu_usr"] + row["cpu_sys"]) / row["iops"]
    (c,) = _cpu(fit)
    assert f"{want * 1e6:.3g} µs" in unsaid_cost(fit, next(iter(fit.fits)))
    assert "one CPU sustains" not in c["text"]


def test_te_counter_a_job_at_64_percent_keeps_its_cost():
    fit = cs.fit_case_id(QEMU, "blind9")
    assert unsaid_cost(fit, next(iter(fit.fits))) == ""  # said, so nothing left out
    share, _ = _shares(fit)
    assert np.nanmax(share) >= COST_WORTH
    text = " ".join(c["text"] for c in _cpu(fit))
    assert "fio's CPU per I/O at the saturation onset" in text, text


def test_te_counter_a_cost_that_grew_while_the_rate_fell_is_said():
    fit = cs.fit_case_id(RKT, "blind5")
    share, _ = _shares(fit)
    assert np.nanmax(share) < COST_WORTH  # every job below half a CPU …
    text = " ".join(c["text"] for c in _cpu(fit))
    # … but the cost is the argument: it grew ×2.37 while the rate fell ×6.11
    assert "fio's CPU per I/O grew ×" in text and "while the rate fell" in text and "CPU per I/O at the maximum" in text


def test_te_counter_cpu_bound_series_keeps_the_cpu_fact_s_cost():
    fit = cs.fit_case_id(BRD, "blind19")
    text = " ".join(c["text"] for c in _cpu(fit))
    assert "µs of CPU per I/O" in text and "one CPU sustains" in text and "CPU-bound" in text, text


def test_te_band_function():
    assert not cost_worth([0.05, 0.14, np.nan]) and cost_worth([0.1, 0.5]) and cost_worth([0.1], argued=True)
    assert cost_worth([np.nan, np.nan])  # no share known: nothing shows it far from a limit
