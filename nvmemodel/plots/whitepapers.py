"""Figures of the notebooks: model curves against a paper's stated points, labelled ceilings, bars.

Every function takes tidy frames (the same frames the notebooks save as CSV next to each figure),
draws on ``ax`` (a new figure if None) and returns the Axes. Rules they follow: units on both axes,
every line and marker in the legend, model curves drawn through every x they are given (evaluate
them at every integer drive count, not at a few joined points), measured points as markers only,
ceilings dashed and named.
"""

from __future__ import annotations

import numpy as np

from ..ceiling.components import color
from ..units import convert

__all__ = ["ceilings_frame", "curves_frame", "plot_bars", "plot_lines", "plot_scaling_vs_paper", "plot_waterfall_losses", "scale"]

_MARKERS = "osD^vP*X"


def scale(values, unit: str):
    """SI values (bytes/s or IOPS) in a display unit: any of :func:`nvmemodel.units.convert`'s
    (``"GB/s"``, ``"GiB/s"``, ``"MB/s"``, ``"Gb/s"``, ``"MIOPS"``, ``"KIOPS"``) or ``"IOPS"``."""
    values = np.asarray(values, dtype=float)
    return values if unit == "IOPS" else convert(values, unit)


def curves_frame(curves, *, bandwidth: bool):
    """Tidy model frame of :class:`~nvmemodel.ScalingCurve` s (``{series: curve}``): ``series``, ``drives``,
    ``value`` (bytes/s if ``bandwidth`` else IOPS), ``binding`` — the input of :func:`plot_scaling_vs_paper`."""
    import pandas as pd

    return pd.concat([pd.DataFrame({"series": name, "drives": c.drives, "value": c.bytes_per_s if bandwidth else c.iops,
                                    "binding": c.binding}) for name, c in curves.items()], ignore_index=True)


def ceilings_frame(curve, components, *, bandwidth: bool, prefix: str = ""):
    """Component-alone ceilings of one curve (``{component: label}`` or a list of names) as a frame with
    ``label``, ``drives``, ``value`` (SI) — dashed lines in :func:`plot_scaling_vs_paper`."""
    import pandas as pd

    labels = components if isinstance(components, dict) else {c: curve.labels.get(c, c) for c in components}
    size = curve.block_size if bandwidth else 1.0
    return pd.concat([pd.DataFrame({"label": f"{prefix}{label} [{name}]", "drives": curve.drives,
                                    "value": curve.ceilings[name] * size}) for name, label in labels.items()],
                     ignore_index=True)


def _axes(ax, size=(7, 4.2)):
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def plot_scaling_vs_paper(model, *, unit: str, measured=None, ceilings=None, ax=None, title: str | None = None,
                          x: str = "drives", xlabel: str = "drives"):
    """Model curves (one per ``series``), coloured dots for the binding component at each x, the paper's
    points as large markers, and component ceilings as named dashed lines.

    Parameters
    ----------
    model : DataFrame
        ``series``, ``x`` column (default ``drives``), ``value`` (SI: bytes/s or IOPS), ``binding``.
    unit : str
        Display unit of ``value`` (see :func:`scale`); it labels the y axis.
    measured : DataFrame, optional
        ``series``, ``x``, ``value`` (SI), ``label`` (legend text, e.g. "Lenovo LP0865: 6,200 MB/s cap").
        A stated upper bound has ``marker`` "v".
    ceilings : DataFrame, optional
        ``label``, ``x``, ``value`` (SI): a ceiling drawn as a dashed line over the x it is given.
    """
    ax = _axes(ax)
    series = list(dict.fromkeys(model["series"]))
    palette = [f"C{i}" for i in range(10)]
    for i, name in enumerate(series):  # earlier series wider, so curves that coincide stay visible
        m = model[model["series"] == name]
        ax.plot(m[x], scale(m["value"], unit), color=palette[i % 10], lw=1.5 + min(1.3, 4.0 / max(len(series) - 1, 1)) * (len(series) - 1 - i),
                alpha=0.85, solid_capstyle="butt", label=f"model: {name}", zorder=2)
    shown = set()
    for name in dict.fromkeys(model["binding"]):
        sel = model["binding"] == name
        ax.scatter(model.loc[sel, x], scale(model.loc[sel, "value"], unit), s=14, color=color(str(name)), zorder=3,
                   label=None if name in shown else f"model binds: {name}")
        shown.add(name)
    if ceilings is not None:
        for j, (label, c) in enumerate(ceilings.groupby("label", sort=False)):
            ax.plot(c[x], scale(c["value"], unit), ls="--", lw=1.0, color="0.35", dashes=(2 + 2 * j, 2),
                    label=f"ceiling: {label}", zorder=1)
    if measured is not None:
        for k, (label, m) in enumerate(measured.groupby("label", sort=False)):
            marker = m["marker"].iloc[0] if "marker" in m else _MARKERS[k % len(_MARKERS)]
            idx = series.index(m["series"].iloc[0]) if m["series"].iloc[0] in series else k
            ax.scatter(m[x], scale(m["value"], unit), marker=marker, s=90, facecolor="none",
                       edgecolor=palette[idx % 10], linewidth=2, zorder=4, label=label)
    ys = [scale(model["value"], unit)]
    if measured is not None:
        ys.append(scale(measured["value"], unit))
    top = max(float(np.nanmax(v)) for v in ys)
    ax.set_ylim(0, top * 1.25)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(unit if unit.endswith("IOPS") else f"bandwidth ({unit})")
    if np.issubdtype(np.asarray(model[x]).dtype, np.integer):
        from matplotlib.ticker import MaxNLocator
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if title:
        ax.set_title(title, fontsize="medium")
    ax.legend(fontsize="x-small", loc="upper left")
    ax.grid(alpha=0.3)
    return ax


def plot_lines(frame, *, x: str, y: str, series: str, ax=None, xlabel: str, ylabel: str, log2x: bool = False,
               title: str | None = None, markers=None, hlines=None):
    """Model curves ``y(x)`` per ``series`` (already in display units), optional marked points
    (``markers``: frame with ``x``, ``y``, ``label``) and named horizontal lines (``hlines``: label → y)."""
    ax = _axes(ax)
    for name, g in frame.groupby(series, sort=False):
        ax.plot(g[x], g[y], lw=1.6, label=f"{series}: {name}" if not isinstance(name, str) else name)
    for j, (label, value) in enumerate((hlines or {}).items()):
        ax.axhline(value, ls="--", lw=1.0, color="0.3", dashes=(2 + 2 * j, 2), label=label)
    if markers is not None:
        for k, (label, m) in enumerate(markers.groupby("label", sort=False)):
            ax.scatter(m[x], m[y], marker=_MARKERS[k % len(_MARKERS)], s=70, facecolor="none", edgecolor="k",
                       linewidth=1.5, zorder=4, label=label)
    if log2x:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize="medium")
    ax.legend(fontsize="x-small")
    ax.grid(alpha=0.3)
    return ax


def plot_bars(frame, *, category: str, group: str, value: str, ax=None, ylabel: str, fmt: str = "{:.2f}",
              title: str | None = None, points=None):
    """Grouped bars: one group of bars per ``category``, one bar per ``group`` (legend), labelled values
    (``value`` already in display units). ``points`` (frame with ``category``, ``group``, ``value``, ``label``
    columns named as here) marks measurements on their bars."""
    ax = _axes(ax)
    cats = list(dict.fromkeys(frame[category]))
    groups = list(dict.fromkeys(frame[group]))
    width = 0.8 / len(groups)
    for i, gname in enumerate(groups):
        g = frame[frame[group] == gname].set_index(category).reindex(cats)
        xs = np.arange(len(cats)) + (i - (len(groups) - 1) / 2) * width
        bars = ax.bar(xs, g[value], width, label=str(gname))
        ax.bar_label(bars, labels=["" if np.isnan(v) else fmt.format(v) for v in g[value]], fontsize="x-small")
    top = float(np.nanmax(frame[value]))
    if points is not None:
        for k, (label, pts) in enumerate(points.groupby("label", sort=False)):
            xs = [cats.index(c) + (groups.index(g) - (len(groups) - 1) / 2) * width
                  for c, g in zip(pts[category], pts[group])]
            ax.scatter(xs, pts[value], marker=_MARKERS[k % len(_MARKERS)], s=80, color="k", zorder=4, label=label)
        top = max(top, float(np.nanmax(points[value])))
    ax.set_xticks(np.arange(len(cats)), cats)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, top * 1.2)
    if title:
        ax.set_title(title, fontsize="medium")
    ax.legend(fontsize="x-small")
    ax.grid(alpha=0.3, axis="y")
    return ax


def plot_waterfall_losses(frame, *, unit: str = "GB/s", ax=None, title: str | None = None):
    """Horizontal bars of :func:`nvmemodel.tables.waterfall_losses`: each stage's rate, its share of the
    signalling rate, and what the step into it took away (named, in % of the stage before)."""
    ax = _axes(ax, size=(10, 3.6))
    values = scale(frame["bytes_per_s"], unit)
    ax.barh(frame["stage"][::-1], values[::-1], color="#4c72b0", label=f"rate after each stage ({unit})")
    for i, r in enumerate(frame.iloc[::-1].itertuples()):
        v = values[len(values) - 1 - i]
        lost = f"; lost {r.loss_pct:.2f} % to {r.loss.split(' (')[0]}" if r.loss else ""
        ax.text(v, i, f" {v:.3f} ({r.pct_of_signalling:.1f} % of signalling{lost})", va="center", fontsize="x-small")
    ax.set_xlim(0, float(values.max()) * 1.9)  # room for the labels
    ax.set_xlabel(f"payload-equivalent rate ({unit})")
    ax.legend(fontsize="x-small", loc="lower right")
    if title:
        ax.set_title(title, fontsize="medium")
    return ax


def waterfall_controls(draw, *, generation: int, lanes: int, mps: int, block_size: str):
    """ipywidgets controls (generation, lanes, MPS, block size) that redraw ``draw(gen, lanes, mps, bs)``
    in JupyterLab; None when ipywidgets is not installed (the static figure for the parameters stays)."""
    try:
        import ipywidgets as w
    except ImportError:
        return None
    from ..standards.pcie import LINK_WIDTHS, MPS_CHOICES

    return w.interactive(draw, gen=w.IntSlider(value=int(generation), min=1, max=6, description="generation"),
                         lanes=w.Dropdown(options=list(LINK_WIDTHS), value=int(lanes), description="lanes"),
                         mps=w.Dropdown(options=list(MPS_CHOICES), value=int(mps), description="MPS (B)"),
                         bs=w.Dropdown(options=list(dict.fromkeys(["512", "4K", "16K", "64K", "128K", "256K", "1M",
                                                                   str(block_size)])),
                                       value=str(block_size), description="block size"))
