"""Host figures (nvmemodel/plots/hosts.py): every I/O stack's CPU ceiling is on cpu_by_stack, stacks are told
apart, and the catalog hosts' ceilings are drawn side by side (issue 18, issue 21's cpu_by_stack point)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import nvmemodel as nm  # noqa: E402
from nvmemodel.plots import hosts as ph  # noqa: E402

STACKS = list(nm.PARAMETERS["workload.io_stack"].choices)


@pytest.fixture(scope="module")
def by_stack():
    return ph.stack_ceilings_frame(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), STACKS, np.arange(1, 25))


def test_stack_frame_values(by_stack):
    # 2 x 64 cores x 2.25 GHz / 10,000 cycles = 28.8 M IOPS for libaio; the PM1733's 1.45 M per drive
    lib = by_stack[by_stack.series == "libaio"]
    assert lib.host_cpu.iloc[0] == pytest.approx(28.8e6) and lib.drive.iloc[23] == pytest.approx(24 * 1.45e6)
    assert lib[lib.binding == "host_cpu"].drives.min() == 20


def test_every_stack_has_its_own_style_and_cpu_ceiling(by_stack):
    ax = ph.plot_stack_ceilings(by_stack, title="t")
    try:
        labels = ax.get_legend_handles_labels()[1]
        for s in STACKS:  # every stack named, with its cycles; the ones whose CPU ceiling is off the chart say so
            entry = next(t for t in labels if t.startswith(f"{s}:"))
            cpu = by_stack[by_stack.series == s].host_cpu.iloc[0]
            assert ("above the chart" in entry) == (cpu > ax.get_ylim()[1] * 1e6)
        lines = [ln for ln in ax.get_lines() if ln.get_label() in labels and ln.get_label().split(":")[0] in STACKS]
        styles = {(ln.get_color(), ln.get_marker(), ln.get_linestyle()) for ln in lines}
        assert len(styles) == len(STACKS)  # colour, marker and line style tell every stack apart
        dotted = [ln for ln in ax.get_lines() if ln.get_linestyle() == ":" and list(ln.get_xdata()) == [0, 1]]
        on_chart = [s for s in STACKS if by_stack[by_stack.series == s].host_cpu.iloc[0] <= ax.get_ylim()[1] * 1e6]
        assert len(dotted) == len(on_chart) >= 4  # libaio, io_uring, storport, sqpoll, psync: not only two
        crosses = [ln for ln in ax.get_lines() if ln.get_marker() == "X" and len(ln.get_xdata())]
        binds = {s for s in STACKS if (by_stack[by_stack.series == s].binding == "host_cpu").any()}
        assert len(crosses) == len(binds) + 1  # one per stack whose CPU binds, plus the legend's sample
        assert ax.get_ylim()[0] == 0 and [t.get_text() for t in ax.get_xticklabels()][:3] == ["1", "4", "8"]
    finally:
        plt.close(ax.figure)


def test_catalog_hosts_side_by_side():
    keys = ["amd-epyc-7742", "intel-xeon-platinum-8380", "amd-threadripper-pro-3995wx", "amd-epyc-9755"]
    f = ph.host_ceilings_frame(keys)
    # each CPU row's own status: cited, cited with some values recalled (the 3955WX family's lanes), recalled
    assert list(f.cpu_status) == ["spec", "spec", "spec+recalled", "recalled"]
    row = f.set_index("key").loc["amd-epyc-7742"]
    assert row.socket_dma == pytest.approx(2 * 0.68 * 204.8e9)  # the Zen 2 device-DMA share (PLAID's 3995WX) and row.root_complexes == pytest.approx(8 * 46.9e9)
    assert np.isnan(f.set_index("key").loc["amd-threadripper-pro-3995wx"].inter_socket)  # one socket: no link
    left, right = ph.plot_host_ceilings(f)
    try:
        assert [t.get_text() for t in left.get_yticklabels()] == list(f.host[:3]) + ["2 x AMD EPYC 9755 (recalled)"]
        assert "after encoding" in left.get_legend_handles_labels()[1][0]
        assert right.get_xlim()[0] <= 0.7 * f[["cpu_libaio", "cpu_io_uring", "cpu_io_uring_polled"]].min().min() / 1e6
        assert right.get_xscale() == "log" and "M IOPS" in right.get_xlabel()
        assert len(left.patches) == 4 * len(keys) and left.get_xscale() == "linear" and left.get_xlim()[0] == 0
        # the log panel draws dots, not bars (a bar's length means nothing on a log axis: QA F25)
        assert len(right.patches) == 0 and len(right.lines) == 3
        assert all(line.get_linestyle() == "None" and line.get_xdata().size == len(keys) for line in right.lines)
    finally:
        plt.close(left.figure)


def test_close_cpu_ceilings_are_named_without_overlap():
    # without the preset's calibrated cost every stack costs its own: libaio (8,200 cycles) and io_uring_sqpoll
    # (8,490) give CPU ceilings 3 % apart, whose names once sat on one another at the left edge
    dell = nm.preset("dell-r7525")
    own = dell.replace(host=dell.host.replace(cycles_per_io=None))
    f = ph.stack_ceilings_frame(own, nm.Workload("randread", "4K"), STACKS, np.arange(1, 25))
    ax = ph.plot_stack_ceilings(f)
    try:
        names = [(t.xy, t.get_text()) for t in ax.texts if t.get_text().startswith("host CPU")]
        top = ax.get_ylim()[1]
        assert len(names) == len({t for _, t in names}) >= 5
        close = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if abs(a[0][1] - b[0][1]) < 0.04 * top]
        assert close  # the case this checks is present
        assert all(a[0][0] != b[0][0] for a, b in close)
    finally:
        plt.close(ax.figure)


def test_a_psync_line_is_labelled_an_upper_bound():
    # QA2 G4/G5: psync keeps one I/O in flight per job; with the drive's QD1 latency unknown its line is an upper bound
    import nvmemodel as nm
    from nvmemodel.plots.hosts import plot_stack_ceilings, stack_ceilings_frame

    frame = stack_ceilings_frame(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), ["libaio", "psync"], [1, 24])
    labels = plot_stack_ceilings(frame).get_legend_handles_labels()[1]
    assert any(lab.startswith("psync") and "upper bound" in lab and "1 I/O in flight per job" in lab for lab in labels)
    # QA s25 H39: libaio's 32 in flight / 115 us (the catalog's slowest NAND QD1 latency) = 278 K < 1.45 M: it may
    # bind there too, but one I/O in flight per job is psync's alone
    assert any(lab.startswith("libaio") and "upper bound" in lab and "may bind" in lab for lab in labels)
    assert not any(lab.startswith("libaio") and "1 I/O in flight" in lab for lab in labels)
