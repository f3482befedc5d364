"""Which group the drives of a scaling curve join, and whose switches a group sits behind.

A :class:`~nvmemodel.topology.mixed.MixedTopology` says in ``order`` how a curve adds drives over its groups
(``"sequential"``: group 0 full, then group 1 …; ``"interleaved"``: one drive per group in turn, skipping full
groups; or one group index per drive). :func:`compose <nvmemodel.ceiling.compose.compose>` takes the drives per
group at each total drive count (:func:`drives_per_group`); a curve names the group that received the last drive
(:func:`last_group`). The topology checked ``order`` when it was built; these functions only count.
"""

from __future__ import annotations

import numpy as np

__all__ = ["drives_per_group", "last_group", "sequence", "switch_host"]


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
