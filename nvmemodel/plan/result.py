"""The planner's answer: the configurations that meet every target, ranked; the Pareto front; the reasons
the others fail, per family of choices."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..parameters import PARAMETERS
from ..units import format_iops
from .space import is_categorical

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Plan"]

#: The JSON schema of :meth:`Plan.to_dict` (2: cost parts, latency, merged rows, the unverified list).
SCHEMA = "nvmemodel.capacity-plan/2"
_MINIMIZE = {"drives": True, "lanes": True, "cost": True, "min_headroom": False}


def _fmt(target, iops: float) -> str:
    """A ceiling in the target's own terms: bytes/s for bandwidth targets, IOPS otherwise."""
    if target.bytes_per_s is not None:
        return f"{iops * target.workload.block_size / 1e9:.2f} GB/s"
    return format_iops(iops)


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs" if seconds >= 10e-6 else f"{seconds * 1e6:.1f} µs"


def _money(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() or abs(x) >= 100 else f"{x:,.2f}"


def _value_text(name: str, value) -> str:
    """One axis value as the answers show it (``Gen5``, ``2 sockets``, ``libaio``, a connection key)."""
    if is_categorical(name):
        return str(value)
    return PARAMETERS[name].format(float(value))


def _single_masks(space, config: np.ndarray) -> np.ndarray:
    from .rank import _masks

    return _masks(np.asarray(config), [len(v) for v in space.axes.values()])


def _choices(space, mask: np.ndarray) -> dict[str, list]:
    """Per axis, the choices a row's mask holds, in the axis's order."""
    out, offset = {}, 0
    for name, values in space.axes.items():
        out[name] = [v for v, on in zip(values, mask[offset: offset + len(values)]) if on]
        offset += len(values)
    return out


def _alternatives_texts(space, masks: np.ndarray, counts: np.ndarray) -> list[str]:
    """Per merged row, the axes on which its configurations differ, with their values; "" for a single one.

    When a row does not hold every combination of those values, it says how many it holds. ``masks``: the rows'
    choices (:func:`_choices`), one row each; each axis's distinct choices among the rows are written once."""
    labels, sizes, offset = [], [], 0
    for name, values in space.axes.items():
        segment = masks[:, offset: offset + len(values)]
        offset += len(values)
        seen, which = np.unique(segment, axis=0, return_inverse=True)
        on = [[_value_text(name, v) for v, m in zip(values, u) if m] for u in seen]
        named = [f"{name}: {', '.join(t)}" if len(t) > 1 else "" for t in on]
        which = which.reshape(-1)
        labels.append([named[w] for w in which.tolist()])
        sizes.append(np.array([len(t) for t in on], dtype=np.int64)[which])
    per_axis = np.stack(sizes, axis=1) if sizes else np.zeros((len(counts), 0), dtype=np.int64)
    combos = np.where(per_axis > 1, per_axis, 1).prod(axis=1).tolist()
    out = []
    for i, (count, combo) in enumerate(zip(np.asarray(counts).tolist(), combos)):
        if count <= 1:
            out.append("")
            continue
        text = "; ".join(label[i] for label in labels if label[i])
        out.append(text if combo == count else f"{count} of the {combo} combinations of {text}")
    return out


def _latency_reason(targets, name: str, value, miss, groups: bool = False) -> str:
    """Why a latency bound fails; ``groups``: a mixed base, whose latency is each group's averaged over the I/Os."""
    t = next(t for t in targets if t.name == name)
    queue = f"QD{t.workload.iodepth:g}" + (f" × {t.workload.numjobs:g} jobs" if t.workload.numjobs > 1 else "")
    queue += " per drive" if t.workload.per_drive else ""
    if value is None:
        unknown = "the QD1 latency of a group's drives" if groups else "the drive's QD1 latency"
        return (f"{name}'s latency at {queue} with {int(miss['drives'])} drives is at least "
                f"{_us(miss['latency_low'][name])} (Little's law: I/Os in flight / IOPS; {unknown} is unknown), above "
                f"the {_us(t.latency_s)} target")
    what = ("each group's drive QD1 latency + I/O stack + fabric, or its I/Os in flight / IOPS if larger, averaged "
            "over the I/Os" if groups else "the drive's QD1 latency + I/O stack + fabric, or I/Os in flight / IOPS "
            "if larger")
    return (f"{name}'s latency at {queue} with {int(miss['drives'])} drives is {_us(value)} (Little's law: {what}), "
            f"above the {_us(t.latency_s)} target")


def _is_mixed(space) -> bool:
    return len(getattr(space.base, "groups", ())) > 1


def _slots_reason(miss, space) -> str:
    """Why ``max_drives`` drives and not more: the bays, or the parameters that set the lanes or ports."""
    from ..topology.topology import drive_slots_text

    from ..ceiling.gpu import switch_ports as gpu_switch_ports

    s = miss["slots"]
    gpu = float(gpu_switch_ports({**s, "attach.switch": float(miss["switched"])}))  # ports GPUs behind a switch take
    slots = drive_slots_text(sockets=s["host.sockets"], lanes_per_socket=s["host.lanes_per_socket"],
                             reserved_lanes_per_socket=s["host.reserved_lanes_per_socket"],
                             port_lanes=s["host.port_lanes"], switched=miss["switched"],
                             switch_count=s["switch.count"], switch_ports=s["switch.ports"], gpu_ports=gpu)
    from .space import HOST

    host = str(space.values_at(np.array([miss["config"]]))[HOST][0]) if HOST in space.axes else None
    if not miss["switched"] and (s["host.reserved_lanes_per_socket"] > 0 or host is not None):
        # reserved lanes are a chassis fact (its bays, NICs) kept when the CPU changes: say so, with the source of
        # this row's host (a catalog CPU re-derives them from the chassis's drive lanes: QA5 G10), 0 included
        base = space.base.group_topology(0) if hasattr(space.base, "group_topology") else space.base
        if host is not None:
            from ..topology.host import host_from_text, with_host

            base = with_host(base, host_from_text(host))
        why = base.host.sources("libaio")["host.reserved_lanes_per_socket"]
        limit = 120 if host is None else 240  # a re-derived source names the socket count and lanes at its end
        slots += f" (reserved lanes: {why.status}, {why.text[:limit]}{'…' * (len(why.text) > limit)})"
    fits = int(slots.split(" ", 1)[0])  # the count drive_slots_text puts first
    raid, n = miss.get("raid"), int(miss["max_drives"])
    if raid is not None and n < min(fits, space.max_drives or fits):  # only whole arrays count (QA s25, FIXER-API)
        room = (f"{space.max_drives} drive bays (max_drives)" if space.max_drives is not None
                and space.max_drives < fits else f"the {fits} drives it can attach ({slots})")
        return (f"{f'{n} drives: ' if n else ''}only whole {raid[0]} arrays of {raid[1]} drives (raid.width) count, "
                f"and {room} hold {n // raid[1] if n else 'none'}")
    if space.max_drives is not None:
        if fits > space.max_drives:
            return f"{space.max_drives} drives is the bays' limit (max_drives; without it, {slots})"
        if fits == space.max_drives:
            return f"{fits} drives is the most it can attach: {slots}, and the bays' limit (max_drives)"
    return f"{int(miss['max_drives'])} drives is the most it can attach: {slots}"


@dataclasses.dataclass(frozen=True, repr=False)
class Plan:
    """Result of :func:`nvmemodel.plan`.

    Attributes
    ----------
    frame : pandas.DataFrame
        The configurations that meet every target, best first, configurations with identical results merged
        into one row: the axes (the first configuration of the row, in the space's order), ``drives`` (the
        fewest that meet every target), ``lanes``, per target ``<name>|ceiling`` (IOPS or bytes/s as the
        target is stated), ``<name>|binding``, ``<name>|headroom`` and, for targets with a latency bound,
        ``<name>|latency`` (seconds, the model's latency at the queue depth asked); ``min_headroom``;
        ``cost`` and its parts ``cost.drives``, ``cost.switches``, ``cost.sockets`` (with prices);
        ``configurations`` (how many the row stands for), ``alternatives`` (the other choices it stands for,
        text; :meth:`choices` as lists), ``upper_bound`` (the host layers or drive ratings not known, or ""),
        ``estimates`` (what binds, or a limit that passes by less than +100 %, where it rests on an estimate:
        :mod:`nvmemodel.plan.evidence`; or "") and ``status`` ("met").
    unverified : pandas.DataFrame
        Configurations that meet every throughput target but whose latency cannot be computed (the drive's QD1
        latency is unknown), same columns, ``status`` "unverified": never counted as meeting the targets.
    rejected : pandas.DataFrame
        Per family of categorical choices with no configuration in either table: the closest one, which target
        it misses, by how much, and what binds (``reason``; ``estimates``: the estimate that binding rests on).
    near_misses : pandas.DataFrame
        The same for the families that do have an answer: their closest configuration that misses (one
        adapter where two meet the targets, one socket where two do), so every configuration is accounted for.
    feasible, n_unverified, n_missed : int
        Configurations (not rows) in :attr:`frame` and :attr:`unverified` over the whole space, and the rest.
    evidence : str
        One line where the hosts of a ``host`` axis have limits above the links of different evidence (the ranking
        between them follows from those estimates); "" otherwise. ``space.notes``: combinations dropped or folded.
    """

    frame: Any
    rejected: Any
    targets: tuple
    space: Any
    rank: str
    margin: float
    evaluated: int
    feasible: int
    seconds: float
    unverified: Any = None
    n_unverified: int = 0
    prices: dict = dataclasses.field(default_factory=dict)
    _masks: dict = dataclasses.field(default_factory=dict)
    near_misses: Any = None
    evidence: str = ""

    @property
    def n_missed(self) -> int:
        """Configurations that meet neither every target nor every throughput target with latency unknown."""
        return self.evaluated - self.feasible - self.n_unverified

    # ------------------------------------------------------------------ construction
    @classmethod
    def build(cls, *, space, targets, rank, margin, kept, misses, keep, evaluated, feasible, unverified, seconds,
              components, prices, merged, partial=None, alone=None):
        from .evidence import Evidence

        names = list(components)
        frames, masks = {}, {}
        evidence = Evidence(space, targets, alone)  # what the answers rest on where it is an estimate (QA F4)
        for status, rec in kept.items():
            frames[status], masks[status] = cls._decorate(rec, space, targets, names, status, bool(prices), evidence)
        return cls(frame=frames["met"], rejected=cls._miss_frame(misses, space, targets, names, margin, evidence),
                   targets=tuple(targets), space=space, rank=rank,
                   margin=margin, evaluated=evaluated, feasible=feasible, seconds=seconds,
                   unverified=frames["unverified"], n_unverified=unverified, prices=dict(prices), _masks=masks,
                   near_misses=cls._miss_frame(partial or {}, space, targets, names, margin, evidence),
                   evidence=evidence.comparison(space.axes.get("host", ())))

    @classmethod
    def _miss_frame(cls, misses, space, targets, names, margin, evidence=None):
        """Per family, its closest configuration that misses, why, sorted closest first."""
        import pandas as pd

        rows = []
        for miss in misses.values():
            t = targets[miss["workload"]]
            values = space.values_at(np.array([miss["config"]]))
            row = {k: v[0] for k, v in values.items()}
            if not miss["lanes_ok"]:
                reason = "its switches need more PCIe lanes than the host offers"
            elif miss["throughput_ok"]:
                reason = "; ".join(_latency_reason(targets, name, value, miss, _is_mixed(space))
                                   for name, value in miss["latency"].items())
            else:
                comp = names[miss["binding"]]
                need = t.iops_needed
                drives = (f"{int(miss['max_drives'])} drives" if miss["slots"] is not None else  # a mixed base's
                          f"all {int(miss['max_drives'])} drives of {space.base.name!r}")  # groups set its drives
                if miss["slots"] is not None and int(miss["max_drives"]) == 0:  # no whole RAID array fits: no rate
                    reason = f"{t.name} has no drives: {_slots_reason(miss, space)}"
                else:
                    reason = (f"{t.name} reaches at most {_fmt(t, miss['ceiling_iops'])} with {drives} "
                              f"({cls._label(comp, space, row, t.workload)} [{comp}] binds); the target is "
                              f"{_fmt(t, need)}" + (f" + {margin:.0%} margin" if margin else "")
                              + (f"; {_slots_reason(miss, space)}" if miss["slots"] is not None else ""))
            missed = ", ".join(f"{name} latency" for name in miss["latency"]) if miss["throughput_ok"] else t.name
            estimates = "" if evidence is None or not miss["lanes_ok"] or miss["throughput_ok"] else evidence.miss(
                str(row["host"]) if "host" in row else None, t, names[miss["binding"]])
            row.update({"closest_fraction": miss["closeness"], "missed": missed, "reason": reason,
                        "estimates": estimates,
                        "configurations_missing": miss.get("count", 1)})
            rows.append(row)
        rejected = pd.DataFrame(rows)
        if len(rejected):
            rejected = rejected.sort_values("closest_fraction", ascending=False, kind="stable").reset_index(drop=True)
        return rejected

    @staticmethod
    def _label(component: str, space=None, row=None, workload=None) -> str:
        """The component's label; with the configuration that misses (``space``, its ``row``, the target's
        ``workload``), honest about the status of the values that set it there (QA s25 H34: not "(spec sheet)" for
        a recalled rating)."""
        from ..ceiling.components import COMPONENT_LABELS, labeler
        from ..errors import NvmeModelError

        try:
            label = COMPONENT_LABELS[component]
        except LookupError:  # a component unregistered since (UnknownNameError)
            return component
        if space is None:
            return label
        values = {k: row[k] for k in space.axes if k in PARAMETERS and k in row}
        try:
            return labeler(space.base, workload, values)(component)
        except (NvmeModelError, ValueError):  # a value the forward model takes only as an axis: the registered label
            return label

    @staticmethod
    def _decorate(rec, space, targets, names, status, priced, evidence=None):
        """The kept groups as a table (axes by name, targets in their own units) and their masks."""
        import pandas as pd

        columns = [*space.axes, "drives", "lanes"]
        for t in targets:
            columns += [f"{t.name}|ceiling", f"{t.name}|binding", f"{t.name}|headroom"]
            if t.latency_s is not None:
                columns.append(f"{t.name}|latency")
        columns += ["min_headroom", *(["cost", "cost.drives", "cost.switches", "cost.sockets"] if priced else []),
                    "configurations", "alternatives", "upper_bound", "estimates", "status"]
        if rec is None or not rec["config"].size:
            return pd.DataFrame(columns=columns), np.zeros((0, sum(len(v) for v in space.axes.values())), bool)
        values = space.values_at(rec["config"])
        out = pd.DataFrame({k: v for k, v in values.items()})
        for name in list(out):
            if is_categorical(name):
                out[name] = pd.Categorical(out[name], categories=list(space.axes[name]))
            else:
                out[name] = out[name].astype(float)
        out["drives"] = rec["drives"].astype(int)
        out["lanes"] = rec["lanes"].astype(int)
        for t in targets:
            x = rec[f"{t.name}|ceiling_iops"]
            out[f"{t.name}|ceiling"] = x * t.workload.block_size if t.bytes_per_s is not None else x
            out[f"{t.name}|binding"] = pd.Categorical.from_codes(rec[f"{t.name}|binding"].astype(int),
                                                                 categories=names)
            out[f"{t.name}|headroom"] = rec[f"{t.name}|headroom"]
            if t.latency_s is not None:
                out[f"{t.name}|latency"] = rec[f"{t.name}|latency_s"]
        out["min_headroom"] = rec["min_headroom"]
        if priced:
            for c in ("cost", "cost.drives", "cost.switches", "cost.sockets"):
                out[c] = np.broadcast_to(rec[c], rec["config"].shape).astype(float)
        count = rec.get("count", np.ones(rec["config"].size, dtype=np.int64))
        mask = rec["mask"] if "mask" in rec else _single_masks(space, rec["config"])
        out["configurations"] = count.astype(int)
        out["alternatives"] = _alternatives_texts(space, mask, count)
        from .bounds import upper_bound_notes

        out["upper_bound"] = upper_bound_notes(space, targets, values, rec["config"].size, rec["drives"])
        out["estimates"] = evidence.rows(values, rec, names) if evidence is not None else ""
        out["status"] = status
        return out[columns].reset_index(drop=True), mask

    # ------------------------------------------------------------------ queries
    def __len__(self) -> int:
        return len(self.frame)

    @property
    def best(self):
        """The best configuration (a row of :attr:`frame`), or None when nothing meets every target."""
        return self.frame.iloc[0] if len(self.frame) else None

    def choices(self, row: int, *, unverified: bool = False) -> dict[str, list]:
        """The choices per axis that row ``row`` of :attr:`frame` (or :attr:`unverified`) stands for.

        A merged row holds every combination of these choices unless its ``alternatives`` text says
        "N of the M combinations"."""
        masks = self._masks["unverified" if unverified else "met"]
        return _choices(self.space, masks[row])

    def pareto(self, criteria: Sequence[str] = ("drives", "min_headroom")) -> pd.DataFrame:
        """Rows of :attr:`frame` no other one beats on every criterion (drives, lanes, cost: fewer is better;
        min_headroom: more is better)."""
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
        keep: list[Any] = []
        for i in order:  # sorted by the first criterion: a point is dominated only by earlier ones
            if not any(np.all(x[j] <= x[i]) and np.any(x[j] < x[i]) for j in keep):
                keep.append(i)
        return df.iloc[sorted(keep)]

    def explain(self, top: int = 3) -> str:
        """What to build, what limits it, what it costs, and why the other families fail — in plain words."""
        goal = "; ".join(t.describe() for t in self.targets) + (f" (+{self.margin:.0%} margin)" if self.margin else "")
        lines = [f"Targets: {goal}.", f"Evaluated {self.evaluated:,} configuration{'s' * (self.evaluated != 1)} in {self.seconds:.2f} s: "
                 f"{self.feasible:,} meet{'s' * (self.feasible == 1)} every target" + (f" ({len(self.frame):,} distinct answer{'s' * (len(self.frame) != 1)})"
                                                           if len(self.frame) < self.feasible else "") + "."]
        if self.n_unverified:
            one = self.n_unverified == 1
            lines[-1] += (f" {self.n_unverified:,} more meet{'s' * one} every throughput target but "
                          f"{'is' if one else 'are'} unverified: {'its' if one else 'their'} latency cannot be "
                          + ("computed (a group's drives have no known QD1 latency; give it on that group's Drive, "
                             "nm.Drive(..., read_latency_s=80e-6), to check it)." if _is_mixed(self.space) else
                             "computed (the drive's QD1 latency is unknown; give it as an axis, e.g. "
                             "drive.read_latency_s=80us, to check it)."))
        if self.n_missed and (self.feasible or self.n_unverified):
            lines[-1] += f" {self.n_missed:,} miss{'es' * (self.n_missed == 1)} the targets."
        lines += list(getattr(self.space, "notes", ()))  # how the axes were fitted to the CPUs (drops, folds)
        if self.evidence:
            lines.append(self.evidence)
        bounded = [f for f in (self.frame, self.unverified) if f is not None and len(f) and "upper_bound" in f
                   and (f["upper_bound"] != "").any()]
        if bounded:
            lines.append("Answers marked 'upper bound' meet the targets only if the limits named there, which are not "
                         "known (a host layer above the links, a drive rating), do not bind: measure them, or choose "
                         "a catalog host (nvmemodel hosts) or a drive whose sheet gives them.")
        if self.prices:
            lines.append("Prices: " + ", ".join(_price_text(k, v) for k, v in self.prices.items()) + ".")
        if not len(self.frame):
            if len(self.rejected):
                r = self.rejected.iloc[0]
                lines.append(f"No configuration meets every target; the closest is {self._describe(r)}, reaching "
                             f"{_short_of(r['closest_fraction'])} of the target it misses: {r['reason']}"
                             f"{_estimates(r)}.")
            elif not self.n_unverified:
                lines.append("No configuration meets every target.")
        else:
            lines.append(f"Best by {self.rank}:")
            lines += self._answers(self.frame, "met", top)
        if self.n_unverified:
            lines.append("Unverified (every throughput target met; latency unknown, so not counted as meeting "
                         "the targets):")
            lines += self._answers(self.unverified, "unverified", top)
        if len(self.rejected):
            lines.append("Families with no configuration meeting the targets (the closest of each):")
            for _, r in self.rejected.head(top + 2).iterrows():
                lines.append(f"  {self._describe(r)}{_of(r)}: {r['reason']}{_estimates(r)}.")
        if self.near_misses is not None and len(self.near_misses):
            lines.append("Families with an answer above, their closest configuration that misses:")
            for _, r in self.near_misses.head(top + 2).iterrows():
                lines.append(f"  {self._describe(r)}{_of(r)}: {r['reason']}{_estimates(r)}.")
        shown = len(self.rejected) + (0 if self.near_misses is None else len(self.near_misses))
        if shown > top + 2:
            lines.append(f"  (one closest miss per family; {self.n_missed:,} configurations miss in all: "
                         "Plan.rejected and Plan.near_misses list every family)")
        return "\n".join(lines)

    def _answers(self, frame, status, top) -> list[str]:
        """The listed answers, each one another listed above it dominates marked so: a dominated answer is no
        alternative (as many drives and lanes or more, as much cost or more, no more headroom, and worse on one)."""
        rows = list(self._rows(frame, status, top))
        keys = [c for c in _MINIMIZE if c in frame]
        x = [np.array([float(r[c]) * (1.0 if _MINIMIZE[c] else -1.0) for c in keys]) for r, _ in rows]
        out = []
        for j, (r, masks) in enumerate(rows):
            text = self._answer(r, masks)
            better = next((i for i in range(j) if np.all(x[i] <= x[j]) and np.any(x[i] < x[j])), None)
            if better is not None:
                first, rest = (text.split("\n", 1) + [""])[:2]
                worse = [{"min_headroom": "less headroom", "cost": "a higher cost"}.get(c, f"more {c}") for k, c in enumerate(keys)
                         if x[better][k] < x[j][k]]
                text = (f"{first} [dominated by answer {better + 1} above: {', '.join(worse)}, and better on nothing]"
                        + (f"\n{rest}" if rest else ""))
            out.append(text)
        return out

    def _rows(self, frame, status, top):
        masks = self._masks.get(status)
        for i in range(min(top, len(frame))):
            yield frame.iloc[i], (masks[i] if masks is not None and len(masks) > i else None)

    def _answer(self, r, mask) -> str:
        parts = []
        for t in self.targets:
            x = r[f"{t.name}|ceiling"]
            shown = f"{x / 1e9:.2f} GB/s" if t.bytes_per_s is not None else format_iops(x)
            text = f"{t.name} {shown} (binding {r[f'{t.name}|binding']}, +{r[f'{t.name}|headroom']:.0%}"
            if t.latency_s is not None:
                lat = r[f"{t.name}|latency"]
                text += ", latency unknown" if np.isnan(lat) else f", latency {_us(lat)}"
            parts.append(text + ")")
        head = f"{int(r['drives'])} drives, {int(r['lanes'])} lanes"
        if "cost" in r.index:
            items = [f"{int(r['drives'])} drives {_money(r['cost.drives'])}" if r["cost.drives"] else "",
                     f"switches {_money(r['cost.switches'])}" if r["cost.switches"] else "",
                     f"sockets {_money(r['cost.sockets'])}" if r["cost.sockets"] else ""]
            items = [i for i in items if i]
            head += f", cost {_money(r['cost'])}" + (f" ({' + '.join(items)})" if len(items) > 1 else "")
        note = r.get("upper_bound", "")
        est = r.get("estimates", "")
        from .ranges import answer_ranges  # where software sets it: the CPU's cost range, Little's law's latency

        said = "".join(f"\n      {line}" for line in answer_ranges(
            self.space, self.targets, r, _choices(self.space, mask) if mask is not None else None))
        return (f"  {self._describe(r, mask)}: {head} — " + "; ".join(parts) + (f" [{note}]" if note else "")
                + (f" [estimates — {est}]" if est else "") + said)

    def _describe(self, row, mask=None) -> str:
        """A row's configuration; a merged row lists every choice it stands for (``host.gen=Gen4 or Gen5``)."""
        sets = _choices(self.space, mask) if mask is not None else {}
        parts = []
        for name in self.space.axes:
            if name not in row.index:
                continue
            values = sets.get(name) or [row[name]]
            parts.append(f"{name}=" + " or ".join(_value_text(name, v) for v in values))
        text = ", ".join(parts) or f"the base system ({self.space.base.name})"
        count = int(row["configurations"]) if "configurations" in row.index else 1
        combos = int(np.prod([max(len(v), 1) for v in sets.values()])) if sets else 1
        if count > 1:
            text += f" ({count} configurations" + (f" of these {combos} combinations" if combos != count else "") + ")"
        return text

    def plot(self, *, ax: Any = None, x: str = "drives", y: str = "min_headroom", hue: str | None = None,
             labels: int = 6) -> Any:
        """The answers (x vs y), coloured by an axis, the Pareto front drawn and labelled."""
        from ..plots.plan import plot_plan

        return plot_plan(self, ax=ax, x=x, y=y, hue=hue, labels=labels)

    def table(self) -> pd.DataFrame:
        """:attr:`frame` and :attr:`unverified` in one table (the ``status`` column tells them apart)."""
        import pandas as pd

        parts = [f for f in (self.frame, self.unverified) if f is not None and len(f)]
        return pd.concat(parts, ignore_index=True) if parts else self.frame

    def to_dict(self) -> dict:
        """JSON-ready summary: targets, counts, prices, the answers (met, unverified), the rejected families."""
        import json

        def records(df):
            return json.loads(df.to_json(orient="records")) if df is not None and len(df) else []

        return {"schema": SCHEMA, "targets": [t.describe() for t in self.targets], "rank": self.rank,
                "margin": self.margin, "prices": self.prices, "evaluated": self.evaluated, "feasible": self.feasible,
                "unverified_count": self.n_unverified, "configurations": records(self.frame),
                "unverified": records(self.unverified), "rejected": records(self.rejected),
                "missed_count": self.n_missed, "near_misses": records(self.near_misses),
                "notes": list(getattr(self.space, "notes", ())), "evidence": self.evidence}

    def __repr__(self) -> str:
        extra = f" ({self.n_unverified:,} more unverified)" if self.n_unverified else ""
        return (f"<Plan {self.feasible:,} of {self.evaluated:,} configurations meet "
                f"{len(self.targets)} target(s){extra}; {len(self.frame):,} answers ranked by {self.rank}>")

    def _repr_html_(self) -> str:
        import html

        return (f"<p><code>{html.escape(repr(self))}</code></p><pre>{html.escape(self.explain())}</pre>"
                + self.frame.head(20).to_html(index=False, float_format="{:.4g}".format))


def _estimates(row) -> str:
    """' — socket_dma's limit rests on memory.dma_fraction 0.38 (estimate: …)' where a miss's binding is an estimate."""
    est = row.get("estimates", "")
    return f" — {est}" if isinstance(est, str) and est else ""


def _of(row) -> str:
    """' (closest of 3 that miss)' where a family's line stands for more than one configuration."""
    n = int(row.get("configurations_missing", 1))
    return f" (closest of {n:,} that miss)" if n > 1 else ""


def _short_of(fraction: float) -> str:
    """A fraction of a target that is missed, never rounded up to 100 %: 0.998 → '99.8%'."""
    if fraction >= 1 or not np.isfinite(fraction):
        return f"{fraction:.0%}"
    pct = np.floor(fraction * 100)
    if pct < 1:
        return f"{fraction * 100:.2g}%"
    return f"{pct:.0f}%" if pct < 99 else f"{np.floor(fraction * 1000) / 10:.1f}%"


def _price_text(key: str, value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {model} {_money(v)}" for model, v in value.items())
    return f"{key} {_money(value)}"
