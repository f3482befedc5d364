"""What a plan's answers rest on: a binding component, or a passing margin, set by an *estimate* (QA F4).

A capacity planner acts on the answer, so an answer whose binding component — or whose margin over a limit that
does not bind — is set by a value whose source is an ``estimate`` (or is called an upper bound there) says so, with
that value and the first words of its source (:meth:`nvmemodel.Topology.sources`, a catalog host's
``platform_sources``): ``binding socket_dma rests on memory.dma_fraction 0.38 (estimate: 0.38 of 8 x DDR4-3200 x 8 B:
the share of DDR peak that device DMA through an AMD I/O die reached in the only public device-DMA observation …)``.
And where the hosts a plan compares have limits above the links of different evidence (an estimate from one
observation next to a STREAM-class share), one line says that the ranking between them follows from those estimates.
"""

from __future__ import annotations

import numpy as np

from ..parameters import PARAMETERS, Source

__all__ = ["Evidence", "is_estimate"]

#: A limit set by an estimate that does not bind is named when it passes a target by less than this (+100 %: the
#: estimate would have to be off by less than a factor of two to bind there).
CLOSE = 1.0

#: Components whose limits are the host's above the links (their evidence is compared between hosts).
ABOVE_LINKS = ("root_complex", "socket_dma", "inter_socket")


def is_estimate(source: Source) -> bool:
    """Whether a value's source makes it an estimate: status ``estimate``, or a source that opens by calling the value
    an upper bound (``calibrated: upper bound 1.3 M / 4 …``; not one that says so of another layer further on)."""
    return source.status == "estimate" or source.text.lower().lstrip().startswith("upper bound")


def _used(name: str, workload) -> bool:
    """Whether ``workload`` reads a drive rating at all: a sheet rates IOPS at 4 KiB and bandwidth at 128 KiB
    (above 4 KiB the bandwidth may bind, below 128 KiB the IOPS), reads for reads and writes for writes (as
    :func:`nvmemodel.ceiling.drive.unknown_drive_fields` decides which missing rating matters); others: yes."""
    kind = name.partition(".")[2]
    if not name.startswith("drive.") or not kind.startswith(("rand_", "seq_")):
        return True
    size, f = float(workload.block_size), float(workload.read_fraction)
    sized = size > 4096 if kind.startswith("seq_") else size < 131072
    return sized and (f > 0 if "_read_" in kind else f < 1)


def _basis(text: str, value) -> str:
    """A citation without its opening restatement of the value (``0.38 of 8 x DDR4-3200 x 8 B: the share …`` →
    ``the share …``): what it rests on comes first."""
    head, sep, tail = str(text).partition(": ")
    try:
        number = f"{float(value):g}"
    except (TypeError, ValueError):
        return str(text)
    return tail if sep and len(head) < 100 and head.startswith(number) else str(text)


def _short(text: str, limit: int = 110) -> str:
    """The first ``limit`` characters of a citation, cut at a word."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " …"


class Evidence:
    """Per host of a design space (the ``host`` axis's CPUs, else the base's), which components' limits rest on
    estimates, with the text that says so; cached, so a plan of many rows asks each host once."""

    def __init__(self, space, targets, alone=None) -> None:
        # alone(config, drives): per target every component alone at those configurations (the planner's
        # :func:`~nvmemodel.plan.solve._alone_at`); None (a mixed base): binding components only
        self.space, self.targets, self._alone_at = space, list(targets), alone
        self.base = space.base.group_topology(0) if hasattr(space.base, "group_topology") else space.base
        self._notes: dict = {}

    def _topology(self, host):
        from ..topology.host import host_from_text, with_host

        return self.base if host is None else with_host(self.base, host_from_text(host))

    def notes(self, host, workload) -> dict[str, str]:
        """``{component: "memory.dma_fraction 0.38 (estimate: …)"}`` for the components whose limit rests on an
        estimate on ``host`` (None: the base's) under ``workload``; a parameter on an axis is the user's, not one."""
        key = (host, workload)
        if key not in self._notes:
            from ..ceiling.components import components

            topo = self._topology(host)
            sources, values = topo.sources(workload), topo.parameters(workload)
            axes = {k for k in self.space.axes if k != "host"} | self._group_owned(workload)
            out = {}
            for comp in components():
                said = [f"{name} {PARAMETERS[name].format(values[name])} ({sources[name].status}: "
                        f"{_short(_basis(sources[name].text, values[name]))})"
                        for name in comp.parameters if name in sources and name not in axes
                        and is_estimate(sources[name]) and _used(name, workload)]
                if said:
                    out[comp.name] = "; ".join(said)
            self._notes[key] = out
        return self._notes[key]

    def _group_owned(self, workload) -> set[str]:
        """A mixed base's group-owned parameters (``drive.*``, ``switch.*``, ``attach.*``, port lanes) whose value or
        source differs between its groups: a note quoting group 0's would be said of every group's drives, so none is
        (a binding ``drive`` may be another group's). Empty for a single-model base."""
        groups = getattr(self.space.base, "groups", None)
        if not groups or len(groups) < 2:
            return set()
        own = ("drive.", "switch.", "attach.", "host.port_lanes")
        topos = [self.space.base.group_topology(i) for i in range(len(groups))]
        seen = [(t.parameters(workload), t.sources(workload)) for t in topos]
        names = {k for v, _ in seen for k in v if k.startswith(own)}
        return {k for k in names if len({(str(v.get(k)), str(src.get(k))) for v, src in seen}) > 1}

    def rows(self, values: dict, rec: dict, names) -> list[str]:
        """Per kept answer (``rec``: the planner's rows, ``values``: their axis values), what rests on estimates:
        per target the binding component, and the tightest other limit set by an estimate that passes by less than
        :data:`CLOSE`, with its margin (rows of one host at once)."""
        n = rec["config"].size
        if not n:
            return []
        hosts = np.asarray([str(h) for h in values["host"]] if "host" in values else [""] * n)
        alone = None if self._alone_at is None else self._alone_at(rec["config"], rec["drives"])
        said: list[dict] = [{} for _ in range(n)]  # per row: (component, what it rests on) -> what it does
        for host in dict.fromkeys(hosts.tolist()):
            rows = np.flatnonzero(hosts == host)
            for k, t in enumerate(self.targets):
                notes = self.notes(host or None, t.workload)
                if not notes:
                    continue
                bind = np.asarray(rec[f"{t.name}|binding"], dtype=np.int64)[rows]
                for j, name in enumerate(names):  # what binds
                    if name in notes:
                        for i in rows[bind == j]:
                            said[i].setdefault((name, notes[name]), []).append(f"binds {t.name}")
                est = [j for j, name in enumerate(names) if name in notes]
                if alone is None or not est or not t.iops_needed > 0:
                    continue
                x = np.stack([alone[k][j][rows] for j in est])
                x = np.where(np.asarray(est)[:, None] == bind[None, :], np.inf, x)  # the binding one is said above
                x = np.where(np.isfinite(x), x, np.inf)
                pick = x.argmin(axis=0)
                margin = x[pick, np.arange(rows.size)] / t.iops_needed - 1
                for r in np.flatnonzero(margin < CLOSE):
                    name = names[est[pick[r]]]
                    said[rows[r]].setdefault((name, notes[name]), []).append(f"passes {t.name} by {margin[r]:+.0%}")
        return ["; ".join(f"{comp} {', '.join(what)}: rests on {note}" for (comp, note), what in d.items())
                for d in said]

    def miss(self, host, target, binding: str) -> str:
        """For a configuration that misses: the estimate its binding component rests on, or ""."""
        note = self.notes(host, target.workload).get(binding)
        return f"{binding}'s limit rests on {note}" if note else ""

    def comparison(self, hosts) -> str:
        """One line where the hosts compared have limits above the links of different evidence (a parameter of
        root_complex, socket_dma or inter_socket estimated on one host and not on another, or a dimensionless
        estimate — a share such as memory.dma_fraction — of different value); "" otherwise."""
        hosts = list(dict.fromkeys(hosts))
        if len(hosts) < 2:
            return ""
        from ..ceiling.components import get_component

        workload = self.targets[0].workload
        seen: dict[str, dict] = {}
        for h in hosts:
            topo = self._topology(h)
            sources, values = topo.sources(workload), topo.parameters(workload)
            for comp in ABOVE_LINKS:
                for name in get_component(comp).parameters:
                    if name not in sources or name in self.space.axes or PARAMETERS[name].unit not in ("B/s", "1"):
                        continue  # the rates and shares that set a limit (not counts of complexes or sockets)
                    src = sources[name]
                    share = PARAMETERS[name].unit == "1" and is_estimate(src)
                    basis = (is_estimate(src), float(values[name]) if share else None)
                    seen.setdefault(name, {}).setdefault(basis, []).append((h, values[name], src))
        differ = {name: groups for name, groups in seen.items()
                  if len(groups) > 1 and any(b[0] for b in groups)}
        if not differ:
            return ""
        said = []
        for name, groups in differ.items():
            # the hosts said together are those of one value, status and source (QA s25 H38: grouped by evidence
            # alone, an EPYC 9654 was given the Rome complexes' 46.9 GB/s and the Rome source text)
            told: dict[tuple, list] = {}
            for members in groups.values():
                for h, value, src in members:
                    told.setdefault((PARAMETERS[name].format(value), src.status, src.text), []).append((h, value, src))
            sides = []
            for members in told.values():
                h, value, src = members[0]
                who = ", ".join(m[0] for m in members)
                sides.append(f"{PARAMETERS[name].format(value)} on {who} ({src.status}: "
                             f"{_short(_basis(src.text, value), 90)})")
            said.append(f"{name}: " + " vs ".join(sides))
        return ("The hosts compared have limits above the links of different evidence, so where those limits bind or "
                "pass narrowly the ranking between the hosts follows from these values, not from a measurement: "
                + "; ".join(said) + ".")
