"""Round 23's classes ZC, AA, AC and AD (``_blind_rounds/round23_hand_read_part1.md`` ZC, ``…_part2.md`` AA/AC/AD):

- ZC: runs with fio's ``error`` set were left out without a word (a seven-point series read as "two numjobs values",
  a four-run file refused as "numjobs = 1 only"): every run a fit leaves out is counted and named
  (:mod:`nvmemodel.fitting.runs_left_out`), and ``failed="keep"`` / ``--failed keep`` fits them, flagged.
- AA: a run set aside as stalled against the point's *fastest* run, one of two like runs; the test now compares with
  the point's median run, and a set-aside run is always named.
- AC: an onset read on overlapping runs is given as the range the runs allow; a later non-overlapping step is named.
- AD: "N runs a point, their spread the noise" says when runs were set aside.

Round 23 is spent; counters are other spent cases and seeded synthetic tables (labelled synthetic).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.errors import ParameterError
from nvmemodel.fitting.point_runs import stalled_runs
from nvmemodel.fitting.runs_left_out import left_out_runs, left_out_words
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

SEQ4K = "r23_iouringlog_nvme0n1_4k-seqwrite_iouring_qd1_numjobs"
SEQ128K = "r23_iouringlog_nvme0n1_128k-seqwrite_iouring_qd1_numjobs"
RAND4K = "r23_iouringlog_nvme0n1_4k-randread_iouring_qd1_numjobs"
LOOP = "r23_here-cpusplit_loop_libaio_cpus-split_randread_qd4_numjobs_repeats"
VSYNC = "r12_here-vsync_loop_vsync_randread_iodepth_repeats"


def _table(case: str) -> pd.DataFrame:
    return pd.read_csv(CORPUS / case / "points.csv", low_memory=False)


# ---- ZC: runs left out are counted and named -------------------------------------------------------------------

def test_zc_4k_seqwrite_names_the_five_failed_runs():
    fit = fit_case_id(SEQ4K)
    t = fit.explain()
    assert t.startswith("5 of 7 runs were left out of this fit — numjobs = 4, 32, 64, 128, 256: fio reported error 11 "
                        "(EAGAIN: Resource temporarily unavailable) for them (they ran 60.0–64.6 s and completed "
                        "13.6 M–17.2 M I/Os) — their numbers are not used")
    assert 'failed="keep"' in t and "--failed keep" in t
    assert fit.summary().startswith("runs: 5 of 7 runs were left out")
    d = fit.to_dict()
    assert [r["x"] for r in d["runs_left_out"]["left_out"]] == [4.0, 32.0, 64.0, 128.0, 256.0]
    assert {e for r in d["runs_left_out"]["left_out"] for e in r["error"]} == {"11"}
    assert d["claims"][0]["kind"] == "runs"


def test_zc_128k_refusal_says_what_removed_the_other_x_values():
    with pytest.raises(ParameterError) as exc:
        fit_case_id(SEQ128K)
    msg = str(exc.value)
    assert "the table has 4 different numjobs values over 4 runs" in msg
    assert "3 of 4 runs were left out" in msg and "numjobs = 4, 16, 32" in msg and "error 11 (EAGAIN" in msg


def test_zc_keep_fits_the_failed_runs_and_still_flags_them():
    fit = nm.fit(_table(SEQ4K), x="numjobs", y="iops", failed="keep")
    t = fit.explain()
    assert t.startswith("5 of 7 runs (numjobs = 4, 32, 64, 128, 256) are fitted although fio reported error 11")
    assert "fault flag" in t
    assert "With two numjobs values" not in t
    assert len(fit.points) == 7
    # the hand read's level with every run: 255.7–283.9 K at 16–256 (mean 271.0 K), onset between 4 and 16
    assert "Plateau 271.03 K IOPS" in t and "saturates from numjobs = 16" in t


def test_zc_128k_keep_fits_four_points():
    fit = nm.fit(_table(SEQ128K), x="numjobs", y="bytes_per_s", failed="keep")
    assert sorted(fit.points["numjobs"]) == [1.0, 4.0, 16.0, 32.0]
    assert "3 of 4 runs (numjobs = 4, 16, 32) are fitted although fio reported error 11" in fit.explain()


def test_zc_failed_value_is_checked():
    with pytest.raises(ParameterError, match="failed='yes'.*'drop', 'keep'"):
        nm.fit(_table(SEQ4K), x="numjobs", failed="yes")


def test_zc_counter_no_error_no_sentence():
    fit = fit_case_id(RAND4K)
    assert fit.runs_left_out == {}
    assert "left out of this fit" not in fit.explain()
    assert fit.to_dict()["runs_left_out"] is None


def test_zc_counter_only_error_rows_without_io_refused_by_name():
    """Synthetic: every run failed before any I/O (ios = 0): leaving them out is right, and the refusal names them —
    with failed="keep" too (there is no number to fit)."""
    t = pd.DataFrame({"source_path": [f"run{i}.json" for i in range(3)], "iodepth": [1, 2, 4], "numjobs": 1,
                      "direction": "read", "iops": [0.0, 0.0, 0.0], "ios": [0, 0, 0], "runtime_s": [0.0, 0.0, 0.0],
                      "error": [5, 5, 5], "final": True})
    for how in ("drop", "keep"):
        with pytest.raises(ParameterError, match=r"3 runs, none a measurement.*error 5 \(EIO"):
            nm.fit(t, x="iodepth", failed=how)


def test_zc_counter_verify_rows_of_a_kept_run_are_not_runs_left_out():
    """Synthetic: a write run's verify phase is not the workload, but the run itself is fitted: no sentence."""
    rows = []
    for i, qd in enumerate([1, 2, 4, 8]):
        rows.append({"source_path": f"w{i}.json", "iodepth": qd, "numjobs": 1, "direction": "write",
                     "iops": 1000.0 * qd ** 0.5, "ios": 1000, "error": 0, "final": True})
        rows.append({"source_path": f"w{i}.json", "iodepth": qd, "numjobs": 1, "direction": "verify",
                     "iops": 5000.0, "ios": 1000, "error": 0, "final": True})
    assert left_out_runs(pd.DataFrame(rows), "iodepth") == {}


def test_zc_job_failed_inside_a_kept_run_is_named():
    """A run of two jobs, one failed (tests/data/qa6/errs/two_jobs_one_fails.json): the run is fitted with the other
    job's numbers, and the words say so."""
    fit = nm.fit("tests/data/qa6/errs", x="iodepth", y="iops")
    t = fit.explain()
    assert "1 of 6 runs was left out of this fit — iodepth = 8: fio reported error 1 (EPERM" in t
    assert "In 1 of 6 runs (iodepth = 4) a job failed with fio's error 1 (EPERM" in t


def test_zc_cli_failed_keep(capsys, tmp_path):
    path = tmp_path / "t.csv"
    _table(SEQ4K).to_csv(path, index=False)
    assert cli.main(["fit", str(path), "--x", "numjobs", "--failed", "keep"]) == 0
    out = capsys.readouterr().out
    assert "are fitted although fio reported error 11" in out
    assert cli.main(["fit", str(path), "--x", "numjobs"]) == 0
    assert "5 of 7 runs were left out" in capsys.readouterr().out


def test_zc_words_empty_record():
    assert left_out_words({}) == ""


# ---- AA: the stall test against the point's median run ---------------------------------------------------------

def _fig(rate, lat, p50, cpu):
    return {"rate": np.array(rate, float), "lat": np.array(lat, float), "p50": np.array(p50, float),
            "cpu": np.array(cpu, float)}


def test_aa_two_like_runs_are_not_split_by_the_stall_test():
    """Synthetic, AA's numbers: the fastest run is the odd one (CPU ×1.9); the two like slow runs stay together."""
    p = pd.DataFrame({"x": [1.0, 2.0]})
    figs = [_fig([115.73e3, 36.75e3, 49.90e3], [34.3e-6, 108.7e-6, 80.0e-6], [23e-6] * 3, [0.449, 0.191, 0.241]),
            _fig([120e3, 125e3, 118e3], [60e-6, 58e-6, 62e-6], [40e-6] * 3, [0.4, 0.4, 0.4])]
    assert stalled_runs(None, p, figs) is None


def test_aa_a_minority_far_from_the_median_is_still_set_aside():
    """Synthetic, r12 vsync's signature: one run of three at the median's p50 with ×5 its mean latency, CPU a third."""
    p = pd.DataFrame({"x": [1.0, 2.0]})
    figs = [_fig([30e3, 6e3, 32e3], [33e-6, 165e-6, 31e-6], [10e-6] * 3, [0.15, 0.05, 0.16]),
            _fig([31e3, 30e3, 33e3], [32e-6, 33e-6, 30e-6], [10e-6] * 3, [0.15, 0.15, 0.16])]
    st = stalled_runs(None, p, figs)
    assert st is not None and st["left"] == [(1.0, 6e3)] and st["kept"] == 5


def test_aa_loop_case_sets_nothing_aside_and_keeps_every_run():
    fit = fit_case_id(LOOP)
    t = fit.explain()
    assert "×2.32" not in t  # the spread of two of three runs, worded as the point's
    assert "stalled" not in t
    from nvmemodel.fitting.facts import curve_facts

    p = curve_facts(fit, ()).points
    assert [len(v) for v in p["runs_kept"]] == [3, 3, 3, 3, 3]


def test_aa_counter_vsync_still_fires_and_names_the_runs():
    t = fit_case_id(VSYNC).explain()
    # (the two slow runs at 32 are two of its three: a point's majority is not set aside — the review of round 23's
    # fixes, point_runs.STALL_SHARE)
    assert "3 of 18 runs were stalled (6.22 K IOPS at 1, 7.63 K IOPS at 4, 7.50 K IOPS at 8)" in t
    assert "their point's fastest run's" in t


# ---- AC: the onset as the runs allow it ---------------------------------------------------------------------------

def test_ac_loop_onset_range_and_later_step():
    t = fit_case_id(LOOP).explain()
    assert "By the runs themselves the onset is in [2, 3]: the runs at 2 (101.21 K IOPS to 139.35 K IOPS) overlap " \
           "those at 3 (128.92 K IOPS to 156.87 K IOPS)" in t
    assert "every run at 8 is above every run at 4 (+18% by their medians): a level or a slow rise" in t


@pytest.mark.parametrize("case", [SEQ4K, RAND4K, VSYNC])
def test_ac_counter_one_run_a_point_or_no_onset(case):
    assert "By the runs themselves" not in fit_case_id(case).explain()
