"""The primer's lessons: each evaluates the ceiling model for one setting, names what binds, draws its figure,
and runs behind ipywidgets controls (headless here: the controls are built, changed and called)."""

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
    assert lesson.binding == binds and f"Gen{gen} x{lanes}" in lesson.text and f"{binds} binds" in lesson.text
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
    assert lesson.binding == binds and f"{drives * 4 / uplink:g}:1" in lesson.text


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
