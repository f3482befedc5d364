"""The primer's lessons: each evaluates the ceiling model for one setting, names what binds, draws its figure,
and runs behind ipywidgets controls (headless here: the controls are built, changed and called)."""

import itertools

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from nvmemodel.plots import teaching  # noqa: E402
from nvmemodel.plots.style import tick_labels  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.mark.parametrize(("gen", "lanes", "binds"), [
    # PM1733 (dell-r7525 preset: 8 GB/s media): a Gen3 x4 link delivers 3.59 GB/s of 128K reads (docs/physics.md
    # §1-3) and binds; Gen5 x4 (~14 GB/s) leaves the drive's own limit binding; Gen4 x1 (~1.8 GB/s) binds again
    (3, 4, "pcie_link"), (5, 4, "drive"), (4, 1, "pcie_link")])
def test_link_lesson(gen, lanes, binds):
    lesson = teaching.link(gen, lanes)
    where = f"Gen{gen} x{lanes} link" if lanes == 4 else f"Gen{gen}: the x4 drive trains at x{lanes} in an x{lanes} slot"
    assert lesson.binding == binds and where in lesson.text and f"{binds} binds" in lesson.text
    bars = {t.get_text() for t in lesson.ax.get_yticklabels()}
    assert {"drive", "pcie_link"} <= bars


def test_link_lesson_numbers():
    # Gen3 x4, 128K reads at MPS 256: 3.588 GB/s (docs/physics.md §1-3, the Lenovo uplink's per-lane rate x4)
    assert "3.59 GB/s" in teaching.link(3, 4, draw=False).text


@pytest.mark.parametrize(("iodepth", "latency_us", "binds"), [
    # Little's law: QD / R0 = 16 / 90 µs = 178 K < 800 K IOPS (queue depth binds); QD 128 / 90 µs = 1.4 M > 800 K
    # (drive binds); at 20 µs the knee moves to 800 K × 20 µs = 16, so QD 32 is drive-bound
    (16, 90, "queue_depth"), (128, 90, "drive"), (32, 20, "drive"), (8, 20, "queue_depth")])
def test_littles_law_lesson(iodepth, latency_us, binds):
    lesson = teaching.littles_law(iodepth, latency_us)
    assert lesson.binding == binds
    assert tick_labels(lesson.ax)[:4] == ["1", "2", "4", "8"]  # human counts, never 2^0


def test_littles_law_text_is_the_arithmetic():
    assert teaching.littles_law(16, 90, draw=False).text.startswith("QD 16 / 90 µs = 178 K IOPS")


@pytest.mark.parametrize(("drives", "uplink", "binds"), [
    # 810-4P (LP0865): Gen3 x8 uplink at the calibrated 6,200 MB/s; one drive reads 3.1 GB/s — two fill it
    (1, 8, "drive"), (4, 8, "switch_uplink"), (4, 16, "drive"), (8, 16, "switch_uplink")])
def test_oversubscription_lesson(drives, uplink, binds):
    lesson = teaching.oversubscription(drives, uplink)
    ratio = drives * 4 / uplink
    assert lesson.binding == binds and (f"{ratio:g}:1 oversubscribed" if ratio > 1 else "not oversubscribed") in lesson.text


@pytest.mark.parametrize(("cycles", "cores", "binds"), [
    # 2 x 64 cores x 2.25 GHz / 10,000 cycles = 28.8 M IOPS > 24 x 1.45 M? no: 34.8 M — the CPU binds at 24
    # (notebook 05: from 20 drives); 2,000 cycles: 144 M IOPS, never; 40,000 cycles on 2 x 8 cores: 0.9 M, at once
    (10_000, 64, "host_cpu"), (2_000, 64, "drive"), (40_000, 8, "host_cpu")])
def test_cpu_lesson(cycles, cores, binds):
    lesson = teaching.cpu(cycles, cores)
    assert lesson.binding == binds


def test_cpu_lesson_says_where_the_cpu_starts_to_bind():
    assert "the CPU binds from 20 drives" in teaching.cpu(10_000, 64, draw=False).text
    assert "never binds" in teaching.cpu(2_000, 64, draw=False).text


def test_mps_block_size_lesson():
    small, large = teaching.mps_block_size(128, "4K"), teaching.mps_block_size(512, "1M")
    pct = [float(x.text.split("delivers ")[1].split(" %")[0]) for x in (small, large)]
    assert pct[0] < pct[1] < 100  # larger MPS and blocks lose less to TLP headers and command traffic
    labels = tick_labels(small.ax)
    assert labels[0] == "512" and "4K" in labels and labels[-1] == "1M"


def _shown(controls) -> str:
    """The sentence the controls' Output widget shows (its outputs are set, never captured: tests/test_notebook_runs_headless.py)."""
    return "".join(o.get("text", "") for o in controls.children[-1].outputs)


@pytest.mark.parametrize("name", list(teaching.LESSONS))
def test_controls_present_and_callable(name):
    pytest.importorskip("ipywidgets")
    controls = teaching.controls(name)
    names = {c.description for c in controls.children if hasattr(c, "description") and c.description}
    assert set(teaching.LESSONS[name][1]) <= names
    assert "binds" in _shown(controls)  # the first draw, as the controls appear
    controls.children[-1].outputs = ()
    controls.update()  # what a change of any control does: redraw and show the sentence
    assert "binds" in _shown(controls)
    assert [o["output_type"] for o in controls.children[-1].outputs] == ["stream", "display_data"]
    assert controls.children[-1].outputs[1]["data"]["image/png"].startswith("iVBOR")  # a PNG, base64
    assert plt.get_fignums() == []  # rendered and closed: the cell does not show it a second time


def test_controls_show_the_binding_for_the_setting():
    pytest.importorskip("ipywidgets")
    controls = teaching.controls("littles_law", iodepth=16)
    qd = next(c for c in controls.children if getattr(c, "description", "") == "iodepth")
    qd.value = 256  # the callback runs on a change
    out = _shown(controls)
    assert "QD 256" in out and "the drive's own limit" in out
    qd.value = 4
    assert "queue depth binds" in _shown(controls)


def test_unknown_lesson_names_the_known_ones():
    from nvmemodel.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="littles_law"):
        teaching.controls("little")


# Every lesson's sentence, checked against the model (or Little's law, or the CPU arithmetic) at every value its
# controls offer (issue 31: "Gen4 x16 … binds at 7.18 GB/s" was an x4 link's number under an x16 label).
def _slider_values(name):
    return [dict(zip(teaching.LESSONS[name][1], combo)) for combo in itertools.product(
        *[range(o[0], o[1] + 1, o[2]) if isinstance(o, tuple) else o for o in teaching.LESSONS[name][1].values()])]


def test_link_sentence_at_every_slider_value():
    import nvmemodel as nm
    from nvmemodel import tables

    assert teaching.LESSONS["link"][1]["gen"][:2] == (1, 7)  # up to Gen7, which the model knows (PCIe 7.0)
    drive = nm.preset("dell-r7525").drive  # PM1733: a x4 drive, 8 GB/s of reads (the preset)
    for v in _slider_values("link"):
        gen, lanes = v["gen"], v["lanes"]
        text = teaching.link(gen, lanes, draw=False).text
        trained = min(lanes, drive.lanes)
        link = float(tables.efficiency_by_block_size(gen, trained, [131072], [256]).delivered_bytes_per_s.iloc[0])
        binds, at = ("pcie_link", link) if link < drive.seq_read_bytes_per_s else ("drive", drive.seq_read_bytes_per_s)
        assert f"{binds} binds at {at / 1e9:.2f} GB/s" in text, (v, text)
        if lanes == drive.lanes:
            assert text.startswith(f"Gen{gen} x{lanes} link;")
        else:  # the link is never called x8 or x16: the x4 drive trains at x4 (or at the narrower slot's width)
            assert text.startswith(f"Gen{gen}: the x4 drive trains at x{trained} in an x{lanes} slot;"), text
            assert f"x{lanes} link" not in text


def test_mps_block_size_sentence_at_every_slider_value():
    import nvmemodel as nm
    from nvmemodel import tables
    from nvmemodel.units import parse_block_size

    for v in _slider_values("mps_block_size"):
        text = teaching.mps_block_size(v["mps"], v["block_size"], draw=False).text
        bs = int(parse_block_size(v["block_size"]))
        pct = float(tables.efficiency_by_block_size(4, 4, [bs], [v["mps"]]).pct_of_encoded.iloc[0])
        curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", v["block_size"]), drives=[1],
                            overrides={"pcie.mps": v["mps"]})
        ceilings = {k: float(c[0]) * bs for k, c in curve.ceilings.items()}
        binds = min(ceilings, key=ceilings.get)
        assert f"delivers {pct:.1f} % of its encoded rate; one drive reads {ceilings[binds] / 1e9:.2f} GB/s and " \
               f"{binds} binds." in text, (v, text)


def test_littles_law_sentence_at_every_slider_value():
    # Little's law (docs/physics.md §6): IOPS = min(QD / R0, X_max) with the catalog drive's X_max = 800 K IOPS;
    # the knee N* = X_max · R0; above it latency = QD / X_max
    for v in _slider_values("littles_law"):
        qd, r0 = v["iodepth"], v["latency_us"] * 1e-6
        text = teaching.littles_law(qd, v["latency_us"], draw=False, measured=False).text
        iops = min(qd / r0, 800e3)
        rule = ("so the queue depth binds" if qd / r0 < 800e3 else
                f"the drive's own limit; latency grows to {qd / 800e3 * 1e6:,.0f} µs")
        assert text == (f"QD {qd} / {v['latency_us']:g} µs = {iops / 1e3:,.0f} K IOPS: "
                        + (f"below the drive's 800 K IOPS, {rule}" if qd / r0 < 800e3 else rule)
                        + f" (knee at QD {800e3 * r0:.0f})."), (v, text)


def test_oversubscription_sentence_at_every_slider_value():
    from nvmemodel import tables

    # one Toshiba PX04PM reads 3.10 GB/s (the preset); the 810-4P's uplink delivers a Gen3 link of its width x its
    # calibrated 0.8636 (6,200 MB/s at x8, LP0865), at every width
    for v in _slider_values("oversubscription"):
        drives, up = v["drives"], v["uplink_lanes"]
        text = teaching.oversubscription(drives, up, draw=False).text
        uplink = 0.8636 * float(tables.efficiency_by_block_size(3, up, [262144], [256]).delivered_bytes_per_s.iloc[0])
        want = min(drives * 3.10e9, uplink)
        assert f"): {want / 1e9:.2f} GB/s," in text, (v, text, uplink)
        assert (f"{drives * 4 / up:g}:1 oversubscribed" if drives * 4 > up else "not oversubscribed") in text


def test_cpu_sentence_at_every_slider_value():
    # 2 sockets x cores x 2.25 GHz (the preset's assumed EPYC clock, u_max 1) / cycles per I/O against 1.45 M 4K
    # random-read IOPS per PM1733 (spec sheet): the CPU binds from the first drive count above the CPU's ceiling
    for v in _slider_values("cpu"):
        text = teaching.cpu(v["cycles_per_io"], v["cores"], draw=False).text
        cap = 2 * v["cores"] * 2.25e9 / v["cycles_per_io"]
        first = next((n for n in range(1, 25) if n * 1.45e6 > cap), None)
        assert (f"the CPU binds from {first} drives" if first else "the CPU never binds up to 24 drives") in text
        assert f"at 24 drives {min(24 * 1.45e6, cap) / 1e6:.2f} M IOPS" in text, (v, text)


def test_littles_law_lesson_draws_a_measured_qd_curve_beside_the_model():
    # tests/data/fit/local/qd: real fio 3.33 libaio 4 KiB randread on this VM's virtual disk, QD 1-128, 3 runs each
    # (tests/data/SOURCES.md); QD1 mean 8.5-8.7 K IOPS, QD128 about 53 K
    lesson = teaching.littles_law(16, 90)
    measured = lesson.data[lesson.data.source == "measured"]
    assert measured.iodepth.tolist() == [1, 2, 4, 8, 16, 32, 64, 128]
    assert 8.0e3 < measured.iops.iloc[0] < 9.5e3 and 45e3 < measured.iops.iloc[-1] < 60e3
    assert measured.latency_s.is_monotonic_increasing  # a real device's latency grows long before its knee
    assert len(lesson.ax.figure.axes) == 4  # model and measured panels, each with its latency axis
    assert "fio 3.33" in lesson.caption and "tests/data/fit/local/qd" in lesson.caption
    assert teaching.littles_law(16, 90, measured=False).data.source.eq("model").all()
