"""The planner's answers and their Pareto front.

One marker per answer (a row of :attr:`Plan.frame`: configurations with identical results are already one
row), its area growing with the configurations it stands for; answers of different colours at the same
spot are set side by side (dodged along an integer x axis), never on top of each other; the Pareto front
is a step line whose points are labelled with the choices that tell them apart; unverified answers
(latency unknown) are hollow grey markers, and the title counts only verified configurations.
"""

from __future__ import annotations

import numpy as np

_UNIT = {"drives": "drives", "lanes": "PCIe lanes", "cost": "cost", "min_headroom": "smallest headroom over the "
         "targets (%)"}


def _scale(col: str, values) -> np.ndarray:
    return np.asarray(values, dtype=float) * (100.0 if "headroom" in col else 1.0)


def _short(name: str, values: list) -> str:
    from ..parameters import PARAMETERS
    from ..plan.space import is_categorical

    if is_categorical(name):
        return "/".join(str(v) for v in values)
    return "/".join(PARAMETERS[name].format(float(v)) for v in values)


def _point_labels(plan, rows: list[int], varying: list[str]) -> list[str]:
    """Per row, the choices on the axes that vary among the answers (merged choices joined by '/')."""
    out = []
    for i in rows:
        choices = plan.choices(i)
        out.append(", ".join(_short(a, choices[a]) for a in varying) or plan.space.base.name)
    return out


def plot_plan(plan, *, ax=None, x: str = "drives", y: str = "min_headroom", hue: str | None = None,
              labels: int = 6):
    """Scatter of the answers (``x`` vs ``y``), one colour and marker per value of ``hue`` (an axis), the
    Pareto front over ``(x, y)`` as a step line with its first ``labels`` points labelled, and the unverified
    answers as hollow grey markers. Headroom is shown in percent."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from .style import MARKERS, PALETTE, legend_outside

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    df = plan.frame
    unverified = plan.unverified if plan.unverified is not None else df.iloc[:0]
    title = f"{plan.feasible:,} of {plan.evaluated:,} configurations meet every target"
    if plan.n_unverified:
        title += f"\n({plan.n_unverified:,} more unverified: latency unknown, not counted)"
    ax.set_title(title, fontsize="medium")
    ax.set_xlabel(_UNIT.get(x, x))
    ax.set_ylabel(_UNIT.get(y, y))
    if not len(df) and not len(unverified):
        ax.text(0.5, 0.5, "no configuration meets the targets", ha="center", va="center", transform=ax.transAxes)
        return ax
    axes = [a for a in plan.space.axes if a in df or a in unverified]
    varying = [a for a in axes if len({tuple(map(str, plan.choices(i)[a])) for i in range(len(df))}) > 1]
    if hue is None:
        hue = next(iter(varying), None)
    elif hue not in plan.space.axes:
        from ..errors import ParameterError

        raise ParameterError("hue", hue, f"an axis of the design space: {', '.join(plan.space.axes)}")
    keys = [_short(hue, plan.choices(i)[hue]) if hue else "all" for i in range(len(df))]
    groups = list(dict.fromkeys(keys)) + (["unverified"] if len(unverified) else [])
    xs_all = np.unique(np.concatenate([_scale(x, df[x]), _scale(x, unverified[x])]))
    step = np.min(np.diff(xs_all)) if xs_all.size > 1 else 1.0
    integer_x = x in ("drives", "lanes")
    biggest = max([1.0, *df["configurations"], *unverified["configurations"]])

    def spots(part):
        """One marker per spot: answers at the same (x, y) summed (their configurations give its area)."""
        xy = np.column_stack([_scale(x, part[x]), _scale(y, part[y])])
        uniq, inverse = np.unique(xy, axis=0, return_inverse=True)
        counts = np.bincount(inverse.ravel(), weights=part["configurations"].to_numpy(dtype=float))
        return uniq, 25 + 45 * np.sqrt(counts / biggest)

    parts = [(g, key, *spots(unverified if key == "unverified" else df[np.array([k == key for k in keys])]))
             for g, key in enumerate(groups)]
    # answers at the same x are set side by side (x an integer count), never drawn on top of each other
    where = {}
    if integer_x:
        allx = np.concatenate([xy[:, 0] for *_, xy, _ in parts])
        order = {}
        span = float(allx.max() - allx.min()) or step
        for v in np.unique(allx):
            k = int(np.sum(allx == v))  # markers about a thirtieth of the axis apart, within 0.9 of a step
            d = min(span / 30, 0.9 * step / (k - 1)) if k > 1 else 0.0
            order[v] = iter((np.arange(k) - (k - 1) / 2) * d)
        for g, _, xy, _ in parts:
            where[g] = np.array([next(order[v]) for v in xy[:, 0]])
    for g, key, xy, size in parts:
        dx = where.get(g, 0.0)
        if key == "unverified":
            ax.scatter(xy[:, 0] + dx, xy[:, 1], s=size, facecolor="none", edgecolor="0.5", marker="o", zorder=2,
                       label=f"unverified: latency unknown ({plan.n_unverified:,} configurations)")
        else:
            ax.scatter(xy[:, 0] + dx, xy[:, 1], s=size, color=PALETTE[g % len(PALETTE)],
                       marker=MARKERS[g % len(MARKERS)], alpha=0.85, edgecolor="white", linewidth=0.5, zorder=3,
                       label=f"{hue}={key}" if hue else f"{len(df):,} answers")
    shift = {}  # (group, x, y) → its x offset, for the labels
    for g, _, xy, _ in parts:
        for (px, py), d in zip(xy, np.broadcast_to(where.get(g, 0.0), len(xy))):
            shift[g, px, py] = d
    if len(df):
        front = plan.pareto((x, y)).sort_values(x)
        ax.step(_scale(x, front[x]), _scale(y, front[y]), where="post", color="black", lw=1.0, zorder=1)
        rows = [int(i) for i in front.index]
        centres = [(_scale(x, [df[x].iloc[i]])[0], _scale(y, [df[y].iloc[i]])[0]) for i in rows]
        ring = np.array([(px + shift.get((groups.index(keys[i]), px, py), 0.0), py)
                         for i, (px, py) in zip(rows, centres)])
        ax.scatter(ring[:, 0], ring[:, 1], s=160, facecolor="none", edgecolor="black", linewidth=1.0, zorder=4,
                   label=f"Pareto front ({len(front)} answer{'s' * (len(front) != 1)})")
        rows = rows[:labels]
        texts = _point_labels(plan, rows, [a for a in varying])
        for k, (i, text) in enumerate(zip(rows, texts)):
            g = groups.index(keys[i])
            px, py = _scale(x, [df[x].iloc[i]])[0], _scale(y, [df[y].iloc[i]])[0]
            px += shift.get((g, px, py), 0.0)
            ax.annotate(text, (px, py), xytext=(8, 10 + 11 * (k % 3)), textcoords="offset points",
                        fontsize="x-small", arrowprops={"arrowstyle": "-", "color": "0.5", "lw": 0.6},
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8}, zorder=4)
    if integer_x:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    from matplotlib.ticker import FuncFormatter

    for col, axis in ((x, ax.xaxis), (y, ax.yaxis)):
        if col == "cost":  # 12,500 rather than 1.25e4
            axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.margins(x=0.12, y=0.18)
    legend_outside(ax, title="marker area ∝ configurations", title_fontsize="x-small")
    return ax
