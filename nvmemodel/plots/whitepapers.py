"""Figures of the notebooks: model curves against a paper's stated points, labelled ceilings, bars.

Every function takes tidy frames (the same frames the notebooks save as CSV next to each figure),
draws on ``ax`` (a new figure if None) and returns the Axes. Rules they follow: units on both axes,
every line and marker in the legend, model curves drawn through every x they are given (evaluate
them at every integer drive count, not at a few joined points), measured points as markers only,
ceilings dashed and named.
"""

from __future__ import annotations

import numpy as np

from ..units import convert

__all__ = ["ceilings_frame", "curves_frame", "plot_bars", "plot_lines", "plot_scaling_vs_paper", "plot_waterfall_losses",
           "scale", "unit_label"]

_MARKERS = "osD^vP*X"
_PAPER_MARKERS = "*PXD"  # the papers' stated points (model series use o s ^ D …)


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


def ceilings_frame(curve, components, *, bandwidth: bool, prefix: str = "", series: str | None = None):
    """Component-alone ceilings of one curve (``{component: label}`` or a list of names) as a frame with
    ``label``, ``drives``, ``value`` (SI) — dashed lines in :func:`plot_scaling_vs_paper`; with ``series``
    (the model series the curve is) also a ``series`` column, so the line takes that series' colour."""
    import pandas as pd

    labels = components if isinstance(components, dict) else {c: curve.labels.get(c, c) for c in components}
    size = curve.block_size if bandwidth else 1.0
    frame = pd.concat([pd.DataFrame({"label": f"{prefix}{label} [{name}]", "drives": curve.drives,
                                     "value": curve.ceilings[name] * size}) for name, label in labels.items()],
                      ignore_index=True)
    return frame if series is None else frame.assign(series=series)


def _axes(ax, size=(7, 4.2)):
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def unit_label(unit: str) -> str:
    """A display unit as the axis label writes it: ``"MIOPS"`` → ``"M IOPS"``, ``"KIOPS"`` → ``"K IOPS"``."""
    return {"MIOPS": "M IOPS", "KIOPS": "K IOPS", "GIOPS": "G IOPS"}.get(unit, unit)


def _same_as(values: dict[str, np.ndarray]) -> dict[str, str]:
    """For each series whose values equal an earlier series' at every x: the name of that earlier series."""
    out, names = {}, list(values)
    for i, name in enumerate(names):
        for earlier in names[:i]:
            a, b = values[name], values[earlier]
            if a.shape == b.shape and np.allclose(a, b, rtol=1e-9, atol=0):
                out[name] = earlier
                break
    return out


def plot_scaling_vs_paper(model, *, unit: str, measured=None, ceilings=None, ax=None, title: str | None = None,
                          x: str = "drives", xlabel: str = "drives", quantity: str | None = None,
                          binding: bool = True, legend: str = "top", note: str | None = None):
    """Model curves (one per ``series``), the paper's points as large markers, component ceilings as named
    dashed lines, and under the axes a strip naming the binding component of each series at each x.

    Parameters
    ----------
    model : DataFrame
        ``series``, ``x`` column (default ``drives``), ``value`` (SI: bytes/s or IOPS), ``binding``.
    unit : str
        Display unit of ``value`` (see :func:`scale`); it labels the y axis ("bandwidth (MB/s)", "M IOPS").
    measured : DataFrame, optional
        ``series``, ``x``, ``value`` (SI), ``label`` (legend text, e.g. "Lenovo LP0865: 6,200 MB/s cap").
        A stated upper bound has ``marker`` "v". A point the model was calibrated on has ``calibration``
        True: drawn filled, its legend entry says "calibration input" (agreement by construction); hollow
        markers are checks the model was not fitted to.
    ceilings : DataFrame, optional
        ``label``, ``x``, ``value`` (SI), optionally ``series`` (drawn in that series' colour): a ceiling as a
        dashed line, drawn where it comes within a factor 2 of the model (far-off stretches are left out,
        so a ceiling that jumps where a second socket fills does not cross the chart).
    quantity : str, optional
        What the y axis measures ("4K random read"); default "bandwidth" or "IOPS".
    binding : bool
        Draw the binding-component strip under the axes (``ax.binding_strip``).
    legend : str
        ``"top"`` (above the axes) or ``"right"`` (beside them): never over the data.
    note : str, optional
        What the model could not apply (a curve's ``upper_bound_note``, e.g. a drive rating the catalog lacks):
        printed in the panel's upper left, so the chart says it is an upper bound (``ax.upper_bound``).
    """
    from .style import axis_label, binding_strip, legend_outside, series_style

    ax = _axes(ax)
    series = list(dict.fromkeys(model["series"]))
    by_series = {name: model[model["series"] == name] for name in series}
    same = _same_as({n: np.asarray(m["value"], dtype=float) for n, m in by_series.items()})
    colours = {}
    for i, name in enumerate(series):
        m = by_series[name]
        st = series_style(i, n=len(series))
        colours[name] = st["color"]
        label = f"model: {name}" + (f" (same values as {same[name]})" if name in same else "")
        ax.plot(m[x], scale(m["value"], unit), lw=1.6, alpha=0.9, label=label, zorder=2 + 0.1 * i, **st)
    if ceilings is not None:
        for j, (label, c) in enumerate(ceilings.groupby("label", sort=False)):
            owner = c["series"].iloc[0] if "series" in c and c["series"].iloc[0] in by_series else None
            values = np.asarray(c["value"], dtype=float)
            near = by_series[owner] if owner else model
            reference = near.groupby(x)["value"].max().reindex(c[x]).to_numpy(dtype=float)
            shown = np.where(values <= 2.0 * np.where(np.isnan(reference), np.inf, reference), values, np.nan)
            ax.plot(c[x], scale(shown, unit), ls="--", lw=1.2, color=colours.get(owner, "0.3"),
                    dashes=(4 + 2 * j, 2.5), label=f"ceiling: {label}", zorder=1)
    calibration = False
    if measured is not None:
        for k, (label, m) in enumerate(measured.groupby("label", sort=False)):
            marker = m["marker"].iloc[0] if "marker" in m else _PAPER_MARKERS[k % len(_PAPER_MARKERS)]
            cal = bool(m["calibration"].iloc[0]) if "calibration" in m else False
            calibration |= cal
            # paper points: black, unlike any model marker; filled = a calibration input, white = a check
            ax.scatter(m[x], scale(m["value"], unit), marker=marker, s=170, facecolor="k" if cal else "white",
                       edgecolor="k", linewidth=1.6, zorder=5,
                       label=f"{label} — calibration input" if cal else label)
    ys = [scale(model["value"], unit)]
    if measured is not None:
        ys.append(scale(measured["value"], unit))
    top = max(float(np.nanmax(v)) for v in ys)
    ax.set_ylim(0, top * 1.15)
    ax.set_xlabel(xlabel)
    default = "IOPS" if unit.endswith("IOPS") else "bandwidth"
    ax.set_ylabel(axis_label(quantity or default, unit_label(unit)) if (quantity or default) != "IOPS"
                  else unit_label(unit))
    if np.issubdtype(np.asarray(model[x]).dtype, np.integer):
        from matplotlib.ticker import MaxNLocator
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if title:
        ax.set_title(title, fontsize="medium")
    legend_outside(ax, where=legend, ncol=1) if legend == "top" else legend_outside(ax, where=legend)  # lifts the title
    ax.grid(alpha=0.3)
    ax.calibration_shown = calibration
    ax.upper_bound = note
    if note:
        import textwrap

        ax.text(0.02, 0.97, "\n".join(textwrap.wrap(note, 60)), transform=ax.transAxes, va="top", ha="left",
                fontsize="small", style="italic", color="0.25", zorder=6)
    if binding:
        ax.binding_strip = binding_strip(ax, {n: (m[x].to_numpy(), m["binding"].to_numpy()) for n, m in by_series.items()})
    return ax


def plot_lines(frame, *, x: str, y: str, series: str, ax=None, xlabel: str, ylabel: str, log2x: bool | str = False,
               title: str | None = None, markers=None, hlines=None, legend: str = "inside"):
    """Model curves ``y(x)`` per ``series`` (already in display units), optional marked points
    (``markers``: frame with ``x``, ``y``, ``label``) and named horizontal lines (``hlines``: label → y).

    ``log2x``: ``"size"`` (ticks 512, 4K … 1M), ``"count"`` (1, 2, 4 …) or True (sizes when ``x`` names a
    block size, else counts). Series differ in colour, line style and marker (a marker every few points).
    ``legend``: ``"inside"`` (best free corner), ``"top"`` or ``"right"`` (outside the data)."""
    from .style import legend_outside, log2_axis, series_style, set_title

    ax = _axes(ax)
    groups = list(frame.groupby(series, sort=False))
    for i, (name, g) in enumerate(groups):
        st = series_style(i, n=len(groups))
        st["ms"] = 6
        ax.plot(g[x], g[y], lw=1.6, markevery=0.08 if len(g) > 12 else None,  # evenly along the drawn line
                label=f"{series}: {name}" if not isinstance(name, str) else name, **st)
    for j, (label, value) in enumerate((hlines or {}).items()):
        ax.axhline(value, ls="--", lw=1.0, color="0.3", dashes=(2 + 2 * j, 2), label=label)
    if markers is not None:
        for k, (label, m) in enumerate(markers.groupby("label", sort=False)):
            ax.scatter(m[x], m[y], marker=_MARKERS[k % len(_MARKERS)], s=70, facecolor="none", edgecolor="k",
                       linewidth=1.5, zorder=4, label=label)
    if log2x:
        kind = log2x if isinstance(log2x, str) else ("size" if "block" in x or "size" in x else "count")
        log2_axis(ax, kind=kind)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend == "inside":
        ax.legend(fontsize="x-small")
    else:
        legend_outside(ax, where=legend)
    if title:
        set_title(ax, title)
    ax.grid(alpha=0.3)
    return ax


def plot_bars(frame, *, category: str, group: str, value: str, ax=None, ylabel: str, fmt: str = "{:.2f}",
              title: str | None = None, points=None, hatch=None, notes=None):
    """Grouped bars: one group of bars per ``category``, one bar per ``group`` (legend), labelled values
    (``value`` already in display units). ``points`` (frame with ``category``, ``group``, ``value``, ``label``
    columns named as here) marks measurements on their bars.

    With a single category there is nothing to group: one bar per ``group``, named on the x axis (no
    legend for the bars). ``hatch`` (group → hatch pattern) marks bars that mean something else (e.g. an
    upper bound); ``notes`` (group → text) writes a line under that bar's value."""
    from .style import PALETTE

    ax = _axes(ax)
    cats = list(dict.fromkeys(frame[category]))
    groups = list(dict.fromkeys(frame[group]))
    single = len(cats) == 1
    width = 0.7 if single else 0.8 / len(groups)
    hatch, notes = hatch or {}, notes or {}

    def where(c, g):
        return groups.index(g) if single else cats.index(c) + (groups.index(g) - (len(groups) - 1) / 2) * width

    for i, gname in enumerate(groups):
        g = frame[frame[group] == gname].set_index(category).reindex(cats)
        xs = np.array([where(c, gname) for c in cats])
        bars = ax.bar(xs, g[value], width, label=None if single else str(gname), color=PALETTE[i % len(PALETTE)],
                      hatch=hatch.get(gname), edgecolor="white" if gname in hatch else None, alpha=0.85)
        texts = ["" if np.isnan(v) else fmt.format(v) + (f"\n{notes[gname]}" if gname in notes else "")
                 for v in g[value]]
        ax.bar_label(bars, labels=texts, fontsize="x-small")
    top = float(np.nanmax(frame[value]))
    if points is not None:
        for k, (label, pts) in enumerate(points.groupby("label", sort=False)):
            point_xs = [where(c, g) for c, g in zip(pts[category], pts[group])]
            ax.scatter(point_xs, pts[value], marker=_MARKERS[k % len(_MARKERS)], s=80, color="k", zorder=4, label=label)
        top = max(top, float(np.nanmax(points[value])))
    if single:
        ax.set_xticks(np.arange(len(groups)), [str(g) for g in groups])
        ax.set_xlabel(f"{group} ({cats[0]})")
    else:
        ax.set_xticks(np.arange(len(cats)), cats)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, top * (1.3 if notes else 1.2))
    if title:
        ax.set_title(title, fontsize="medium")
    if ax.get_legend_handles_labels()[1]:
        ax.legend(fontsize="x-small", loc="upper right" if single else "best")
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
    """ipywidgets controls (generation 1-7, lanes, MPS, block size) above the figure ``draw(gen, lanes, mps, bs)``
    returns (its Axes or Figure), redrawn at every change in JupyterLab
    (:func:`nvmemodel.plots.teaching.live_controls`); None when ipywidgets is not installed (the static figure
    for the parameters stays)."""
    try:
        import ipywidgets as w
    except ImportError:
        return None
    from ..standards.pcie import LINK_WIDTHS, MPS_CHOICES, Gen
    from .teaching import live_controls

    return live_controls(draw, {
        "gen": w.IntSlider(value=int(generation), min=1, max=max(Gen), description="generation",
                           continuous_update=False),
        "lanes": w.Dropdown(options=list(LINK_WIDTHS), value=int(lanes), description="lanes"),
        "mps": w.Dropdown(options=list(MPS_CHOICES), value=int(mps), description="MPS (B)"),
        "bs": w.Dropdown(options=list(dict.fromkeys(["512", "4K", "16K", "64K", "128K", "256K", "1M", str(block_size)])),
                         value=str(block_size), description="block size")})
