"""Bad or unusual input to ceiling fits over several curves, as a new user gives it: each case once gave a
silent wrong answer or a traceback instead of one clear message (project rule: nothing silently dropped,
bad input → one ``NvmeModelError`` naming the parameter, the value and what is expected).

The curves are synthetic: ``nm.evaluate`` on LP0865's two adapters (x8 and x16 uplink) at a known drive rate
with 1 % seeded Gaussian noise (labelled synthetic; :func:`_curves`).
"""

import itertools
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.errors import NvmeModelError, ParameterError

from .conftest import table

WL = nm.Workload(pattern="read", block_size=262144, iodepth=32)
PRESETS = {"x8": "lenovo-sr850-810-4p", "x16": "lenovo-sr850-1610-4p"}
FREE = ["drive.seq_read_bytes_per_s", "switch.efficiency"]
RATE = 3.0e9  # drive.seq_read_bytes_per_s the synthetic curves are generated with


def _topologies():
    return {k: nm.preset(v) for k, v in PRESETS.items()}


def _curves(seed=1, drives=(1, 2, 3, 4)):
    """Synthetic: each adapter's ceiling at ``RATE`` per drive x (1 + 0.01 N(0, 1)), seeded."""
    rng = np.random.default_rng(seed)
    frames = []
    for k, t in _topologies().items():
        c = nm.evaluate(t, WL, drives=list(drives), overrides={"drive.seq_read_bytes_per_s": RATE})
        y = c.bytes_per_s * (1 + 0.01 * rng.standard_normal(len(drives)))
        f = table("drives", list(drives), y, pattern="read", bs=262144, y="bytes_per_s", extra={"adapter": k})
        f["source_path"] = k + "/" + f["source_path"]
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def _fit(data, **kw):
    args = {"x": "drives", "y": "bytes_per_s", "by": "adapter", "model": "ceiling", "topology": _topologies(),
            "free": FREE, "ci": "wald"}
    return nm.fit(data, **{**args, **kw})


def test_a_run_without_a_by_value_is_refused_not_dropped():
    # the x8 curve's 3-drive run has no adapter label: fitting the x8 curve on 3 of its 4 runs without a word
    # would hide a measurement; the message names the column and the file
    data = _curves()
    data.loc[(data.adapter == "x8") & (data.drives == 3), "adapter"] = np.nan
    with pytest.raises(ParameterError, match=r"by='adapter'.*x8/run2\.json"):
        _fit(data)
    with pytest.raises(ParameterError, match=r"by='adapter'.*x8/run2\.json"):
        nm.fit(data, x="drives", y="bytes_per_s", by="adapter", model="linear")


def test_shared_and_free_given_as_one_name_mean_that_name():
    # by= takes one column name as a string; free= and shared= took one as its characters ('d', 's' ...)
    data = _curves()
    one = _fit(data, free="switch.efficiency")
    listed = _fit(data, free=["switch.efficiency"])
    assert one.fit_of("x8").values == pytest.approx(listed.fit_of("x8").values, rel=1e-12)
    joint = _fit(data, shared=FREE[0])
    p = joint.params
    rate = p[(p.status == "free") & (p.name == FREE[0])].set_index("adapter")["value"]
    assert rate["x8"] == rate["x16"]                       # one shared value, shown on each curve
    assert rate["x8"] == pytest.approx(RATE, rel=0.02)     # 8 points at 1 % noise


@pytest.mark.parametrize("topology", ["lenovo-sr850-810-4p", {"x8": "lenovo-sr850-810-4p",
                                                              "x16": "lenovo-sr850-1610-4p"}, 42])
def test_a_topology_that_is_not_one_is_one_clear_error(topology):
    with pytest.raises(ParameterError, match=r"topology.*=.*nm\.preset"):
        _fit(_curves(), topology=topology)


def test_a_mapping_of_topologies_without_by_says_by_is_needed():
    with pytest.raises(ParameterError, match="by="):
        nm.fit(_curves(), x="drives", y="bytes_per_s", model="ceiling", topology=_topologies(), free=FREE)


@pytest.mark.parametrize("drives", [0, -2, 2.5])
def test_drives_for_other_axes_must_be_a_positive_integer(drives):
    # was int(drives or 1): 0 became 1 and 2.5 became 2 without a word
    data = table("iodepth", [1, 2, 4, 8, 16], [1e5, 2e5, 3.5e5, 4.2e5, 4.4e5])
    with pytest.raises(ParameterError, match="drives="):
        nm.fit(data, x="iodepth", y="iops", model="ceiling", topology=nm.preset("dell-r7525"),
               free=["drive.read_latency_s"], drives=drives, ci="wald")


def test_fractional_drive_counts_are_refused_by_the_ceiling_model():
    # the kernel rounds drive counts: a point at 2.5 drives was fitted as if measured at 3 (or 2)
    data = _curves()
    data["drives"] = data["drives"].astype(float)
    data.loc[(data.adapter == "x8") & (data.drives == 3), "drives"] = 2.5
    with pytest.raises(ParameterError, match=r"x='drives'.*2\.5"):
        _fit(data)


def test_a_y_column_missing_from_the_table_is_named():
    data = _curves()  # a table with iops and bw_bytes_per_s, no latency percentiles
    with pytest.raises(ParameterError, match=r"y='clat_p99_s'.*clat_p99_s"):
        nm.fit(data, x="drives", y="clat_p99_s", by="adapter")


def test_joint_fit_numbers_are_the_models_own(tmp_path):
    # every number the joint result reports is nm.evaluate's at the fitted values: ceilings, predict, the
    # per-point efficiency, and the JSON carries the same fitted values
    import json

    data = _curves()
    r = _fit(data, shared=[FREE[0]])
    for g, t in _topologies().items():
        f = r.fit_of(g)
        over = {"drive.seq_read_bytes_per_s": f.values["drive__seq_read_bytes_per_s"],
                "switch.efficiency": f.values["switch__efficiency"]}
        c = nm.evaluate(t, WL, drives=[1, 2, 3, 4], overrides=over)
        np.testing.assert_allclose(r.ceilings([1, 2, 3, 4], group=g)["ceiling"], c.bytes_per_s, rtol=1e-12)
        np.testing.assert_allclose(r.predict([1, 2, 3, 4], group=g)["y"], c.bytes_per_s, rtol=1e-12)
        pts = r.explain_points(group=g)
        measured = data[data.adapter == g].sort_values("drives")["bw_bytes_per_s"].to_numpy()
        np.testing.assert_allclose(pts["efficiency"], measured / c.bytes_per_s, rtol=1e-12)
    doc = json.loads(r.to_json())
    rows = {(p["adapter"], p["name"]): p["value"] for p in doc["params"] if p["status"] == "free"}
    assert rows["x8", FREE[0]] == rows["x16", FREE[0]] == r.fit_of("x8").values["drive__seq_read_bytes_per_s"]


def test_cli_plot_into_a_missing_folder_is_refused_before_fitting(tmp_path):
    path = tmp_path / "runs.csv"
    _curves().to_csv(path, index=False)
    out = subprocess.run([sys.executable, "-m", "nvmemodel", "fit", str(path), "--x", "drives", "--y", "bytes_per_s",
                          "--plot", str(tmp_path / "no" / "such" / "fit.png")],
                         check=False, capture_output=True, text=True)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "--plot" in out.stderr and "no/such" in out.stderr


def test_cli_missing_y_column_is_one_line(tmp_path):
    path = tmp_path / "runs.csv"
    _curves().to_csv(path, index=False)
    out = subprocess.run([sys.executable, "-m", "nvmemodel", "fit", str(path), "--x", "drives", "--y", "clat_p99_s"],
                         check=False, capture_output=True, text=True)
    assert out.returncode == 2 and "Traceback" not in out.stderr and "clat_p99_s" in out.stderr


def test_errors_are_nvmemodel_errors():
    # the cases above raise the package's error (the CLI turns it into one line), never AttributeError/KeyError
    with pytest.raises(NvmeModelError):
        _fit(_curves(), topology="lenovo-sr850-810-4p")


def test_joint_residual_standard_error_is_in_y_units_when_weighted():
    # three seeded repeats per point make the fit weighted (pooled CV); the residual SE the summary prints in B/s
    # must be the residuals' (y − model) in B/s on the joint degrees of freedom, as for one curve — not the
    # weighted residuals, which are in units of σ (≈ 1.6 here, printed as "1.606 B/s")
    frames = []
    for seed in (1, 2, 3):
        f = _curves(seed=seed)
        f["source_path"] = f["source_path"] + f".r{seed}"
        frames.append(f)
    data = pd.concat(frames, ignore_index=True)
    r = _fit(data, shared=[FREE[0]])
    assert r.points.attrs["weighted"]
    resid = np.concatenate([r.fit_of(g).y - r.fit_of(g).eval(r.fit_of(g).x) for g in ("x8", "x16")])
    s = r.fit_of("x8").stats
    assert s["residual_se"] == pytest.approx(np.sqrt(np.sum(resid ** 2) / s["df"]), rel=1e-9)
    assert s["residual_se"] > 1e6   # B/s: tens of MB/s of scatter at 1 % noise on 3-12 GB/s


@pytest.mark.parametrize("ci", ["profile", "auto"])
def test_joint_intervals_despite_a_parameter_no_point_depends_on(ci):
    # the x16 uplink never binds, so its efficiency is unidentifiable and made the joint covariance singular:
    # asked for profile intervals, the joint fit returned none and labelled them "wald" (then a bootstrap), and
    # ci="auto" gave no interval at all. It is now held where it is (reported, no interval) and the rest fitted
    r = _fit(_curves(), shared=[FREE[0]], ci=ci)
    f = r.fit_of("x8")
    assert f.ci_method == "profile"
    lo, hi = f.ci_low["drive__seq_read_bytes_per_s"], f.ci_high["drive__seq_read_bytes_per_s"]
    assert lo < f.values["drive__seq_read_bytes_per_s"] < hi and lo < RATE < hi
    lo8, hi8 = f.ci_low["switch__efficiency"], f.ci_high["switch__efficiency"]
    assert lo8 < 0.8636 < hi8
    g = r.fit_of("x16")
    assert np.isnan(g.ci_low["switch__efficiency"]) and np.isnan(g.ci_high["switch__efficiency"])
    assert any("switch.efficiency is not identifiable" in n for n in g.notes)
    assert f.stats["k"] == 2   # the shared rate and the x8 efficiency: the held one is not counted


def test_a_shared_choice_is_named_in_the_joint_note():
    # with only a discrete parameter shared, the note read "shared: ; statistics are the joint fit's"
    r = _fit(_curves(), free=["pcie.mps"], shared=["pcie.mps"])
    assert r.fit_of("x8").discrete["pcie.mps"]["value"] == r.fit_of("x16").discrete["pcie.mps"]["value"]
    assert any("shared: pcie.mps;" in n for n in r.fit_of("x8").notes)
    assert "shared: ;" not in r.explain()


@pytest.mark.parametrize("joint", [False, True])
def test_a_parameter_no_point_depends_on_has_no_interval(joint):
    # the x16 uplink never binds: bootstrap refits never move its efficiency, and the interval came out "1–1",
    # as if measured exactly; the fit's own note says it is not identifiable, so it gets no interval
    kw = {"shared": [FREE[0]]} if joint else {}
    r = _fit(_curves(), ci="bootstrap", n_boot=40, **kw)
    f16, f8 = r.fit_of("x16"), r.fit_of("x8")
    assert any(n.startswith("switch.efficiency is not identifiable") for n in f16.notes)
    assert np.isnan(f16.ci_low["switch__efficiency"]) and np.isnan(f16.ci_high["switch__efficiency"])
    assert "switch.efficiency = 1 (no interval)" in r.explain()
    # the x8 curve's efficiency is measured (its uplink binds from 3 drives): a real interval around 0.8636
    assert f8.ci_low["switch__efficiency"] < 0.8636 < f8.ci_high["switch__efficiency"]
    assert f16.ci_low["drive__seq_read_bytes_per_s"] < f16.ci_high["drive__seq_read_bytes_per_s"]


def test_json_names_each_curves_own_topology_and_workload():
    # two adapters (one per curve), and in a second fit one topology with two workloads (by pattern): the JSON
    # named only the first curve's topology and workload, as if they held for every curve
    import json

    doc = json.loads(_fit(_curves()).to_json())
    assert doc["topology"] is None   # the curves differ
    assert {(tuple(s["group"]), s["topology"]) for s in doc["setups"]} == {(("x8",), PRESETS["x8"]),
                                                                           (("x16",), PRESETS["x16"])}
    lp = nm.preset(PRESETS["x8"])
    rand = nm.Workload("randread", "4K", iodepth=32)
    frames = []
    for i, (pattern, wl) in enumerate((("read", WL), ("randread", rand))):
        c = nm.evaluate(lp, wl, drives=[1, 2, 3, 4])
        f = table("drives", [1, 2, 3, 4], c.iops, pattern=pattern, bs=wl.block_size, extra={"pat": pattern})
        f["source_path"] = f"{i}/" + f["source_path"]
        frames.append(f)
    r = nm.fit(pd.concat(frames, ignore_index=True), x="drives", y="iops", by="pat", model="ceiling", topology=lp,
               free=["switch.efficiency"], ci="wald")
    doc = json.loads(r.to_json())
    assert doc["topology"] == PRESETS["x8"] and doc["workload"] is None
    loads = {s["group"][0]: s["workload"] for s in doc["setups"]}
    assert loads == {"read": WL.describe(), "randread": rand.describe()}


def test_the_measured_ioengine_sets_the_models_io_stack():
    # fio's io_uring runs were evaluated with the default libaio stack (10,000 vs 4,000 cycles per I/O): a host
    # CPU ceiling 2.5x too low; the table's ioengine now picks the stack where it is one of the model's
    dell = nm.preset("dell-r7525")
    rand = nm.Workload("randread", "4K", iodepth=32, io_stack="io_uring")
    c = nm.evaluate(dell, rand, drives=[1, 2, 4, 8, 12, 24])
    data = table("drives", list(c.drives), c.iops, extra={"ioengine": "io_uring"})
    r = nm.fit(data, x="drives", y="iops", model="ceiling", topology=dell, free=["drive.rand_read_iops"], ci="wald")
    assert r.setup()[1].io_stack.value == "io_uring"
    np.testing.assert_allclose(r.ceilings(list(c.drives))["host_cpu"], c.ceilings["host_cpu"], rtol=1e-12)
    data["ioengine"] = "mmap"  # not a stack of the model: the default stays (psync is one since issue 18)
    assert nm.fit(data, x="drives", y="iops", model="ceiling", topology=dell, free=["drive.rand_read_iops"],
                  ci="wald").setup()[1].io_stack.value == "libaio"


def test_cli_presets_per_curve_of_two_by_columns(tmp_path):
    # --by adapter,site: a VALUE=PRESET pair could only name one column's value, so no curve ever matched
    path = tmp_path / "runs.csv"
    data = _curves()
    data["site"] = "lab"
    data.to_csv(path, index=False)
    base = [sys.executable, "-m", "nvmemodel", "fit", str(path), "--x", "drives", "--y", "bytes_per_s", "--by",
            "adapter,site", "--free", ",".join(FREE), "--model", "ceiling", "--ci", "wald"]
    out = subprocess.run([*base, "--preset", "x8/lab=lenovo-sr850-810-4p,x16/lab=lenovo-sr850-1610-4p"],
                         check=False, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "adapter=x8, site=lab" in out.stdout and "switch uplink" in out.stdout
    bad = subprocess.run([*base, "--preset", "x8=lenovo-sr850-810-4p,x16=lenovo-sr850-1610-4p"],
                         check=False, capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "ADAPTER/SITE=PRESET" in bad.stderr


def test_a_curve_of_two_by_columns_is_found_by_its_json_group_list():
    # the JSON gives a curve's group as a list (["x8", "lab"]); handing it back raised "unhashable type: 'list'"
    import json

    data = _curves()
    data["site"] = "lab"
    topos = {(k, "lab"): t for k, t in _topologies().items()}
    r = _fit(data, by=["adapter", "site"], topology=topos)
    group = next(c["group"] for c in json.loads(r.to_json())["chosen"] if c["group"][0] == "x8")
    assert group == ["x8", "lab"]
    assert r.setup(group)[0].name == PRESETS["x8"]
    np.testing.assert_allclose(r.ceilings([3], group=group)["ceiling"], r.ceilings([3], group=("x8", "lab"))["ceiling"])
    assert r.explain_points(group=group)["binding"].tolist() == ["drive", "drive", "switch_uplink", "switch_uplink"]


def test_binding_strip_has_no_gaps_on_a_log_axis(tmp_path):
    # block sizes 4 KiB … 1 MiB on a log2 axis: every strip cell had the width of the narrowest (at 4 KiB), so the
    # strip broke into thin lines towards 1 MiB; the cells must tile the span of the x grid
    bss = [4096, 16384, 65536, 262144, 1048576]
    lp = nm.preset(PRESETS["x8"])
    ys = [nm.evaluate(lp, nm.Workload("randread", bs, iodepth=32), drives=[4]).bytes_per_s[0] for bs in bss]
    data = table("block_size_bytes", bss, ys, y="bytes_per_s")
    r = nm.fit(data, x="block_size_bytes", y="bytes_per_s", model="ceiling", topology=lp,
               free=["switch.efficiency"], drives=4, ci="wald")
    fig = r.plot(tmp_path / "bs.png")
    strip = fig.axes[2]
    assert strip.get_xscale() == "log"
    cells = sorted((p.get_x(), p.get_x() + p.get_width()) for p in strip.patches)
    assert len(cells) > 10
    for (_, right), (left, _) in itertools.pairwise(cells):
        assert left == pytest.approx(right, rel=1e-9)   # each cell starts where the previous one ends
    assert cells[0][0] <= bss[0] and cells[-1][1] >= bss[-1]


def test_points_met_exactly_give_a_zero_width_band_without_warnings():
    # noise-free points (e.g. a curve generated by the model): zero standard errors made lmfit's delta-method band
    # divide 0 by 0 (a RuntimeWarning, an error under pytest) in predict() and plot()
    lp = nm.preset(PRESETS["x8"])
    c = nm.evaluate(lp, WL, drives=[1, 2, 3, 4])
    data = table("drives", [1, 2, 3, 4], c.bytes_per_s, pattern="read", bs=262144, y="bytes_per_s")
    r = nm.fit(data, x="drives", y="bytes_per_s", model="ceiling", topology=lp, free=["switch.efficiency"],
               ci="wald")
    band = r.predict([1, 2, 3, 4])
    np.testing.assert_allclose(band["y"], c.bytes_per_s, rtol=1e-9)
    assert (band["y_low"] == band["y"]).all() and (band["y_high"] == band["y"]).all()


def test_explanations_write_block_sizes_in_full():
    # "binds (12.4 GB/s at 1.04858e+06)": six significant digits turned 1048576 into a number nobody measured
    bss = [4096, 65536, 1048576]
    lp = nm.preset(PRESETS["x8"])
    ys = [nm.evaluate(lp, nm.Workload("randread", bs, iodepth=32), drives=[4]).bytes_per_s[0] * 1.001 for bs in bss]
    r = nm.fit(table("block_size_bytes", bss, ys, y="bytes_per_s"), x="block_size_bytes", y="bytes_per_s",
               model="ceiling", topology=lp, free=["switch.efficiency"], drives=4, ci="wald")
    text = r.explain()
    assert "1048576" in text and "e+06" not in text


def test_joint_summary_counts_each_curves_own_points():
    # the summary said "8 points" for each 4-point curve of a joint fit (explain() already said 4)
    r = _fit(_curves(), shared=[FREE[0]])
    text = r.summary()
    assert text.count("4 points (the joint fit's n = 8 over all curves)") == 2 and "   8 points," not in text


def test_one_direction_of_a_mixed_workload_is_refused_by_the_ceiling_model():
    # 70/30 random read/write generated by the model: fitting y="read_iops" (70 % of the I/O) against the model's
    # ceiling of all I/O gave drive.rand_read_iops = 591 K instead of the 1.45 M that generated the data
    dell = nm.preset("dell-r7525")
    wl = nm.Workload("randrw", "4K", read_fraction=0.7, iodepth=32)
    c = nm.evaluate(dell, wl, drives=[1, 2, 4, 8, 12, 24])
    rows = [{"source_path": f"r{i}.json", "group_id": 0, "final": True, "is_aggregate": False, "job_name": "j",
             "direction": d, "pattern": "randrw", "read_fraction": 0.7, "iops": x * share,
             "bw_bytes_per_s": x * share * 4096, "ios": 1.0, "block_size_bytes": 4096.0, "drives": n}
            for i, (n, x) in enumerate(zip(c.drives, c.iops)) for d, share in (("read", 0.7), ("write", 0.3))]
    data = pd.DataFrame(rows)
    total = nm.fit(data, x="drives", y="iops", model="ceiling", topology=dell, free=["drive.rand_read_iops"],
                   ci="wald")
    assert total.fit_of().values["drive__rand_read_iops"] == pytest.approx(1.45e6, rel=1e-6)
    for y in ("read_iops", "write_bytes_per_s"):
        with pytest.raises(ParameterError, match=f"y='{y}'.*mixed read/write"):
            nm.fit(data, x="drives", y=y, model="ceiling", topology=dell, free=["drive.rand_read_iops"], ci="wald")
    # the empirical models fit any direction
    assert nm.fit(data, x="drives", y="read_iops", model="linear").fit_of().values["x1"] == pytest.approx(
        0.7 * c.iops[0], rel=1e-6)


def test_queueing_sentence_along_drives_ends_as_a_sentence():
    # along drives (no latency sentence follows) the text ended "…23.54 K IOPS);  Caution: …"
    data = table("drives", [1, 2, 3, 4, 5, 6], [1e5, 2e5, 2.9e5, 3.0e5, 3.02e5, 2.99e5])
    text = nm.fit(data, x="drives", y="iops", model="littles").explain()
    assert ";  " not in text and "); " not in text.split("Caution")[0]
