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
    keys = ["amd-epyc-7742", "intel-xeon-platinum-8380", "amd-threadripper-pro-3995wx"]
    f = ph.host_ceilings_frame(keys)
    row = f.set_index("key").loc["amd-epyc-7742"]
    assert row.socket_dma == pytest.approx(2 * 0.38 * 204.8e9) and row.root_complexes == pytest.approx(8 * 46.9e9)
    assert np.isnan(f.set_index("key").loc["amd-threadripper-pro-3995wx"].inter_socket)  # one socket: no link
    left, right = ph.plot_host_ceilings(f)
    try:
        assert [t.get_text() for t in left.get_yticklabels()] == list(f.host)
        assert right.get_xscale() == "log" and "M IOPS" in right.get_xlabel()
        assert len(left.patches) == 4 * len(keys) and left.get_xscale() == "linear" and left.get_xlim()[0] == 0
        # the log panel draws dots, not bars (a bar's length means nothing on a log axis: QA F25)
        assert len(right.patches) == 0 and len(right.lines) == 3
        assert all(line.get_linestyle() == "None" and line.get_xdata().size == len(keys) for line in right.lines)
    finally:
        plt.close(left.figure)
