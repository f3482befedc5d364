"""Findings of the sixth QA pass (trust: what the program says about measured data), each on the real fio runs
it was found with (``tests/data/qa6/``: fio 3.33, how each was made in its README.md) or public data."""

import pathlib

import pytest

from nvmemodel import cli

QA6 = pathlib.Path(__file__).parent / "data" / "qa6"


def test_h1_fit_says_which_runs_failed(capsys):
    """H1: the iodepth-8 run failed (fio error 1): ``fit`` fits the other four points and must say so, as
    ``ingest`` and ``plot`` do — not drop the run without a word. Its noise wording must not claim "one run per
    point" where iodepth 4 has two runs."""
    assert cli.main(["fit", str(QA6 / "errs"), "--x", "iodepth", "--y", "iops"]) == 0
    out, err = capsys.readouterr()
    assert "qd8.json: jobs[0] ('eq') failed with fio error 1" in err
    assert "two_jobs_one_fails.json: jobs[1] ('bad') failed" in err
    assert "one run per point" not in out
    # the four runs that did not fail are the fit's points (summary's header: a "fits N points" line is not said on
    # a series the facts read as still rising or noisy, round 18 QE)
    assert "4 points, y = iops" in out


@pytest.mark.filterwarnings("ignore:.*read as reads.*unified_rw_reporting.*:nvmemodel.errors.IngestWarning")  # issue 30:
# a terse line before fio 3.28 cannot say reads from unified reporting; ingest says so (tests/ingest/test_fio_versions.py)
def test_h3_unknown_iodepth_is_not_zero_outstanding(shared_dir):
    """H3: terse output carries no iodepth; six runs at QD 1…4096 must not become one point at "0 outstanding
    I/Os" with a Little's-law rate of 0 — the runs say nothing of their outstanding I/O, so the chart refuses."""
    from nvmemodel.errors import IngestError, IngestWarning
    from nvmemodel.ingest.summary import summarize
    import nvmemodel as nm

    table = nm.read_results(shared_dir / "data" / "real" / "fio_terse")
    with pytest.warns(IngestWarning, match="6 file.s. do not say their outstanding"), \
            pytest.raises(IngestError, match="no run says its outstanding"):
        summarize(table, x="outstanding", y="iops")
    labelled = nm.read_results(shared_dir / "data" / "real" / "fio_terse", path_pattern="*_qd{qd}.out")
    s = summarize(labelled, x="qd", y="iops")
    assert sorted(s["qd"].astype(int)) == [1, 4, 16, 64, 256, 4096]
    assert s["little"].isna().all()  # no depth known: no Little's-law rate, never 0


def test_h7_fit_refuses_one_drive_model_for_many_devices(shared_dir, tmp_path):
    """H7: oberstet's psync runs read 16 NVMe namespaces (fio's disk stats); a fit against a preset evaluated the
    model at 1 drive and called the 9.41 M IOPS measured 'FALSIFIED … 549 % above the model's ceiling'. Without
    a drive count the fit is refused, naming the 16 devices; with --drives 16 nothing is falsified."""
    import shutil

    import nvmemodel as nm
    from nvmemodel.errors import ParameterError

    src = shared_dir / "data" / "real" / "fio_normal"
    for p in src.glob("oberstet_fio-2.17_16nvme-p3608_individual_psync_4k-randread_*threads.log"):
        shutil.copy(p, tmp_path / p.name)
    with pytest.raises(ParameterError, match=r"disk stats name 16 devices .* evaluated at 1 drive"):
        nm.fit(nm.read_results(tmp_path), x="numjobs", y="iops", topology=nm.preset("dell-r7525"))
    fitted = nm.fit(nm.read_results(tmp_path), x="numjobs", y="iops", topology=nm.preset("dell-r7525"), drives=16)
    assert "FALSIFIED" not in fitted.explain()


def test_h8_uniform_ceilings_table_names_no_group(capsys):
    """H8: a uniform preset has no groups: its table's binding column says 'drive', as its JSON does, not
    'group 0: drive'; a mixed topology's table still names its groups."""
    assert cli.main(["ceilings", "--preset", "dell-r7525", "--drives", "1,12"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.strip().startswith(("1 ", "12 "))]
    assert [r[-1] for r in rows[:2]] == ["drive", "drive"] and all("group" not in r for r in rows[:2])


def test_h9_chart_model_uses_the_runs_io_stack(shared_dir, tmp_path):
    """H9: oberstet's runs are psync; the chart's model overlay must be the workload the fit evaluates (its I/O
    stack read from the runs, one function for both), so it names the CPU at 13.65 M IOPS at 16 drives, as
    `ceilings --io-stack psync` does — not the drives at 23.2 M (libaio)."""
    import shutil

    import matplotlib

    matplotlib.use("Agg")
    import nvmemodel as nm
    from nvmemodel.plots.results import plot_results

    src = shared_dir / "data" / "real" / "fio_normal"
    for p in src.glob("oberstet_fio-2.17_16nvme-p3608_individual_psync_4k-randread_*threads.log"):
        shutil.copy(p, tmp_path / p.name)
    ax = plot_results(nm.read_results(tmp_path), x="numjobs", y="iops", topology=nm.preset("dell-r7525"))
    assert set(ax.model["binding"]) == {"host_cpu"}
    direct = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", 4096, iodepth=1, numjobs=512,
                                                                io_stack="psync"), drives=[16])
    assert ax.model["value"].iloc[0] == pytest.approx(direct.iops[0], rel=1e-12)


def test_h11_chart_says_where_the_model_is_an_upper_bound():
    """H11: at iodepth 1 and 4 the model's line is the drive's high-queue-depth rating (its QD1 latency is not
    known): the chart's legend says it is an upper bound there, as `ceilings` does (QA s25 H39: at every iodepth of
    this grid, 1 to 64, a catalog NAND latency may bind)."""
    import matplotlib

    matplotlib.use("Agg")
    import nvmemodel as nm
    from nvmemodel.plots.results import plot_results

    ax = plot_results(nm.read_results(QA6 / "grid"), x="iodepth", y="iops", hue="numjobs",
                      topology=nm.preset("dell-r7525"))
    label = next(t.get_text() for t in ax.get_legend().get_texts() if t.get_text().startswith("model ceiling"))
    # QA s25 H39: at 16 and 64 too (16 / 115 us = 139 K and 64 / 115 us = 557 K, with the catalog's slowest NAND QD1
    # latency, lie below the 1.45 M rating): the latency may bind at every iodepth here, so no "(at ...)" is needed
    assert "upper bound: the drive's QD1 latency (Little's law at this queue depth may bind)" in label
    assert "(at iodepth" not in label


def test_h2_chart_says_what_is_drawn_and_what_failed():
    """H2: every drawn point is a libaio randread; 'write' and 'psync' belonged only to the failed job 'bad'
    (no point on the chart). The subtitle comes from the drawn rows and names the failed jobs."""
    import matplotlib

    matplotlib.use("Agg")
    import nvmemodel as nm
    from nvmemodel.errors import IngestWarning
    from nvmemodel.plots.results import plot_results

    with pytest.warns(IngestWarning):
        table = nm.read_results(QA6 / "errs")
    ax = plot_results(table, x="iodepth", y="iops")
    assert "randread ·" in ax.provenance and "write" not in ax.provenance and "psync" not in ax.provenance
    # H2's residual: the failed job's file (/proc/version) is not a target of the drawn point: every point ran on one
    assert "· 1 target ·" in ax.provenance and "targets" not in ax.provenance
    good = table[table["job_name"] == "good"]
    assert good["targets"].tolist() == [1]
    text = next(t.get_text() for t in ax.texts if "measured run(s)" in t.get_text())
    assert "2 failed jobs not drawn (qd8.json, two_jobs_one_fails.json)" in text


def test_h15_chart_refuses_a_sweep_averaged_as_repeats():
    """H15: at numjobs = 1 the grid holds iodepth 1, 4, 16, 64 (13.2 K … 128 K IOPS): a sweep, not repeats; the
    chart refuses to average them (as the fit does) and names the column to separate them by. With hue=iodepth
    each point is one run. A read/write total along block size (4 KiB reads, 64 KiB writes) has no one x: none."""
    import nvmemodel as nm
    from nvmemodel.errors import IngestError
    from nvmemodel.ingest.summary import summarize

    grid = nm.read_results(QA6 / "grid")
    with pytest.raises(IngestError, match=r"numjobs=1, direction=read measured different iodepth \(1, 4, 16, 64\)"):
        summarize(grid, x="numjobs", y="iops")
    s = summarize(grid, x="numjobs", y="iops", hue="iodepth")
    assert (s["n"] == 1).all() and len(s) == 12
    rw = summarize(nm.read_results(QA6 / "rwbs"), x="block_size_bytes", y="bw", hue="iodepth")
    assert "total" not in set(rw["direction"])


def test_h5_averaged_log_entries_cover_the_window_before_them():
    """H5: with log_avg_msec=250 fio writes each average at the END of its window: the entry at 250 ms is the
    0–250 ms average, so the first bin starts at 0 and the last (1750 ms) at 1.5 s."""
    import nvmemodel as nm

    logs = nm.read_fio_logs([QA6 / "rwlogs" / "rw_qd4_bw.1.log"])
    merged = nm.merge_fio_logs(logs[logs["kind"] == "bw"])
    read = merged[merged["direction"] == "read"]
    assert read["time_s"].min() == 0.0 and read["time_s"].max() == pytest.approx(1.5)
    first = logs[(logs["direction"] == "read")].sort_values("time_s").iloc[0]
    assert first["time_s"] == pytest.approx(0.25)
    assert read.sort_values("time_s")["value"].iloc[0] == pytest.approx(first["value"])


def test_h16_shared_log_of_two_jobs_adds_their_rates():
    """H16: per_job_logs=0 puts both jobs' entries in one file (time restarts at 201 ms); the jobs' rates add
    (fio's JSON of the run: 63,159.8 IOPS), never averaged as one job's (≈ 32 K)."""
    import nvmemodel as nm

    logs = nm.read_fio_logs([QA6 / "logs3" / "pj0_iops.log"])
    assert sorted(logs["job"].unique()) == [0, 1]
    merged = nm.merge_fio_logs(logs)
    assert (merged["jobs"] == 2).all()
    assert merged["value"].mean() == pytest.approx(63_159.8, rel=0.03)


def test_h17_per_io_log_end_of_run_is_not_a_drop():
    """H17: a per-I/O log's last 10 ms bin holds the run's last I/O (t = 300 ms), not a rate of 100 IOPS: it is
    left out as an edge bin the log does not cover, for one job as for many."""
    import matplotlib

    matplotlib.use("Agg")
    import nvmemodel as nm
    from nvmemodel.plots.results import plot_fio_log

    ax = plot_fio_log(nm.read_fio_logs([QA6 / "logs3" / "pio_iops.1.log"]), kind="iops", latency=None)
    assert ax.stats["min"].iloc[0] > 5_000
    assert "edge bin(s)" in ax.get_title()


def test_h22_raid1_of_four_is_a_four_way_mirror(capsys):
    """H22: 'Software RAID-1, 2 arrays of 4 (every write twice)' cannot hold: md's RAID-1 of 4 members writes every
    block 4 times (md(4); raid1.c: one bio per member) and survives 3 failures."""
    assert cli.main(["ceilings", "--preset", "ion-sr71mach5-linux", "--set", "raid.level=raid1", "--pattern",
                     "randwrite", "--drives", "8", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "every write four times: a 4-way mirror" in out and "each host I/O costs 4 drive I/Os" in out
    assert "every write twice" not in out


def test_h23_a_segment_held_by_different_limits_names_none_alone(capsys):
    """H23: from 19 drives the P3700 group is held by its switch uplinks, the PM1733 group by the drives: the
    curve's segment must not say 'bound by the drives' own limit' for the whole point; one drive count says
    nothing of how the curve scales."""
    args = ["ceilings", "--preset", "dell-r7525", "--pattern", "read", "--bs", "128K",
            "--group", "drive=samsung-pm1733-u2,count=8,name=g4",
            "--group", "drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2,name=g3", "--explain"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "19–24 drives: bound by different limits per group [g4: drive; g3: switch_uplink]" in out
    assert cli.main(args[:-1] + ["--drives", "8", "--explain"]) == 0
    assert "Scales linearly" not in capsys.readouterr().out


def test_h29_a_stonewalled_sweep_in_one_file_is_charted_per_group(shared_dir):
    """H29: one json+ file holds a QD sweep as 8 stonewalled groups (qd-1 … qd-128): the chart's summary takes
    each group as a run, as the fit's points do, instead of refusing 'different iodepth values'."""
    import nvmemodel as nm
    from nvmemodel.ingest.summary import summarize

    s = summarize(nm.read_results(shared_dir / "data" / "real" / "fio_jsonplus"), x="iodepth", y="iops")
    assert list(s["iodepth"].astype(int)) == [1, 2, 4, 8, 16, 32, 64, 128] and (s["n"] == 1).all()
    assert s.loc[s["iodepth"] == 32, "mean"].iloc[0] == pytest.approx(90_821, rel=1e-3)


def test_h30_a_sidecar_glob_that_matches_nothing_is_said(tmp_path):
    """H30: globs are relative to the sidecar's folder; a label file kept elsewhere labels nothing — said, not
    silent."""
    import nvmemodel as nm
    from nvmemodel.errors import IngestWarning

    side = tmp_path / "lab.yaml"
    side.write_text("nj1_qd1.json:\n  drives: 2\n", encoding="utf-8")
    with pytest.warns(IngestWarning, match=r"1 glob\(s\) match none of the 12 file\(s\) read \(globs are relative to "
                                           r"the sidecar's folder"):
        table = nm.read_results(QA6 / "grid", labels=side)
    assert "drives" not in table


def test_h28_no_text_calls_a_ceiling_below_the_measurement_a_reproduction():
    """H28: Dell measured 80.41 GiB/s where the MPS-256 default's ceiling is 80.20 GiB/s (0.26 % below): the
    parameter's provenance must not say the default 'reproduces' it (notebook 03 calls it measured above the
    ceiling), and the number it quotes must be the model's own."""
    import nvmemodel as nm
    from nvmemodel.parameters import PARAMETERS

    src = PARAMETERS["pcie.mps"].source
    assert "reproduces" not in src and "0.26 % below its measured 80.41 GiB/s" in src
    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[12])
    below = 1 - curve.bandwidth_at(12) / 2**30 / 80.41
    assert below == pytest.approx(0.0026, abs=0.0002)


def test_an_overridden_cycles_per_io_means_the_same_in_evaluate_and_sweep():
    """Found by the planner's engineer: on the R7525 (cycles calibrated on libaio) an override of host.cycles_per_io
    with the SPDK stack gave 34.8 M IOPS from evaluate (the 30,000 scaled by the stack ratio to 896) and 9.6 M from
    sweep (the value as given). A value given is the value on every stack."""
    import nvmemodel as nm

    topo, wl = nm.preset("dell-r7525"), nm.Workload("randread", "4K")
    over = {"workload.io_stack": "spdk", "host.cycles_per_io": 30000.0}
    one = nm.evaluate(topo, wl, drives=[24], overrides=over).iops[0]
    grid = nm.sweep(topo, wl, drives=[24], grid={k: [v] for k, v in over.items()}).iops[0, 0]
    assert one == grid == pytest.approx(128 * 2.25e9 / 30000, rel=1e-9)


@pytest.mark.parametrize("folder", ["diskspd", "iometer_csv", "fio_terse", "fio_normal", "fio_json", "fio_jsonplus"])
def test_h35_every_format_is_summarised_or_refused_in_words(shared_dir, folder):
    """H35: the H29 run key (file, report, appended run, fio group) made every DiskSpd/IOmeter run vanish (NA group)
    and the chart end in KeyError 'mixed_x'. Every format's real results give a summary or one clear refusal."""
    import warnings

    import nvmemodel as nm
    from nvmemodel.errors import IngestError
    from nvmemodel.ingest.summary import summarize

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = nm.read_results(shared_dir / "data" / "real" / folder)
        try:
            s = summarize(table, x="block_size_bytes", y="iops")
        except IngestError as exc:
            assert str(exc).strip() and "mixed_x" not in str(exc)
            return
    assert len(s) >= 1 and s["n"].sum() >= 1


def test_h36_namespaces_of_an_older_kernel_are_found_as_block_devices(tmp_path):
    """H36: hwloc's saved sysfs of a 2-socket Xeon with a P3600 has no /sys/class/nvme (an older kernel) but
    /sys/class/block/nvme0n1 (and its partition nvme0n1p1): `--targets auto` finds the namespace, not the partition."""
    import tarfile

    from nvmemodel.discover import nvme_namespaces

    src = pathlib.Path(__file__).parent / "data" / "sysfs" / "hwloc_32em64t-2n8c+dax+nvme+mic+dimms.tar.bz2"
    with tarfile.open(src) as tar:
        tar.extractall(tmp_path, filter="data")
    root = tmp_path / "32em64t-2n8c+1mic"
    assert not (root / "sys/class/nvme").exists()
    assert nvme_namespaces(root) == [("/dev/nvme0n1", None)]  # its numa_node is -1: not known


def test_d1_a_curves_ceilings_are_a_dict_again():
    """DIFFQA D1: the lazy 'alone' ceilings became a Mapping, and pandas reads a non-dict Mapping as a list of its
    keys: pd.DataFrame(curve.ceilings) gave 14 rows of component names instead of 2 rows x 14 components."""
    import copy
    import pickle

    import pandas as pd

    import nvmemodel as nm

    def fresh():
        return nm.evaluate(nm.preset("dell-r7525"), nm.Workload(), drives=[1, 24])

    assert pd.DataFrame(fresh().ceilings).shape == (2, 20)  # 14 then; issue 29 added gpu_link, initiator_cpu, iommu,
    # target_cpu, md_raid, tcp_loss
    assert isinstance(fresh().ceilings, dict) and type(fresh().ceilings.copy()) is dict
    assert len({**fresh().ceilings}) == 20 and len(fresh().ceilings | {}) == 20
    c = fresh()
    assert list(pickle.loads(pickle.dumps(c)).ceilings) == list(copy.deepcopy(c).ceilings) == list(fresh().ceilings)
    d = fresh()
    d.ceilings["drive"] = 0  # a plain dict: assignment keeps the other keys
    assert d.ceilings["drive"] == 0 and len(d.ceilings) == 20


def test_d2_never_read_lazy_parts_serialise_as_their_values():
    """DIFFQA D2: the D1 fix (a dict subclass with empty storage until read) gave json.dumps(curve.labels) == '{}'
    and dataclasses.asdict(curve) a TypeError on a curve whose parts were never read: a curve hands out plain
    dicts."""
    import dataclasses
    import json

    import nvmemodel as nm

    def fresh():
        return nm.evaluate(nm.preset("dell-r7525"), nm.Workload(), drives=[1, 24])

    assert type(fresh().ceilings) is dict and type(fresh().labels) is dict and type(fresh().sources) is dict
    assert json.loads(json.dumps(fresh().labels))["drive"] == "the drives' own limit (spec sheet)"
    assert len(json.loads(json.dumps(fresh().ceilings, default=lambda a: a.tolist()))) == 20
    assert len(dataclasses.asdict(fresh())["ceilings"]) == 20
    assert list(reversed(fresh().ceilings))[-1] == "drive"


MIRROR = ["--preset", "dell-r7525", "--group", "drive=samsung-pm1733-u2,count=2,name=nvme",
          "--group", "drive=intel-p3700-800gb,count=2,mirror=nvme", "--set", "raid.level=raid10"]


@pytest.mark.parametrize("drives, says", [("25", "drives=25 is not allowed: expected an integer >= 1 and <= 4"),
                                          ("3", "--drives='3' is not allowed: expected even drive counts")])
def test_p1_a_mirrors_drive_counts_are_refused_in_one_line(capsys, drives, says):
    """DIFFQA P1: a count above the mirror's drives was rewritten as the odd-count refusal and crashed
    (TypeError: 'int' object is not iterable); each refusal is its own one line, exit 2."""
    assert cli.main(["ceilings", *MIRROR, "--drives", drives]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: ") and says in err and "Traceback" not in err


def test_p2_a_sweep_of_a_mirror_a_host_limit_would_bind_is_refused_in_one_line(capsys):
    """DIFFQA P2: the sweep command's grid-error rewording read .parameter of a MirrorLimitError (it has none) and
    ended in a traceback; the refusal is the library's sentence, one line, exit 2."""
    args = ["sweep", *MIRROR, "--pattern", "randrw", "--read-fraction", "0.7", "--bs", "4K",
            "--set", "tree.complex_bytes_per_s=1GB/s", "--grid", "host.cycles_per_io=3000,30000"]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: a mirror spanning groups cannot yet be composed") and err.count("\n") == 1


def test_p3_a_mirror_held_by_the_inter_socket_link_names_the_link(capsys):
    """DIFFQA P3: where the inter-socket link (1 GB/s, every access remote) is what a mirror's members would
    exceed, the refusal said '124.3 GB/s through one socket, above its 77.82 GB/s' (the socket's memory DMA, not
    exceeded) for 2 drives of 4K I/O; it names the link and the share of it needed."""
    args = ["ceilings", *MIRROR, "--pattern", "randrw", "--read-fraction", "0.7", "--bs", "4K",
            "--set", "tree.inter_socket_bytes_per_s=1GB/s", "--set", "tree.remote_fraction=1"]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert "inter-socket link limit that binds" in err and "(tree.inter_socket_bytes_per_s = 1 GB/s)" in err
    assert "GB/s through one socket" not in err


def test_h18_a_histogram_says_it_is_one_of_several(capsys, tmp_path):
    """H18: a json+ file of 8 stonewalled jobs, or of reads and writes: the chart draws one histogram and says so,
    and --job / --direction draw another."""
    import matplotlib

    matplotlib.use("Agg")
    from nvmemodel.plots.results import plot_latency_histogram

    rw = QA6 / "rwbs" / "qd16.json"
    ax = plot_latency_histogram(rw)
    assert "reads; the file also holds 1 other histogram(s)" in ax.provenance and "'rwbs' writes" in ax.provenance
    assert cli.main(["plot", "--histogram", str(rw), "--direction", "write", "-o", str(tmp_path / "w.png")]) == 0
    assert cli.main(["plot", "--histogram", str(rw), "--direction", "total", "-o", str(tmp_path / "t.png")]) == 2
    assert "one of read, write, trim with --histogram" in capsys.readouterr().err


def test_h34_a_recalled_rating_is_not_called_a_spec_sheet(capsys):
    """H34: discover only assumed the P3600 (its rating 'recalled'): the fit's explanation and a curve's labels say
    so; a spec-sheet rating (the R7525's PM1733 at 4K reads) keeps '(spec sheet)'."""
    import nvmemodel as nm

    lspci = pathlib.Path(__file__).parent / "data" / "lspci" / "hwloc-dell-xeon-e5-2s-p3600_vvv.txt"
    assert cli.main(["fit", str(QA6 / "grid"), "--x", "outstanding", "--y", "iops", "--topology", str(lspci)]) == 0
    out = capsys.readouterr().out
    assert "the drives' own limit (rating recalled, not re-verified)" in out and "own limit (spec sheet)" not in out
    dell = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[1])
    assert dell.labels["drive"] == "the drives' own limit (spec sheet)"
    lenovo = nm.evaluate(nm.preset("lenovo-sr850-810-4p"), nm.Workload("randread", "4K"), drives=[1])
    assert lenovo.labels["drive"] == "the drives' own limit (inferred)"
