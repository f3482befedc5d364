"""Step sentences told in the direction the runs lie (round 14 SA; facts.repeat_spread's ``apart`` pair).

Where runs of one point spread past the steps between means, a step is read only between points whose runs do not
overlap, and the words say "every run at b above every run at a". The pair must be computed in that direction: a
spent real case whose widest non-overlap is a fall (every QD32 run below every QD2 run) and a spent real counter whose
widest non-overlap is a rise (every QD8 run above every QD1 run). The assertions recompute the runs from the
table; no value is pinned. Also: a byte limit along block size whose last doubling gains under 1 % or within the
runs' spread is said as reached (round 14 RB), and no pointer to a Little's-law check another claim may not print.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.facts import _run_values, curve_facts

from . import corpus_score as cs
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


@pytest.mark.parametrize("case", [RB, STILL_GAINS])
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


def test_overlapping_runs_over_three_sizes_are_one_byte_level():
    """r9 mmap on tmpfs (3 runs a size, QD1): the medians at 64 KiB, 256 KiB and 1 MiB lie ×1.13 apart while each
    size's runs spread ×1.5: one level over three sizes, said as the byte rate at that depth (the point table; its
    two-size "no faster" reading of the means is replaced by the three-size level)."""
    p = pd.read_csv(cs.CORPUS / OVERLAP / "points.csv")
    bw = (p["iops"] * p["block_size_bytes"]).groupby(p["block_size_bytes"])
    med, spread = bw.median(), bw.max() / bw.min()
    big = med[med.index >= 65536]
    text = fit_case_id(OVERLAP).explain()
    m = re.search(r"(?:bandwidth|it) is flat at ([\d.]+) GB/s \([\d.]+ GiB/s\)–([\d.]+) GB/s \([\d.]+ GiB/s\) from 64 KiB to "
                  r"1 MiB \(each size the median of its kept runs; ×([\d.]+) apart, within the ×([\d.]+) a size's own "
                  r"runs vary: one level\), all at 1 I/O outstanding: the byte rate at that depth", text)
    assert m, text
    assert float(m[1]) == pytest.approx(big.min() / 1e9, abs=0.005)
    assert float(m[2]) == pytest.approx(big.max() / 1e9, abs=0.005)
    assert float(m[3]) == pytest.approx(big.max() / big.min(), rel=0.01)
    assert float(m[4]) == pytest.approx(spread[spread.index >= 65536].median(), rel=0.01) and float(m[3]) < float(m[4])
    assert "not measured beyond" not in text and "still rises" not in text


SB = "r4_here_null_numjobs_repeats"  # the latency grew unlike Little's law: the words gave a pointer to a check
HOLDS = "r14_dpfs_host-nfs-tmpfs_4k-randread_p2_qd"  # Little's law holds: its own words


@pytest.mark.parametrize("case", [SB, HOLDS])
def test_no_pointer_to_a_check_that_may_not_be_printed(case):
    text = fit_case_id(case).explain()
    assert "check below" not in text  # (round 14 SB: r14 nrreq4 128k iodepth pointed to a check not printed)
    assert ("would give ×" in text) == (case == SB)
    assert ("as Little's law gives" in text) == (case == HOLDS)
