"""Scaling curves with the binding component named under them, and the PCIe overhead waterfall."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from ..units import convert

if TYPE_CHECKING:  # for annotations only: matplotlib and pandas load when a chart is drawn
    import pandas as pd
    from matplotlib.axes import Axes

    from ..ceiling.result import ScalingCurve
    from .style import ChartAxes


def plot_scaling(curve: ScalingCurve, *, ax: Axes | None = None, unit: str = "GB/s", label: str | None = None,
                 marker: str | None = None, ceilings: bool = False, binding: bool = True) -> Axes:
    """Plot a :class:`~nvmemodel.ScalingCurve`: bandwidth (``unit``, e.g. "GB/s", "GiB/s", "MB/s") or
    IOPS (``unit="IOPS"``/``"KIOPS"``/``"MIOPS"``) against drive count.

    Each call adds one series (its own colour, marker and line style, see
    :func:`nvmemodel.plots.style.series_style`); with ``binding`` a strip under the axes names the
    component that binds each series at each drive count (``ax.binding_strip``; one row per series,
    redrawn as series are added). With ``ceilings=True`` each finite component-alone ceiling that comes
    within a factor 2 of the curve is drawn as a thin dashed line in the series' colour.
    """
    import matplotlib.pyplot as plt

    from .style import axis_label, binding_strip, legend_outside, series_style

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.6), layout="constrained")
    ax = cast("ChartAxes", ax)  # (it gains the attributes the docstring names)

    def scale(iops):
        if unit in ("IOPS", "KIOPS", "MIOPS"):
            return np.asarray(iops) / {"IOPS": 1.0, "KIOPS": 1e3, "MIOPS": 1e6}[unit]
        return convert(np.asarray(iops) * curve.block_size, unit)  # the evaluated vector's block size

    from matplotlib.ticker import MaxNLocator

    rows = getattr(ax, "_binding_rows", {})
    st = series_style(len(rows), n=max(len(rows) + 1, 2))
    if marker is not None:
        st["marker"] = marker
    name = label or f"series {len(rows) + 1}"
    y = scale(curve.iops)
    ax.plot(curve.drives, y, lw=1.4, label=label, **st)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if ceilings:  # each finite component alone, dashed, where it comes near the curve
        for j, (comp, values) in enumerate(curve.ceilings.items()):
            values = np.asarray(values, dtype=float)
            if np.all(np.isfinite(values)) and comp != "drive":
                near = np.where(values <= 2.0 * curve.iops, values, np.nan)
                if np.isfinite(near).any():
                    ax.plot(curve.drives, scale(near), ls="--", lw=0.9, color=st["color"], alpha=0.7, dashes=(2 + j % 5, 2),
                            label=f"ceiling: {curve.labels.get(comp, comp)} [{comp}]")
    # y range: 30 % above the highest model curve on these axes (dashed ceilings may fall outside)
    top = 1.3 * max(float(np.nanmax(line.get_ydata())) for line in ax.lines if line.get_linestyle() != "--")
    ax.set_xlabel("drives")
    ax.set_ylabel({"IOPS": "IOPS", "KIOPS": "K IOPS", "MIOPS": "M IOPS"}.get(unit) or axis_label("bandwidth", unit))
    ax.set_ylim(0, top)
    if ax.get_legend_handles_labels()[1]:
        legend_outside(ax, where="top")
    rows[name] = (np.asarray(curve.drives), np.asarray(curve.binding))
    ax._binding_rows = rows
    if binding:
        old = getattr(ax, "binding_strip", None)
        if old is not None:
            old.remove()
        ax.binding_strip = binding_strip(ax, rows)
    return ax


def plot_waterfall(frame: pd.DataFrame, *, ax: Axes | None = None, unit: str = "GB/s",
                   title: str | None = None) -> Axes:
    """Bar chart of :func:`~nvmemodel.pcie_waterfall` stages."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3), layout="constrained")
    values = convert(frame["bytes_per_s"].to_numpy(), unit)
    ax.set_xlim(0, values.max() * 1.45)  # room for the value labels
    ax.barh(frame["stage"][::-1], values[::-1], color="#0072B2")
    for i, (v, f) in enumerate(zip(values[::-1], frame["fraction_of_raw"][::-1])):
        ax.text(v, i, f" {v:.2f} ({f:.1%} of raw)", va="center", fontsize="small")
    ax.set_xlabel(f"rate after each stage ({unit})")
    if title:
        ax.set_title(title)
    return ax
