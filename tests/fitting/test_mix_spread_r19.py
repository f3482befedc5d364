"""Round 19's class UD (``_blind_rounds/round19_hand_read_part1.md``): a read/write mix above the harmonic line was
explained ("each mixed I/O took less time on average than the pure runs'") while it lay inside the pure runs' own
spread (r19_here-mmapw tmpfs readshare: the 0.75 mix's runs 537–678 K IOPS against pure reads of 569–682 K). Rule
(``facts._mix``'s ``above_in_noise``, the mirror of the shortfall's ``in_noise``): a mix is above the line beyond the
scatter only where its lowest kept run clears the line through the pure points' highest kept runs; inside that
spread the spread is said and no above-the-line reading. Counters: repeats whose mixes clear the line (the reading
stays), and one run a point (no spread known: the 10 % threshold alone, as before). Round 19 is spent.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.facts import MIX_BELOW, curve_facts, point_levels
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")

MMAP = "r19_here-mmapw_tmpfs_mmap_randrw_readshare_repeats"
QD1 = "r3_here_blkio_readshare_qd1_repeats"
RBPS = "r2_here_blkio_rbps_rwmix_64k_repeats"


def _mix(fit):
    (c,) = [c for c in fit.claims() if c["kind"] == "mix"]
    return c


def test_ud_mmap_mix_above_inside_the_pure_runs_spread_is_not_explained():
    fit = cs.fit_case_id(MMAP, "blind19")
    key = next(iter(fit.fits))
    cf = curve_facts(fit, key)
    lv = {d["x"]: d for d in point_levels(fit, cf.points)}
    r = 0.75
    line_hi = 1 / (r / lv[1.0]["hi"] + (1 - r) / lv[0.0]["hi"])  # through the pure points' highest kept runs
    assert lv[r]["lo"] <= line_hi and lv[r]["median"] > (1 + MIX_BELOW) * 1 / (r / lv[1.0]["median"] + (1 - r) / lv[0.0]["median"])
    c = _mix(fit)
    n = c["facts"]["above_in_noise"]
    assert n["share"] == r and n["line_hi"] == pytest.approx(line_hi) and n["lo"] == pytest.approx(lv[r]["lo"])
    assert "is inside the runs' own scatter" in c["text"] and "took less time" not in c["text"], c["text"]
    assert "656.75 K IOPS" in c["text"] and "536.93 K IOPS–677.58 K IOPS" in c["text"]


@pytest.mark.parametrize("case_id,split,words", [(QD1, "blind3", "each mixed I/O took less time"),
                                                 (RBPS, "blind2", "the two directions overlap")])
def test_ud_counter_mixes_that_clear_the_spread_keep_their_reading(case_id, split, words):
    fit = cs.fit_case_id(case_id, split)
    c = _mix(fit)
    assert c["facts"]["above_in_noise"] is None and words in c["text"], c["text"]


def test_ud_counter_one_run_a_point_reads_the_threshold_alone():
    # seeded, labelled: pure reads 100 K, writes 50 K, one run each; the 0.5 mix at 83 K is +25 % over the line (66.7 K)
    rows = pd.DataFrame({"source_path": [f"r{r}.json" for r in (0, 0.5, 1)], "read_fraction": [0.0, 0.5, 1.0],
                         "iodepth": 1, "numjobs": 1, "iops": [50e3, 83e3, 100e3]})
    fit = nm.fit(rows, x="read_fraction", y="iops")
    c = _mix(fit)
    assert c["facts"]["above_in_noise"] is None
    assert "25% above" in c["text"] and "scatter" not in c["text"], c["text"]
    assert np.isclose(c["facts"]["harmonic"][0], 1 / (0.5 / 100e3 + 0.5 / 50e3))
