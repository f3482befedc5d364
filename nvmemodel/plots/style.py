"""Shared look of every figure: human ticks, throughput units, series styles and the binding encoding.

The rules the figures follow (one place, so every chart reads the same way):

- **ticks a storage engineer writes**: block sizes ``512 4K 64K 1M`` (binary, K = 1024 B) and counts
  ``1 2 4 8 …`` on log2 axes (:func:`log2_axis`), never ``2^12``;
- **throughput with its unit in the axis label**, SI-scaled once for the whole axis: ``"bandwidth (GB/s)"``,
  ``"4K random read (M IOPS)"`` (:func:`throughput_unit`, :func:`axis_label`), starting at 0;
- **series told apart by colour *and* marker *and* line style** (:func:`series_style`), from a
  colour-blind-safe palette (Okabe & Ito) that the binding encoding does not use;
- **the binding component shown separately**: a strip under the axes, one row per series, each span
  hatched and tinted by the component that binds there and named in words where it fits
  (:func:`binding_strip`) — never by re-colouring the series' own markers;
- legends outside the data (:func:`legend_outside`) and a caption-sized note on the figure (:func:`note`).

>>> block_size_label(4096), block_size_label(1 << 20), block_size_label(512), count_label(16)
('4K', '1M', '512', '16')
>>> throughput_unit([2.5e6], kind="iops"), throughput_unit([3.1e9], kind="bytes")
(('M IOPS', 1000000.0), ('GB/s', 1000000000.0))
>>> axis_label("4K random read", "M IOPS")
'4K random read (M IOPS)'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # for the type checker only: never defined at run time (matplotlib loads when a chart is drawn)
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.legend import Legend

    class ChartAxes(Axes):
        """An Axes as nvmemodel's charts return it: with the attributes their docstrings name (each set by the
        chart that documents it; matplotlib's types declare none of them)."""

        summary: pd.DataFrame  # plot_results, plot_percentiles: the plotted summarize() table
        provenance: str  # the line that says what was run
        curves: dict[str, Any]  # each measured curve's line by name
        little: dict[str, Any]  # plot_results: the Little's-law lines
        model: Any  # plot_results: the model overlay (None without topology=)
        latency_axis: Axes | None  # the second y axis of latencies
        legend_beside: Legend | None
        unmeasured: str  # plot_percentiles: the percentiles not drawn
        steady_window: Any  # plot_fio_log: fio's steady-state window, where the run had one
        stats: pd.DataFrame  # plot_fio_log: the statistics table
        buckets: pd.DataFrame  # plot_latency_histogram: the buckets drawn
        binding_strip: Any  # plot_scaling: the strip naming the binding component
        _binding_rows: dict[str, tuple[Sequence[float] | np.ndarray, Sequence[str] | np.ndarray]]  # the strip's rows

__all__ = ["PALETTE", "MARKERS", "LINESTYLES", "axis_label", "binding_color", "binding_hatch", "binding_strip",
           "block_size_label", "count_label", "inches_from", "legend_outside", "log2_axis", "note", "series_style", "set_title", "tick_labels",
           "throughput_axis", "throughput_unit"]

# Okabe & Ito (2008), "Color Universal Design": distinguishable with the common colour-vision deficiencies.
# Yellow (#F0E442) is left out: it vanishes on white.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", "-.", ":")
_HATCHES = ("", "//", "\\\\", "xx", "..", "--", "||", "++", "oo", "**")


def series_style(i: int, *, n: int = 1) -> dict:
    """Matplotlib keywords of the ``i``-th of ``n`` series: colour, marker, line style, and a marker
    size that shrinks with ``i`` so that curves lying exactly on top of each other stay visible
    (hollow markers nest: a big circle around a smaller square around a smaller triangle)."""
    size = 9.0 - 5.0 * (i / max(n - 1, 1)) if n > 1 else 6.0
    return {"color": PALETTE[i % len(PALETTE)], "marker": MARKERS[i % len(MARKERS)],
            "ls": LINESTYLES[(i // len(PALETTE) + i) % len(LINESTYLES)], "ms": size, "mfc": "none", "mew": 1.5}


def integer_ticks(ax, values, *, axis: str = "x") -> None:
    """Whole-number ticks on a linear axis whose data are whole numbers — jobs, threads, drives, runs are counted:
    no tick at 1.5 jobs (matplotlib's default locator puts one there on a short range)."""
    from matplotlib.ticker import MaxNLocator

    v = np.asarray(_as_floats(values), dtype=float)
    v = v[np.isfinite(v)]
    if len(v) and np.all(v == np.round(v)):
        getattr(ax, f"{axis}axis").set_major_locator(MaxNLocator(integer=True))


def _as_floats(values):
    """``values`` as floats, anything not a number as NaN (labels read from paths are text)."""
    out = []
    for v in values:
        try:
            out.append(float(v))
        except (TypeError, ValueError):
            out.append(np.nan)
    return out


def block_size_label(value: float) -> str:
    """A block size as storage people write it: ``4096`` → ``"4K"``, ``1048576`` → ``"1M"``, ``512`` →
    ``"512"`` (binary multiples, K = 1024 B); other sizes in plain bytes (``1000000`` → ``"1,000,000"``)."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    for power, prefix in ((40, "T"), (30, "G"), (20, "M"), (10, "K")):
        if abs(value) >= 2**power and float(value / 2**power).is_integer():
            return f"{value / 2**power:g}{prefix}"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"


def count_label(value: float) -> str:
    """A count on a log2 axis: ``1, 2, 4 … 256`` (``1024`` → ``"1024"``, never ``2^10``)."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"


def log2_axis(ax, values: Iterable[float] | None = None, *, axis: str = "x", kind: str = "count") -> None:
    """Make ``axis`` a log2 axis with human tick labels: ``kind="size"`` (4K … 1M) or ``"count"`` (1, 2, 4 …).

    With ``values`` a tick at each of them (measured or swept values; a label only where it does not
    collide with the one before); without, a tick at every power of two in the axis range, labelled
    at every one when there are at most 12, else at every second."""
    from matplotlib.ticker import FixedFormatter, FixedLocator, FuncFormatter, LogLocator, NullLocator

    fmt = block_size_label if kind == "size" else count_label
    target = ax.xaxis if axis == "x" else ax.yaxis
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log", base=2)
    target.set_minor_locator(NullLocator())
    if values is None:
        target.set_major_locator(LogLocator(base=2, subs=(1.0,), numticks=30))
        target.set_major_formatter(FuncFormatter(lambda v, _pos: fmt(v)))
        return
    ticks = sorted({float(v) for v in values if v > 0})
    labels, last = [], -math.inf
    for v in ticks:  # a tick for every value; a label only where it does not collide
        text = fmt(v) if v >= last * 1.25 else ""
        last = v if text else last
        labels.append(text)
    target.set_major_locator(FixedLocator(ticks))
    target.set_major_formatter(FixedFormatter(labels))


def tick_labels(ax, axis: str = "x") -> list[str]:
    """The tick labels a reader sees on ``axis`` (drawn, inside the view, non-empty): what tests check."""
    ax.figure.canvas.draw()
    target = ax.xaxis if axis == "x" else ax.yaxis
    lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    return [t.get_text() for t in target.get_majorticklabels()
            if t.get_text() and lo * (1 - 1e-9) <= (t.get_position()[0] if axis == "x" else t.get_position()[1]) <= hi * (1 + 1e-9)]


def throughput_unit(values, *, kind: str, binary: bool = False) -> tuple[str, float]:
    """The display unit and its size in SI units for throughput ``values`` (IOPS or bytes/s), chosen so
    the largest value reads between 1 and 1000: ``("K IOPS", 1e3)``, ``("GB/s", 1e9)``, ``("GiB/s", 2**30)``."""
    arr = np.asarray(list(values) if not hasattr(values, "__len__") else values, dtype=float)
    top = float(np.nanmax(np.abs(arr))) if arr.size and np.isfinite(arr).any() else 1.0
    steps: tuple[tuple[float, str], ...]
    if kind == "iops":
        steps = ((1e9, "G IOPS"), (1e6, "M IOPS"), (1e3, "K IOPS"), (1.0, "IOPS"))
    elif kind == "bytes":
        steps = (((2**40, "TiB/s"), (2**30, "GiB/s"), (2**20, "MiB/s"), (2**10, "KiB/s"), (1.0, "B/s")) if binary
                 else ((1e12, "TB/s"), (1e9, "GB/s"), (1e6, "MB/s"), (1e3, "kB/s"), (1.0, "B/s")))
    else:
        raise ValueError(f"kind={kind!r}: expected 'iops' or 'bytes'")
    for size, unit in steps:
        if top >= size:
            return unit, float(size)
    return steps[-1][1], float(steps[-1][0])


def axis_label(quantity: str, unit: str) -> str:
    """``"4K random read"``, ``"M IOPS"`` → ``"4K random read (M IOPS)"``; the unit said once, in the label."""
    return f"{quantity} ({unit})" if unit else quantity


def throughput_axis(ax, values, *, kind: str, quantity: str | None = None, axis: str = "y",
                    binary: bool = False) -> tuple[str, float]:
    """Label ``axis`` of data drawn **in SI units** (IOPS, bytes/s) with scaled tick numbers and the unit in
    the label (``"bandwidth (GB/s)"``), starting at 0. Returns ``(unit, size)`` from :func:`throughput_unit`."""
    from matplotlib.ticker import FuncFormatter

    unit, size = throughput_unit(values, kind=kind, binary=binary)
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v / size:,.4g}"))
    quantity = quantity or ("IOPS" if kind == "iops" else "bandwidth")
    text = axis_label(quantity, unit) if not (kind == "iops" and quantity == "IOPS") else unit
    (ax.set_ylabel if axis == "y" else ax.set_xlabel)(text)
    (ax.set_ylim if axis == "y" else ax.set_xlim)(0, None)
    return unit, size


def _tint(hex_color: str, amount: float = 0.55) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(hex_color)
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


def binding_color(name: str) -> tuple[float, float, float]:
    """The binding component's fill: its registry colour, tinted pale so it never reads as a series colour."""
    from ..ceiling.components import color

    return _tint(color(str(name)))


def binding_hatch(name: str) -> str:
    """The binding component's hatch (so the strip still reads in grayscale print)."""
    from ..ceiling.components import names

    order = list(names())
    i = order.index(name) if name in order else len(order) + sum(map(ord, str(name)))
    return _HATCHES[i % len(_HATCHES)]


def inches_from(ax, edge: float):
    """A transform with x in ``ax``'s axes fractions and y in inches from its bottom (``edge`` 0) or top (1): what
    sits under or over the axes stays clear of its labels however a layout resizes the axes."""
    from matplotlib import transforms

    return transforms.blended_transform_factory(
        ax.transAxes, ax.figure.dpi_scale_trans + transforms.ScaledTranslation(0, edge, ax.transAxes))


def binding_strip(ax, rows: dict[str, tuple[Sequence[float] | np.ndarray, Sequence[str] | np.ndarray]], *,
                  height: float = 0.07, title: str = "binding component") -> object:
    """Under ``ax``, a strip that shows which component binds where: one row per series (``rows``: name →
    (x values, binding names)), each run of equal binding a tinted, hatched span named in words where it
    fits. Shares the x axis with ``ax``. Returns the strip's Axes (``strip.spans`` lists
    ``(row, component, x_start, x_end)``)."""
    names = list(rows)
    # placed in inches under the axes (x in axes fractions): a layout that shortens the axes (a tall legend above
    # it) moves the strip with the axes' bottom and never over the x tick labels and label (QA s25, H11)
    h = height * 4.0 * max(len(names), 1)  # ``height``: a row's share of a 4-inch axes
    strip = ax.inset_axes([0, -0.62 - h, 1, h], transform=inches_from(ax, 0), sharex=ax)
    spans = []
    for r, name in enumerate(names):
        xs, binding = (np.asarray(v) for v in rows[name])
        order = np.argsort(xs, kind="stable")
        xs, binding = xs[order].astype(float), binding[order]
        edges = _edges(xs, log=ax.get_xscale() == "log")
        start = 0
        for i in range(1, len(xs) + 1):
            if i == len(xs) or binding[i] != binding[start]:
                comp = str(binding[start])
                x0, x1 = edges[start], edges[i]
                strip.broken_barh([(x0, x1 - x0)], (r + 0.1, 0.8), facecolors=binding_color(comp),
                                  edgecolor="0.35", hatch=binding_hatch(comp), lw=0.5)
                spans.append((name, comp, x0, x1))
                start = i
    strip.set_ylim(len(names), 0)
    strip.set_yticks(np.arange(len(names)) + 0.5, names, fontsize="x-small")
    strip.tick_params(axis="x", labelbottom=False, length=0)
    strip.set_title(title, fontsize="x-small", loc="left", pad=2)
    strip.figure.canvas.draw_idle()
    _label_spans(strip, spans, names)
    strip.spans = spans
    return strip


def _edges(xs: np.ndarray, *, log: bool) -> np.ndarray:
    """Span edges half-way between neighbouring x values (geometric half-way on a log axis)."""
    if len(xs) == 1:
        return np.array([xs[0] * 0.8, xs[0] * 1.25]) if log else np.array([xs[0] - 0.5, xs[0] + 0.5])
    if log:
        mid = np.sqrt(xs[:-1] * xs[1:])
        half = float(np.min(xs[1:] / xs[:-1])) ** 0.5
        return np.r_[xs[0] / half, mid, xs[-1] * half]
    mid = (xs[:-1] + xs[1:]) / 2
    half = float(np.min(np.diff(xs))) / 2  # the ends stick out by half the finest step, not a whole coarse one
    return np.r_[xs[0] - half, mid, xs[-1] + half]


def _label_spans(strip, spans, names) -> None:
    """Name each span inside it when the name fits, else abbreviate it and say so in a key."""
    ax_w_px = strip.figure.get_figwidth() * strip.figure.dpi * strip.get_position().width
    lo, hi = strip.get_xlim()
    log = strip.get_xscale() == "log"
    to_frac = (lambda v: (np.log(v) - np.log(lo)) / (np.log(hi) - np.log(lo))) if log else (lambda v: (v - lo) / (hi - lo))
    abbreviated = {}
    for name, comp, x0, x1 in spans:
        width_px = (to_frac(x1) - to_frac(x0)) * ax_w_px
        mid = np.sqrt(x0 * x1) if log else (x0 + x1) / 2
        text = comp if len(comp) * 5.5 < width_px else None
        if text is None:
            short = "".join(p[0] for p in comp.split("_"))
            if len(short) * 6 < width_px:
                text = short
                abbreviated[short] = comp
        if text:
            strip.text(mid, names.index(name) + 0.5, text, ha="center", va="center", fontsize=6.5,
                       bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8})
    if abbreviated:
        strip.set_title("binding component (" + ", ".join(f"{k} = {v}" for k, v in abbreviated.items()) + ")",
                        fontsize="x-small", loc="left", pad=2)


def legend_outside(ax, *, where: str = "right", **kwargs):
    """A legend that never covers data: to the right of the axes (``where="right"``) or under the title
    (``"top"``). Extra keywords go to :meth:`matplotlib.axes.Axes.legend`."""
    kwargs.setdefault("fontsize", "x-small")
    if where == "right":
        return ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, **kwargs)
    labels = kwargs.get("labels") or ax.get_legend_handles_labels()[1]
    longest = max((len(t) for t in labels), default=0)
    # as many columns as fit the axes' width (about 1.6 characters per point of width at x-small)
    width_chars = ax.figure.get_figwidth() * ax.get_position().width * 72 / 4.5
    ncol = kwargs.pop("ncol", max(1, min(3, len(labels), int(width_chars // max(longest + 6, 1)))))
    legend = ax.legend(loc="lower left", bbox_to_anchor=(0, 1.01), borderaxespad=0, frameon=False, ncol=ncol, **kwargs)
    extra = [t.count("\n") for t in labels]  # an entry of two lines (a model's upper-bound note) is two rows
    ax._legend_rows = -(-len(labels) // ncol) + (sum(extra) if ncol == 1 else max(extra, default=0))
    if ax.get_title():
        set_title(ax, ax.get_title())
    return legend


def set_title(ax, text: str, *, pad_extra: float = 0, **kwargs) -> None:
    """The axes' title, lifted above a legend that :func:`legend_outside` put on top of the axes
    (``pad_extra`` points more for a line of text between them)."""
    kwargs.setdefault("fontsize", "medium")
    ax._title_extra = pad_extra or getattr(ax, "_title_extra", 0)
    ax.set_title(text, pad=6 + 11 * getattr(ax, "_legend_rows", 0) + ax._title_extra, **kwargs)


def note(fig, text: str, *, fontsize: str = "x-small") -> None:
    """A caption line at the bottom of the figure (what was measured, what is a calibration input,
    what the model leaves out), wrapped to the figure width."""
    import textwrap

    width = int(fig.get_figwidth() * 16)
    fig.supxlabel("\n".join(textwrap.wrap(text, width)), fontsize=fontsize, ha="left", x=0.01, color="0.25")


# --- the house style as a seaborn theme (issue 32) ---------------------------------------------------------------

#: seaborn's "whitegrid" style at its "paper" scale, with the house palette (Okabe–Ito) as the colour cycle
THEME_STYLE, THEME_CONTEXT = "whitegrid", "paper"


def theme_rc() -> dict:
    """The rc parameters of the house theme: seaborn's ``whitegrid`` style and ``paper`` context (the sizes of
    matplotlib's defaults, a light grid) with the colour-blind-safe :data:`PALETTE` as the colour cycle."""
    import seaborn as sns
    from cycler import cycler

    return {**sns.axes_style(THEME_STYLE), **sns.plotting_context(THEME_CONTEXT),
            "axes.prop_cycle": cycler(color=list(PALETTE)), "grid.alpha": 0.6, "legend.frameon": False}


def themed(draw):
    """Decorator: draw inside the house theme, applied locally (``matplotlib.rc_context``), never globally: a
    user's own figures and ``sns.set_theme`` are left as they were. Tick labels drawn later (at ``savefig``, outside
    the context) keep the theme: each Axes of the returned figure gets its tick style set explicitly."""
    import functools

    @functools.wraps(draw)
    def wrapper(*args, **kwargs):
        import matplotlib as mpl

        rc = theme_rc()
        with mpl.rc_context(rc):
            ax = draw(*args, **kwargs)
            fig = getattr(ax, "figure", ax)
            for a in getattr(fig, "axes", []):
                for axis in ("x", "y"):
                    a.tick_params(axis=axis, which="both", labelsize=rc[f"{axis}tick.labelsize"],
                                  color=rc[f"{axis}tick.color"], labelcolor=rc[f"{axis}tick.color"])
        return ax

    return wrapper
