"""The planner's answer: the configurations that meet every target, ranked; the Pareto front; the reasons
the others fail, per family of choices."""

from __future__ import annotations

import dataclasses

import numpy as np

from ..parameters import PARAMETERS
from ..units import format_iops
from .space import CONNECTION

__all__ = ["Plan"]

_MINIMIZE = {"drives": True, "lanes": True, "cost": True, "min_headroom": False}


def _fmt(target, iops: float) -> str:
    """A ceiling in the target's own terms: bytes/s for bandwidth targets, IOPS otherwise."""
    if target.bytes_per_s is not None:
        return f"{iops * target.workload.block_size / 1e9:.2f} GB/s"
    return format_iops(iops)


@dataclasses.dataclass(frozen=True, repr=False)
class Plan:
    """Result of :func:`nvmemodel.plan`.

    Attributes
    ----------
    frame : pandas.DataFrame
        The feasible configurations, best first: the axes (categorical columns), ``drives`` (the fewest
        that meet every target), ``lanes``, per target ``<name>|ceiling`` (IOPS or bytes/s as the target
        is stated), ``<name>|binding``, ``<name>|headroom``, ``min_headroom``, ``cost`` (with prices).
    rejected : pandas.DataFrame
        Per family of categorical choices with no feasible configuration: the closest one, which target it
        misses, by how much, and what binds (``reason``).
    """

    frame: object
    rejected: object
    targets: tuple
    space: object
    rank: str
    margin: float
    evaluated: int
    feasible: int
    seconds: float

    # ------------------------------------------------------------------ construction
    @classmethod
    def build(cls, *, space, targets, rank, margin, kept, misses, keep, evaluated, feasible, seconds, components,
              prices):
        import pandas as pd

        from .solve import RANKS

        names = list(components)
        if kept:
            merged = {k: np.concatenate([part[k] for part in kept]) for k in kept[0]}
            cols, asc = RANKS[rank]
            df = pd.DataFrame(merged).sort_values(cols, ascending=asc, kind="stable").head(keep)
        else:
            df = pd.DataFrame(columns=["config", "drives"])
        frame = cls._decorate(df, space, targets, names)
        rows = []
        for miss in misses.values():
            t = targets[miss["workload"]]
            values = space.values_at(np.array([miss["config"]]))
            row = {k: v[0] for k, v in values.items()}
            if not miss["lanes_ok"]:
                reason = "its switches need more PCIe lanes than the host offers"
            elif miss["closeness"] >= 1 and not miss["latency_ok"]:
                reason = "the drives' QD1 latency (plus the fabric's) exceeds the latency target"
            else:
                comp = names[miss["binding"]]
                need = t.iops_needed
                reason = (f"{t.name} reaches at most {_fmt(t, miss['ceiling_iops'])} with "
                          f"{int(miss['max_drives'])} drives ({cls._label(comp)} [{comp}] binds); the target is "
                          f"{_fmt(t, need)}" + (f" + {margin:.0%} margin" if margin else ""))
            row.update({"closest_fraction": miss["closeness"], "missed": t.name, "reason": reason})
            rows.append(row)
        rejected = pd.DataFrame(rows)
        if len(rejected):
            rejected = rejected.sort_values("closest_fraction", ascending=False, kind="stable").reset_index(drop=True)
        return cls(frame=frame, rejected=rejected, targets=tuple(targets), space=space, rank=rank, margin=margin,
                   evaluated=evaluated, feasible=feasible, seconds=seconds)

    @staticmethod
    def _label(component: str) -> str:
        from ..ceiling.components import COMPONENT_LABELS

        try:
            return COMPONENT_LABELS[component]
        except Exception:  # a component unregistered since
            return component

    @staticmethod
    def _decorate(df, space, targets, names):
        import pandas as pd

        if not len(df):
            return df
        values = space.values_at(df["config"].to_numpy())
        out = pd.DataFrame({k: v for k, v in values.items()})
        for name in list(out):
            if name == CONNECTION or PARAMETERS[name].kind == "categorical":
                out[name] = pd.Categorical(out[name], categories=list(space.axes[name]))
            else:
                out[name] = out[name].astype(float)
        out["drives"] = df["drives"].to_numpy().astype(int)
        out["lanes"] = df["lanes"].to_numpy().astype(int)
        for t in targets:
            x = df[f"{t.name}|ceiling_iops"].to_numpy()
            out[f"{t.name}|ceiling"] = x * t.workload.block_size if t.bytes_per_s is not None else x
            out[f"{t.name}|binding"] = pd.Categorical.from_codes(df[f"{t.name}|binding"].to_numpy().astype(int),
                                                                 categories=names)
            out[f"{t.name}|headroom"] = df[f"{t.name}|headroom"].to_numpy()
        out["min_headroom"] = df["min_headroom"].to_numpy()
        if "cost" in df:
            out["cost"] = df["cost"].to_numpy()
        out["latency_checked"] = df["latency_checked"].to_numpy().astype(bool)
        return out.reset_index(drop=True)

    # ------------------------------------------------------------------ queries
    def __len__(self) -> int:
        return len(self.frame)

    @property
    def best(self):
        """The best configuration (a row of :attr:`frame`), or None when nothing is feasible."""
        return self.frame.iloc[0] if len(self.frame) else None

    def pareto(self, criteria=("drives", "min_headroom")):
        """Feasible configurations no other one beats on every criterion (drives, lanes, cost: fewer is
        better; min_headroom: more is better)."""
        df = self.frame
        if not len(df):
            return df
        signs = []
        for c in criteria:
            if c not in _MINIMIZE or c not in df:
                from ..errors import ParameterError

                raise ParameterError("criteria", c, f"columns among {', '.join(k for k in _MINIMIZE if k in df)}")
            signs.append(1.0 if _MINIMIZE[c] else -1.0)
        x = np.column_stack([df[c].to_numpy(dtype=float) * s for c, s in zip(criteria, signs)])
        order = np.lexsort(x.T[::-1])
        keep = []
        for i in order:  # sorted by the first criterion: a point is dominated only by earlier ones
            if not any(np.all(x[j] <= x[i]) and np.any(x[j] < x[i]) for j in keep):
                keep.append(i)
        return df.iloc[sorted(keep)]

    def explain(self, top: int = 3) -> str:
        """What to build, what limits it, and why the other families fail — in plain words."""
        goal = "; ".join(t.describe() for t in self.targets) + (f" (+{self.margin:.0%} margin)" if self.margin else "")
        lines = [f"Targets: {goal}.",
                 f"Evaluated {self.evaluated:,} configurations in {self.seconds:.2f} s; {self.feasible:,} meet every "
                 f"target."]
        if not len(self.frame):
            if len(self.rejected):
                r = self.rejected.iloc[0]
                lines.append(f"No configuration meets every target; the closest is {self._describe(r)}, reaching "
                             f"{r['closest_fraction']:.0%} of the target it misses: {r['reason']}.")
            return "\n".join(lines)
        lines.append(f"Best by {self.rank}:")
        for _, r in self.frame.head(top).iterrows():
            parts = []
            for t in self.targets:
                x = r[f"{t.name}|ceiling"]
                shown = f"{x / 1e9:.2f} GB/s" if t.bytes_per_s is not None else format_iops(x)
                parts.append(f"{t.name} {shown} (binding {r[f'{t.name}|binding']}, "
                             f"+{r[f'{t.name}|headroom']:.0%})")
            lines.append(f"  {self._describe(r)}: {int(r['drives'])} drives, {int(r['lanes'])} lanes — "
                         + "; ".join(parts))
        if not self.frame["latency_checked"].all() and any(t.latency_s for t in self.targets):
            lines.append("  Latency was not checked where the drive's QD1 latency is unknown (no spec value).")
        if len(self.rejected):
            lines.append("Families with no configuration meeting the targets:")
            for _, r in self.rejected.head(top + 2).iterrows():
                lines.append(f"  {self._describe(r)}: {r['reason']}.")
        return "\n".join(lines)

    def _describe(self, row) -> str:
        parts = []
        for name in self.space.axes:
            if name not in row.index:
                continue
            value = row[name]
            if name != CONNECTION and PARAMETERS[name].kind != "categorical":
                value = PARAMETERS[name].format(float(value))
            parts.append(f"{name}={value}")
        return ", ".join(parts) or f"the base system ({self.space.base.name})"

    def plot(self, *, ax=None, x: str = "drives", y: str = "min_headroom", hue: str | None = None):
        """Feasible configurations (x vs y), coloured by an axis, with the Pareto front drawn."""
        from ..plots.plan import plot_plan

        return plot_plan(self, ax=ax, x=x, y=y, hue=hue)

    def to_dict(self) -> dict:
        """JSON-ready summary: targets, counts, the best configurations and the rejected families."""
        import json

        return {"schema": "nvmemodel.plan/1", "targets": [t.describe() for t in self.targets], "rank": self.rank,
                "margin": self.margin, "evaluated": self.evaluated, "feasible": self.feasible,
                "configurations": json.loads(self.frame.to_json(orient="records")),
                "rejected": json.loads(self.rejected.to_json(orient="records")) if len(self.rejected) else []}

    def __repr__(self) -> str:
        return (f"<Plan {self.feasible:,} of {self.evaluated:,} configurations meet "
                f"{len(self.targets)} target(s); ranked by {self.rank}>")

    def _repr_html_(self) -> str:
        return f"<p><code>{self!r}</code></p><pre>{self.explain()}</pre>" + self.frame.head(20).to_html(
            index=False, float_format="{:.4g}".format)
