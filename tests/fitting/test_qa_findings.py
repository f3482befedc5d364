"""Findings of the session's adversarial QA (real fio 3.33 series in tests/data/fit/adv/, see
tests/data/SOURCES.md): each test reproduces one wrong sentence the fit wrote about those data."""

import json
import pathlib
import re

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.fitting import measured_points

ADV = pathlib.Path(__file__).parents[1] / "data" / "fit" / "adv"


def _fio_little(folder, qd):
    """IOPS × mean latency ÷ iodepth of each fio run at one iodepth, straight from fio's JSON."""
    out = []
    for path in sorted((ADV / folder).glob(f"qd{qd}_r*.json")):
        job = json.loads(path.read_text())["jobs"][0]
        out.append(job["read"]["iops"] * job["read"]["lat_ns"]["mean"] * 1e-9 / qd)
    return out


def test_littles_law_is_checked_per_run_not_on_means_of_noisy_repeats():
    # F1: QD1 repeats differ ~2× in IOPS; every run obeys Little's law (fio: 0.99–1.00) but
    # mean(IOPS) × mean(latency) is 1.14 (E[X]·E[R] ≠ E[X·R])
    per_run = _fio_little("qd", 1) + _fio_little("qd", 2)
    assert all(0.98 < v < 1.01 for v in per_run)
    pts = measured_points(nm.read_results(ADV / "qd"), x="iodepth", y="iops")
    assert np.allclose(pts["little"].head(2), [np.mean(_fio_little("qd", 1)), np.mean(_fio_little("qd", 2))],
                       rtol=1e-6)
    text = nm.fit(nm.read_results(ADV / "qd"), x="iodepth", y="iops").explain()
    m = re.search(r"Little's law check: .*? = ([\d.]+)–([\d.]+)", text)
    assert m and float(m.group(1)) >= 0.98 and float(m.group(2)) <= 1.02, text
    assert "far from 1" not in text and "consistent" in text


def test_littles_law_above_one_is_not_blamed_on_fewer_ios_in_flight():
    # a ratio > 1 means more was in flight than asked — or latency and IOPS disagree; "the queue depth asked
    # for was not the one the device saw (… CPU-bound submitter)" explains only a ratio < 1
    from nvmemodel.fitting.sentences import _little_verdict

    high = _little_verdict(np.array([1.0, 1.3]))
    assert "above 1" in high and "CPU-bound" not in high and "fewer" not in high
    low = _little_verdict(np.array([0.5, 1.0]))
    assert "below 1" in low and "CPU-bound submitter" in low
    both = _little_verdict(np.array([0.5, 1.0, 1.3]))
    assert "below 1" in both and "above 1" in both
    assert "consistent" in _little_verdict(np.array([0.95, 1.02]))


@pytest.mark.parametrize("x", ["outstanding", "numjobs"])
def test_cpu_share_per_job_uses_the_jobs_of_the_run_at_the_maximum(x):
    # F3: null engine, numjobs 1,2,4,8 with group_reporting; fio says usr+sys = 16.7 % per job at numjobs 8
    job = json.loads((ADV / "nj2" / "nj8.json").read_text())["jobs"][0]
    fio_share = (job["usr_cpu"] + job["sys_cpu"]) / 100
    text = nm.fit(nm.read_results(ADV / "nj2"), x=x, y="iops").explain()
    m = re.search(r"the jobs used ([\d.]+) CPUs \(usr\+sys\), (\d+)% of one CPU per job", text)
    assert m, text
    assert abs(int(m.group(2)) / 100 - fio_share) <= 0.006
    assert "the submitting threads are CPU-bound" not in text


def test_a_ceiling_fit_worse_than_a_constant_is_not_chosen_nor_explained():
    # F21 (issue 16 item 3's own example): amdahl fits the noisy QD sweep (R² 0.985), the ceiling model with a
    # free drive rate does not (R² −1.6); it was chosen and its binding/lifting sentences written
    res = nm.fit(nm.read_results(ADV / "qd"), x="iodepth", y="iops", topology=nm.preset("dell-r7525"),
                 free=["drive.rand_read_iops"], drives=1)
    assert not res.chosen[()].startswith("ceiling")
    text = res.explain()
    assert "Not chosen: ceiling (R² = -1.61: worse than a constant)" in res.summary() and "Not chosen" not in text
    assert "Lifting" not in text and "efficiency" not in text.lower().split("not chosen")[0]
    # asked for alone, it is still shown — with the caution and without what it says binds
    only = nm.fit(nm.read_results(ADV / "qd"), x="iodepth", y="iops", topology=nm.preset("dell-r7525"),
                  free=["drive.rand_read_iops"], drives=1, model="ceiling").explain()
    assert "worse than a constant" in only and "binds" not in only.split("Caution")[0] and "Lifting" not in only


def test_a_poor_chosen_model_does_not_make_a_rising_curve_look_flat():
    # F22: 3.00, 5.92, 8.93, 8.99, 8.97, 8.97 K IOPS over 1–6 files (one run each); with a preset the ceiling
    # model (R² 0.23) was chosen and its residual scatter called the 3× rise "does not change"
    res = nm.fit(nm.read_results(ADV / "targets.txt"), x="targets", y="iops", topology=nm.preset("dell-r7525"),
                 free=["drive.rand_read_iops"])
    text = res.explain()
    assert text.startswith("Measured IOPS flattens at 8.96 K IOPS"), text
    assert "does not change" not in text
    # the measured 3.00 K at one file is 155 % of the fitted "ceiling" (F22b): a ceiling below 4 measurements
    # beyond their noise yields to littles (R² 0.9999), and is listed as not chosen
    assert not res.chosen[()].startswith("ceiling")
    assert "Not chosen: ceiling (its ceiling lies below 4 measurements by more than their noise" in res.summary()
    assert "Measured efficiency" not in text and "consistent with the measured" not in text
    # asked for alone it is shown, with no efficiency above 100 %
    only = nm.fit(nm.read_results(ADV / "targets.txt"), x="targets", y="iops", topology=nm.preset("dell-r7525"),
                  free=["drive.rand_read_iops"], model="ceiling").explain()
    assert "Measured efficiency" not in only
    # R² 0.23: no fitted value, binding component or knee is interpreted (QA4 F8/F9: no parameter story below R² 0.5),
    # and the plateau is not attributed to a component at the poor fit's values
    assert "describes little of the variation" in only and "] binds (" not in only and "Knee" not in only
    assert "116%" not in only


def test_three_single_run_points_that_rise_are_not_called_flat():
    # F23: run-sweep's own output, iodepth 1: 19.7 → 33.4 → 36.4 K IOPS over 1–3 drives, one run each
    tbl = nm.read_results(ADV / "sweep1" / "results", path_pattern="{drives}drives/*.json")
    text = nm.fit(tbl, x="drives", y="iops", by="iodepth").explain()
    first = text.split("\n\n")[0]
    assert "does not change" not in first and "No shape is claimed for flat data" not in first
    assert "×1.84" in first and "cannot tell a plateau from noise" in first


def test_runs_of_different_workloads_are_not_averaged_as_repeats_of_one_point():
    # F19: a 70/30 randrw run and a bssplit run at iodepth 8 next to the 4 KiB randread QD sweep became
    # "5 runs" of its iodepth-8 point, silently
    files = [ADV / "mixed" / "c06_rwmix70.json", ADV / "mixed" / "c07_bssplit.json", ADV / "qd"]
    with pytest.raises(nm.ParameterError, match=r"pattern=.*one pattern among the runs of a point.*iodepth=8: "
                                                r".*randrw in 1 run\(s\) \(.*c06_rwmix70.*--by pattern"):
        nm.fit(nm.read_results(files), x="iodepth", y="iops")
    with pytest.raises(nm.ParameterError, match=r"block_size_bytes.*4096 in 3 run\(s\).*20667 in 1 run\(s\) \(.*c07_bssplit"):
        nm.fit(nm.read_results([ADV / "mixed" / "c07_bssplit.json", ADV / "qd"]), x="iodepth", y="iops")
    # numjobs 1, 2, 4 at each iodepth: three workloads, not three repeats
    with pytest.raises(nm.ParameterError, match=r"numjobs=.*at iodepth=1: .*--by numjobs"):
        nm.fit(nm.read_results(ADV / "grid"), x="iodepth", y="iops")
    # split by it, each curve holds one workload; a column that changes with x (numjobs on outstanding) is x's
    res = nm.fit(nm.read_results(ADV / "grid"), x="iodepth", y="iops", by="numjobs")
    assert len(res.chosen) == 3 and set(res.points["n_runs"]) == {1}
    assert len(nm.fit(nm.read_results(ADV / "grid"), x="outstanding", y="iops").points) > 1


def test_an_x_holding_zero_is_one_clear_error_not_an_lmfit_traceback(capsys):
    # F32: `fit --x run` (run counts from 0) crashed inside lmfit ("The model function generated NaN values");
    # run is bookkeeping (F33's check), and any load label holding 0 is one clear error
    from nvmemodel.cli import main

    tbl = nm.read_results(ADV / "targets.txt")
    tbl["targets"] = tbl["targets"] - 1  # 0…5: a label counted from 0
    with pytest.raises(nm.ParameterError, match=r"x='targets = 0'.*x > 0 at every point.*targets.txt has targets = 0"):
        nm.fit(tbl, x="targets", y="iops")
    assert main(["fit", str(ADV / "targets.txt"), "--x", "run", "--y", "iops"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: x='run'") and "Traceback" not in err and err.count("\n") == 1


def test_a_two_level_step_is_named_with_both_levels_and_gets_no_single_regime_story():
    # F2: rate_iops=5000 for iodepth ≤ 8, 15000 above: 4950–4995 | 14808–14985 IOPS; mva was written as
    # "follows Little's law up to about 14.4 … latency floor 952 µs" (fio: 71.5 µs at QD1)
    text = nm.fit(nm.read_results(ADV / "step"), x="iodepth", y="iops").explain()
    assert text.startswith("Measured IOPS shows two levels: 4.98 K IOPS (sd 21 IOPS over 4 points of one run each at iodepth = 1–8), "
                           "then 14.91 K IOPS (sd 87 IOPS over 4 points of one run each at iodepth = 16–128)"), text
    assert "between iodepth = 8 and 16: two regimes?" in text
    assert "follows Little's law" not in text and "latency floor" not in text and "stays at" not in text


def test_a_fitted_latency_floor_that_fio_contradicts_is_not_called_the_floor():
    # F2(b): the model's r0 was stated as "the latency floor" although fio's own latency at QD1 said otherwise.
    # Synthetic (exact Little's law with r0 = 100 µs and a 40 K IOPS cap), fio's QD1 latency given two ways
    from .conftest import table

    qd = [1, 2, 4, 8, 16, 32, 64]
    iops = [min(n / 100e-6, 40e3) for n in qd]
    # round 8: the curve saturates (a level the facts state), so the model's r0 is not said at all — never as a floor
    for lat1 in (101e-6, 300e-6):
        tbl = table("iodepth", qd, iops)
        tbl["lat_mean_s"] = [lat1 if n == 1 else n / v for n, v in zip(qd, iops)]
        text = nm.fit(tbl, x="iodepth", y="iops", model="littles").explain()
        # (QD4 reaches the 40 K cap at the unloaded 100 µs: the knee is placed between 4 and 8 since round 19 TB)
        assert "saturated between iodepth = 4 and 8" in text and "latency floor" not in text and "r0" not in text, text


def test_flat_iops_over_block_sizes_are_a_command_rate_limit_not_a_fall():
    # F31: rate_iops=500 at 4 KiB–1 MiB: IOPS 500 everywhere; the first sentence said they "fall … as blocks grow"
    text = nm.fit(nm.read_results(ADV / "bsrate"), x="block_size_bytes", y="iops").explain()
    assert text.startswith("Measured IOPS stay at 498 IOPS–500 IOPS from 4 KiB to 1 MiB"), text
    assert "fall" not in text.split(".")[0] and "no bandwidth ceiling is shown up to that rate" in text


@pytest.mark.parametrize("folder,kw", [("bsrate", {}), ("bsnull", {})])
def test_no_value_or_interval_from_a_parameter_the_data_do_not_determine(folder, kw):
    # F14/F31: bw_max "not identifiable … held at the fitted value", yet "a bandwidth ceiling of 7.92e+11 GB/s …
    # crossing at 2.01e+08 MiB (95 % CI 1.87e+08–2.17e+08 MiB)" (bsrate: a zero-width interval). bsnull is the null
    # engine: since QA s27 I10 it is not held against a topology (no device was measured), so it runs without one
    if "topology" in kw:
        kw = {"topology": nm.preset(kw["topology"]), "drives": 1}
    res = nm.fit(nm.read_results(ADV / folder), x="block_size_bytes", y="bytes_per_s", **kw)
    f = res.fit_of()
    assert f.held.get("bw_max") == "unidentified"
    text = res.explain()
    # said so where the fit is read; a fit that misses a point by > 25 % is not read at all (issue 28)
    assert "no bandwidth ceiling within the sizes measured" in text or "closely enough" in text \
        or "an IOPS cap of 500 IOPS" in text or "the data do not reach a ceiling" in text, text
    # (round 8: a measured cap is the level; no model sentence; round 19 TD: a still-rising series — bsnull's null
    # engine, +416 % at the last size — says so and no caution about a model nobody reads)
    assert "crossing at" not in text and "bandwidth ceiling of" not in text
    d = res.derived()
    cross = d[d["name"] == "crossover_bytes"]
    assert cross["ci_low"].isna().all() and cross["ci_high"].isna().all()


def test_a_model_limit_whose_interval_misses_the_measured_plateau_is_not_called_the_limit():
    # F4: rate_iops=20000 (QD 8–32: 19.73–19.98 K); USL: "limits throughput to 22.73 K IOPS (95 % CI 20.86 K–
    # 24.90 K) however far iodepth grows" — an interval above every measurement of the plateau
    text = nm.fit(nm.read_results(ADV / "rate"), x="iodepth", y="iops", model="usl").explain()
    assert "however far" not in text
    # blind4: the plateau is fio's pace, so no model parameter is read from it at all (was "gives a limit of 22.xx K
    # IOPS …, above the measured plateau …: the model does not describe the plateau")
    # round 8: the pacing fact says it ("a limit set in fio"); beside that level no model sentence is said
    assert "--rate_iops=20000 per job" in text and "a limit set in fio" in text
    assert "usl fit" not in text and "σ" not in text
    assert not re.search(r"22\.\d\d K IOPS", text), text


def test_the_contention_limit_sentence_names_its_subject_once():
    # F25 (grammar): "with contention alone the curve bends the curve towards 126.92 K IOPS"
    from nvmemodel.fitting.claims import _limit_words
    from nvmemodel.fitting.evidence import Evidence

    ev = Evidence(x=np.array([1.0, 2, 4]), y=np.array([1.0, 1.5, 1.8]), se=np.full(3, 0.01), noise_source="repeats",
                  rising=None, falls=None, plateau=None, maximum={"x": 4.0, "y": 1.8, "spread": np.nan, "runs": 1})

    class R:
        y_unit, x = "1/s", "numjobs"

    words = _limit_words(R, ev, 2.0, np.nan, np.nan, "the curve")
    # (round 8: a limit above every measurement is not printed)
    assert words == "the curve has a limit above every measurement: no measurement reaches it, so it is not stated", words


def test_repeats_of_one_bssplit_job_are_one_workload():
    # F34 (a regression of the F19 check): the measured mean I/O size of a bssplit job moves between repeats
    # (20.7–21.2 KiB for 4k/50:64k/50); three repeats of one job are one workload
    res = nm.fit(nm.read_results(ADV / "bss"), x="iodepth", y="iops")
    assert list(res.points["n_runs"]) == [3, 3]
    # a genuinely different block size (4 KiB vs the 20.7 KiB mean) is still refused (F19)
    with pytest.raises(nm.ParameterError, match="block_size_bytes"):
        nm.fit(nm.read_results([ADV / "mixed" / "c07_bssplit.json", ADV / "qd"]), x="iodepth", y="iops")


def test_two_loads_give_a_ratio_not_a_shape():
    # F35: randrw 70/30 at iodepth 1 and 2 (3 repeats each): ×1.51 for ×2 load was "Scaling is linear … no bend"
    text = nm.fit(nm.read_results(ADV / "rwn"), x="iodepth", y="iops").explain()
    assert "Scaling is linear" not in text and "no bend" not in text
    assert "With two iodepth values no shape is claimed: ×2 the iodepth gave ×1.51 the IOPS" in text
    # nor a shape the line "misses" (bss/: 32.7 → 42.0 K IOPS at iodepth 4 → 8)
    bss = nm.fit(nm.read_results(ADV / "bss"), x="iodepth", y="iops").explain()
    assert "misses the data's shape" not in bss and "×2 the iodepth gave ×1.29 the IOPS" in bss


@pytest.mark.parametrize("x", ["io_bytes", "cpu_usr", "iops"])
def test_a_result_column_is_not_a_load(x):
    # F33: `fit --x io_bytes` ran MVA up to a population of 3.7e7 (killed after 10 min); `--x cpu_usr` crashed
    with pytest.raises(nm.ParameterError, match=rf"x='{x}'.*is a result or bookkeeping column of each run"):
        nm.fit(nm.read_results(ADV / "targets.txt"), x=x, y="iops")


def test_mva_saturates_without_iterating_to_a_huge_population():
    # F33: exact MVA iterated to N = x; beyond saturation every population gives x_max (to 1e-10)
    from nvmemodel.fitting.shapes import mva

    y = mva(np.array([1.0, 10.0, 1e12]), 1e5, 1e-4)  # a population of 1e12 would never finish
    assert y[0] == pytest.approx(1e4) and y[2] == pytest.approx(1e5, rel=1e-9)
    # the exact recursion below saturation is unchanged: X(2) = 2 / (D(1 + X(1)·D) + Z)
    d, z = 1e-5, 1e-4 - 1e-5
    assert mva(np.array([2.0]), 1e5, 1e-4)[0] == pytest.approx(2 / (d * (1 + 1e4 * d) + z), rel=1e-12)


def test_an_assumed_core_count_is_said_to_be_assumed():
    # F15: "0.52 % of the host's 32 cores" for a host whose cores discover itself called assumed. dell-r7525's
    # CPU is assumed too (the paper does not name it); the SR850's 4 × Xeon 8176 are named by Lenovo
    tbl = nm.read_results(ADV / "qd")
    assumed = nm.fit(tbl, x="iodepth", y="iops", topology=nm.preset("dell-r7525"), drives=1).explain()
    assert "0.13 % of the 128 cores assumed for this host" in assumed and "host's 128 cores" not in assumed
    named = nm.fit(tbl, x="iodepth", y="iops", topology=nm.preset("lenovo-sr850-direct"), drives=1).explain()
    assert "of the host's 112 cores" in named and "assumed for this host" not in named


def test_littles_form_along_targets_with_a_fixed_queue_is_not_called_littles_law():
    # F36: iodepth 4 × 1 job at every target count; "Throughput follows Little's law up to about 3.02 targets"
    text = nm.fit(nm.read_results(ADV / "targets.txt"), x="targets", y="iops").explain()
    assert "follows Little's law" not in text
    # round 8: the level from 3 targets is the facts' (flattens at 8.96 K IOPS): no model knee beside it
    assert "flattens at 8.96 K IOPS" in text and "3.02 targets" not in text
    # along iodepth the queue grows with x: the law is named (the QA's noisy QD sweep)
    qd = nm.fit(nm.read_results(ADV / "qd"), x="iodepth", y="iops", model="mva").explain()
    assert "Little's law" in qd and "at every point: this is the shape" not in qd


def test_a_bootstrap_asked_for_is_run_for_the_chosen_model_only():
    # F29: `--ci bootstrap` bootstrapped every candidate model (8.6–10.7 s on 7 points)
    res = nm.fit(nm.read_results(ADV / "qd"), x="iodepth", y="iops", ci="bootstrap")
    chosen = res.chosen[()]
    assert res.fits[()][chosen].ci_method == "bootstrap"
    assert all(f.ci_method != "bootstrap" for m, f in res.fits[()].items() if m != chosen)


def test_the_fit_figure_of_a_step_draws_both_levels_and_shades_the_second_regime(tmp_path):
    # F25 (fit figure): no regime shading for the step; L5: the y label says the quantity and its unit once
    import matplotlib

    matplotlib.use("Agg")
    res = nm.fit(nm.read_results(ADV / "step"), x="iodepth", y="iops")
    fig = res.plot(tmp_path / "step.png")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "measured lower level 4.98 K IOPS" in labels and "measured upper level 14.91 K IOPS" in labels
    assert "second regime (a step between 8 and 16)" in labels
    assert not any(t.startswith("measured plateau") for t in labels)
    read = nm.fit(nm.read_results(ADV / "qd"), x="iodepth", y="read_iops").plot(tmp_path / "qd.png")
    assert read.axes[0].get_ylabel() == "read IOPS (K IOPS)"


def test_a_point_that_only_blurs_into_the_plateau_through_its_own_spread_is_not_on_it():
    # F28: rate_iops=20000; QD2's runs are 19.9, 10.7, 17.2 K (mean 15.9 K) — within "noise" only through their own
    # spread; the plateau was "18.94 K IOPS (sd 2.41 K over 15 runs at iodepth = 2–32)"
    text = nm.fit(nm.read_results(ADV / "rate"), x="iodepth", y="iops").explain()
    m = re.match(r"Measured IOPS flattens at ([\d.]+) K IOPS \(sd (\d+) IOPS over (\d+) runs at iodepth = 4–32\)", text)
    assert m, text
    assert 19.5 < float(m.group(1)) < 19.9 and int(m.group(2)) < 1000 and m.group(3) == "12"


def test_a_rise_tested_against_an_unknown_noise_says_so():
    # (seen with F23) iodepth 8 of run-sweep's output: 3 single runs; "+6 %, beyond the scatter about the fit" where
    # no fit with residual degrees of freedom gave a scatter (the 0.5 % floor was the noise)
    tbl = nm.read_results(ADV / "sweep1" / "results", path_pattern="{drives}drives/*.json")
    text = nm.fit(tbl, x="drives", y="iops", by="iodepth").explain().split("\n\n")[1]
    assert text.startswith("iodepth=8: Measured IOPS still rises")
    # (round 20 RA: the words say what the series holds — one run a point, no fit with residual degrees of freedom)
    assert "beyond an assumed noise (one run a point, and no fit to estimate it from" in text \
        and "scatter about the fit" not in text
