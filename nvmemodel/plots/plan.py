"""The planner's feasible configurations and their Pareto front."""

from __future__ import annotations

import numpy as np


def plot_plan(plan, *, ax=None, x: str = "drives", y: str = "min_headroom", hue: str | None = None):
    """Scatter of the feasible configurations (``x`` vs ``y``), one colour per value of ``hue`` (an axis),
    and the Pareto front over ``(x, y)`` as a step line. Headroom is shown in percent."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 4), layout="constrained")
    df = plan.frame
    if not len(df):
        ax.text(0.5, 0.5, "no configuration meets the targets", ha="center", va="center", transform=ax.transAxes)
        return ax
    hue = hue or next((a for a in plan.space.axes if a in df and df[a].nunique() > 1), None)

    def scale(col, values):
        return np.asarray(values, dtype=float) * (100.0 if "headroom" in col else 1.0)

    groups = df.groupby(hue, observed=True) if hue else [("all", df)]
    for key, part in groups:
        ax.scatter(scale(x, part[x]), scale(y, part[y]), s=18, alpha=0.7, label=f"{hue}={key}" if hue else None)
    front = plan.pareto((x, y)).sort_values(x)
    ax.step(scale(x, front[x]), scale(y, front[y]), where="post", color="black", lw=1.2, marker="o", ms=10,
            mfc="none", label=f"Pareto front ({len(front)})")
    if x in ("drives", "lanes"):
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"{len(df):,} configurations meet every target (of {plan.evaluated:,})", fontsize="medium")
    unit = {"drives": "drives", "lanes": "PCIe lanes", "cost": "cost", "min_headroom": "smallest headroom (%)"}
    ax.set_xlabel(unit.get(x, x))
    ax.set_ylabel(unit.get(y, y))
    ax.legend(fontsize="small")
    return ax
