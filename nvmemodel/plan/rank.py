"""Ranking the planner's configurations and merging those with identical answers.

Two configurations whose results are identical — drive count, lanes, cost and its parts, and per target
the ceiling, the binding component and the latency — are one answer: they differ only in parameters that
change nothing there (a Gen5 host with Gen4 drives next to a Gen4 host, the switch count of a
direct-attached configuration, an I/O stack where the CPU does not bind). The planner keeps them as one
*group*: the first configuration in flat order (its representative), how many configurations the group
holds, and per axis which of its choices occur (a boolean mask over the axes' choices, concatenated).
Groups from different blocks of the space are merged the same way, so memory stays bounded by ``keep``
groups whatever the size of the space.

What an answer rests on is part of its identity too (QA5 G6): two hosts (or drives) whose ``estimates`` or
``upper_bound`` differ are never one group, or the row would quote the first one's evidence for both. The planner
adds an ``evidence`` column (:func:`evidence_codes`: equal codes for axis values whose evidence sentences are equal)
that the merge compares like any other result column.

Both :mod:`~nvmemodel.plan.solve` and :mod:`~nvmemodel.plan.result` import from here (never each other's
internals); :func:`keep_best` is the one way the planner keeps answers, merged or not, for a single-model or a mixed
base alike.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

__all__ = ["DERIVED", "RANKS", "best_rows", "evidence_codes", "keep_best", "merge"]

#: Ranking criteria: name → (sort columns, ascending flags).
RANKS = {
    "drives": (["drives", "lanes", "min_headroom"], [True, True, False]),
    "lanes": (["lanes", "drives", "min_headroom"], [True, True, False]),
    "headroom": (["min_headroom", "drives"], [False, True]),
    "cost": (["cost", "drives", "min_headroom"], [True, True, False]),
}

#: Columns that are functions of other result columns (not part of the identity of a result).
DERIVED = ("min_headroom",)
_BOOK = ("config", "count", "mask")


def evidence_codes(space, targets):
    """A function of a block's axis codes giving each configuration a number that differs where what its answer rests
    on may differ: per ``host`` choice its estimates (plan/evidence notes per target) and upper-bound sentence, per
    ``drive.model`` choice its upper-bound sentence; None where the space has neither axis (one host, one drive)."""
    from .bounds import upper_bound_notes as _upper_bound_notes
    from .evidence import Evidence
    from .space import HOST

    def table(name, signature) -> np.ndarray:
        seen: dict = {}
        return np.asarray([seen.setdefault(signature(v), len(seen)) for v in space.axes[name]], dtype=np.int64)

    parts = []
    if HOST in space.axes:
        from ..ceiling.components import get_component

        evidence = Evidence(space, targets)

        def estimated(h, t):  # each component resting on an estimate, and the values its limit is made of (two
            notes = evidence.notes(str(h), t.workload)  # sockets of one CPU: the same note, another margin)
            values = evidence._topology(str(h)).parameters(t.workload) if notes else {}
            return tuple((c, n, tuple(str(values.get(k)) for k in get_component(c).parameters))
                         for c, n in sorted(notes.items()))

        host = table(HOST, lambda h: (tuple(estimated(h, t) for t in targets),
                                      _upper_bound_notes(space, targets, {HOST: [h]}, 1)[0]))
        parts.append((HOST, host, None))
    if "drive.model" in space.axes:
        from ..parameters import PARAMETERS

        drive = table("drive.model", lambda d: _upper_bound_notes(space, targets, {"drive.model": [d]}, 1)[0])
        axis_codes = [PARAMETERS["drive.model"].code(v) for v in space.axes["drive.model"]]
        lookup = np.zeros(max(axis_codes) + 1, dtype=np.int64)
        lookup[axis_codes] = np.arange(len(axis_codes))
        parts.append(("drive.model", drive, lookup))
    parts = [p for p in parts if p[1].max() > 0]  # every choice says the same: nothing to tell apart
    if not parts:
        return None

    def codes_of(codes: dict) -> np.ndarray:
        key: Any = np.int64(0)  # (an array from the first part on)
        for name, sig, lookup in parts:
            pos = np.asarray(codes[name]).astype(np.int64)
            key = key * (int(sig.max()) + 1) + sig[pos if lookup is None else lookup[pos]]
        return key
    return codes_of


def _is_derived(column: str) -> bool:
    return column in DERIVED or column.endswith("|headroom")


def _rank_keys(rec: dict, rank: str) -> list[np.ndarray]:
    cols, asc = RANKS[rank]
    return [np.asarray(rec[c], dtype=float) if a else -np.asarray(rec[c], dtype=float) for c, a in zip(cols, asc)]


def _differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise ``a != b`` where two NaN count as equal."""
    with np.errstate(invalid="ignore"):
        return (a != b) & ~(np.isnan(a) & np.isnan(b))


def _masks(config: np.ndarray, lengths: list[int]) -> np.ndarray:
    """One row per configuration: True at the position of each of its axis values (axes concatenated)."""
    mask = np.zeros((config.size, sum(lengths)), dtype=bool)
    if not lengths:
        return mask
    positions = np.unravel_index(config.astype(np.int64), lengths)
    rows = np.arange(config.size)
    offset = 0
    for pos, length in zip(positions, lengths):
        mask[rows, offset + pos] = True
        offset += length
    return mask


def _no_worse(rkeys: list[np.ndarray], last: int) -> np.ndarray:
    """Rows whose rank keys are lexicographically no worse than row ``last``'s (NaN sorts last)."""
    worse = np.zeros(rkeys[0].size, dtype=bool)
    decided = np.zeros(rkeys[0].size, dtype=bool)
    for k in rkeys:
        ref = k[last]
        with np.errstate(invalid="ignore"):
            gt = (k > ref) | (np.isnan(k) & ~np.isnan(ref))
            lt = (k < ref) | (~np.isnan(k) & np.isnan(ref))
        worse |= ~decided & gt
        decided |= gt | lt
    return ~worse


def _runs(rec: dict, rank: str, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``rows`` of ``rec`` sorted by rank, then the rest of the result, then flat index (as indices into
    ``rec``); and where in that order each run of equal results (a group) starts. Only the columns compared are
    gathered: the others are taken once per group by :func:`merge`."""
    cols = RANKS[rank][0]
    identity = [c for c in rec if c not in _BOOK and c not in cols and not _is_derived(c)]
    keys = {c: np.asarray(rec[c], dtype=float)[rows] for c in [*cols, *identity]}
    rkeys = _rank_keys(keys, rank)
    order = np.lexsort([rec["config"][rows], *[keys[c] for c in identity[::-1]], *rkeys[::-1]])
    new = np.zeros(rows.size, dtype=bool)
    new[:1] = True
    for v in keys.values():
        v = v[order]
        new[1:] |= _differs(v[1:], v[:-1])
    return rows[order], np.flatnonzero(new)


def merge(records: list[dict], rank: str, keep: int, lengths: list[int]) -> dict:
    """The best ``keep`` groups of identical results among ``records`` (rows or groups), best first.

    A record is a dict of equally long arrays: ``config`` (flat index), the result columns, and, for groups
    already merged, ``count`` and ``mask``; rows without them count one configuration each. Ties on the
    ranking columns are broken by the other result columns, then by the flat index, so the order does not
    depend on how the space was cut into blocks.
    """
    rec = {k: np.concatenate([r[k] for r in records]) for k in records[0]} if len(records) > 1 else dict(records[0])
    size = rec["config"].size
    if size == 0:
        return rec
    # 1. candidates: the rows ranked no worse than the keep-th row (ties included). The best `keep` groups are among
    #    them when they hold that many (each group has >= 1 row, all of one rank). 2. When they hold fewer, the other
    #    rows too: they all rank after every candidate, so their sorted runs simply follow (one sort of every row in
    #    all, never the candidates twice).
    if size > keep:
        rkeys = _rank_keys(rec, rank)
        candidate = _no_worse(rkeys, np.lexsort(rkeys[::-1])[keep - 1])
        order, starts = _runs(rec, rank, np.flatnonzero(candidate))
        if starts.size < keep and order.size < size:
            rest, rest_starts = _runs(rec, rank, np.flatnonzero(~candidate))
            starts = np.concatenate([starts, rest_starts + order.size])
            order = np.concatenate([order, rest])
    else:
        order, starts = _runs(rec, rank, np.arange(size))
    if starts.size > keep:
        order = order[: starts[keep]]
        starts = starts[:keep]
    first = order[starts]
    out = {k: v[first] for k, v in rec.items() if k not in _BOOK}
    out["config"] = np.minimum.reduceat(rec["config"][order], starts)
    out["count"] = (np.add.reduceat(rec["count"][order], starts) if "count" in rec
                    else np.diff(np.append(starts, order.size)).astype(np.int64))
    if "mask" in rec:
        mask = rec["mask"][order]
        out["mask"] = np.logical_or.reduceat(mask, starts, axis=0) if mask.shape[1] else mask[starts]
    else:
        out["mask"] = _group_masks(rec["config"][order], starts, lengths)
    return out


def _group_masks(config: np.ndarray, starts: np.ndarray, lengths: list[int]) -> np.ndarray:
    """What :func:`_masks` of the rows OR-ed over each group (rows ``starts[i]`` up to the next start) gives: each
    row's choices as the bits of one word (:func:`_bit_tables`), OR-ed over the group in one pass (where the axes
    hold more than 62 choices, the masks themselves)."""
    tables = _bit_tables(tuple(lengths))
    if tables is None:
        return np.logical_or.reduceat(_masks(config, lengths), starts, axis=0)
    span, lead, trail = tables
    config = config.astype(np.int64)
    group = np.bitwise_or.reduceat(lead[config // span] | trail[config % span], starts)
    return ((group[:, None] >> np.arange(sum(lengths))) & 1).astype(bool)


@functools.lru_cache(maxsize=16)
def _bit_tables(lengths: tuple[int, ...]) -> tuple[int, np.ndarray, np.ndarray] | None:
    """Each configuration's choices (its :func:`_masks` row) as bits ``1 << column``, looked up in two tables, one
    of the leading axes' flat index and one of the trailing axes' (``config = lead * span + trail``): a division
    and two lookups per row instead of one per axis. None where the axes hold more than 62 choices or a table
    would exceed 2**20 entries."""
    if sum(lengths) > 62:
        return None
    sizes = [math.prod(lengths[:j]) for j in range(len(lengths) + 1)]  # of the leading j axes
    k = min(range(len(lengths) + 1), key=lambda j: max(sizes[j], sizes[-1] // sizes[j]))  # the most even split
    if max(sizes[k], sizes[-1] // sizes[k]) > 1 << 20:
        return None

    def table(part: tuple[int, ...], offset: int) -> np.ndarray:
        bits = np.zeros(math.prod(part), dtype=np.int64)
        for pos, length in zip(np.unravel_index(np.arange(bits.size), part) if part else (), part):
            bits |= np.left_shift(np.int64(1), offset + pos)
            offset += length
        return bits

    return sizes[-1] // sizes[k], table(lengths[:k], 0), table(lengths[k:], sum(lengths[:k]))


def best_rows(rec: dict, rank: str, keep: int | None) -> dict:
    """The best ``keep`` single rows (all, sorted, where ``keep`` is None; ties in flat order), each its own group."""
    cols, asc = RANKS[rank]
    keys = [np.asarray(rec[c]) if a else -np.asarray(rec[c]) for c, a in zip(cols, asc)]
    order = np.lexsort([rec["config"], *keys[::-1]])[:keep]
    out = {k: np.asarray(v)[order] for k, v in rec.items()}
    out.setdefault("count", np.ones(order.size, dtype=np.int64))
    return out


def keep_best(parts: list[dict], rank: str, keep: int | None, lengths: list[int], *, merged: bool) -> dict:
    """The best ``keep`` answers among ``parts`` (records as :func:`merge` takes them): groups of identical results
    (``merged``; :func:`merge`, ``keep`` required) or single rows (:func:`best_rows`)."""
    if merged:
        if keep is None:
            raise ValueError("keep_best: merged groups need keep (how many)")
        return merge(parts, rank, keep, lengths)
    rec = parts[0] if len(parts) == 1 else {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}
    return best_rows(rec, rank, keep)
