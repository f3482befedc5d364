"""Figures of the host side: which I/O stack makes the CPU bind where, and the catalog hosts side by side.

Both follow ``plots/style.py``: series told apart by colour, marker and line style; the binding shown
by its own encoding (a cross where a stack's CPU ceiling starts to bind), legends outside the data,
drive counts as whole numbers on a linear axis (the curves are straight where they scale), throughput
axes from 0 with the unit in the label.
"""

from __future__ import annotations

import numpy as np

__all__ = ["host_ceilings_frame", "plot_host_ceilings", "plot_stack_ceilings", "stack_ceilings_frame"]


def stack_ceilings_frame(topology, workload, stacks, drives):
    """One row per (stack, drive count): the system ceiling, the host-CPU ceiling of that stack, the drives'
    own ceiling and the binding component (IOPS, SI)."""
    import pandas as pd

    from ..ceiling.evaluate import evaluate

    rows = []
    for s in stacks:
        c = evaluate(topology, workload.replace(io_stack=s), drives=drives)
        for k, n in enumerate(c.drives):
            rows.append({"series": str(s), "drives": int(n), "value": float(c.iops[k]),
                         "host_cpu": float(c.ceilings["host_cpu"][k]), "drive": float(c.ceilings["drive"][k]),
                         "binding": str(c.binding[k]), "cycles_per_io": float(c.parameters["host.cycles_per_io"]),
                         "upper_bound": c.upper_bound_note or ""})
    return pd.DataFrame(rows)


def plot_stack_ceilings(frame, *, ax=None, title: str | None = None, quantity: str = "4K random read"):
    """Each stack's system ceiling against drive count, its host-CPU ceiling as a dotted line in the same
    colour, the drives' own ceiling as a grey band under them, and a cross where the CPU starts to bind.

    CPU ceilings above the chart are named in the legend with their value ("above the chart"), so every
    stack's ceiling is on the figure even when it cannot bind here. ``frame``: :func:`stack_ceilings_frame`.
    Returns the Axes.
    """
    import matplotlib.pyplot as plt

    from .style import axis_label, legend_outside, series_style, set_title

    ax = ax if ax is not None else plt.subplots(figsize=(10, 5.5), layout="constrained")[1]
    stacks = list(dict.fromkeys(frame["series"]))
    first = frame[frame["series"] == stacks[0]]
    drives = first["drives"].to_numpy()
    top = 1.3 * float(frame["drive"].max())
    ax.plot(drives, first["drive"] / 1e6, color="0.55", lw=9, alpha=0.25, solid_capstyle="butt", zorder=1,
            label=f"the drives alone ({first['drive'].iloc[0] / 1e6:.2f} M IOPS each)")
    names = []  # (CPU ceiling, stack, colour) of each dotted line drawn, named once all are known
    for i, s in enumerate(stacks):
        m = frame[frame["series"] == s]
        st = series_style(i, n=len(stacks))
        cpu, cycles = float(m["host_cpu"].iloc[0]), float(m["cycles_per_io"].iloc[0])
        where = "" if cpu <= top else f"; CPU ceiling {cpu / 1e6:,.0f} M, above the chart"
        if "upper_bound" in m and "QD1 latency" in str(m["upper_bound"].iloc[0]):  # QA2 G4/G5, QA s25 H39
            where += "; upper bound (the drive's QD1 latency is unknown and may bind" + (
                ": 1 I/O in flight per job)" if s == "psync" else ")")
        # markers staggered over the drive counts, so that stacks lying on the same values stay told apart
        ax.plot(m["drives"], m["value"] / 1e6, lw=1.6, zorder=3 + 0.1 * i, markevery=(i, len(stacks)),
                label=f"{s}: {cycles:,.0f} cycles/I/O{where}", **st)
        if cpu <= top:
            ax.axhline(cpu / 1e6, color=st["color"], ls=":", lw=1.4, zorder=2)
            names.append((cpu, s, st["color"]))
        bound = m[m["binding"] == "host_cpu"]
        if len(bound):
            ax.plot(bound["drives"].iloc[0], bound["value"].iloc[0] / 1e6, marker="X", ms=13, color=st["color"],
                    mec="k", mew=0.8, ls="none", zorder=6)
    # each dotted line's name at its left end; names of lines closer than 4 % of the height apart move right, in
    # steps of a quarter of the drive range, so that none covers another
    column, last = 0, -np.inf
    for cpu, s, color in sorted(names):
        column = column + 1 if cpu - last < 0.04 * top else 0
        last = cpu
        ax.annotate(f"host CPU, {s}", (drives[0] + column * drives.max() / 4, cpu / 1e6), xytext=(2, 2),
                    textcoords="offset points", fontsize="x-small", color=color, va="bottom")
    ax.plot([], [], marker="X", ms=10, color="0.6", mec="k", ls="none", label="the host CPU starts to bind")
    ax.set_ylim(0, top / 1e6)
    ax.set_xlim(0, drives.max() + 1)
    step = 4 if drives.max() > 12 else 1
    ax.set_xticks(sorted({1, *range(step, int(drives.max()) + 1, step)}))
    ax.set_xlabel("drives")
    ax.set_ylabel(axis_label(quantity, "M IOPS"))
    ax.grid(alpha=0.3)
    if title:
        ax.set_title(title)
    legend_outside(ax, where="right")
    if title:
        set_title(ax, title)
    return ax


#: The bandwidth limits of :func:`host_ceilings_frame`, in drawing order, with their legend text.
_BANDWIDTH = (("pcie_lanes", "PCIe lanes after encoding (all sockets)"), ("root_complexes", "root complexes x their DMA"),
              ("socket_dma", "sockets x DMA share of memory"), ("inter_socket", "inter-socket link (one way)"))


def host_ceilings_frame(keys, *, stacks=("libaio", "io_uring", "io_uring_polled"), block_size: int = 4096):
    """Per catalog host (default socket count): every above-link bandwidth limit (bytes/s) and the CPU's
    IOPS ceiling per stack; ``cpu_status`` is the status of the CPU's own values in catalog/hosts.csv
    (``spec``, ``spec+recalled`` where some were not re-verified, ``recalled``)."""
    import pandas as pd

    from ..standards.pcie import raw_bytes_per_s
    from ..topology.host import STACK_CYCLES, IoStack, _host_rows, get_host

    rows = []
    for key in keys:
        h = get_host(key)
        p = h.platform
        n = h.sockets
        cat = _host_rows()[h.key]
        row = {"key": key, "host": h.name, "sockets": n,
               "cpu_status": cat["status"] + ("+recalled" if cat["status"] != "recalled" and cat["recalled"] else ""),
               "pcie_lanes": n * float(raw_bytes_per_s(int(h.gen), h.lanes_per_socket)),
               "root_complexes": n * p["tree.complexes_per_socket"] * p["tree.complex_bytes_per_s"],
               "socket_dma": n * p["memory.dma_fraction"] * p["memory.peak_bytes_per_s"],
               # a STREAM-class (CPU loads and stores) share stands in where no device-DMA observation exists:
               # an upper bound, not comparable with a share measured for device DMA (QA round 4, F4)
               "dma_upper_bound": "STREAM" in (src := h.platform_sources.get("memory.dma_fraction", ""))
                                  and "device-DMA observation" not in src,
               "inter_socket": p.get("tree.inter_socket_bytes_per_s", np.nan)}
        for s in stacks:
            row[f"cpu_{s}"] = n * h.cores_per_socket * h.clock_hz / STACK_CYCLES[IoStack.parse(s)][0]
        row["cpu_bytes_per_s_libaio"] = row.get("cpu_libaio", np.nan) * block_size
        rows.append(row)
    return pd.DataFrame(rows)


def host_labels(frame) -> list[str]:
    """Row labels of :func:`plot_host_ceilings`: the host's name, with "(recalled)" where every value of its CPU
    row was remembered, not read in a source (catalog/hosts.csv status ``recalled``)."""
    status = frame["cpu_status"] if "cpu_status" in frame else [""] * len(frame)
    return [f"{h} (recalled)" if st == "recalled" else str(h) for h, st in zip(frame["host"], status)]


def plot_host_ceilings(frame, *, axes=None, stacks=("libaio", "io_uring", "io_uring_polled")):
    """Two panels side by side, one row per host: its bandwidth limits above the links (GB/s, bars on a linear
    axis from 0) and its CPU's 4K IOPS ceiling per I/O stack (M IOPS, dots on a log axis). ``frame``:
    :func:`host_ceilings_frame`; a host whose CPU values are all recalled (``cpu_status``) is labelled so.
    Returns the two Axes."""
    import matplotlib.pyplot as plt

    from .style import PALETTE, legend_outside

    if axes is None:
        fig, axes = plt.subplots(1, 2, figsize=(12, 0.42 * len(frame) + 1.8), layout="constrained", sharey=True)
    left, right = axes
    y = np.arange(len(frame))[::-1]
    hatches = ("", "//", "..", "xx")
    width = 0.8 / len(_BANDWIDTH)
    bound = frame["dma_upper_bound"].to_numpy(dtype=bool) if "dma_upper_bound" in frame else np.zeros(len(frame), bool)
    for j, (col, label) in enumerate(_BANDWIDTH):
        v = np.nan_to_num(frame[col].to_numpy(dtype=float) / 1e9)
        at = y + 0.4 - width * (j + 0.5)
        faded = bound if col == "socket_dma" else np.zeros(len(frame), bool)
        left.barh(at[~faded], v[~faded], height=width, color=PALETTE[j], hatch=hatches[j], edgecolor="white",
                  linewidth=0.3, label=label.replace("sockets x DMA share of memory", "sockets x DMA share") + (
                      " (device DMA)" if faded.any() else ""))
        if faded.any():
            left.barh(at[faded], v[faded], height=width, color=PALETTE[j], alpha=0.35, hatch=hatches[j],
                      edgecolor="white", linewidth=0.3, label="faded: STREAM-class share (upper bound)")
    left.set_yticks(y, host_labels(frame))
    left.set_xlabel("bandwidth, one direction (GB/s)")
    left.set_xlim(0, None)
    left.grid(axis="x", alpha=0.3)
    legend_outside(left, where="top", ncol=2)
    width = 0.8 / len(stacks)
    markers = ("o", "s", "D", "^")
    for j, s in enumerate(stacks):  # dots, not bars: a bar's length means nothing on a log axis
        v = frame[f"cpu_{s}"].to_numpy(dtype=float) / 1e6
        right.plot(v, y + 0.4 - width * (j + 0.5), linestyle="none", marker=markers[j % len(markers)], markersize=5,
                   color=PALETTE[4 + j % 3], label=s)
    right.set_xscale("log")
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    right.xaxis.set_major_locator(FixedLocator([1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000]))
    right.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
    right.xaxis.set_minor_locator(NullLocator())
    cpu = frame[[f"cpu_{s}" for s in stacks]].to_numpy(dtype=float) / 1e6
    right.set_xlim(min(5.0, 0.7 * float(np.nanmin(cpu))), 1.4 * float(np.nanmax(cpu)))
    right.set_xlabel("4K I/O per second the host CPU sustains,\nby I/O stack (M IOPS, log scale)")
    right.grid(axis="x", alpha=0.3, which="both")
    legend_outside(right, where="top", ncol=3)
    return left, right
