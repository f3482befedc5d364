"""Where the groups' drives go: which group each added drive joins, whose switches a group sits behind, where each
group starts on the host tree.

A :class:`~nvmemodel.topology.mixed.MixedTopology` says in ``order`` how a curve adds drives over its groups
(``"sequential"``: group 0 full, then group 1 …; ``"interleaved"``: one drive per group in turn, skipping full
groups; or one group index per drive). :func:`compose <nvmemodel.ceiling.compose.compose>` takes the drives per
group at each total drive count (:func:`drives_per_group`); a curve names the group that received the last drive
(:func:`last_group`). The topology checked ``order`` when it was built; these functions only count.

Over the host tree each group continues where the groups before it stopped (docs/physics.md §12.7): :func:`starts`
gives each group's first position (:func:`~nvmemodel.ceiling.tree.placement_starts`), :func:`switch_sets` the groups
that share switches (a group's ``switch_with``, :func:`switch_host`), both as :func:`~nvmemodel.ceiling.compose.
compose` takes them.
"""

from __future__ import annotations

import numpy as np

from .tree import placement_starts

__all__ = ["drives_per_group", "last_group", "sequence", "starts", "switch_host", "switch_sets"]


def sequence(topology) -> np.ndarray:
    """The group index of the 1st, 2nd, … drive added to ``topology`` (length ``topology.max_drives``).

    Examples
    --------
    >>> import nvmemodel as nm
    >>> t = nm.MixedTopology("m", nm.preset("dell-r7525").host, (nm.DriveGroup("samsung-pm1733-u2", 3),
    ...                      nm.DriveGroup("intel-p3700-800gb", 2)), order="interleaved")
    >>> sequence(t).tolist()
    [0, 1, 0, 1, 0]
    """
    counts = [g.count for g in topology.groups]
    if topology.order == "sequential":
        return np.repeat(np.arange(len(counts)), counts)
    if topology.order == "interleaved":
        left, out = list(counts), []
        while any(left):
            for i in range(len(left)):
                if left[i]:
                    out.append(i)
                    left[i] -= 1
        return np.asarray(out, dtype=int)
    return np.asarray(topology.order, dtype=int)


def drives_per_group(topology, drives) -> np.ndarray:
    """``(groups, len(drives))`` drive counts of each group of ``topology`` when ``drives`` drives in all are
    installed."""
    n = np.atleast_1d(np.asarray(drives, dtype=int))
    seq = sequence(topology)
    cum = np.zeros((len(topology.groups), seq.size + 1), dtype=int)
    for i in range(len(topology.groups)):
        cum[i, 1:] = np.cumsum(seq == i)
    return cum[:, n]


def last_group(topology, drives) -> np.ndarray:
    """The group index that received the ``n``-th drive, for each ``n`` of ``drives``."""
    return sequence(topology)[np.atleast_1d(np.asarray(drives, dtype=int)) - 1]


def switch_host(topology, i: int) -> int | None:
    """The index of the group whose switches group ``i`` of ``topology`` shares (None: its own attach)."""
    name = topology.groups[i].switch_with
    return None if name is None else [g.name for g in topology.groups].index(name)


def starts(topology, p) -> list[float]:
    """Where each group of ``topology`` (a :class:`~nvmemodel.topology.mixed.MixedTopology`) starts on the host
    tree (:func:`~nvmemodel.ceiling.tree.placement_starts`; ``p``: parameters holding the placement, one value each
    unless there is one group: it starts at 0 whatever the placement)."""
    if len(topology.groups) == 1:
        return [0.0]
    return placement_starts([(g.socket, float(g.count), None if g.switch is None else float(g.switch_count),
                              switch_host(topology, i)) for i, g in enumerate(topology.groups)], p)


def switch_sets(topology) -> dict:
    """Groups sharing switches: ``{owner index: [(group index, first drive position), …]}``, the owner first at 0,
    each sharer after the drives placed before it (full counts); only owners that have sharers."""
    sets: dict = {}
    for i, g in enumerate(topology.groups):
        h = switch_host(topology, i)
        if h is not None:
            members = sets.setdefault(h, [(h, 0.0)])
            members.append((i, float(sum(topology.groups[j].count for j, _ in members))))
    return sets
