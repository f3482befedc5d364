"""Scaling curves coloured by their binding component, and the PCIe overhead waterfall."""

from __future__ import annotations

import numpy as np

from ..ceiling.components import color
from ..units import convert


def plot_scaling(curve, *, ax=None, unit: str = "GB/s", label: str | None = None, marker: str = "o",
                 ceilings: bool = False):
    """Plot a :class:`~nvmemodel.ScalingCurve`: bandwidth (``unit``, e.g. "GB/s", "GiB/s", "MB/s") or
    IOPS (``unit="IOPS"``/``"MIOPS"``) against drive count, each point coloured by what binds it.

    With ``ceilings=True`` each finite component-alone ceiling is drawn as a thin dashed line.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))

    def scale(iops):
        if unit == "IOPS":
            return np.asarray(iops)
        if unit == "MIOPS":
            return np.asarray(iops) / 1e6
        return convert(np.asarray(iops) * curve.block_size, unit)  # the evaluated vector's block size

    from matplotlib.ticker import MaxNLocator

    y = scale(curve.iops)
    ax.plot(curve.drives, y, lw=1.2, label=label, marker=marker, markersize=9, markerfacecolor="none")
    shown = set(ax.get_legend_handles_labels()[1])
    for name in dict.fromkeys(curve.binding):  # fill colour = binding component (one legend entry each)
        sel = curve.binding == name
        ax.scatter(curve.drives[sel], y[sel], color=color(str(name)), marker=marker, s=25, zorder=3,
                   label=None if f"binds: {name}" in shown else f"binds: {name}")
        shown.add(f"binds: {name}")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if ceilings:  # each finite component alone, dashed; far-away ones fall outside the y range
        for name, values in curve.ceilings.items():
            if np.all(np.isfinite(values)):
                ax.plot(curve.drives, scale(values), ls="--", lw=0.8, color=color(name), alpha=0.6)
    # y range: 30 % above the highest solid curve on these axes (dashed ceilings may fall outside)
    top = 1.3 * max(float(np.nanmax(line.get_ydata())) for line in ax.lines if line.get_linestyle() == "-")
    ax.set_xlabel("drives")
    ax.set_ylabel(unit if unit in ("IOPS", "MIOPS") else f"bandwidth ({unit})")
    ax.set_ylim(0, top)
    ax.legend(fontsize="small")
    return ax


def plot_waterfall(frame, *, ax=None, unit: str = "GB/s", title: str | None = None):
    """Bar chart of :func:`~nvmemodel.pcie_waterfall` stages."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3), layout="constrained")
    values = convert(frame["bytes_per_s"].to_numpy(), unit)
    ax.set_xlim(0, values.max() * 1.45)  # room for the value labels
    ax.barh(frame["stage"][::-1], values[::-1], color="#4c72b0")
    for i, (v, f) in enumerate(zip(values[::-1], frame["fraction_of_raw"][::-1])):
        ax.text(v, i, f" {v:.2f} ({f:.1%} of raw)", va="center", fontsize="small")
    ax.set_xlabel(unit)
    if title:
        ax.set_title(title)
    return ax
