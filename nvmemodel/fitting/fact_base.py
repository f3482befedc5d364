"""The record every fact is kept in (:class:`Fact`, :class:`CurveFacts`) and the thresholds the facts share.

Kept apart so that each fact module, and the claims built on them, can import these without importing every
fact (:mod:`~nvmemodel.fitting.facts` computes them all).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import dataclasses
import math

import numpy as np

if TYPE_CHECKING:  # for annotations only: pandas is loaded by the fit already
    import pandas as pd


#: a stated number is printed to 3–4 significant figures: a kept run this far outside it is not outside (the
#: verification pass's tolerance; here so that facts and verify share it without an
#: import circle)
ROUNDING = 0.02
#: a doubling of load that adds less than this share of throughput does not pay: saturation
PAYS = 0.10
#: a last doubling that pays less than this, while the latency grows more than the throughput, is near saturation
NEAR = 0.25
#: a quantity within ±this share of its mean over a stretch of block sizes is flat there (a cap)
FLAT = 0.10
#: one run a point: a level after a fall holds no step between neighbours larger than this and ⅔ of the step into it
#: (round 6 BA: a "level" of 4.24–4.89 GB/s held a −12.4 % step, as large as the −12.9 % "one step" before it; blind3
#: Q's +9 % bump after a −16 % step, and round 5's −6 %/−11 % after a −59 % one, stay levels)
LEVEL_STEP = 0.05
#: along block size, a last doubling that adds less than this share of bytes/s is no faster: below what a table's 3–4
#: significant digits tell apart (set after round 14 was read: r14_asct bs, 133.27 → 133.38 MB/s, +0.08 %, said to
#: "approach a byte limit at or above", class RB; ethresear's +9.8 % keeps that hedge)
NO_GAIN = 0.01
#: mixes further than this below the harmonic mix of the pure runs show read/write interference
MIX_BELOW = 0.10
#: a job at this share of one CPU or more (fio's usr+sys) kept its CPU busy
CPU_BOUND = 0.9


@dataclasses.dataclass(frozen=True)
class Fact:
    """One thing the data show: ``kind``, its numbers (SI) and the evidence that decided it."""

    kind: str
    facts: dict
    evidence: str = ""


@dataclasses.dataclass(frozen=True)
class CurveFacts:
    """Every fact of one curve (None where it does not apply or the data cannot decide it) and its points."""

    points: pd.DataFrame  # sorted by x: x, y, iops, bytes_per_s, bytes_per_io, lat, out, jobs, cpus …
    saturation: Fact | None = None
    cap: Fact | None = None
    outstanding: Fact | None = None
    mix: Fact | None = None
    cpu: Fact | None = None
    layer: Fact | None = None
    trust: Fact | None = None
    size_fall: Fact | None = None
    cache: Fact | None = None  # points faster than any drive through the path named: a cache served them
    one_stream: Fact | None = None  # one I/O outstanding along block size: a per-I/O time + size ÷ a byte rate
    small_sizes: Fact | None = None  # along block size: IOPS levels and request-time steps (round 18 ZE)
    merged: Fact | None = None  # fio's disk statistics: more than 2 fio I/Os per device I/O (merges.py)
    split: Fact | None = None  # fio's disk statistics: several device I/Os per fio I/O from some size on (merges.py)

    def all(self) -> list[Fact]:
        return [f for f in (self.layer, self.cache, self.merged, self.split, self.saturation, self.cap, self.size_fall,
                            self.outstanding, self.one_stream, self.small_sizes, self.mix, self.cpu, self.trust)
                if f is not None]


def _gain(y0: float, y1: float, x0: float, x1: float) -> float:
    """Throughput gained per doubling of load between two points (−1 … ∞)."""
    if not (x1 > x0 > 0 and y0 > 0 and y1 >= 0):
        return np.nan
    return (y1 / y0) ** (1.0 / math.log2(x1 / x0)) - 1.0


def last_gain(x, y) -> float:
    """Throughput gained per doubling of load in the last step of a curve (NaN where it cannot be told)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    order = np.argsort(x)
    x, y = x[order], y[order]
    return _gain(y[-2], y[-1], x[-2], x[-1]) if x.size >= 2 else np.nan


def pd_num(s):
    import pandas as pd

    return pd.to_numeric(s, errors="coerce")
