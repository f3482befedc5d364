"""Step sentences told in the direction the runs lie (round 14 SA; facts.repeat_spread's ``apart`` pair).

Where runs of one point spread past the steps between means, a step is read only between points whose runs do not
overlap, and the words say "every run at b above every run at a". The pair must be computed in that direction: a
spent real case whose widest non-overlap is a fall (every QD32 run below every QD2 run) and a spent real counter whose
widest non-overlap is a rise (every QD8 run above every QD1 run). The assertions recompute the runs from the
table; no value is pinned. Also: a byte limit along block size whose last doubling gains under 1 % or within the
runs' spread is said as reached (round 14 RB), and no pointer to a Little's-law check another claim may not print.
"""

from __future__ import annotations

import numpy as np
import pytest

from nvmemodel.fitting.facts import _run_values, curve_facts

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

FALL = "r14_here-nrreq_loop-nrreq4_libaio_randread_128k_iodepth_repeats"  # QD32 runs 0.59–3.39 below QD2's 4.03–4.17
RISE = "r14_here-nrreq_loop-nrreq4_libaio_randread_iodepth_repeats"  # "every run at 8 above every run at 1"


@pytest.mark.parametrize("case", [FALL, RISE])
def test_every_run_above_is_true_of_the_runs(case):
    r = fit_case_id(case)
    key = next(iter(r.fits))
    cf = curve_facts(r, key)
    br = cf.saturation.facts.get("by_runs")
    assert br is not None
    a, b = br["apart"]
    runs_a, runs_b = (_run_values(r, cf.points, i) for i in (a, b))
    assert runs_a.size and runs_b.size
    assert runs_b.min() > runs_a.max()  # what "every run at b above every run at a" says
    x = cf.points["x"].to_numpy(float)
    if case == FALL:  # the widest gap here is a fall: the higher point is the lighter load
        assert x[b] < x[a]
    else:  # a rise keeps the load order
        assert x[b] > x[a]


RB = "r14_asct_unnamed-volume_randread_bs"  # 64 → 128 KiB: +0.08 % bytes/s, one run a point
STILL_GAINS = "r14_ethresear-eip7907_sn850x-8tb_raw-baseline_bs"  # 32 → 64 KiB: +9.8 %


OVERLAP = "r9_here-mmap_tmpfs_randread_bs_repeats"  # 256 KiB → 1 MiB: +5.6 % in the means, runs overlapping


@pytest.mark.parametrize("case", [RB, STILL_GAINS, OVERLAP])
def test_a_last_doubling_within_rounding_or_noise_is_no_faster(case):
    from nvmemodel.fitting.facts import NO_GAIN

    r = fit_case_id(case)
    key = next(iter(r.fits))
    cf = curve_facts(r, key)
    bw = cf.points["bytes_per_s"].to_numpy(float)
    gain = bw[-1] / bw[-2] - 1
    ra, rb = (_run_values(r, cf.points, i) for i in (len(bw) - 2, len(bw) - 1))
    overlap = bool(ra.size and rb.size and rb.min() <= ra.max())
    text = r.explain()
    assert "nearly level at the two largest sizes" in text
    if gain < NO_GAIN or overlap:
        assert "the larger block no faster" in text and "not measured beyond" not in text
    else:
        assert "not measured beyond" in text and "no faster" not in text
    assert (case == STILL_GAINS) == (gain >= NO_GAIN and not overlap)  # only the counter still gains


SB = "r4_here_null_numjobs_repeats"  # the latency grew unlike Little's law: the words gave a pointer to a check
HOLDS = "r14_dpfs_host-nfs-tmpfs_4k-randread_p2_qd"  # Little's law holds: its own words


@pytest.mark.parametrize("case", [SB, HOLDS])
def test_no_pointer_to_a_check_that_may_not_be_printed(case):
    text = fit_case_id(case).explain()
    assert "check below" not in text  # (round 14 SB: r14 nrreq4 128k iodepth pointed to a check not printed)
    assert ("would give ×" in text) == (case == SB)
    assert ("as Little's law gives" in text) == (case == HOLDS)
