"""The chart of a comparison (:func:`nvmemodel.compare`): each point's change per metric with its interval.

One panel per metric, one row per point; the x axis is the ratio new / base on a log scale (so +100 % and
−50 % sit equally far from "no change"), labelled as a change in %. A filled marker is a change beyond noise
and the threshold (green faster, vermilion slower — for latencies lower is faster), a hollow one no change
beyond noise or one below the threshold, a cross a point that cannot be told from noise (fewer than two
runs a side: no interval). The grey band is ± the threshold.
"""

from __future__ import annotations

import math

from .style import PALETTE, note

__all__ = ["plot_comparison"]

_FASTER, _SLOWER, _NEUTRAL = PALETTE[2], PALETTE[1], "0.45"
_TICKS = ((0.5, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.25, 2), (0.1, 0.2, 0.5, 0.8, 1.0, 1.25, 2, 5, 10),
          (0.01, 0.1, 0.2, 0.5, 1.0, 2, 5, 10, 20, 50, 100), (0.01, 0.1, 0.3, 1.0, 3, 10, 100))
_TITLES = {"iops": "IOPS", "bw": "bandwidth", "lat_mean": "mean latency", "p99": "p99 latency"}


def _pct(ratio: float) -> str:
    change = (ratio - 1) * 100
    return "0" if abs(change) < 0.05 else f"{change:+.0f}%" if abs(change) >= 10 else f"{change:+.1f}%"


def plot_comparison(comparison, *, title: str | None = None, base: str = "base", new: str = "new"):
    """Draw ``comparison`` (a :class:`nvmemodel.Comparison`); returns the first panel's Axes (its figure
    holds them all)."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, NullFormatter, NullLocator

    from ..comparison.core import label
    from ..comparison.points import describe

    changes = comparison.changes
    metrics = list(dict.fromkeys(changes["metric"]))
    rows = list(dict.fromkeys(zip(changes["point"], changes["direction"])))
    several = len({d for _, d in rows}) > 1
    names = [label(describe(p)) + (f" ({d})" if several else "") for p, d in rows]
    threshold = comparison.settings["threshold"]
    fig, axes = plt.subplots(1, len(metrics), sharey=True, squeeze=False,
                             figsize=(2.0 + 2.6 * len(metrics), 1.4 + 0.38 * len(rows)))
    axes = axes[0]
    for ax, metric in zip(axes, metrics):
        sub = changes[changes["metric"] == metric]
        lows, highs = [], []
        ax.axvspan(1 / (1 + threshold), 1 + threshold, color="0.88", zorder=0)
        ax.axvline(1.0, color="0.3", lw=0.8, zorder=1)
        for _, r in sub.iterrows():
            y = rows.index((r["point"], r["direction"]))
            ratio = r["change"] + 1
            verdict = r["verdict"]
            color = _FASTER if verdict == "faster" else _SLOWER if verdict == "slower" else _NEUTRAL
            if verdict == "cannot be told from noise":
                ax.plot(ratio, y, marker="x", color=_NEUTRAL, ms=7, mew=1.5, zorder=3)
            else:
                lo, hi = r["low"] + 1, r["high"] + 1
                ax.errorbar(ratio, y, xerr=[[ratio - lo], [hi - ratio]], fmt="o", color=color, ms=6, capsize=3,
                            mfc=color if verdict in ("faster", "slower") else "white", mew=1.5, zorder=3)
                lows.append(lo)
                highs.append(hi)
            lows.append(ratio)
            highs.append(ratio)
        ax.set_xscale("log")
        column = sub["column"].iloc[0] if len(sub) else metric
        ax.set_title(f"{_TITLES.get(metric, metric)}\n({column})", fontsize="small")
        ax.grid(axis="x", color="0.85", lw=0.6)
        lo = min(min(lows), 1 / (1 + 2 * threshold)) / 1.15
        hi = max(max(highs), 1 + 2 * threshold) * 1.15
        span = math.log10(hi / lo)  # decades: finer ticks near "no change" on a narrow axis
        ticks = [t for t in _TICKS[0 if span <= 0.3 else 1 if span <= 1.2 else 2 if span <= 2.2 else 3]
                 if lo <= t <= hi]
        ax.set_xlim(lo, hi)
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.set_xticklabels([_pct(t) for t in ticks], fontsize="x-small", rotation=45 if len(ticks) > 4 else 0)
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(f"{new} vs {base}", fontsize="small")
    first = axes[0]
    first.set_yticks(range(len(rows)))
    first.set_yticklabels(names, fontsize="small")
    first.set_ylim(len(rows) - 0.5, -0.5)
    confidence = comparison.settings["confidence"]
    fig.suptitle(title or f"{new} vs {base}: {comparison.verdict} (change per point, {confidence:.0%} interval)",
                 x=0.01, ha="left", fontsize="medium")
    note(fig, f"filled: beyond noise and the ±{threshold:.0%} band (green faster, vermilion slower; for latency, "
              "lower "
              "is faster); hollow: no change beyond noise or below the band; ×: cannot be told from noise "
              "(fewer than 2 runs a side)")
    fig.tight_layout()
    return first
