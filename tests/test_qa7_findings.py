"""Findings of the seventh QA pass (trust: what the program says about measured data), each on the real fio runs
it was found with (``tests/data/qa7/``: fio 3.33 on a 2-vCPU KVM guest; every command in its commands.txt, the known
truth of each series — a rate cap, a per-job rate, the null engine's CPU limit — in its README.md)."""

import pathlib
import re
import warnings

import numpy as np

import pytest

import nvmemodel as nm

QA7 = pathlib.Path(__file__).parent / "data" / "qa7"


def _explain(folder, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # what ingest warns of is tested where it matters, not here
        return nm.fit(str(QA7 / folder), **kw)


def test_i1_rate_capped_latency_did_not_grow_beyond_the_knee():
    """I1: ``--rate_iops=20000`` caps IOPS from iodepth 2; fio's mean latency *fell* from 82.3 µs (iodepth 2) to
    57.6 µs (iodepth 32) — fio's own ``lat_ns.mean`` in rateqd/qd2.json and qd32.json. The explanation said "Beyond
    the knee more outstanding I/O only adds queueing latency": false for these runs (Little's law: the extra I/O was
    not in flight). It must say what fio measured instead."""
    # Since issue 28's blind4 class W no model (and so no knee) is read from points at fio's pace: what fio measured is
    # said by the pacing sentence and the Little's-law check (the extra I/O was not in flight) instead.
    r = _explain("rateqd", x="iodepth", y="iops")
    text = r.explain()
    assert "only adds queueing latency" not in text
    assert ("at iodepth = 2, 4, 8, 16, 32 the measured IOPS is that rate (99.9%–100.0% of 20.00 K IOPS) — a limit set "
            "in fio") in text
    assert "fewer I/Os were in flight than asked for" in text


def test_i2_null_engine_iodepth_changed_the_rate_though_not_a_load():
    """I2: the null engine ran every I/O at depth 1 (fio's ``iodepth_level`` 100 % at 1 in every nullqd file), so
    iodepth is no load — but IOPS went from 4.47 M (iodepth 1) to 2.64 M (iodepth 256), fio's ``read.iops``. The
    explanation said "iodepth had no effect", which the measurements contradict by 41 %."""
    text = _explain("nullqd", x="iodepth", y="iops").explain()
    assert "had no effect" not in text
    assert "iodepth is not a load here: fio ran 100 % of I/O at depth 1 in every run" in text
    assert "4.47 M IOPS at iodepth = 1, 2.64 M IOPS at 256 (-41%)" in text


def test_i2_flat_synchronous_series_still_had_no_effect():
    """The other side of I2: a psync iodepth sweep whose level is flat (within 5 % with one run per point) keeps
    "iodepth had no effect" (docs/fitting.md's example)."""
    import pandas as pd

    runs = pd.DataFrame({"source_path": [f"qd{q}.json" for q in (1, 2, 4, 8)], "iodepth": [1, 2, 4, 8],
                         "numjobs": 1, "ioengine": "psync", "iops": [15.9e3, 16.2e3, 15.7e3, 16.0e3]})
    assert "iodepth had no effect: psync is synchronous" in nm.fit(runs, x="iodepth", y="iops").explain()


def test_i3_rate_limited_jobs_are_not_called_cpu_bound():
    """I3: ``--rate_iops=50000`` per job on the null engine: 49.95 K IOPS per job at every numjobs (fio ``read.iops``
    49,951 / 99,802 / 199,798 / 393,461). fio counts the one job 99.9 % busy (``usr_cpu``) and each of four jobs
    39.7 % busy for the same rate per job. The explanation said "CPU-bound there … more jobs lifted that limit": no
    limit was lifted (the series is linear by construction). It must not call the busy CPU the limit."""
    text = _explain("ratenj", x="numjobs", y="iops").explain()
    assert "CPU-bound there" not in text and "lifted that limit" not in text
    assert ("at numjobs = 1 the job used 99.9 % of a CPU for 49.95 K IOPS per job, yet at numjobs = 4 each job made "
            "49.95 K IOPS with 39.7 %") in text
    assert "the busy CPU did not limit the rate there" in text


def test_i3_null_engine_cpu_limit_is_still_named():
    """The other side of I3: with no rate limit the null engine's one job is CPU-bound (95.7 %, 4.32 M IOPS) and two
    jobs on the 2 vCPUs nearly double it (8.33 M), three add little — "CPU-bound there" stays."""
    text = _explain("nullnj", x="numjobs", y="iops").explain()
    # (with the onset at 3 jobs, the busy points below it are listed together: 1 job at 95.7 %, 2 at 90.8 % each)
    assert "at numjobs = 1 the job used 95.7 % of a CPU" in text and "CPU-bound there" in text
    assert "null engine does no I/O" in text  # issue 28: its rate is the CPU's
    assert "did not limit the rate" not in text


def test_i4_bandwidth_capped_series_is_fitted_and_read_in_mib():
    """I4: ``--rate=20m`` holds 128 KiB reads at fio's ``read.bw_bytes`` = 20,961,039 B/s at iodepth 1, 4 and 16
    (every run at depth 1). ``nvmemodel fit`` refused the series: 'model=[…] is not allowed: … constant:
    y='constant (2.0961e+07)' is not allowed: expected measurements that vary along x' — the constant model is exactly
    what describes a series x does not change. And "21 MB/s" alone hid the 20 MiB/s the user set."""
    r = _explain("ratebw", x="iodepth", y="bytes_per_s")
    assert r.chosen[()] == "constant"
    level = r.params.set_index("name").loc["level", "value"]
    assert level == pytest.approx(20_961_039)  # fio's bw_bytes, all three runs
    text = r.explain()
    assert "iodepth had no effect" in text
    assert "21 MB/s (20 MiB/s)" in text


def test_i4_a_constant_series_still_refuses_a_shape():
    """A model with a shape (Little's law) still refuses a series with no variation: it has nothing to fit."""
    from nvmemodel.errors import ParameterError
    import pandas as pd

    runs = pd.DataFrame({"source_path": [f"qd{q}.json" for q in (1, 2, 4)], "iodepth": [1, 2, 4],
                         "bw_bytes_per_s": [2e7, 2e7, 2e7]})
    with pytest.raises(ParameterError, match="measurements that vary along x"):
        nm.fit(runs, x="iodepth", y="bytes_per_s", model="littles")


def test_i2_repeated_null_engine_runs_change_level_beyond_their_noise():
    """I2 with repeats (nullqd_rep/, three runs per iodepth, measured for this): fio's ``read.iops`` averages 1.90 M at
    iodepth 1 and 1.13 M at 4, every I/O at depth 1. Beyond the repeat noise, so the explanation says something other
    than the queue changed — never "no effect"."""
    text = _explain("nullqd_rep", x="iodepth", y="iops").explain()
    assert "had no effect" not in text
    assert ("Yet the measurements are not one level beyond their noise: 1.90 M IOPS at iodepth = 1, 1.13 M IOPS at 4 "
            "(-41%)") in text


def test_i2_noisy_repeats_of_one_level_are_not_a_change():
    """Six psync points of two runs each spread 12.3–17.9 K IOPS (tests/data/qa4/psyncqd): max against min of six noisy
    means exceeds twice their noise, but χ² over all six does not reject one level — "no effect" stays."""
    text = nm.fit(str(QA7.parent / "qa4" / "psyncqd"), x="iodepth", y="iops").explain()
    assert "iodepth had no effect: psync is synchronous" in text


@pytest.mark.filterwarnings("ignore:.*tabulated as completion latency.*:nvmemodel.errors.IngestWarning")  # issue 30: terse
# cannot say total vs completion percentiles; ingest says so (tests/ingest/test_fio_versions.py holds that warning)
def test_i7_charts_say_which_runs_they_cannot_draw():
    """I7: ``--lat_percentiles=1`` JSON runs carry total-latency percentiles (fio ``lat_ns.percentile``, no
    ``clat_ns.percentile``), so ingest has no completion percentiles for them; ``--gtod_reduce=1`` runs measured no
    latency at all (fio's latency fields are 0, ingest NaN). The percentile chart dropped lat_qd1/lat_qd8 and the
    IOPS chart dropped its latency axis and Little's-law line without a word. The charts must say so."""
    import matplotlib.pyplot as plt
    from nvmemodel.plots.results import plot_percentiles, plot_results

    lat = nm.read_results(QA7 / "latpct")
    with pytest.warns(nm.errors.IngestWarning, match="lat_qd8.terse"):  # terse output has no iodepth: left out
        ax = plot_percentiles(lat, x="iodepth")
    assert ax.unmeasured == ("2 of 5 runs without completion-latency percentiles: lat_qd1.json, lat_qd8.json "
                             "(not drawn)")
    assert any(ax.unmeasured in t.get_text() for t in ax.texts)
    plt.close(ax.figure)
    with pytest.warns(nm.errors.IngestWarning, match="gtod_reduce=1"):  # ingest says it too (INGEST-3, be155f7)
        gtod = nm.read_results(QA7 / "gtod")
    ax = plot_results(gtod, x="iodepth")
    assert ax.latency_axis is None
    assert any("no run has a measured latency (no latency axis or Little's-law line for them)" in t.get_text()
               for t in ax.texts)
    plt.close(ax.figure)
    ax = plot_results(nm.read_results(QA7 / "rateqd"), x="iodepth")  # latency measured: no note
    assert not any("measured latency" in t.get_text() for t in ax.texts)
    plt.close(ax.figure)


def _legend_labels(fig):
    return [t for ax in fig.axes for t in ax.get_legend_handles_labels()[1]]


def test_i8_fit_figure_calls_an_unreached_cap_an_extrapolation():
    """I8: the per-job rate limit makes ratenj linear (49.95 K → 393.46 K IOPS for 1 → 8 jobs, no ceiling); the
    explanation says Little's law's cap "is an extrapolation, not a measured ceiling", but the figure's legend said
    only "cap x_max = 393 K IOPS (fitted)". A level the data state (rateqd: 19.99 K from iodepth 2) draws no fitted
    cap at all (round 8's rule, as the text)."""
    import matplotlib.pyplot as plt
    from nvmemodel.plots.fit import plot_fit

    fig = plot_fit(_explain("ratenj", x="numjobs", y="iops"))
    # the cap is fitted at the last point (393.46 K): reached there, so not "not reached" (DOCSQA s27), and still
    # not a ceiling the data show
    assert "cap x_max = 393 K IOPS (fitted; the data rise to it: not a measured ceiling)" in _legend_labels(fig)
    plt.close(fig)
    # rateqd levels at 19.99 K from iodepth 2: a level the facts state, so neither the text nor the figure reads a
    # fitted cap there (round 8's rule; plots/fit.py draws the measured level instead)
    fig = plot_fit(_explain("rateqd", x="iodepth", y="iops"))
    assert not any(lbl.startswith("cap x_max") for lbl in _legend_labels(fig))
    plt.close(fig)


def test_i5_little_check_names_time_between_ios_among_the_causes():
    """I5: ``--thinktime=500`` (think/) and ``--fsync=1`` (fsync/) keep a job out of I/O most of the time: fio's IOPS ×
    mean latency ÷ outstanding I/O is 0.16–0.22 and 0.01–0.02. The explanation's list of causes ("submission
    batching, a CPU-bound submitter, a rate limit or a per-job limit") named neither; the truth of these runs must be
    among the causes it names."""
    text = _explain("think", x="numjobs", y="iops").explain()
    assert "fewer I/Os were in flight than asked for (time a job spends between I/Os — --thinktime" in text, text
    # (round 28 JC: a cause the options exclude is not listed — these runs set no fsync)
    assert "an fsync after each write" not in text, text
    # fsync/: since round 21 (VA) the sync time fio reports apart is counted, and names the cause itself
    text = _explain("fsync", x="numjobs", y="iops").explain()
    assert re.search(r"fewer I/Os were in flight than asked for, and fio's sync figures show why — each job spent "
                     r"9\d %–9\d % of its time inside fsync \(after every write\)", text), text


def test_i6_one_direction_of_unified_reporting_runs_is_said_not_silently_dropped():
    """I6: three of unified/'s four runs were made with ``--unified_rw_reporting=mixed`` (fio's JSON has one ``mixed``
    section and no ``read``); ``fit --y read_iops`` left them out without a word and then refused with "x='iodepth = 4
    only' … at least two different x values" — true of what was left, silent on why."""
    from nvmemodel.errors import ParameterError
    from nvmemodel.fitting.curves import measured_points

    with pytest.raises(ParameterError, match=r"3 runs report reads and writes as one 'mixed' direction \(fio's "
                                             r"unified_rw_reporting=mixed\) and have no read rows, so they are left "
                                             r"out \(mixed_qd1.json, mixed_qd16.json, mixed_qd4.json"), \
            pytest.warns(UserWarning, match="3 runs report reads and writes"):
        nm.fit(str(QA7 / "unified"), x="iodepth", y="read_iops")
    table = nm.read_results(QA7 / "unified")
    with pytest.warns(UserWarning, match="y='read_iops': 3 runs report reads and writes as one 'mixed'"):
        pts = measured_points(table, x="iodepth", y="read_iops")
    assert pts["y"].tolist() == pytest.approx([26697.302697])  # both_qd4.json's read.iops, the only read rows
    pts = measured_points(table, x="iodepth", y="iops")  # every run counts for the total: no warning
    assert len(pts) == 3


def test_i9_a_knee_between_two_measured_loads_gets_no_zero_width_interval():
    """I9: rateqd's knee is where the rate cap meets Little's law with fio's 78.9 µs: between iodepth 1 (12.58 K IOPS)
    and 2 (19.99 K, capped) with nothing measured between. The explanation said "up to about 1.59 iodepth (95 % CI
    1.59–1.59)": an interval of the parameters' noise (the capped runs agree to 0.5 IOPS) read as the knee's place.
    Where the interval lies between two neighbouring measured loads, the explanation says that instead."""
    # Since issue 28's blind4 class W the knee of a curve fio paced is not read at all (a pace has no knee): neither
    # the zero-width interval nor any knee place is said, and the pace is named as what set the rate.
    text = _explain("rateqd", x="iodepth", y="iops").explain()
    assert "(95 % CI 1.59–1.59)" not in text and "1.59 iodepth" not in text
    # (round 8: the level is the facts' — fio's pace, said by the pacing fact — so no model sentence at all)
    assert "fio was told to pace these runs" in text and "knee" not in text


def test_i10_null_engine_runs_are_not_compared_with_a_topology():
    """I10: ``fit nullnj --preset dell-r7525`` said "FALSIFIED: at numjobs = 3 (and 4 more point(s)) the measurement
    8.99 M IOPS is 519.7% above the model's ceiling 1.45 M IOPS (drive binds …) — an assumption of the model is wrong
    there", and ``plot --preset`` drew the measurements 6× above a 'drive' ceiling. fio's null engine (``job options``
    ioengine=null) moves no data: no drive was measured, so nothing about the model is falsified. Both refuse, naming
    the runs."""
    from nvmemodel.errors import ParameterError
    from nvmemodel.plots.results import plot_results

    topo = nm.preset("dell-r7525")
    with pytest.raises(ParameterError, match=r"topology='dell-r7525' is not allowed: expected runs whose I/O reached a "
                                             r"device for its ceilings: 5 run\(s\) used fio's null engine"):
        nm.fit(str(QA7 / "nullnj"), x="numjobs", y="iops", topology=topo)
    with pytest.raises(ParameterError, match="used fio's null engine, which moves no data"):
        plot_results(nm.read_results(QA7 / "nullnj"), x="numjobs", topology=topo)
    import matplotlib.pyplot as plt

    plt.close("all")


def test_i11_runs_fio_timed_under_half_a_second_are_named():
    """I11: sizebound/ reads 16 MiB per run without --time_based: fio's ``read.runtime`` is 420, 82 and 45 ms at
    iodepth 1, 4, 16. The explanation read a ×5.12 step for ×4 iodepth from them ("the device was not in the same
    state …") without a word on how short they were. Runs of 1 s (rateqd/) get no such caution."""
    text = _explain("sizebound", x="iodepth", y="iops").explain()
    assert ("Caution: fio ran the runs at iodepth = 1, 4, 16 for less than 0.5 s (the shortest 45 ms, at iodepth = 16)"
            in text)
    assert "less than 0.5 s" not in _explain("rateqd", x="iodepth", y="iops").explain()


def test_i12_measurements_are_not_squashed_under_a_littles_law_line():
    """I12: ``plot ratebw --y bw``: the y axis was scaled to the Little's-law line (iodepth × jobs ÷ latency × block:
    up to 12.9 GB/s) while fio measured 20,961,039 B/s — the measurement lay flat on the x axis, under ticks
    '1.2e+04 MB/s'. The axis now fits the measurements; the line is cut at the top and its label says how far
    above it goes. rateqd: the same (×27.8)."""
    import matplotlib.pyplot as plt
    from nvmemodel.plots.results import plot_results

    ax = plot_results(nm.read_results(QA7 / "ratebw"), x="iodepth", y="bw_bytes_per_s")
    assert ax.get_ylim()[1] == pytest.approx(1.08 * 20_961_039)
    labels = ax.get_legend_handles_labels()[1]
    assert any(t.startswith("Little's law check") and "(up to ×614 the measured: cut at the top)" in t for t in labels)
    plt.close(ax.figure)
    ax = plot_results(nm.read_results(QA7 / "ramp"), x="iodepth")  # in flight as asked: the line stays in view
    little = ax.summary["little"].max()
    assert ax.get_ylim()[1] >= little and not any("cut at the top" in t for t in ax.get_legend_handles_labels()[1])
    plt.close(ax.figure)


def test_o5_one_value_is_not_called_swept():
    """O5: the status/ file holds one final report at iodepth 4; the chart's line said "iodepth 4 (swept)"."""
    from nvmemodel.plots.results import provenance

    assert "iodepth 4 × numjobs 1" in provenance(nm.read_results(QA7 / "status"), x="iodepth")
    assert "iodepth 1–32 (swept)" in provenance(nm.read_results(QA7 / "rateqd"), x="iodepth")


def test_o1_crossover_interval_has_no_zero_byte_end():
    """O1: stonewall/bs_sweep.json (four stonewalled groups, 4 KiB–256 KiB sequential reads): "crossing at a block
    size of 39.3 KiB (95 % CI 0 B–134 KiB)" — the 0 B is parameter draws clipped at bw_max's bound, not a size."""
    text = _explain("stonewall/bs_sweep.json", x="block_size_bytes", y="iops").explain()
    assert "0 B–" not in text
    # issue 28: bandwidth still rises at the largest block (+42 % from 64 to 256 KiB), so the bandwidth ceiling the
    # crossing depends on is not measured, and the crossing gets no interval at all
    assert "bandwidth still rises at the largest block (+42% from 64 KiB to 256 KiB)" in text, text
    assert "crossing at a block size of 39.3 KiB." in text and "(95 % CI up to 134 KiB" not in text, text


@pytest.mark.filterwarnings("ignore:.*tabulated as completion latency.*:nvmemodel.errors.IngestWarning")  # issue 30: terse
# cannot say total vs completion percentiles; ingest says so (tests/ingest/test_fio_versions.py holds that warning)
def test_o4_percentile_chart_says_each_warning_once():
    """O4: the percentile chart summarises each percentile on its own, and said ingest's warning about the terse file
    without an iodepth once per percentile (three times)."""
    from nvmemodel.plots.results import plot_percentiles
    import matplotlib.pyplot as plt

    lat = nm.read_results(QA7 / "latpct")
    with pytest.warns(nm.errors.IngestWarning) as record:
        ax = plot_percentiles(lat, x="iodepth")
    assert sum("lat_qd8.terse" in str(w.message) and "percentiles of" not in str(w.message) for w in record) == 1
    plt.close(ax.figure)


def test_i13_usl_does_not_split_the_loss_when_kappa_may_be_zero():
    """I13: USL asked for on nullnj (the null engine on 2 vCPUs: 4.32 M → 8.33 M → ~8.7 M IOPS): κ's 95 % interval
    includes 0 ("no peak within the data"), yet the explanation said "at the largest x, 50% of the lost throughput is
    contention, 50% coherency" — a split the data cannot make when κ may be 0."""
    text = _explain("nullnj", x="numjobs", y="iops", model="usl").explain()
    assert "coherency;" not in text and "% of the lost throughput" not in text
    # where the fit is read, κ's interval is said; this one (R² 0.89) is not read at all (issue 28), and since round 8
    # a level the facts state (saturated from numjobs = 3) gets no model sentence either
    assert ("κ's 95 % interval includes 0" in text
            and "the loss cannot be split between contention and coherency (κ may be 0)" in text) \
        or "does not describe these points closely enough" in text or "saturated from numjobs = 3" in text, text
    assert "σ" not in text and "κ" not in text


def test_o6_per_io_byte_bandwidth_ceiling_is_in_view():
    """O6: the block-size fit of stonewall/bs_sweep.json (2.98 GB/s at 256 KiB) listed "bandwidth ceiling 3.61 GB/s
    (fitted)" in its legend but drew it above the axes (top ≈ 3.45 GB/s). A flat ceiling within 2× the data is kept
    in view, as a Little's-law cap is."""
    import matplotlib.pyplot as plt
    from nvmemodel.plots.fit import plot_fit

    r = _explain("stonewall/bs_sweep.json", x="block_size_bytes", y="bytes_per_s")
    bm = r.fits[()]["per_io_byte"].values["bw_max"]
    fig = plot_fit(r)
    assert fig.axes[0].get_ylim()[1] * 1e9 > bm  # the axis is in GB/s
    plt.close(fig)


def test_i14_an_exact_constant_series_is_worded_as_exact():
    """I14: the --rate=20m series (fio's read.bw_bytes 20,961,039 at all three iodepths), fitted with ci="profile", was
    said to have "the likelihood … flat in level" — it is the opposite: met exactly, no residual variance to profile —
    and its level was written as a range "21 MB/s (20 MiB/s)–21 MB/s (20 MiB/s)"."""
    r = _explain("ratebw", x="iodepth", y="bytes_per_s", ci="profile")
    text = r.explain()
    assert "flat in level" not in text
    # how the interval was computed is summary()'s since round 7 (part 1 CH: notes on parameters out of explain())
    assert "the model meets every point exactly: there is no residual variance to profile" in r.summary()
    assert "the real noise is not known): 21 MB/s (20 MiB/s) at every point." in text


@pytest.mark.filterwarnings("ignore:.*tabulated as completion latency.*:nvmemodel.errors.IngestWarning")  # issue 30: terse
# cannot say total vs completion percentiles; ingest says so (tests/ingest/test_fio_versions.py holds that warning)
def test_i15_total_latency_percentiles_are_fitted_and_named_where_completion_ones_are_missing():
    """I15: ``--lat_percentiles=1`` runs carry total-latency percentiles (ingest's lat_p*_s since INGEST-2: lat_qd1
    96.8 µs, lat_qd8 2.18 ms = fio's ``read.lat_ns.percentile["99.000000"]`` 96,768 / 2,179,072 ns). ``fit --y
    clat_p99_s`` on the folder said only "missing in lat_qd1.json"; y='lat_p99_s' was not accepted. And a latency fit
    said "fio's CPU accounting at the maximum (iodepth = 1)" — the slowest point, not a load."""
    from nvmemodel.errors import ParameterError

    with pytest.raises(ParameterError, match=r"missing in .*lat_qd1.json; those 2 runs have lat_p99_s instead \(fio "
                                             r"measured total-latency percentiles there: y='lat_p99_s' fits them\)"):
        nm.fit(str(QA7 / "latpct"), x="iodepth", y="clat_p99_s")
    r = nm.fit([str(QA7 / "latpct" / f) for f in ("lat_qd1.json", "lat_qd8.json")], x="iodepth", y="lat_p99_s")
    assert r.points["y"].tolist() == pytest.approx([96_768e-9, 2_179_072e-9])
    text = r.explain()
    assert text.startswith("Measured lat_p99_s goes from 96.8 µs at iodepth = 1 to 2.18 ms at iodepth = 8")
    assert "CPU accounting at the maximum" not in text


def test_i16_an_exactly_constant_series_without_its_files_is_fitted_as_a_level():
    """I16: the ratebw table (``nvmemodel ingest -o``) without its JSON files at hand (so fio's iodepth_level, which marks
    the runs as depth 1, is not read): every run 20,961,039 B/s, and ``fit`` refused with six models' reasons at once
    ("littles: y='constant (2.0961e+07)' is not allowed …; littles_soft: 3 points cannot support …"). A series that
    does not vary is fitted as its level and said to be flat."""
    table = nm.read_results(QA7 / "ratebw")
    table["source_path"] = [f"elsewhere/qd{q}.json" for q in table["iodepth"]]  # the files are not at hand
    r = nm.fit(table, x="iodepth", y="bytes_per_s")
    assert r.chosen[()] == "constant"
    assert "does not change with iodepth" in r.explain() and "21 MB/s (20 MiB/s) at every point" in r.explain()


def test_i17_fit_figure_title_and_cap_label_hold_for_mixed_sizes_and_a_cap_below_the_data():
    """I17: bssplit/ (``--bssplit=4k/50:64k/50`` and ``--bsrange=4k-64k``): the fit figure's title read "20698.4 random
    read IOPS vs queue depth" — the mean bytes per I/O of one run, no size anyone set — and the bsr curve's MVA cap
    (41.46 K IOPS, below the 42.58 K measured at iodepth 16: "not a ceiling of these data", says the explanation)
    was labelled "not reached: an extrapolation"."""
    import matplotlib.pyplot as plt
    from nvmemodel.plots.fit import measurement_title, plot_fit

    r = _explain("bssplit", x="iodepth", y="iops", by="job_name")
    assert measurement_title(r)[0] == "mixed-size random read IOPS vs queue depth"
    fig = plot_fit(r)
    labels = _legend_labels(fig)
    # the bsr curve's text states its level (42.58 K IOPS on the one point at iodepth 16): the figure draws that, no
    # fitted cap (round 8's rule); the label a cap below the data would carry is kept by the load-axis branch
    assert not any(lbl.startswith("cap x_max") for lbl in labels), labels
    assert "measured level 42.58 K IOPS (the one point on it, iodepth = 16)" in labels, labels
    plt.close(fig)
    assert measurement_title(_explain("rateqd", x="iodepth", y="iops"))[0].startswith("4K random read IOPS")


def test_i17_result_chart_line_does_not_read_mean_sizes_as_a_range():
    """I17 on the result chart: "bs 20698.4–25033.3" (the runs' mean bytes per I/O, fio io_bytes ÷ total_ios) read as
    a --bsrange between those sizes."""
    from nvmemodel.plots.results import provenance

    line = provenance(nm.read_results(QA7 / "bssplit"), x="iodepth")
    assert "mixed sizes (mean 20.2–24.4 KiB per I/O)" in line and "20698" not in line


def test_i18_the_rate_fio_was_told_to_keep_is_named():
    """I18: the explanations of rate-limited runs listed "a rate limit" among possible causes although fio's files say
    which (``job options``: rate_iops=20000, rate_iops=50000 per job, rate=20m — ingest's rate_iops /
    rate_bytes_per_s since INGEST-1). Measured against it: rateqd 19,990 of 20,000 from iodepth 2 (12,579 at 1: 62.9 %),
    ratenj 49.95 K per job at every numjobs, ratebw 20,961,039 of 20,971,520 B/s. The null engine without a rate:
    nothing said."""
    text = _explain("rateqd", x="iodepth", y="iops").explain()
    assert ("fio was told to pace these runs (--rate_iops=20000 per job): at iodepth = 2, 4, 8, 16, 32 the measured "
            "IOPS is that rate (99.9%–100.0% of 20.00 K IOPS) — a limit set in fio, not one of the device or the host; "
            "at iodepth = 1 the runs stayed below it (62.9%).") in text
    text = _explain("ratenj", x="numjobs", y="iops").explain()
    # per job along numjobs: each point against its own total (rate × jobs), a total that rises (issue 28, blind2)
    assert ("fio was told to pace each job (--rate_iops=50000 per job), so the most it allows grows with numjobs: every "
            "run is at its own total (50.00 K IOPS, 100.00 K IOPS, 200.00 K IOPS, 400.00 K IOPS at numjobs = 1, 2, 4, 8; "
            "98.4%–99.9% of it), so the measured IOPS still rises in proportion to that pace") in text
    text = _explain("ratebw", x="iodepth", y="bytes_per_s").explain()
    assert "(--rate=20m = 21 MB/s (20 MiB/s) per job), and every run is at that rate (100.0% of it" in text
    assert "fio was told" not in _explain("nullnj", x="numjobs", y="iops").explain()


def test_i18_think_time_is_named_as_what_sets_the_rate():
    """I18 (think/): ``--thinktime=500`` at iodepth 1 (ingest's thinktime_s 0.0005 since INGEST-1); fio's mean latency
    145 µs with one job, so at most 1/(500 + 145 µs) = 1.55 K IOPS per job; fio measured 1,511 (97.5 %) … 11,711 for 8
    jobs (91.7 % of 8/(500 + 126 µs))."""
    text = _explain("think", x="numjobs", y="iops").explain()
    # no "at most" (issue 28, blind2: fio skips the pause after the I/Os that follow a ramp_time, so runs can
    # exceed jobs ÷ (think + latency)); each point against the pace, the think time's share of each I/O's time
    assert ("Each job paused 500 µs after every I/O (--thinktime) at iodepth 1, a pace of jobs ÷ think time (2.00 K "
            "IOPS, 4.00 K IOPS, 8.00 K IOPS, 16.00 K IOPS at numjobs = 1, 2, 4, 8) before fio's latency is added; at "
            "numjobs = 1, 2, 4, 8 the runs are paced by it (73%–79% of it; 91.7%–97.5% of jobs ÷ (think time + fio's "
            "mean latency), the think time 78% or more of each I/O's time): the think time sets these rates") in text
    assert "at most" not in text
    assert "paused" not in _explain("rateqd", x="iodepth", y="iops").explain()


def test_i18_attribution_names_fios_pacing_against_a_topology():
    """I18 with a preset: rateqd's plateau (19.99 K IOPS = --rate_iops=20000) against dell-r7525 was "far below every
    modelled ceiling …: what binds is not modelled or not known here — not modelled for this topology: the I/O
    engine's and the file system's own cost, a virtual disk …". The runs say what binds: fio's own pacing."""
    text = _explain("rateqd", x="iodepth", y="iops", topology=nm.preset("dell-r7525")).explain()
    assert "what binds is the rate fio was told to keep (above), which no component of the model is." in text
    assert "not modelled or not known here" not in text


def test_i19_little_check_says_the_runs_fsynced_after_every_write():
    """I19: fsync/ (``--fsync=1``): fio's write latency is 2.7 µs, its separate "sync" section 107 µs per fsync
    (nj1.json), so IOPS × latency ÷ outstanding is 0.01–0.02. With ingest's fsync_every (INGEST-1) the check says
    why; runs without fsync say nothing of it."""
    text = _explain("fsync", x="numjobs", y="iops").explain()
    # since round 21 (VA) the check counts the syncs' time (it was "… so the check cannot count it.")
    assert "inside fsync (after every write), which fio reports apart, in no write's latency; with it, each job was " \
           "inside a write or fsync 0.99–1.00 of its time" in text
    assert "inside fsync" not in _explain("think", x="numjobs", y="iops").explain()
