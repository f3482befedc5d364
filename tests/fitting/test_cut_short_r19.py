"""Round 19's class TC (``_blind_rounds/round19_hand_read_part2.md``): a run that stopped early went unremarked
(r19_zwal … QD64: 16.653 s against 60.0 s at every other point, its file opening "fio: terminating on signal 2", the
plateau's second point). Rule (``run_length.cut_short``): a run far shorter than the sweep's other, equally long runs
that also did less I/O per job than a full-length run did is named, with fio's signal where ingest saw it and whether
its rate agrees (its point's other runs, else its level). Counters: a size-bound sweep (runtimes differ with the
rates), and short runs that ended on their size (as many I/Os or bytes per job as any full-length run). Spent rounds.
"""

from __future__ import annotations

import glob
import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.run_length import SHORTER, cut_short
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")

ZWAL = "r19_zwal_zns-ssd_8k-zoneappend_iouring-cmd-sqpoll_qd"
SIZED = "r19_silentzns_femu-zns-direct_16k-randread-sync_zone-per-job_numjobs"
P3600 = "r6_kangeek_p3600_4k-randread_iodepth_by-numjobs"
NKNYTK = "r5_nknytk_sata-ssd_host-kvm-xen_randread_qd1_bs"


def _cautions(fit):
    return [c for c in fit.claims() if c["kind"] == "caution" and "stopped" in c["text"]]


def test_tc_zwal_qd64_named_with_its_length_and_agreement():
    fit = cs.fit_case_id(ZWAL, "blind19")
    t = fit.table.sort_values("iodepth")
    rt, ios, iops = (t[c].to_numpy(float) for c in ("runtime_s", "ios", "iops"))
    assert rt[-1] < (1 - SHORTER) * np.median(rt[:-1]) and ios[-1] < ios[:-1].max()  # the premise, from the table
    (c,) = _cautions(fit)
    text = c["text"]
    assert text.startswith("Caution: the run at iodepth = 64 ran 16.7 s and 592 K I/Os, against 60 s and up to "
                           "2.13 M I/Os for every other run of the series"), text
    # the table holds no signal, and fio's error is 0: no "an error" among the causes (round 30 RF); 16.7 s is no
    # round runtime, so the cut stays
    assert "(a signal or a timeout: the files do not say which; fio reported no error)" in text
    d = iops[-1] / iops[-2] - 1  # the level's other point, QD32
    assert f"agrees with the level's other point (35.55 K IOPS at iodepth = 32: {d:+.2%})" in text
    assert [r["k"] for r in c["facts"]["cut_short"]["runs"]] == [len(t) - 1]


def test_tc_zwal_from_its_files_names_fio_s_signal():
    files = sorted(glob.glob(str(cs.CORPUS / ZWAL / "raw" / "*")))
    if not files:
        pytest.skip("raw files not in the corpus")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = nm.fit(files, x="iodepth", y="iops")
    assert any("terminating on signal" in w for w in fit.ingest_warnings)
    (c,) = _cautions(fit)
    assert "ran 16.7 s and 592 K I/Os (fio was stopped by a signal there)" in c["text"]
    assert "the files do not say which" not in c["text"]


def test_tc_counter_a_size_bound_sweep_is_not_cut_short():
    fit = cs.fit_case_id(SIZED, "blind19")
    rt = fit.table.groupby("source_path")["runtime_s"].max()
    assert rt.max() / rt.min() > 1.5  # 11.8–18.8 s: each point ran as long as its bytes took
    assert cut_short(fit, curve_facts(fit, next(iter(fit.fits))).points) is None and not _cautions(fit)


@pytest.mark.parametrize("case_id,split", [(P3600, "blind6"), (NKNYTK, "blind5")])
def test_tc_counter_short_runs_that_finished_their_size(case_id, split):
    # QD8–32 at 15.6, 8.5, 5.5 s against 30 s, each 1.31 M I/Os per job (p3600); 32 KiB and 512 KiB at 8–81 s against
    # 180 s, each 3.22 GB (nknytk): they ended on their size, not early
    fit = cs.fit_case_id(case_id, split)
    assert not _cautions(fit)
    for key in fit.fits:
        assert cut_short(fit, curve_facts(fit, key).points) is None


def test_tc_repeats_agreement_against_the_point_s_other_runs():
    # seeded: 3 runs a point, 60 s each, one QD8 run stopped at 20 s with a third of the I/O; its rate 3 % below
    rng = np.random.default_rng(19)
    rows = []
    for q, level in ((1, 10e3), (2, 19e3), (4, 30e3), (8, 31e3)):
        for r in range(3):
            v = level * (1 + rng.uniform(-0.02, 0.02))
            rt = 20.0 if (q, r) == (8, 1) else 60.0
            v = level * 0.97 if (q, r) == (8, 1) else v
            rows.append({"source_path": f"qd{q}_r{r}.json", "iodepth": q, "numjobs": 1, "iops": v,
                         "runtime_s": rt, "ios": v * rt, "lat_mean_s": q / v})
    fit = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")
    (c,) = _cautions(fit)
    t = pd.DataFrame(rows)
    others = t[(t["iodepth"] == 8) & (t["runtime_s"] == 60.0)]["iops"]
    short = float(t[t["runtime_s"] == 20.0]["iops"].iloc[0])
    assert "the run at iodepth = 8 ran 20 s" in c["text"]
    assert f"{abs(short / others.min() - 1):.0%} below its point's other runs" in c["text"], c["text"]
