"""``nm.compare(base, new)``: did a change make the measured points faster or slower, beyond the noise of the
repeats?

Each point (a workload and a direction, :mod:`.points`) measured on both sides gets, per metric, the change
of its geometric mean with a Welch interval on the log scale (:mod:`.stats`), and a verdict:

* **faster** / **slower** — the interval excludes no change *and* the change is at least ``threshold``
  (2 % by default: practical significance; for latencies, lower is faster);
* **change below threshold** — beyond noise, but smaller than ``threshold``;
* **no change beyond noise** — the interval holds "no change";
* **cannot be told from noise** — fewer than two runs on a side: no spread to judge a change against. The
  point says how many runs a side would see a change of ``detect`` (5 %), at the spread pooled from the
  points that have repeats (both sides, this metric), or at an assumed coefficient of variation ``cv``
  where none has, and says which.

A point is slower if a metric is and none is faster, faster if one is and none is slower, **mixed** if one
metric is faster and another slower (more IOPS at a higher latency: libaio at a queue depth psync ignores);
the comparison likewise from its points. A comparison that is slower or mixed has a point slower beyond noise in
some metric: the exit status 1 of ``nvmemodel compare`` (``metrics=`` chooses what counts). Points of one side
with no match on the other are listed, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import dataclasses
import math
import os
import pathlib

from ..errors import ParameterError
from .points import (METRICS, describe, load, match_columns, not_steady_points, point_keys, runs_by_point,
                     varying_within)
from .stats import POWER, log_change, pooled_log_sd, repeats_needed

if TYPE_CHECKING:
    import pandas as pd

#: One side of a comparison: a results table, a written table (.csv/.parquet), or result files and folders.
ResultsInput: TypeAlias = "pd.DataFrame | str | os.PathLike[str] | Iterable[str | os.PathLike[str]]"

__all__ = ["Comparison", "compare"]

SCHEMA = "nvmemodel.compare/1"
VERDICTS = ("faster", "slower", "mixed", "change below threshold", "no change beyond noise",
            "cannot be told from noise")
_DEFAULT_CV = 0.05


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found. ``changes``: one row per point × direction × metric (see :meth:`to_dict` for
    the columns); ``points``: one row per point × direction with its verdict; ``unmatched``: points of one side
    only; ``verdict``: the comparison's; ``exit_status``: 1 if a point is slower beyond noise, else 0."""

    changes: Any  # pandas.DataFrame
    points: Any  # pandas.DataFrame
    unmatched: tuple[dict, ...]
    verdict: str
    settings: dict
    spread: dict
    notes: tuple[str, ...]

    @property
    def exit_status(self) -> int:
        """1 if some point is slower beyond noise in some metric (``slower`` or ``mixed``), else 0."""
        return 1 if self.verdict in ("slower", "mixed") else 0

    def __repr__(self) -> str:
        return (f"Comparison({self.verdict!r}: {len(self.points)} matched point(s), {len(self.unmatched)} "
                f"unmatched)")

    def to_dict(self) -> dict:
        """The ``nvmemodel.compare/1`` document (nvmemodel/schemas/compare-1.json): numbers in SI units, changes
        as ratios − 1 (0.05 = +5 %), not-finite numbers as null."""
        def num(x):
            return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x

        changes = [{k: num(v) for k, v in r.items()} for r in self.changes.to_dict("records")]
        for r in changes:
            r["workload"] = describe(r.pop("point"))
            r["repeats_needed"] = None if r["repeats_needed"] is None else int(r["repeats_needed"])
            r["n_base"], r["n_new"] = int(r["n_base"]), int(r["n_new"])
        points = []
        for r in self.points.to_dict("records"):
            points.append({"workload": describe(r["point"]), "direction": r["direction"], "verdict": r["verdict"],
                           "steady_state_missed": r["steady_state_missed"]})
        return {"schema": SCHEMA, "settings": self.settings, "verdict": self.verdict,
                "exit_status": self.exit_status, "spread": {k: num(v) for k, v in self.spread.items()},
                "points": points, "changes": changes, "unmatched": list(self.unmatched), "notes": list(self.notes)}

    def table(self) -> Any:
        """The changes as a readable table: workload, metric, base and new means, change and interval in %, runs,
        verdict."""
        import pandas as pd

        rows = []
        for r in self.changes.to_dict("records"):
            pct = (lambda v: f"{(v) * 100:+.1f}%" if v == v else "")  # noqa: E731
            interval = f"[{pct(r['low'])}, {pct(r['high'])}]" if r["low"] == r["low"] else "—"
            rows.append({"point": label(describe(r["point"])), "direction": r["direction"], "metric": r["column"],
                         "base": _si(r["base"], r["column"]), "new": _si(r["new"], r["column"]),
                         "change": pct(r["change"]), "95% interval" if self.settings["confidence"] == 0.95 else
                         f"{self.settings['confidence']:.0%} interval": interval,
                         "runs": f"{r['n_base']}/{r['n_new']}", "verdict": r["verdict"]})
        return pd.DataFrame(rows)


def _si(value: float, column: str) -> str:
    """A value for the table: latencies in µs, bandwidth in MB/s (decimal: 10⁶ B/s), IOPS whole."""
    if value != value:
        return ""
    if column == "bw_bytes_per_s":
        return f"{value / 1e6:.4g} MB/s"
    if column.endswith("_s"):
        return f"{value * 1e6:.4g} µs"
    return f"{value:,.0f}"


def label(workload: dict) -> str:
    """A point's workload in words: ``randread 4 KiB QD8 x1 job psync direct``."""
    w = workload
    parts = []
    if w.get("pattern"):
        mix = w.get("read_fraction")
        parts.append(w["pattern"] + (f" {mix:.0%} reads" if mix is not None and w["pattern"] in ("rw", "randrw",
                                                                                                "readwrite") else ""))
    bs = w.get("block_size_bytes")
    if bs is not None:
        parts.append(f"{bs / 1024:g} KiB" if bs % 1024 == 0 or bs > 4096 else f"{bs:g} B")
    if w.get("iodepth") is not None:
        parts.append(f"QD{w['iodepth']:g}")
    if w.get("numjobs") is not None:
        parts.append(f"x{w['numjobs']:g} job{'s' if w['numjobs'] != 1 else ''}")
    if w.get("ioengine"):
        parts.append(w["ioengine"])
    if w.get("direct") is not None:
        parts.append("direct" if w["direct"] in (1.0, True, "True") else "buffered")
    if w.get("targets") not in (None, 1.0):
        parts.append(f"{w['targets']:g} targets")
    for k, v in w.items():
        if k in ("pattern", "read_fraction", "block_size_bytes", "iodepth", "numjobs", "ioengine", "direct",
                 "targets") or v is None:
            continue
        # fio's defaults of the submission options say nothing a reader needs (hipri 0, batches of 1, iodepth_low
        # fixed up to iodepth: init.c fixup_options)
        if (k in ("hipri", "sqthread_poll") and v == 0) or (k in ("iodepth_batch", "iodepth_batch_complete")
                                                             and v == 1) or (k == "iodepth_low" and v == w.get("iodepth")):
            continue
        parts.append(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}")
    return " ".join(parts)


def _verdict(ratio: float, low: float, high: float, larger_is_better: bool, threshold: float) -> str:
    if low != low:
        return "cannot be told from noise"
    if low <= 1.0 <= high:
        return "no change beyond noise"
    if abs(ratio - 1) < threshold:
        return "change below threshold"
    return "faster" if (ratio > 1) == larger_is_better else "slower"


def _combine(verdicts: list[str]) -> str:
    """A point's (or the comparison's) verdict from its parts': ``mixed`` where one is faster and another
    slower (a point or metric of each)."""
    worse, better = "slower" in verdicts or "mixed" in verdicts, "faster" in verdicts or "mixed" in verdicts
    if worse and better:
        return "mixed"
    if worse:
        return "slower"
    if better:
        return "faster"
    told = [v for v in verdicts if v != "cannot be told from noise"]
    if not told:
        return "cannot be told from noise"
    return "change below threshold" if "change below threshold" in told else "no change beyond noise"


def compare(base: ResultsInput, new: ResultsInput, *, by: Sequence[str] = (), ignore: Sequence[str] = (),
            metrics: Sequence[str] = ("iops", "bw", "lat_mean", "p99"), threshold: float = 0.02,
            confidence: float = 0.95, detect: float = 0.05, cv: float | None = None,
            **read_options: Any) -> Comparison:
    """Compare two result sets point by point.

    Parameters
    ----------
    base, new : path, list of paths, or DataFrame
        Result files and folders, a ``.csv``/``.parquet`` table written by ``nvmemodel ingest -o``, or a
        table from :func:`~nvmemodel.read_results`. ``read_options`` (``labels``, ``path_regex``,
        ``path_pattern``) go to ``read_results`` for both.
    by : sequence of str
        Label columns that also tell points apart (``drives`` from a path pattern …).
    ignore : sequence of str
        Workload columns that are the change being compared and so must not key the points (``ioengine``
        when comparing psync with libaio; ``direct``). Within one side a point's runs must agree on them.
    metrics : sequence of str
        Of ``iops``, ``bw`` (bytes/s), ``lat_mean`` (mean total latency, else completion), ``p99``
        (completion-latency 99th percentile, else total); those a table does not measure are left out.
    threshold : float
        The smallest change that counts (ratio − 1; 0.02 = 2 %).
    confidence : float
        Of the intervals (0.95).
    detect : float
        The change the repeats needed are worked out for (0.05 = 5 %).
    cv : float, optional
        The run-to-run coefficient of variation to assume for the repeats needed; by default the spread
        pooled from the points that have repeats, else 5 % (said so).
    """
    import pandas as pd

    _check(threshold, "threshold", 0.0, 100.0)
    _check(confidence, "confidence", 0.5, 0.9999, open_low=True)
    _check(detect, "detect", 0.0, 10.0, open_low=True)
    if cv is not None:
        _check(cv, "cv", 0.0, 10.0, open_low=True)
    for m in metrics:
        if m not in METRICS:
            raise ParameterError("metrics", m, f"one of {', '.join(METRICS)}")
    if not metrics:
        raise ParameterError("metrics", "", f"at least one of {', '.join(METRICS)}")
    by, ignore = tuple(by), tuple(ignore)
    tables = [load(base, "base", **read_options), load(new, "new", **read_options)]
    columns = match_columns(tables, by=by, ignore=ignore)
    keys = point_keys(tables, columns)
    for side, table, key in (("base", tables[0], keys[0]), ("new", tables[1], keys[1])):
        for c in ignore:
            mixed = varying_within(table, key, c)
            if mixed:
                point, values = next(iter(mixed.items()))
                raise ParameterError("ignore", c, f"a column each side holds one value of per point: {side} has "
                                                  f"{', '.join(values)} at {label(describe(point))}; their runs would "
                                                  "be averaged as repeats (compare them separately)")
    rows, notes = [], []
    spreads: dict[str, Any] = {}
    measured = {}
    for m in metrics:
        b, col_b = runs_by_point(tables[0], keys[0], m)
        n, col_n = runs_by_point(tables[1], keys[1], m)
        if col_b is None or col_n is None:
            notes.append(f"{m}: not measured by {'base' if col_b is None else 'new'}; left out")
            continue
        if col_b != col_n:
            notes.append(f"{m}: base measured {col_b}, new {col_n}: not the same quantity; left out")
            continue
        measured[m] = (b, n, col_b)
    if not measured:
        raise ParameterError("metrics", ",".join(metrics), "a metric both sides measured")
    first = next(iter(measured.values()))
    base_points, new_points = set(first[0]), set(first[1])
    for b, n, _ in measured.values():
        base_points |= set(b)
        new_points |= set(n)
    matched = sorted(base_points & new_points, key=_order)
    unmatched = [{"side": side, "workload": describe(p), "direction": d, "label": label(describe(p))}
                 for side, only in (("base", base_points - new_points), ("new", new_points - base_points))
                 for p, d in sorted(only, key=_order)]
    if not matched:
        raise ParameterError("base/new", "no point in common", _no_match_hint(tables, columns, ignore))
    steady_missed = {"base": not_steady_points(tables[0], keys[0]), "new": not_steady_points(tables[1], keys[1])}
    for m, (b, n, column) in measured.items():
        larger_is_better = METRICS[m][1]
        groups = [v for side in (b, n) for k, v in side.items() if k in matched]
        sd, dof = pooled_log_sd(groups)
        if cv is not None:
            sd_used, source = math.sqrt(math.log1p(cv ** 2)), f"assumed CV {cv:.3g} (given)"
        elif dof:
            sd_used, source = sd, f"pooled from the repeats: {dof} degrees of freedom over both sides"
        else:
            sd_used = math.sqrt(math.log1p(_DEFAULT_CV ** 2))
            source = f"assumed CV {_DEFAULT_CV:g} (no point has two runs on a side to pool a spread from)"
        spreads[f"{m}_sd_log"] = sd_used
        spreads[f"{m}_source"] = source
        needed = repeats_needed(detect, sd_used, confidence=confidence)
        for point, direction in matched:
            if (point, direction) not in b or (point, direction) not in n:
                continue
            vb, vn = b[(point, direction)], n[(point, direction)]
            ch = log_change(vb, vn, confidence=confidence)
            verdict = _verdict(ch["ratio"], ch["low"], ch["high"], larger_is_better, threshold)
            rows.append({"point": point, "direction": direction, "metric": m, "column": column,
                         "base": _gmean(vb), "new": _gmean(vn), "n_base": len(vb), "n_new": len(vn),
                         "change": ch["ratio"] - 1, "low": ch["low"] - 1, "high": ch["high"] - 1,
                         "p_value": ch["p_value"], "verdict": verdict,
                         "repeats_needed": needed if verdict in ("cannot be told from noise",
                                                                 "no change beyond noise") else None})
    changes = pd.DataFrame(rows)
    point_rows = []
    for (point, direction), g in changes.groupby(["point", "direction"], sort=False):
        missed = [s for s in ("base", "new") if point in steady_missed[s]]
        point_rows.append({"point": point, "direction": direction, "verdict": _combine(list(g["verdict"])),
                           "steady_state_missed": missed})
    points = pd.DataFrame(point_rows)
    missed = points[points["steady_state_missed"].map(bool)]
    if not missed.empty:
        shown = "; ".join(f"{label(describe(p))} {d} ({' and '.join(s)})" for p, d, s in
                          missed[["point", "direction", "steady_state_missed"]].itertuples(index=False, name=None))
        notes.append(f"{len(missed)} point(s) include runs that did not reach steady state (fio's ss= check): "
                     f"{shown}; a change there may be drift, not the setting")
    if unmatched:
        notes.append(f"{len(unmatched)} point(s) of one side only, not compared (listed under 'unmatched')")
    same = same_results(base, new, tables)
    if same:
        notes.insert(0, same)
    settings = {"threshold": threshold, "confidence": confidence, "detect": detect, "power": POWER,
                "cv": cv, "metrics": list(measured), "match": columns, "ignore": list(ignore), "by": list(by)}
    return Comparison(changes, points, tuple(unmatched), _combine(list(points["verdict"])), settings, spreads,
                      tuple(notes))


def _paths(side) -> list | None:
    """The paths of a side given as paths (None for a table given as a DataFrame)."""
    import pandas as pd

    if isinstance(side, pd.DataFrame):
        return None
    return [side] if isinstance(side, (str, bytes)) or hasattr(side, "__fspath__") else list(side)


def _digests(paths: list, table) -> list[str]:
    """SHA-256 of every file a side read: a file given, and under a folder given the files its rows came from
    (``source_path``); sorted. Empty where a file cannot be read again."""
    import hashlib

    files = [pathlib.Path(os.fsdecode(p)) for p in paths if os.path.isfile(p)]
    if any(os.path.isdir(p) for p in paths) and "source_path" in table:
        files += [pathlib.Path(str(s)) for s in table["source_path"].dropna().unique() if os.path.isfile(str(s))]
    out = []
    for f in dict.fromkeys(f.resolve() for f in files):
        try:
            out.append(hashlib.sha256(f.read_bytes()).hexdigest())
        except OSError:
            return []
    return sorted(out)


def same_results(base, new, tables) -> str | None:
    """A note where ``base`` and ``new`` are one set of results, not two measurements: the same table object, the
    same files or folders by path, or files of the same content (SHA-256 of every file each side read); else
    None. A change found then is no change made: the runs are the same runs."""
    if base is new and _paths(base) is None:
        return "base and new are the same table: the results are compared with themselves, not with a second " \
               "measurement"
    pb, pn = _paths(base), _paths(new)
    if pb is None or pn is None:
        return None
    rb = sorted({os.path.realpath(os.fsdecode(p)) for p in pb})
    rn = sorted({os.path.realpath(os.fsdecode(p)) for p in pn})
    if rb == rn:
        what = ("file" if os.path.isfile(rb[0]) else "folder") if len(rb) == 1 else "paths"
        return f"base and new are the same {what} ({', '.join(map(os.fsdecode, pb))}): the results are compared " \
               "with themselves, not with a second measurement"
    db, dn = _digests(pb, tables[0]), _digests(pn, tables[1])
    if db and db == dn:
        return f"base and new hold the same content ({len(db)} file(s) a side, identical by SHA-256): the " \
               "results are compared with themselves (a copy), not with a second measurement"
    return None


def _order(item) -> tuple:
    """Points in the order of their workload values (numbers as numbers: QD8 before QD32), then direction."""
    point, direction = item
    return tuple((0, v, "") if isinstance(v, float) else (1, 0.0, str(v)) for v in describe(point).values()) \
        + ((1, 0.0, direction),)


def _gmean(values) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _check(value, name: str, lo: float, hi: float, *, open_low: bool = False) -> None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        and (value > lo if open_low else value >= lo) and value <= hi
    if not ok:
        raise ParameterError(name, value, f"a number {'>' if open_low else '≥'} {lo:g} and ≤ {hi:g}")


def _no_match_hint(tables, columns, ignore) -> str:
    """Why no point matched: the workload columns whose values the two sides do not share."""
    apart = []
    for c in columns:
        if c in tables[0] and c in tables[1]:
            a = {str(v) for v in tables[0][c].dropna().unique()}
            b = {str(v) for v in tables[1][c].dropna().unique()}
            if a and b and not a & b:
                apart.append(f"{c} ({', '.join(sorted(a)[:3])} in base, {', '.join(sorted(b)[:3])} in new)")
    if apart:
        return ("points measured on both sides; they differ in " + "; ".join(apart) + ". If that is the change "
                "being compared, pass --ignore " + ",".join(a.split(" ")[0] for a in apart))
    return "points measured on both sides (the same workloads: pattern, block size, iodepth, numjobs, …)"
