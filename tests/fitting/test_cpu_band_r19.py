"""Round 19's class UE (``_blind_rounds/round19_hand_read_part1.md``): a CPU-bound band was listed up to the maximum
and the points after it left out (r19_here-mmapw tmpfs readshare: "from read_fraction = 0 to 0.5 … 99.9 %" beside
"at the maximum (0.75)", 0.9 and 1 as busy and unsaid; the tmpfs block-size series: 4–64 KiB listed, 1 MiB not).
Rule (``cpu_claims._cpu_bound_below(band=True)``): where no plateau and no CPU-bound level of the CPU fact covers the
points after the maximum, the busy points after it join those before it, the maximum with them, in one clause.
Counters: a load axis with a plateau (its points from the onset are the CPU fact's), and a series whose only busy
point is the maximum (its own sentence says it). Round 19 is spent.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.claims import curve_evidence
from nvmemodel.fitting.cpu_claims import _cpu_bound_below, _per_job_cpu
from nvmemodel.fitting.claim import _pts
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")

SHARE = "r19_here-mmapw_tmpfs_mmap_randrw_readshare_repeats"
BS = "r19_here-mmapw_tmpfs_mmap_randwrite_bs_repeats"
BRD = "r19_lsvdrbd_nvmetcp-spdk-brd-ramdisk_4k-randread_iouring_qd"


def _band(fit):
    return [c["text"] for c in fit.claims() if c["kind"] == "cpu" and "at every point from" in c["text"]]


@pytest.mark.parametrize("case_id,first,last", [(SHARE, "0", "1"), (BS, "4 KiB", "1 MiB")])
def test_ue_band_lists_every_busy_point_after_the_maximum_too(case_id, first, last):
    fit = cs.fit_case_id(case_id, "blind19")
    key = next(iter(fit.fits))
    pts = _pts(fit, key).sort_values(fit.x)
    per = _per_job_cpu(pts)
    assert (per >= 0.9).all()  # the premise, from the table: every point's job busy
    i_max = int(np.argmax(pts["y"].to_numpy(float)))
    assert 0 < i_max < len(pts) - 1  # the maximum inside the series, busy points after it
    (text,) = _band(fit)
    assert f"at every point from {fit.x} = {first} to {last} every job used" in text, text
    lo, hi = 100 * per.min(), 100 * per.max()
    assert f"{lo:.3g} %" in text and (f"{hi:.3g} %" in text or np.isclose(lo, hi))


def test_ue_counter_plateau_points_stay_the_cpu_fact_s():
    fit = cs.fit_case_id(BRD, "blind19")
    key = next(iter(fit.fits))
    ev = curve_evidence(fit, key)[0]
    assert ev.plateau is not None
    x_from = ev.plateau["x_from"]
    band = _cpu_bound_below(fit, key, ev, band=True)
    assert (band[fit.x] < x_from).all()


def test_ue_counter_only_the_maximum_busy_gets_no_band_sentence():
    # seeded, labelled: a read-share sweep whose job is busy at the maximum only (0.5), idle elsewhere
    rows = pd.DataFrame({"source_path": [f"r{r}.json" for r in (0, 0.25, 0.5, 0.75, 1)],
                         "read_fraction": [0.0, 0.25, 0.5, 0.75, 1.0], "iodepth": 1, "numjobs": 1,
                         "iops": [50e3, 60e3, 90e3, 70e3, 80e3], "cpu_usr": [0.2, 0.3, 0.95, 0.3, 0.3],
                         "cpu_sys": 0.02, "runtime_s": 60.0, "ios": [3e6, 3.6e6, 5.4e6, 4.2e6, 4.8e6]})
    fit = nm.fit(rows, x="read_fraction", y="iops")
    assert not _band(fit)
