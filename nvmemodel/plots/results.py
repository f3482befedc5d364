"""Charts of measured results: a y quantity against the swept variable, fio time series, and
json+ latency histograms. Functions take ``ax=None`` and return the Axes.

Numbers on the axes are SI-formatted (``1.2 M``, ``250 K`` IOPS; ``3.2 GB/s``; ``250 µs``);
queue depths, job counts, outstanding I/Os and block sizes spread over more than a factor of
four get a log2 axis with a tick at every measured value.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..ingest.summary import QUANTITIES, resolve_y, summarize
from .style import themed

if TYPE_CHECKING:  # for annotations only: pandas and matplotlib load when a chart is drawn
    import pandas as pd
    from matplotlib.axes import Axes

    from ..topology import Topology
    from ..topology.mixed import MixedTopology
    from .style import ChartAxes

__all__ = ["plot_fio_log", "plot_latency_histogram", "plot_percentiles", "plot_results", "provenance", "si_format"]

_PREFIXES = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K"), (1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")]
#: x columns that count things: whole-number ticks when not on a log2 axis
_COUNT_X = {"run", "iodepth", "numjobs", "outstanding", "drives", "targets", "snapshot"}
_X_LABELS = {"iodepth": "queue depth per job (iodepth)", "numjobs": "jobs (numjobs)",
             "outstanding": "outstanding I/Os (iodepth × jobs)", "block_size_bytes": "block size (K = 1024 B)",
             "read_fraction": "read fraction"}
_STYLES = {"read": "-", "write": "--", "trim": ":", "mixed": "-", "total": "-."}


def si_format(value: float, unit: str = "", *, binary_sizes: bool = False) -> str:
    """``1.2e6`` → ``"1.2 M"``, ``2.5e-4, "s"`` → ``"250 µs"``; block sizes with
    ``binary_sizes`` as storage people write them (``4096`` → ``"4K"``, ``1048576`` → ``"1M"``),
    other sizes in plain bytes (``1000000`` → ``"1,000,000"``)."""
    if value == 0:
        return "0"
    if not math.isfinite(value):
        return f"{value:g}"
    if binary_sizes:
        for power, p in ((40, "T"), (30, "G"), (20, "M"), (10, "K")):
            if abs(value) >= 2**power and float(value / 2**power).is_integer():
                return f"{value / 2**power:g}{p}"
        return f"{value:,.0f}"  # not a binary multiple (fio's bs=1MiB is 1,000,000 B): plain bytes
    for scale, prefix in _PREFIXES:
        if abs(value) >= scale * 0.9995:
            text = f"{value / scale:.3g}"
            return f"{text} {prefix}{unit}".rstrip()
    return f"{value:.3g} {unit}".rstrip()


def _formatter(unit: str):
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _pos: si_format(v, unit))


#: the results-table columns a chart's summary reads (besides x, y and hue): nm.read_results gives every one
_NEEDED = ("source_path", "snapshot", "job_index", "level", "direction", "iodepth", "numjobs", "ioengine", "ios",
           "io_bytes", "lat_mean_s", "clat_mean_s")


def _results_table(table, name: str = "table", *, y: str | None = None):
    """``table`` checked as a results table (QA s25 H32: an empty DataFrame was a KeyError 'direction', two columns
    of one name a pandas TypeError): one error naming the argument and what was expected."""
    import pandas as pd

    from ..errors import ParameterError

    what = "a results table from nm.read_results (`nvmemodel ingest --schema` lists its columns)"
    if not isinstance(table, pd.DataFrame):
        raise ParameterError(name, type(table).__name__, what + " or a mapping of name → such tables")
    twice = sorted({str(c) for c in table.columns[table.columns.duplicated()]})
    if twice:
        raise ParameterError(name, f"a DataFrame with several {', '.join(twice)} columns",
                             f"each column once (drop or rename the copies): {what}")
    missing = [c for c in (*_NEEDED, *([y] if y else [])) if c not in table.columns]
    if missing:
        shown = "no columns" if len(table.columns) == 0 else "no column " + ", ".join(missing)
        raise ParameterError(name, f"a DataFrame with {shown}", what)
    return table


#: the hue value of runs that have none (a label a path did not give)
NOT_SET = "(not set)"
#: directions told apart by line style and marker (seaborn's ``style=``): reads solid, writes dashed
_DASHES = {"read": "", "write": (4, 2), "trim": (1, 2), "mixed": (6, 1.5, 1, 1.5), "total": (6, 1.5, 1, 1.5, 1, 1.5)}
_MARKERS = {"read": "o", "write": "s", "trim": "v", "mixed": "^", "total": "D"}
#: more curves than this: the legend goes beside the axes (above them it would be taller than the plot)
LEGEND_ABOVE_MAX = 8


def _is_doubling(values) -> bool:
    """A sweep by doubling (1 2 4 … 128, 4K … 1M): every value a power of two, at least three, spanning more
    than ×4 — drawn on a log2 axis. Counts swept by steps (1 2 3 … 20 jobs) stay on a linear axis."""
    v = np.unique(np.asarray([float(a) for a in values], dtype=float))
    if v.size < 3 or (v <= 0).any() or v.max() / v.min() <= 4:
        return False
    return bool(np.all(np.isclose(np.exp2(np.round(np.log2(v))), v, rtol=0, atol=1e-9)))


def _x_axis(ax, x: str, xs) -> bool:
    """Log2 for a doubling sweep, and for block sizes spread over more than ×4 (sizes are multiplicative); a
    linear axis with whole-number ticks for counts (jobs, drives, threads, runs). True where log2."""
    xs = pd_numeric(xs)
    log2 = len(xs) > 0 and ((x == "block_size_bytes" and (xs > 0).all() and xs.max() / xs.min() > 4)
                            or (x not in ("run", "snapshot", "read_fraction") and _is_doubling(xs)))
    if log2:
        from .style import log2_axis

        log2_axis(ax, np.unique(xs), kind="size" if x == "block_size_bytes" else "count")
    elif x in _COUNT_X:  # runs, jobs, drives are counted: no tick at 0.25 of a run
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:  # a label of whole numbers (threads, jobs from a path pattern) is counted too
        from .style import integer_ticks

        integer_ticks(ax, xs)
    return bool(log2)


def pd_numeric(values) -> np.ndarray:
    """``values`` as floats, what is not a number left out."""
    import pandas as pd

    return pd.to_numeric(pd.Series(list(values)), errors="coerce").dropna().to_numpy(dtype=float)


def _per_run(table, *, x: str, y: str, hue: str | None, directions=None):
    """The rows seaborn draws: one per run and direction (a run's jobs added first, as :func:`summarize` does),
    ``y`` and its Little's-law rate, with the columns named ``x``, ``y`` and ``hue``; runs that do not say their x
    are left out (:func:`summarize` warns of them)."""
    from ..ingest.summary import _runs

    runs = _runs(table, x, hue, y)
    runs = runs[runs["x"].notna()]
    if directions is not None:
        runs = runs[runs["direction"].isin(list(directions))]
    names = {"x": x, "value": y, **({"hue": hue} if hue else {})}
    runs = runs.drop(columns=[c for c in runs.columns if c in (x, y, hue) and c not in names]).rename(columns=names)
    return runs.reset_index(drop=True)


def _hue_mapping(levels) -> dict:
    """seaborn's ``hue``/``palette`` keywords for curves with these levels: the house palette for up to 7, a
    sequential palette ('flare', no near-white end) with a brief legend for more numeric ones (20 thread counts),
    else a spread of distinct hues."""
    import seaborn as sns

    from .style import PALETTE

    levels = list(levels)
    numeric = all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in levels)
    if len(levels) <= len(PALETTE):
        return {"palette": dict(zip(levels, PALETTE)), "hue_order": levels}
    if numeric:
        return {"palette": "flare", "hue_norm": (float(min(levels)), float(max(levels)))}
    return {"palette": dict(zip(levels, sns.color_palette("husl", len(levels)))), "hue_order": levels}


def _curves(ax, before: int, data, hue_col: str, style: str | None, mapping: dict, name) -> dict:
    """{name: Line2D} of the lines one seaborn call drew (in seaborn's order: hue levels × style levels, the empty
    ones skipped), error-bar lines left out; ``name(hue_value, style_value)`` names each."""
    parts: set[Any] = set()
    for c in ax.containers:
        parts.update(a for a in c.get_children())
    lines = [ln for ln in ax.lines[before:] if ln not in parts]
    hue_levels = mapping.get("hue_order") or sorted(data[hue_col].dropna().unique())
    style_levels = list(dict.fromkeys(data[style])) if style else [None]
    present = set(map(tuple, data[[hue_col] + ([style] if style else [])].drop_duplicates().to_numpy().tolist()))
    keys = [(h, s) for h in hue_levels for s in style_levels if ((h, s) if style else (h,)) in present]
    return {name(h, s): ln for (h, s), ln in zip(keys, lines)}


def _some_value(summary, table, y: str) -> None:
    """Refuse a chart of ``y`` where no run has a value of it (an empty chart says nothing; the fit refuses the same
    runs): runs of fio's ``--lat_percentiles=1`` have total-latency percentiles (``lat_p*``) and no completion ones,
    and the other way round — said where that is why."""
    from ..errors import ParameterError

    if len(summary) and int(summary["n"].sum()) > 0:
        return
    other = ("lat_" + y[5:]) if y.startswith("clat_p") else ("c" + y) if y.startswith("lat_p") else ""
    hint = ""
    if other and other in table and table[other].notna().any():
        hint = (f"; the runs have {other} instead (fio measured {'total' if other.startswith('lat_') else 'completion'}"
                f"-latency percentiles: --y {other} draws them)")
    raise ParameterError("y", y, f"a quantity the runs measured (no run has a {y} value: the chart would be empty"
                                 f"{hint})")


@themed
def plot_results(table: pd.DataFrame, *, x: str, y: str = "iops", hue: str | None = None,
                 directions: Sequence[str] | None = None, little: bool = True, error_bars: bool = True,
                 ax: Axes | None = None, title: str | None = None, latency: str | None = "lat_mean_s",
                 topology: Topology | MixedTopology | None = None,
                 overrides: Mapping[str, Any] | None = None) -> Axes:
    """Measured ``y`` against ``x``: one line per ``hue`` value and direction, repeats averaged — drawn by
    seaborn's :func:`~seaborn.lineplot` from one row per run (``hue=`` the curves, ``style=`` the direction,
    ``errorbar="sd"`` the spread of the repeats), in the house theme (:func:`nvmemodel.plots.style.themed`).

    Parameters
    ----------
    table : pandas.DataFrame or mapping of name → DataFrame
        Results from :func:`nvmemodel.read_results`. A mapping compares several tables (e.g.
        folders) on one chart: its keys become the ``dataset`` column and the default ``hue``.
    x : str
        Swept variable: a column or ``"outstanding"`` (see :func:`~nvmemodel.ingest.summary.summarize`). A
        doubling sweep (1 2 4 … 128, every value a power of two) gets a log2 axis, block sizes spread over more
        than ×4 too; counts swept by steps (1 2 3 … 20 jobs) a linear axis with whole-number ticks.
    y : str
        ``iops`` (default), ``bw_bytes_per_s``, ``latency`` (p99 completion latency), any
        latency column (``lat_mean_s``, ``clat_p50_s`` …), ``cpu_usr``.
    hue : str, optional
        Column separating the curves; default ``dataset`` when ``table`` is a mapping. More than
        :data:`LEGEND_ABOVE_MAX` legend entries: the legend goes beside the axes; more than 7 numeric levels
        (20 thread counts): a sequential palette and a brief legend of some of them.
    directions : sequence of str, optional
        Which directions to draw (``read``, ``write``, ``trim``, ``mixed``, ``total``); default all.
    little : bool
        Draw the Little's-law check ``iodepth × jobs / mean latency`` (IOPS and bytes/s) as a
        thin dotted line in each curve's colour.
    error_bars : bool
        ± one standard deviation where several runs share an x value.
    latency : str or None
        With ``y`` IOPS or bandwidth: this latency column (default the mean total latency; ``clat_p99_s``
        …) on a second y axis, one dotted line per curve (``ax.latency_axis``). None: no second axis.
    topology : Topology, optional
        The measured system (e.g. ``nm.preset("dell-r7525")``): the model's ceiling at every measured x
        for the workload the table records (pattern, block size, iodepth, jobs, device count), drawn
        dashed, with the binding component named in a strip under the axes (``ax.model`` holds it).
    overrides : mapping, optional
        Parameter overrides for that model (``{"host.cycles_per_io": 20000}``).

    Returns
    -------
    matplotlib.axes.Axes
        With ``ax.summary`` holding the plotted :func:`summarize` table, ``ax.provenance`` the line
        that says what was run (also under the title) and ``ax.curves`` each measured curve's line by name
        (``"total"``, ``"dataset=small"``, ``"numjobs=4 read"``).
    """
    import matplotlib.pyplot as plt
    import pandas as pd
    import seaborn as sns

    y = resolve_y(y)
    if isinstance(table, dict):
        table = pd.concat([_results_table(t, f"table[{k!r}]", y=y).assign(dataset=str(k)) for k, t in table.items()],
                          ignore_index=True)
        hue = hue or "dataset"
    _results_table(table, y=y)
    summary = summarize(table, x=x, y=y, hue=hue)
    if directions is not None:
        summary = summary[summary["direction"].isin(list(directions))]
    _some_value(summary, table, y)
    runs = _per_run(table, x=x, y=y, hue=hue, directions=directions)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    ax = cast("ChartAxes", ax)  # (it gains the attributes the docstring names)
    label, unit, _ = QUANTITIES[y]
    # one table: colour = direction; several curves: colour = the hue's value, line style and marker = direction
    hue_col = hue or "direction"
    if hue and runs[hue].isna().any():  # runs without the hue's value are a curve of their own, named (seaborn
        runs[hue] = runs[hue].astype(object).where(runs[hue].notna(), NOT_SET)  # would leave them out unsaid)
    mapping = _hue_mapping([*dict.fromkeys(summary[hue_col].dropna()),  # (summary: sorted by the hue)
                            *([NOT_SET] if (runs[hue_col] == NOT_SET).any() else [])])
    several = summary["direction"].nunique() > 1
    style = "direction" if (hue is None or several) else None
    look = {"style": style, "dashes": _DASHES, "markers": _MARKERS} if style else {"marker": "o"}
    bars = error_bars and bool((summary["n"] > 1).any())
    before = len(ax.lines)
    sns.lineplot(runs, x=x, y=y, hue=hue_col, **mapping, **look, ax=ax, estimator="mean",
                 errorbar="sd" if bars else None, err_style="bars", err_kws={"capsize": 3, "elinewidth": 1},
                 markersize=5, markeredgecolor="none", legend="auto")
    ax.curves = _curves(ax, before, runs, hue_col, style, mapping,
                        lambda h, s: " ".join(str(p) for p in ((f"{hue}={h}" if hue else None),
                                                               s if (several or not hue) else None) if p)
                        or f"measured {label}")
    ax.little = {}
    if (seaborn_legend := ax.get_legend()) is not None:  # seaborn's entries (its hue and style keys) stay on the
        seaborn_legend.remove()  # Axes: placed below
    if hue and style in (None, hue_col):  # entries of the curves alone: each says what it is (numjobs=4)
        for h in ax.get_legend_handles_labels()[0]:
            h.set_label(f"{hue}={h.get_label()}")
    if "hue_norm" in mapping:  # a sequential palette: the legend shows some of the curves, and says so
        from matplotlib.lines import Line2D

        levels = runs[hue_col].nunique()
        key = Line2D([], [], ls="none", label=f"{levels} curves by {hue_col}, darker = larger (some keyed)")
    else:
        key = None
    if little and runs["little"].notna().any() and y in ("iops", "bw_bytes_per_s"):
        # each curve's N / latency in its colour, thin and dotted; one legend entry says what the dotted lines are
        ax.little = _little_lines(ax, runs, x, hue_col, mapping, lambda h, s: " ".join(
            str(p) for p in ((f"{hue}={h}" if hue else None), s if (several or not hue) else None) if p)
            or f"measured {label}")
        ax.plot([], [], color="0.3", ls=":", lw=1.1, marker="x", ms=5,
                label="Little's law check (dotted ×): iodepth × jobs / mean latency")
    ax.model = None
    if topology is not None and y not in ("iops", "bw_bytes_per_s"):
        from ..errors import ParameterError

        raise ParameterError("y", y, "iops or bw_bytes_per_s with a topology (the model gives throughput ceilings)")
    xs = pd_numeric(summary[x])
    _x_axis(ax, x, xs)
    if topology is not None:
        from ..fitting.curves import check_reaches_device

        check_reaches_device(table, "topology", topology)  # the null engine's rate is no device's (QA s27 I10)
        ax.model = _overlay_model(ax, table, summary, x=x, y=y, topology=topology, overrides=overrides)
    if y in ("iops", "bw_bytes_per_s"):
        from .style import throughput_axis

        tops = [float(np.nanmax(summary["mean"]))] + ([float(np.nanmax(ax.model["value"]))] if ax.model is not None else [])
        throughput_axis(ax, tops, kind="iops" if y == "iops" else "bytes", quantity="IOPS" if y == "iops" else label)
        _keep_measurements_in_view(ax, summary, tops)
    else:
        ax.yaxis.set_major_formatter(_formatter(unit))
        ax.set_ylim(bottom=0)
        ax.set_ylabel(label)  # the tick labels carry the unit (250 µs)
    ax.latency_axis = None
    if latency and y in ("iops", "bw_bytes_per_s"):
        ax.latency_axis = _latency_axis(ax, table, x=x, hue=hue, latency=latency, directions=directions,
                                        mapping=mapping)
    ax.set_xlabel(_X_LABELS.get(x, x))
    note = (f"{summary.attrs['runs']} measured run(s)" + _failed_note(table)
            + ("; bars: ±1 s.d. of repeats" if bars else ""))
    if latency and y in ("iops", "bw_bytes_per_s"):
        # no latency axis and no Little's-law line for runs fio measured no latency in: say so, don't just omit them
        missing = _unmeasured_note(table, ["lat_mean_s", "clat_mean_s"], "a measured latency")
        note += f"; {missing} (no latency axis or Little's-law line for them)" if missing else ""
    ax.provenance = provenance(table, x=x, hue=hue, summary=summary)
    from .style import legend_outside, set_title

    more = ax.get_legend_handles_labels()
    if ax.latency_axis is not None:
        more = tuple(a + b for a, b in zip(more, ax.latency_axis.get_legend_handles_labels()))
    handles, labels = list(more[0]), list(more[1])
    if key is not None:
        handles, labels = [key, *handles], [key.get_label(), *labels]
    beside = len(labels) > LEGEND_ABOVE_MAX
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    ax.legend_beside = None
    if beside and isinstance(ax.figure.get_layout_engine(), ConstrainedLayoutEngine):
        # a figure legend right of everything (the latency axis's ticks and label included), the layout making room
        from matplotlib.figure import Figure

        if len(ax.figure.axes) <= 3 and isinstance(ax.figure, Figure):  # (a SubFigure has no size of its own)
            ax.figure.set_size_inches(ax.figure.get_figwidth() + 3.0, ax.figure.get_figheight())  # axes keep width
        ax.legend_beside = ax.figure.legend(handles, labels, loc="outside right upper", fontsize="x-small",
                                            frameon=False)
    else:
        legend_outside(ax, where="right" if beside else "top", handles=handles, labels=labels)
    set_title(ax, title or f"measured {label} vs {_X_LABELS.get(x, x)}", fontsize=10)
    ax.text(0, 1.0, f"{ax.provenance}\n{note}", transform=ax.transAxes, fontsize=7.5, color="0.25", va="bottom", ha="left",
            bbox={"boxstyle": "square,pad=0.15", "fc": "white", "ec": "none"})  # what was run, on the chart
    if (legend := ax.get_legend()) is not None and not beside:  # the legend sits above the provenance line (two
        from .style import inches_from  # lines: 0.3 in whatever the axes' height — a tall legend shortens the axes)

        legend.set_bbox_to_anchor((0, 0.32), transform=inches_from(ax, 1))
    set_title(ax, ax.get_title(), fontsize=10, pad_extra=24)
    ax.summary = summary
    return ax


def _little_lines(ax, runs, x, hue_col, mapping, name) -> dict:
    """Little's-law lines: one per curve and direction whose rate is known (a direction of a mixed run has none),
    the mean of the runs at each x; {name: Line2D} as :func:`_curves` names them."""
    import seaborn as sns

    known = runs[runs["little"].notna()]
    drawn = {}
    for direction, d in known.groupby("direction", sort=False):
        before = len(ax.lines)
        sns.lineplot(d, x=x, y="little", hue=hue_col, **mapping, estimator="mean", errorbar=None, ax=ax,
                     legend=False, ls=":", lw=1.1, marker="x", markersize=5, alpha=0.8, markeredgecolor=None,
                     markeredgewidth=1.2)
        drawn.update(_curves(ax, before, d, hue_col, None, mapping, lambda h, _s, direction=direction: name(h, direction)))
    return drawn


#: a Little's-law line above this multiple of the measurements is cut at the chart's top, not scaled to
LITTLE_IN_VIEW = 2.0


def _keep_measurements_in_view(ax, summary, tops) -> None:
    """Scale the y axis to the measurements (and the model), not to a Little's-law line far above them: a
    rate-limited run's iodepth × jobs / latency is ×600 its rate, and scaled to it the 20 MiB/s measured lay flat on
    the axis (QA s27 I12). The cut line says on its label how far above it goes."""
    yerr = summary["std"].fillna(0) if "std" in summary else 0
    data_top = max([float(np.nanmax(summary["mean"] + yerr))] + [t for t in tops if np.isfinite(t)])
    little = summary["little"].to_numpy(float) if "little" in summary else np.array([])
    little = little[np.isfinite(little)]
    top = 1.08 * data_top
    if little.size and float(little.max()) > LITTLE_IN_VIEW * data_top:
        for line in ax.get_lines():
            if line.get_label().startswith("Little's law check"):
                line.set_label(f"{line.get_label()} (up to ×{float(little.max()) / data_top:.3g} the measured: "
                               f"cut at the top)")
    elif little.size:
        top = max(top, 1.08 * float(little.max()))
    if top > 0:
        ax.set_ylim(0, top)


def _failed_note(table) -> str:
    """'; 1 failed job not drawn (file …)': a job fio reports with an error has no point on the chart, and the
    chart says so (QA s25, H2)."""
    from ..ingest.summary import failed

    if "error" not in table:
        return ""
    bad = table[failed(table)]
    if bad.empty:
        return ""
    jobs = bad.drop_duplicates([c for c in ("source_path", "snapshot", "job_index") if c in bad])
    files = sorted({str(p).replace("\\", "/").rsplit("/", 1)[-1] for p in jobs.get("source_path", [])})
    return (f"; {len(jobs)} failed job{'s' if len(jobs) != 1 else ''} not drawn"
            + (f" ({', '.join(files[:3])}{' …' if len(files) > 3 else ''})" if files else ""))


def _unmeasured_note(table, columns, what: str) -> str:
    """'2 of 4 runs without completion-latency percentiles: lat_qd1.json, lat_qd8.json': the runs a chart cannot
    draw because the table holds none of ``columns`` for them (fio's ``--gtod_reduce=1`` measures no latency; with
    ``--lat_percentiles=1`` a JSON report carries total-latency percentiles, not completion ones) — said on the chart
    rather than dropped without a word (QA s27 I7). "" when every run has them."""
    from ..ingest.summary import usable_rows

    cols = [c for c in columns if c in table]
    rows = usable_rows(table)
    if rows.empty or "source_path" not in rows:
        return ""
    key = rows["source_path"].astype(str) + ("#" + rows["snapshot"].astype(str) if "snapshot" in rows else "")
    has = rows[cols].notna().any(axis=1) if cols else rows["source_path"].isna()
    per_run = has.groupby(key).any()
    missing = per_run[~per_run]
    if missing.empty:
        return ""
    if len(missing) == len(per_run):
        return f"no run has {what}"
    files = sorted({k.rsplit("#", 1)[0].replace("\\", "/").rsplit("/", 1)[-1] for k in missing.index})
    return (f"{len(missing)} of {len(per_run)} runs without {what}: " + ", ".join(files[:3])
            + (" …" if len(files) > 3 else ""))


def sizes_by_direction(table) -> dict | None:
    """``{"read": [sizes], "write": [sizes]}`` when the reads and writes of the runs had different block sizes
    (fio's ``--bs=4k,64k``); None when every direction had the same ones (a bs sweep of randrw included).
    "4K–64K" would read as fio's bsrange (random sizes between), which such runs are not (QA s25 H13)."""
    if "direction" not in table or "block_size_bytes" not in table:
        return None
    out = {}
    for d in ("read", "write"):
        v = table.loc[table["direction"] == d, "block_size_bytes"].dropna()
        if len(v):
            out[d] = sorted(float(b) for b in v.unique())
    return out if len(out) == 2 and out["read"] != out["write"] else None


def provenance(table, *, x: str | None = None, hue: str | None = None, summary=None) -> str:
    """One line saying what was run, from the table's own columns: tool and version, pattern, block size,
    iodepth × numjobs, engine, targets (files or devices), runs per point — a column that varies shows its
    range and "swept" when it is ``x``.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"tool_version": ["fio-3.33"] * 2, "pattern": "randread", "block_size_bytes": 4096.0,
    ...                   "iodepth": [1, 32], "numjobs": 1, "ioengine": "libaio", "targets": 1})
    >>> provenance(t, x="iodepth")
    'fio-3.33 · randread · bs 4K · iodepth 1–32 (swept) × numjobs 1 · libaio · 1 target'
    """
    from ..ingest.summary import usable_rows
    from .style import block_size_label

    table = usable_rows(table)  # what is drawn: a failed job's pattern or engine is not on the chart (QA s25, H2)

    def values(col):
        if col not in table:
            return []
        v = table[col].dropna()
        return sorted(v.unique(), key=lambda a: (str(type(a)), a)) if len(v) else []

    def show(col, fmt=str, name=""):
        vs = values(col)
        if not vs:
            return None
        numeric = all(isinstance(v, (int, float, np.integer, np.floating)) for v in vs)
        if len(vs) == 1:
            text = fmt(vs[0])
        elif numeric and not (col == hue and len(vs) <= 6):
            text = f"{fmt(min(vs))}–{fmt(max(vs))}"
        else:  # every curve's value, named (issue 32: not the first three and "…")
            text = (" / " if col == hue else ", ").join(fmt(v) for v in vs[:6]) \
                + (f" … ({len(vs)} in all)" if len(vs) > 6 else "")
        # one value is no sweep: "iodepth 4 (swept)" on a one-run chart said otherwise (QA s27 O5)
        swept = " (swept)" if len(vs) > 1 and (col == x or (col == "iodepth" and x == "outstanding")) else ""
        per_curve = " (one per curve)" if len(vs) > 1 and col == hue else ""
        return f"{name}{text}{swept}{per_curve}"

    def num(v):
        return f"{float(v):g}"

    tool = show("tool_version") or show("tool")
    split = sizes_by_direction(table)
    bs = ("bs " + ", ".join(f"{'/'.join(map(block_size_label, v))} ({d})" for d, v in split.items())
          + (" (swept)" if x == "block_size_bytes" else "") if split
          else show("block_size_bytes", block_size_label, "bs "))
    means = values("block_size_bytes")
    if not split and x != "block_size_bytes" and any(float(b) % 512 for b in means):
        # bytes per I/O that are no size one sets (20,698.4): runs of mixed sizes (bssplit, bsrange); "bs 20698.4–
        # 25033.3" read as a bsrange between those two (QA s27 I17)
        lo, hi = min(means) / 1024, max(means) / 1024
        bs = f"mixed sizes (mean {lo:.3g}{'–' + format(hi, '.3g') if hi != lo else ''} KiB per I/O)"
    parts = [tool, show("pattern"), bs]
    depth, jobs = show("iodepth", num, "iodepth "), show("numjobs", num, "numjobs ")
    parts.append(" × ".join(p for p in (depth, jobs) if p) or None)
    parts.append(show("ioengine"))
    count = values("targets") or values("device_count")
    if count:
        n = [int(c) for c in count]
        parts.append(f"{n[0]} target{'s' if n[0] != 1 else ''}" if len(n) == 1 else f"{min(n)}–{max(n)} targets")
    if summary is not None and len(summary):
        runs = summary["n"]
        parts.append(f"{int(runs.min())} run{'s' if runs.min() != 1 else ''} per point" if runs.min() == runs.max()
                     else f"{int(runs.min())}–{int(runs.max())} runs per point")
    return " · ".join(p for p in parts if p)


def _workload_of(table):
    """The workload a results table records (as the fit reads it: pattern, block size, iodepth, jobs, read share,
    I/O stack) and the drive count its runs name (fio's disk stats, else targets; 1 if neither)."""
    from ..fitting.curves import recorded_workload

    def common(col, default=None):
        if col not in table or table[col].dropna().empty:
            return default
        return table[col].dropna().mode().iloc[0]

    from ..fitting.devices import bottom_counts

    # the drives at the bottom of fio's disk list: a dm or md device and its drives are not one more drive (round 16 WA)
    drives = bottom_counts(table).dropna() if "device_count" in table or "devices" in table else None
    n = drives.mode().iloc[0] if drives is not None and len(drives) else common("targets", 1)
    return recorded_workload(table), int(n or 1)


def _overlay_model(ax, table, summary, *, x: str, y: str, topology, overrides=None):
    """The model's ceiling at every measured x (dashed) and its binding strip; the frame drawn."""
    import pandas as pd

    import nvmemodel as nm

    from .style import binding_strip

    workload, drives = _workload_of(table)
    xs = np.sort(pd.to_numeric(summary[x], errors="coerce").dropna().unique())
    grid_names = {"iodepth": "workload.iodepth", "numjobs": "workload.numjobs", "outstanding": "workload.iodepth",
                  "block_size_bytes": "workload.block_size"}
    if x == "drives":
        curve = nm.evaluate(topology, workload, drives=[int(v) for v in xs], overrides=overrides)
        iops, binding, size = curve.iops, curve.binding, np.full(len(xs), float(curve.block_size))
    elif x in grid_names:
        wl = workload.replace(numjobs=1) if x == "outstanding" else workload
        grid: dict[str, Any] = {grid_names[x]: xs.astype(float)}  # (a categorical override: a list of names)
        for k, v in (overrides or {}).items():
            grid[k] = np.full(len(xs), v) if not isinstance(v, str) else [v] * len(xs)
        res = nm.sweep(topology, wl, drives=[drives], grid=grid)
        iops, binding = res.iops[:, 0], np.asarray(res.binding)[:, 0]
        size = xs.astype(float) if x == "block_size_bytes" else np.full(len(xs), float(wl.block_size))
    else:
        from ..errors import ParameterError

        raise ParameterError("x", x, "drives, iodepth, numjobs, outstanding or block_size_bytes for a model overlay")
    value = iops if y == "iops" else iops * size
    bound = _upper_bounds(topology, workload, drives, x, xs, overrides)
    ax.plot(xs, value, color="k", ls="--", lw=1.4, marker="_", ms=10, zorder=4,
            label=f"model ceiling: {topology.name} ({drives} drive{'s' if drives != 1 else ''})"
                  + (f"\n{bound}" if bound else ""))
    frame = pd.DataFrame({x: xs, "value": value, "binding": [str(b) for b in binding]})
    binding_strip(ax, {"model": (xs, frame["binding"].to_numpy())}, title="model: binding component")
    return frame


def _upper_bounds(topology, workload, drives: int, x: str, xs, overrides) -> str:
    """Where the overlay is only an upper bound (a limit the model does not know at some x, e.g. the drive's QD1
    latency): the curve's own note, with the x values it holds at — said on the chart, as `ceilings` says it
    (QA s25, H11)."""
    import nvmemodel as nm

    fields = {"iodepth": "iodepth", "outstanding": "iodepth", "numjobs": "numjobs", "block_size_bytes": "block_size"}
    field = fields.get(x, "")  # (x is drives or one of these: _overlay_model refuses any other)
    at: dict[str, list] = {}
    for v in xs:
        if x == "drives":
            wl, n = workload, int(v)
        else:
            wl, n = workload.replace(**{field: float(v) if field == "block_size" else int(v)}), drives
            if x == "outstanding":
                wl = wl.replace(numjobs=1)
        note = nm.evaluate(topology, wl, drives=[n], overrides=overrides).upper_bound_note
        if note:
            at.setdefault(note, []).append(v)
    return "; ".join(f"{note} (at {x} = {', '.join(f'{float(v):g}' for v in vs)})" if len(vs) < len(xs) else note
                     for note, vs in at.items())


def _latency_axis(ax, table, *, x, hue, latency, directions, mapping):
    """A second y axis with ``latency`` per curve and direction (dotted, square markers, each curve's colour), from
    0; one legend entry says what the dotted lines are."""
    import seaborn as sns

    lat_name = resolve_y(latency)
    lat = summarize(table, x=x, y=lat_name, hue=hue)
    if directions is not None:
        lat = lat[lat["direction"].isin(list(directions))]
    lat = lat[lat["direction"] != "total"]  # a mean of reads and writes hides both
    if lat.empty or lat["mean"].isna().all():
        return None
    runs = _per_run(table, x=x, y=lat_name, hue=hue, directions=directions)
    runs = runs[runs["direction"] != "total"]
    twin = ax.twinx()
    twin.grid(False)  # the left axis's grid only
    label = QUANTITIES[lat_name][0]
    hue_col = hue or "direction"
    for _direction, d in runs.groupby("direction", sort=False):
        sns.lineplot(d, x=x, y=lat_name, hue=hue_col, **mapping, estimator="mean", errorbar=None, ax=twin,
                     legend=False, ls=":", lw=1.3, marker="s", markersize=4, markeredgecolor="none")
    twin.plot([], [], color="0.3", ls=":", lw=1.3, marker="s", ms=4,
              label=f"{label} (dotted ■, right axis)")
    twin.yaxis.set_major_formatter(_formatter("s"))
    twin.set_ylim(bottom=0, top=float(np.nanmax(lat["mean"])) * 1.25)
    twin.set_ylabel(f"{label} (dotted)")
    twin.set_xlabel("")
    return twin


@themed
def plot_percentiles(table: pd.DataFrame, *, x: str,
                     percentiles: Sequence[str] = ("clat_p50_s", "clat_p99_s", "clat_p99_9_s"),
                     directions: Sequence[str] | None = None, ax: Axes | None = None,
                     title: str | None = None) -> Axes:
    """Completion-latency percentiles (default p50, p99, p99.9) against the swept variable, drawn by seaborn from
    one row per run: one colour and marker per percentile (``hue=``), one line style per direction (``style=``:
    read solid, write dashed), on a log latency axis (the tail spans decades). Repeats: the mean of the runs'
    percentiles with ±1 s.d. bars. ``ax.summary`` holds the numbers, ``ax.curves`` each line by name
    (``"p99 read"``)."""
    import matplotlib.pyplot as plt
    import pandas as pd
    import seaborn as sns

    from .style import legend_outside, set_title

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.8), layout="constrained")
    ax = cast("ChartAxes", ax)  # (it gains the attributes the docstring names)
    _results_table(table)
    frames, drawn = [], []
    import warnings

    seen = set()
    for col in percentiles:
        col = resolve_y(col)
        with warnings.catch_warnings(record=True) as caught:  # one summary per percentile: say each warning once
            warnings.simplefilter("always")
            s = summarize(table, x=x, y=col)
        for w in caught:  # (QA s27 O4: the terse file without iodepth was warned of three times)
            if (w.category, str(w.message)) not in seen:
                seen.add((w.category, str(w.message)))
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        s = s[s["direction"] != "total"]
        if directions is not None:
            s = s[s["direction"].isin(list(directions))]
        if s["mean"].isna().all():
            continue
        name = QUANTITIES[col][0].split(" ")[0]
        frames.append(s.assign(percentile=col))
        runs = _per_run(table, x=x, y=col, hue=None, directions=directions)
        drawn.append(runs[runs["direction"] != "total"].rename(columns={col: "latency"}).assign(percentile=name))
    if not frames:
        from ..errors import IngestError

        raise IngestError("(plot)", f"no completion-latency percentiles ({', '.join(percentiles)}) in these results")
    summary = pd.concat(frames, ignore_index=True)
    runs = pd.concat(drawn, ignore_index=True)
    names = list(dict.fromkeys(runs["percentile"]))
    mapping = _hue_mapping(names)
    repeats = bool((summary["n"] > 1).any())
    before = len(ax.lines)
    sns.lineplot(runs, x=x, y="latency", hue="percentile", **mapping, style="direction", dashes=_DASHES,
                 markers=_MARKERS, estimator="mean", errorbar="sd" if repeats else None, err_style="bars",
                 err_kws={"capsize": 2, "elinewidth": 0.8}, markersize=5, markeredgecolor="none", ax=ax)
    ax.curves = _curves(ax, before, runs, "percentile", "direction", mapping, lambda h, s: f"{h} {s}")
    if (seaborn_legend := ax.get_legend()) is not None:
        seaborn_legend.remove()
    xs = pd_numeric(summary[x])
    _x_axis(ax, x, xs)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(_formatter("s"))
    ax.yaxis.set_minor_formatter(_formatter("s") if summary["mean"].max() / summary["mean"].min() < 10 else
                                 plt.NullFormatter())
    ax.set_ylabel("completion latency (log scale)")
    ax.set_xlabel(_X_LABELS.get(x, x))
    legend_outside(ax, where="top")
    ax.provenance = provenance(table, x=x, summary=summary) + ("; bars: ±1 s.d. of repeats" if repeats else "")
    # runs without these percentiles are not on the chart: the chart says which (QA s27 I7)
    missing = _unmeasured_note(table, [resolve_y(c) for c in percentiles], "completion-latency percentiles")
    ax.unmeasured = f"{missing} (not drawn)" if missing else ""
    set_title(ax, title or f"latency percentiles vs {_X_LABELS.get(x, x)}", fontsize=10,
              pad_extra=14 + (10 if ax.unmeasured else 0))
    ax.text(0, 1.0, ax.provenance + (f"\n{ax.unmeasured}" if ax.unmeasured else ""), transform=ax.transAxes,
            fontsize=7.5, color="0.25", va="bottom", ha="left")
    if (legend := ax.get_legend()) is not None:  # (legend_outside drew one: a chart has at least one curve)
        legend.set_bbox_to_anchor((0, 1.06))
    ax.grid(True, which="minor", axis="y", alpha=0.25, lw=0.4)  # the decades' subdivisions, fainter
    ax.summary = summary
    return ax


@themed
def plot_fio_log(frame: pd.DataFrame, *, kind: str = "iops", bin_s: float | None = None, ax: Axes | None = None,
                 title: str | None = None, latency: str | None = "auto", stats: bool = True,
                 steady_state: pd.DataFrame | None = None) -> Axes:
    """A fio time series (from :func:`nvmemodel.read_fio_logs`): jobs merged per bin, one line per direction,
    the y axis from 0 (so ±2 % of noise looks like ±2 %), each value held over its whole bin.

    Bins at the start and end that not every job's log reaches (a job started late or stopped early, a
    last partial interval) are left out and counted in the title, instead of drawn as a drop. With
    ``latency`` (``"clat"``, ``"lat"``, ``"slat"``; ``"auto"``: the first of them in ``frame`` when ``kind``
    is ``iops`` or ``bw``) the mean latency per bin goes on a second axis (``ax.latency_axis``). With
    ``stats`` a table under the axes gives per direction the mean, s.d. (and as % of the mean), min, max
    and the number of bins (``ax.stats`` holds it as a DataFrame). ``kind``: ``iops``, ``bw``, ``clat``,
    ``slat`` or ``lat``. ``steady_state``: the results table of the same run (:func:`nvmemodel.read_results` of
    its fio JSON, run with ``ss=``): fio's steady-state window — the last ``ss_duration_s`` of the run, ending at
    its ``runtime_s`` (a run with ``ramp_time`` logs from its start: the window then sits that much later) — is
    shaded and labelled with fio's verdict, and for ``iops``/``bw`` the window's mean fio reported is drawn
    across it (``ax.steady_window`` holds (start, end) in seconds). fio samples the window on its own one-second
    clock, so its mean need not equal the logged bins'."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from ..ingest import merge_fio_logs

    merged = merge_fio_logs(frame[frame["kind"] == kind], bin_s=bin_s)
    if merged.empty:
        from ..errors import IngestError

        raise IngestError("(plot)", f"no {kind!r} samples in the logs (kinds present: {sorted(set(frame['kind']))})")
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 5.2 if stats else 3.8), layout="constrained")
    ax = cast("ChartAxes", ax)  # (it gains the attributes the docstring names)
    merged, dropped = _full_bins(merged)
    unit = {"iops": "", "bw": "B/s"}.get(kind, "s")
    times = np.sort(merged["time_s"].unique())
    bins = np.diff(times)
    width = float(bin_s or (bins.min() if bins.size else 1.0))
    from .style import PALETTE, legend_outside, set_title

    rows = []
    for i, (direction, d) in enumerate(merged.groupby("direction")):
        # each value holds for its whole bin: drawn up to the bin's end, without a drop to zero at the ends
        t = np.r_[d["time_s"].to_numpy(), d["time_s"].iloc[-1] + width]
        v = d["value"].to_numpy(dtype=float)
        ax.stairs(v, t, baseline=None, ls=_STYLES.get(direction, "-"), lw=1.5, color=PALETTE[i % len(PALETTE)],
                  label=direction)
        mean, sd = float(np.mean(v)), float(np.std(v, ddof=1)) if len(v) > 1 else float("nan")
        rows.append({"direction": direction, "mean": mean, "sd": sd, "cv_pct": 100 * sd / mean if mean else np.nan,
                     "min": float(np.min(v)), "max": float(np.max(v)), "bins": len(v)})
    ax.yaxis.set_major_formatter(_formatter(unit))
    ax.set_ylim(0, float(merged["value"].max()) * 1.15)
    ax.set_xlabel("time since job start (s)")
    names = {"iops": "IOPS", "bw": "bandwidth", "clat": "completion latency", "slat": "submission latency",
             "lat": "total latency"}
    ylabel = names[kind]
    ax.set_ylabel(ylabel)
    ax.latency_axis = None
    if latency == "auto":
        latency = next((k for k in ("clat", "lat", "slat") if (frame["kind"] == k).any()), None) if kind in ("iops", "bw") else None
    if latency:
        lat = merge_fio_logs(frame[frame["kind"] == latency], bin_s=width)
        lat, _ = _full_bins(lat)
        if not lat.empty:
            twin = ax.twinx()
            twin.grid(False)  # the rate axis's grid only (the theme grids every axes)
            colour = {direction: PALETTE[i % len(PALETTE)]  # each direction's latency in its rate's colour
                      for i, direction in enumerate(sorted(merged["direction"].unique()))}
            for direction, d in lat.groupby("direction"):
                twin.plot(d["time_s"] + width / 2, d["value"], color=colour.get(direction, "0.35"), ls=":", lw=1.1,
                          marker=".", ms=3, label=f"mean {names[latency]}: {direction} (right axis)")
            twin.yaxis.set_major_formatter(_formatter("s"))
            twin.set_ylim(0, float(lat["value"].max()) * 1.6)
            twin.set_ylabel(f"{names[latency]} (dotted)")
            ax.latency_axis = twin
    ax.steady_window = _steady_window(ax, steady_state, kind, float(times[-1] + width) if times.size else 0.0)
    handles, labels = ax.get_legend_handles_labels()
    if ax.latency_axis is not None:
        more = ax.latency_axis.get_legend_handles_labels()
        handles, labels = handles + more[0], labels + more[1]
    legend_outside(ax, where="top", handles=handles, labels=labels)
    jobs = int(merged["jobs"].max())
    edge = f"; {dropped} edge bin(s) not reached by every job left out" if dropped else ""
    set_title(ax, title or f"{ylabel} over time: {jobs} job log(s) merged, {si_format(width, 's')} bins{edge}",
              fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.stats = pd.DataFrame(rows)
    if stats:
        table = ax.inset_axes((0, -0.32, 1, 0.14))
        table.axis("off")
        cells = [[r["direction"], si_format(r["mean"], unit), f"{si_format(r['sd'], unit)} ({r['cv_pct']:.1f} %)",
                  si_format(r["min"], unit), si_format(r["max"], unit), str(r["bins"])] for r in rows]
        t = table.table(cellText=cells, colLabels=["direction", "mean", "s.d. (% of mean)", "min", "max", "bins"],
                        loc="center", cellLoc="center")
        t.auto_set_font_size(False)
        t.set_fontsize(8)
    return ax


def _steady_window(ax, table, kind: str, end: float):
    """Shade fio's steady-state window of the run in ``table`` (its rows with ``ss_*`` columns); (start, end) or
    None where no table is given."""
    if table is None:
        return None
    from ..errors import IngestError

    rows = table[table["ss_duration_s"].notna()] if "ss_duration_s" in table else table.iloc[0:0]
    if rows.empty:
        raise IngestError("(plot)", "the steady-state run's results have no fio steady-state report (ss=): give the "
                                    "JSON of the run whose logs these are, run with --ss")
    first = rows.iloc[0]
    duration = float(first["ss_duration_s"])
    runtime = float(rows["runtime_s"].max())
    end = runtime if runtime == runtime else end  # (the end of the last bin where the run time is unknown)
    start = max(0.0, end - duration)
    ax.set_xlim(right=max(ax.get_xlim()[1], end))
    attained = bool(rows["ss_attained"].astype(bool).all())
    value = float(first["ss_criterion_value"])
    shown = f"{value:.1%}" if str(first["ss_criterion"]).endswith("%") else f"{value:.4g}"
    words = "attained" if attained else "NOT attained"
    ax.axvspan(start, end, color="0.85", zorder=0,
               label=f"fio's steady-state window (last {duration:g} s): {words}, {first['ss_criterion']} "
                     f"measured {shown}")
    mean = {"iops": "ss_iops", "bw": "ss_bw_bytes_per_s"}.get(kind)
    if mean and rows[mean].notna().any():
        ax.hlines(float(rows[mean].sum()), start, end, colors="0.2", linestyles="--", lw=1.2,
                  label="the window's mean, as fio reported it")
    return start, end


def _full_bins(merged):
    """Drop the leading and trailing bins that fewer jobs reached than the most; (kept frame, bins dropped)."""
    if merged.empty:
        return merged, 0
    keep = []
    for _, d in merged.groupby(["kind", "direction"], sort=False):
        full = d["jobs"] == d["jobs"].max()
        idx = np.flatnonzero(full.to_numpy())
        keep.append(d.iloc[idx[0]:idx[-1] + 1])
    import pandas as pd

    kept = pd.concat(keep)
    return kept, len(merged) - len(kept)


def latency_bins(path, *, direction: str = "read", job: int = 0):
    """(bin latency in s, count) of one job's completion-latency histogram in a fio json+ file
    (``clat_ns.bins``: fio's bucket value in ns → I/O count), from the file's last report."""
    import pathlib

    from ..errors import IngestError
    from ..ingest.files import read_text
    from ..ingest.fio_json import _decode_documents

    path = pathlib.Path(path)
    docs, _ = _decode_documents(read_text(path), path)
    jobs = docs[-1].get("jobs") or []
    if not 0 <= job < len(jobs) or not isinstance(jobs[job].get(direction), dict):
        raise IngestError(path, f"job {job}, direction {direction!r}: not in the file ({len(jobs)} job(s))")
    bins = (jobs[job][direction].get("clat_ns") or {}).get("bins")
    if not isinstance(bins, dict) or not bins:
        raise IngestError(path, f"jobs[{job}].{direction}.clat_ns has no 'bins': write it with "
                                "--output-format=json+")
    try:
        pairs = sorted((int(k), int(v)) for k, v in bins.items())
    except (TypeError, ValueError):
        raise IngestError(path, "clat_ns.bins: expected 'nanoseconds': count pairs") from None
    lat = np.array([p[0] for p in pairs], dtype=float) * 1e-9
    info = dict(jobs[job], _fio_version=docs[-1].get("fio version"), _global=docs[-1].get("global options") or {})
    # what else the file holds a histogram of (the chart says it draws one of them: QA s25 H18)
    info["_histograms"] = [(i, j.get("jobname"), d) for i, j in enumerate(jobs) for d in ("read", "write", "trim")
                           if isinstance(j.get(d), dict) and (j[d].get("clat_ns") or {}).get("bins")]
    return lat, np.array([p[1] for p in pairs], dtype=float), info


#: fio's coarse latency buckets in its plain JSON (fio io_u.c io_u_mark_latency: a job's completion latencies, reads
#: and writes together, counted under ns below 1 µs, µs below 1 ms, ms above; stat.c stat_calc_lat: % of the job's
#: I/Os, a non-empty bucket under 0.01 % written as 0.01). The key is the bucket's exclusive upper edge and the key
#: before it its lower edge (ns: 0-2, 2-4, 4-10 … 750-1000); a unit's first bucket starts at 1 of that unit (what is
#: below is in the finer unit's buckets); ">=2000" (ms) is open above.
COARSE_BUCKETS = (("latency_ns", 1e-9), ("latency_us", 1e-6), ("latency_ms", 1e-3))


def latency_buckets(path, *, job: int = 0):
    """fio's coarse latency buckets of one job in a fio JSON file (``latency_ns``, ``latency_us``, ``latency_ms``;
    plain JSON has them, not only json+): a DataFrame with ``lo_s``, ``hi_s`` (inf for the open last one),
    ``percent`` (of the job's reads and writes together, as fio wrote it) and fio's ``key``, in latency order,
    and the job's record."""
    import pathlib

    import pandas as pd

    from ..errors import IngestError
    from ..ingest.files import read_text
    from ..ingest.fio_json import _decode_documents

    path = pathlib.Path(path)
    docs, _ = _decode_documents(read_text(path), path)
    jobs = docs[-1].get("jobs") or []
    if not 0 <= job < len(jobs):
        raise IngestError(path, f"job {job}: not in the file ({len(jobs)} job(s))")
    rows = []
    for field, unit in COARSE_BUCKETS:
        buckets = jobs[job].get(field)
        if buckets is None:
            continue
        if not isinstance(buckets, dict):
            raise IngestError(path, f"jobs[{job}].{field}: expected an object of 'upper edge': percent pairs")
        lo = 0.0 if field == "latency_ns" else 1.0
        try:
            keys = sorted(buckets, key=lambda k: (k.startswith(">="), float(k.lstrip(">="))))
            for key in keys:
                edge = float(key.lstrip(">="))
                if key.startswith(">="):
                    rows.append((edge * unit, np.inf, float(buckets[key]), f"{field}.{key}"))
                else:
                    rows.append((lo * unit, edge * unit, float(buckets[key]), f"{field}.{key}"))
                    lo = edge
        except (TypeError, ValueError):
            raise IngestError(path, f"jobs[{job}].{field}: expected 'upper edge': percent pairs "
                                    "(fio writes e.g. \"250\": 41.8)") from None
    frame = pd.DataFrame(rows, columns=["lo_s", "hi_s", "percent", "key"])
    if frame.empty or not (frame["percent"] > 0).any():
        raise IngestError(path, f"jobs[{job}] has no latency buckets (latency_ns/latency_us/latency_ms) with I/Os: "
                                "fio measured no completion latency (gtod_reduce=1 or disable_clat=1?)")
    info = dict(jobs[job], _fio_version=docs[-1].get("fio version"), _global=docs[-1].get("global options") or {},
                _jobs=len(jobs))
    return frame, info


def _has_bins(path, direction: str, job: int) -> bool:
    """Whether ``path`` is fio json+ with a fine histogram of that job and direction."""
    import pathlib

    from ..ingest.files import read_text
    from ..ingest.fio_json import _decode_documents

    path = pathlib.Path(path)
    docs, _ = _decode_documents(read_text(path), path)
    jobs = docs[-1].get("jobs") or []
    if not 0 <= job < len(jobs) or not isinstance(jobs[job].get(direction), dict):
        return True  # latency_bins says what is missing
    if any(isinstance(j.get(d), dict) and (j[d].get("clat_ns") or {}).get("bins")
           for j in jobs for d in ("read", "write", "trim")):
        return True  # json+: a direction without bins is said to be one (latency_bins names the others)
    return False


def _provenance_of(info) -> str:
    options = {**info["_global"], **(info.get("job options") or {})}  # what was run, as fio recorded it
    said = [info["_fio_version"], options.get("rw"), options.get("bs") and f"bs {options['bs']}",
            options.get("iodepth") and f"iodepth {options['iodepth']}",
            options.get("numjobs") and f"numjobs {options['numjobs']}", options.get("ioengine")]
    return " · ".join(str(v) for v in said if v)


@themed
def plot_latency_histogram(path: str | os.PathLike[str], *, direction: str = "read", job: int = 0,
                           ax: Axes | None = None, title: str | None = None) -> Axes:
    """The completion-latency histogram of a fio result (log latency axis), with the p50 / p99 / p99.9 fio
    reported marked. From json+ (``clat_ns.bins``): fio's fine buckets of ``direction``. From plain JSON: fio's
    coarse buckets (:data:`COARSE_BUCKETS`: 2-4-10-20-50-100-250-500-750-1000 per unit, the job's reads and writes
    together), each drawn over its own edges and said to be coarse (``ax.buckets`` holds them)."""
    if not _has_bins(path, direction, job):
        return _coarse_histogram(path, job=job, ax=ax, title=title)
    import matplotlib.pyplot as plt

    lat, counts, info = latency_bins(path, direction=direction, job=job)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
    ax = cast("ChartAxes", ax)  # (it gains the attributes the docstring names)
    # fio lists only non-empty buckets; each is 1/64 of its power of two wide (FIO_IO_U_PLAT_BITS=6,
    # fio stat.h), exact below 64 ns: draw each at its own width, never stretched over a gap
    width = np.maximum(lat / 64, 1e-9)
    ax.bar(lat, counts / counts.sum(), width=width, align="edge", alpha=0.7, lw=0, edgecolor="none",
           label=f"{int(counts.sum()):,} I/Os")  # (no white outline: 1/64-wide bars would vanish under it)
    ax.set_xscale("log")
    ax.set_yscale("log")  # the tail (rare slow I/Os) is what matters; a linear axis hides it
    ax.xaxis.set_major_formatter(_formatter("s"))
    pct = (info[direction].get("clat_ns") or {}).get("percentile") or {}
    for key, name, ls in (("50.000000", "p50", "-"), ("99.000000", "p99", "--"), ("99.900000", "p99.9", ":")):
        if key in pct:
            v = pct[key] * 1e-9
            ax.axvline(v, color="k", ls=ls, lw=1, label=f"{name} = {si_format(v, 's')}")
    ax.set_xlabel("completion latency")
    ax.set_ylabel("share of I/Os per fio bucket (log)")
    ax.set_title(title or f"{info.get('jobname')}: {direction} completion latency (fio json+ buckets)", fontsize=10,
                 pad=16)
    ax.provenance = _provenance_of(info)
    others = [h for h in info["_histograms"] if h[0] != job or h[2] != direction]
    if others:  # one histogram of several: say so, and how to draw another
        ax.provenance += (f"\njob {job} of {len({h[0] for h in info['_histograms']})}, {direction}s; the file also "
                          f"holds {len(others)} other histogram(s) (e.g. job {others[0][0]} '{others[0][1]}' "
                          f"{others[0][2]}s): --job N / --direction to draw them")
        ax.set_title(ax.get_title(), fontsize=10, pad=27)  # above the two lines
    ax.text(0, 1.0, ax.provenance, transform=ax.transAxes, fontsize=7.5, color="0.25", va="bottom", ha="left")
    # a fixed corner: "best" scans every one of fio's ~1,800 buckets and warns when slow; the tail (right) is low
    ax.legend(fontsize=8, loc="upper right")
    return ax


def _coarse_histogram(path, *, job: int, ax=None, title: str | None = None):
    """fio's coarse latency buckets of one job (plain JSON) as bars over their own edges, log axes, each bar's share
    written on it; the p50 / p99 / p99.9 of each direction with I/Os marked."""
    import matplotlib.pyplot as plt

    from .style import PALETTE, legend_outside, set_title

    frame, info = latency_buckets(path, job=job)
    used = np.flatnonzero(frame["percent"].to_numpy() > 0)
    shown = frame.iloc[used[0]:used[-1] + 1].copy()  # from the first to the last bucket with I/Os, empty ones between
    lo = shown["lo_s"].where(shown["lo_s"] > 0, shown["hi_s"] / 2)  # (0-2 ns: drawn from 1 ns on a log axis)
    hi = shown["hi_s"].where(np.isfinite(shown["hi_s"]), shown["lo_s"] * 2)  # (>= 2 s: open above, drawn to 4 s)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.8), layout="constrained")
    pct = shown["percent"].to_numpy(dtype=float)
    bars = ax.bar(lo, np.where(pct > 0, pct, np.nan), width=hi - lo, align="edge", color=PALETTE[0], alpha=0.75,
                  edgecolor="white", lw=0.8, label="% of the job's I/Os in fio's bucket")
    for bar, p, open_ in zip(bars, pct, ~np.isfinite(shown["hi_s"].to_numpy())):
        if p > 0:  # each bar's share written on it (upright: ten narrow bars side by side stay legible)
            text = "≤0.01 %" if p <= 0.01 else f"{p:.3g} %"
            ax.annotate(text + (" (≥ 2 s, open)" if open_ else ""), (np.sqrt(bar.get_x() * (bar.get_x() + bar.get_width())), p),
                        xytext=(0, 2), textcoords="offset points", ha="center", va="bottom", fontsize=6.5, rotation=90)
    ax.set_xscale("log")
    ax.set_yscale("log")  # the tail (a 0.01 % bucket beside a 50 % one) is what matters; a linear axis hides it
    ax.set_ylim(0.005, 1000)  # room for the shares written over the bars
    ax.xaxis.set_major_formatter(_formatter("s"))
    from matplotlib.ticker import FixedLocator, FuncFormatter

    ax.yaxis.set_major_locator(FixedLocator([0.01, 0.1, 1, 10, 100]))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g} %"))
    ax.set_xlim(float(lo.min()) / 1.3, float(hi.max()) * 1.3)
    directions = [d for d in ("read", "write", "trim")
                  if isinstance(info.get(d), dict) and (info[d].get("total_ios") or info[d].get("io_bytes"))]
    for i, d in enumerate(directions):
        pcts = (info[d].get("clat_ns") or {}).get("percentile") or {}
        for key, name, ls in (("50.000000", "p50", "-"), ("99.000000", "p99", "--"), ("99.900000", "p99.9", ":")):
            if key in pcts and pcts[key]:
                v = pcts[key] * 1e-9
                ax.axvline(v, color="k" if len(directions) == 1 else PALETTE[(i + 1) % len(PALETTE)], ls=ls, lw=1,
                           label=f"{d} {name} = {si_format(v, 's')} (fio's percentile)")
    ax.set_xlabel("completion latency (fio's coarse buckets: each bar spans its bucket's edges)")
    ax.set_ylabel("share of I/Os per bucket (log)")
    which = " and ".join(f"{d}s" for d in directions) or "I/Os"
    set_title(ax, title or f"{info.get('jobname')}: completion latency of its {which}"
              + (" together" if len(directions) > 1 else "") + " (fio's coarse latency buckets)", fontsize=10,
              pad_extra=16)
    ax.provenance = (_provenance_of(info) + (f" · job {job} of {info['_jobs']} (--job N for another)"
                                             if info["_jobs"] > 1 else "")
                     + "\nplain fio JSON: 10 buckets per unit (2-4-10-20-50-100-250-500-750-1000); a bucket under "
                       "0.01 % shows as 0.01 %; json+ has fine ones")
    ax.text(0, 1.0, ax.provenance, transform=ax.transAxes, fontsize=7, color="0.25", va="bottom", ha="left")
    legend_outside(ax, where="right")
    ax.buckets = frame
    return ax
