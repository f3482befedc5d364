"""Charts of measured results: a y quantity against the swept variable, fio time series, and
json+ latency histograms. Functions take ``ax=None`` and return the Axes.

Numbers on the axes are SI-formatted (``1.2 M``, ``250 K`` IOPS; ``3.2 GB/s``; ``250 µs``);
queue depths, job counts, outstanding I/Os and block sizes spread over more than a factor of
four get a log2 axis with a tick at every measured value.
"""

from __future__ import annotations

import math

import numpy as np

from ..ingest.summary import QUANTITIES, resolve_y, summarize

__all__ = ["plot_fio_log", "plot_latency_histogram", "plot_results", "si_format"]

_PREFIXES = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K"), (1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")]
_LOG2_X = {"iodepth", "numjobs", "outstanding", "block_size_bytes", "drives"}
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


def _log2_axis(ax, values, column: str) -> None:
    from matplotlib.ticker import FixedFormatter, FixedLocator, NullLocator

    ax.set_xscale("log", base=2)
    ticks = sorted(float(v) for v in values)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    sizes = column == "block_size_bytes"
    labels, last = [], -math.inf
    for v in ticks:  # a tick for every measured value; a label only where it does not collide
        text = (si_format(v, binary_sizes=True) if sizes else f"{v:g}") if v >= last * 1.25 else ""
        last = v if text else last
        labels.append(text)
    ax.xaxis.set_major_formatter(FixedFormatter(labels))


def plot_results(table, *, x: str, y: str = "iops", hue: str | None = None, directions=None, little: bool = True,
                 error_bars: bool = True, ax=None, title: str | None = None):
    """Measured ``y`` against ``x``: one line per ``hue`` value and direction, repeats averaged.

    Parameters
    ----------
    table : pandas.DataFrame or mapping of name → DataFrame
        Results from :func:`nvmemodel.read_results`. A mapping compares several tables (e.g.
        folders) on one chart: its keys become the ``dataset`` column and the default ``hue``.
    x : str
        Swept variable: a column or ``"outstanding"`` (see :func:`~nvmemodel.ingest.summary.summarize`).
    y : str
        ``iops`` (default), ``bw_bytes_per_s``, ``latency`` (p99 completion latency), any
        latency column (``lat_mean_s``, ``clat_p50_s`` …), ``cpu_usr``.
    hue : str, optional
        Column separating the curves; default ``dataset`` when ``table`` is a mapping.
    directions : sequence of str, optional
        Which directions to draw (``read``, ``write``, ``trim``, ``mixed``, ``total``); default all.
    little : bool
        Draw the Little's-law check ``iodepth × jobs / mean latency`` (IOPS and bytes/s) as a
        thin dotted line in each curve's colour.
    error_bars : bool
        ± one standard deviation where several runs share an x value.

    Returns
    -------
    matplotlib.axes.Axes
        With ``ax.summary`` holding the plotted :func:`summarize` table.
    """
    import matplotlib.pyplot as plt
    import pandas as pd

    if isinstance(table, dict):
        table = pd.concat([t.assign(dataset=str(k)) for k, t in table.items()], ignore_index=True)
        hue = hue or "dataset"
    y = resolve_y(y)
    summary = summarize(table, x=x, y=y, hue=hue)
    if directions is not None:
        summary = summary[summary["direction"].isin(list(directions))]
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    label, unit, _ = QUANTITIES[y]
    groups = summary.groupby(hue, sort=False, dropna=False) if hue else [(None, summary)]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    by_direction = {d: colors[i % len(colors)] for i, d in enumerate(dict.fromkeys(summary["direction"]))}
    little_drawn = bars = False
    for i, (key, g) in enumerate(groups):
        multi = g["direction"].nunique() > 1
        for direction, d in g.groupby("direction", sort=False):
            d = d.sort_values(x)
            # one table: colour = direction; several: colour = hue value, line style = direction
            color = by_direction[direction] if hue is None else colors[i % len(colors)]
            name = " ".join(str(p) for p in ((f"{hue}={key}" if hue else None), direction if multi else None) if p)
            yerr = d["std"].fillna(0) if error_bars and (d["n"] > 1).any() else None
            bars |= yerr is not None
            ax.errorbar(d[x], d["mean"], yerr=yerr, color=color, ls=_STYLES.get(direction, "-"), marker="o", ms=4,
                        capsize=3 if yerr is not None else 0, label=name or label)
            if little and d["little"].notna().any():
                ax.plot(d[x], d["little"], color=color, ls=":", lw=1.2, marker="x", ms=6, alpha=0.8,
                        label=None if little_drawn else "Little's law check: iodepth × jobs / mean latency")
                little_drawn = True
    xs = pd.to_numeric(summary[x], errors="coerce").dropna()
    if x in _LOG2_X and len(xs) and (xs > 0).all() and xs.max() / xs.min() > 4:
        _log2_axis(ax, xs.unique(), x)
    ax.yaxis.set_major_formatter(_formatter(unit))
    ax.set_ylim(bottom=0)
    ax.set_xlabel(_X_LABELS.get(x, x))
    ax.set_ylabel(label)  # the tick labels carry the unit (250 µs, 3.2 GB/s)
    note = f"{summary.attrs['runs']} measured run(s)" + ("; bars: ±1 s.d. of repeats" if bars else "")
    ax.set_title(title or f"{label} vs {_X_LABELS.get(x, x)}\n({note})", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.summary = summary
    return ax


def plot_fio_log(frame, *, kind: str = "iops", bin_s: float | None = None, ax=None, title: str | None = None):
    """A fio time series (from :func:`nvmemodel.read_fio_logs`): jobs merged per bin, one line
    per direction. ``kind``: ``iops``, ``bw``, ``clat``, ``slat`` or ``lat``."""
    import matplotlib.pyplot as plt

    from ..ingest import merge_fio_logs

    merged = merge_fio_logs(frame[frame["kind"] == kind], bin_s=bin_s)
    if merged.empty:
        from ..errors import IngestError

        raise IngestError("(plot)", f"no {kind!r} samples in the logs (kinds present: {sorted(set(frame['kind']))})")
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
    unit = {"iops": "", "bw": "B/s"}.get(kind, "s")
    bins = np.diff(np.sort(merged["time_s"].unique()))
    width = float(bin_s or (bins.min() if bins.size else 1.0))
    for direction, d in merged.groupby("direction"):
        # each value holds for its whole bin: draw it up to the bin's end
        t = np.r_[d["time_s"].to_numpy(), d["time_s"].iloc[-1] + width]
        ax.stairs(d["value"].to_numpy(), t, ls=_STYLES.get(direction, "-"), lw=1.5, label=direction)
    ax.yaxis.set_major_formatter(_formatter(unit))
    ax.set_ylim(bottom=0)
    ax.set_xlabel("time since job start (s)")
    ylabel = {"iops": "IOPS", "bw": "bandwidth", "clat": "completion latency", "slat": "submission latency",
              "lat": "total latency"}[kind]
    ax.set_ylabel(ylabel)
    jobs = int(merged["jobs"].max())
    ax.set_title(title or f"{ylabel} over time ({jobs} job log(s) merged, {si_format(width, 's')} bins)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return ax


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
    return lat, np.array([p[1] for p in pairs], dtype=float), jobs[job]


def plot_latency_histogram(path, *, direction: str = "read", job: int = 0, ax=None, title: str | None = None):
    """The completion-latency histogram of a fio json+ result (log latency axis), with the
    p50 / p99 / p99.9 fio reported marked."""
    import matplotlib.pyplot as plt

    lat, counts, info = latency_bins(path, direction=direction, job=job)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
    # fio lists only non-empty buckets; each is 1/64 of its power of two wide (FIO_IO_U_PLAT_BITS=6,
    # fio stat.h), exact below 64 ns: draw each at its own width, never stretched over a gap
    width = np.maximum(lat / 64, 1e-9)
    ax.bar(lat, counts / counts.sum(), width=width, align="edge", alpha=0.7, label=f"{int(counts.sum()):,} I/Os")
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
    ax.set_title(title or f"{info.get('jobname')}: {direction} completion latency (fio json+ buckets)", fontsize=10)
    ax.legend(fontsize=8)
    return ax
