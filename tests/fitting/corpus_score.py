"""Score what ``nm.fit(...).claims()`` says about the explanation corpus (issue 28).

``tests/data/explain_corpus/<case>/case.json`` describes one real measured series: where its numbers come from,
how to fit it (``fit``) and what an engineer reads in the data (``expect``, SI units). This module fits every
case, grades every claim *supported*, *contradicted* or *misleading*, and every expected fact that no claim
states *missing*, by the rules of the claims contract (the table below), and prints a block per case and the
totals::

    python -m tests.fitting.corpus_score                  # the dev split
    python -m tests.fitting.corpus_score --split blind    # counts only: blind cases' claims are not printed
    python -m tests.fitting.corpus_score --split all --report score.txt   # every spent split (not UNSPENT)
    python -m tests.fitting.corpus_score --regrade tests/data/explain_corpus/_blind_rounds/round4_scored.txt

Split: a case whose id starts ``r2_`` is **blind2** (the second round, all blind: gathered after the first blind
third had been scored and read); otherwise a case is **blind** when ``int(sha256(id).hexdigest(), 16) % 3 == 0``,
else **dev** (:func:`split_of`; never stored by hand). Tests load only the dev split.

Grades (per claim; the worst reason wins):

- contradicted — a ceiling / cap / limit stated below a measured point of its curve by more than 2 %; a
  saturation state opposite to the expected one (rising vs saturated); an onset outside the expected range (a
  series saturated from its first point: an onset after its second load); a plateau or cap outside the expected
  range; a CPU-bound verdict, layer or read/write-mix verdict opposite to the expected one; "falls" where the
  case expects no fall; and, needing no expectation (:func:`false_of_data`): "one run a point" where some point has
  repeats (round 4's X). Saturation state and onset are graded along load axes only (below).
- misleading — a model's parameters interpreted where its R² < 0.9 or it misses a point by more than 25 %; a
  plateau stated only in IOPS where block sizes are ≥ 64 KiB or mixed; "not in the same state (warm-up,
  caching …)" without repeats or a time series; a contention / coherency reading where the case expects a cap or
  saturation from the first point; a limit within 5 % of the last point of a still-rising curve given as an
  estimate or "an extrapolation"; and, needing no expectation (:func:`misread`): a record attributed to fio where
  another tool measured the runs; a range whose two ends read the same ("1.00–1.00", "x = 1–1"); a limit's
  95 % interval reaching below a measured point, or given at all for a curve still rising at its last point; a
  ceiling more than 10 % above a cap the case reads; a level ("a level the points scatter about", "stays at") said
  of a curve whose last point gains ≥ 10 % per doubling over each of the two before it; a host of "about N CPUs" offered for a level not within 10 % of N;
  "a deeper queue" advised for a synchronous engine; a fall ("falls 12 %") within the data's noise (repeats: twice
  the standard error of the difference; one run a point: the ±10 % band or the largest step on the level before the maximum); a
  read/write-mix verdict from runs at different outstanding I/O (> 10 % apart); a cause (garbage collection, warm-up, thermal throttling, steady state …) named without a hedge and without repeats
  or a time series; a share rounded to "0 % of"; an IOPS ceiling along block size measured at ≤ 4 I/Os outstanding with no word on that. With an expected
  layer: a limit "of the device" where the page cache served the I/O. Rounds 3 and 4's hand readings
  (:func:`misled_by_data`): P a level / cap written below the measurement its own bracket names ("stays at 2.71 GB/s
  (between the 2.73 GB/s measured …)"); Q "peaks and falls" where the peak is one single-run point and the points
  after it a level (the fall one step); S a USL σ/κ caution on a flat line (±5 %); T "<model> fits … R² = 0.2"
  (below 0.7); U an IOPS "cap … measured" along block size that ≤ 4 I/Os in flight ÷ the latency explain (Little's
  law within 15 %) over < 16× the size (a throttle's latency flat over 64× is a cap); V an additive model's "IOPS
  ceiling at small blocks" ≥ 1.5× every measurement, no depth named; W model parameters read from a curve fio paced
  (rate_iops binding at ≥ 2 points); Y "one serial path" of a read/write mix; Z an Amdahl/USL limit "however far"
  the load grows where the I/Os in flight (IOPS × latency) stopped growing (≤ 1.25× over ≥ 4× the load, < half the
  outstanding). A fio pace (``paced``) is no saturation claim, and its unit is IOPS.
- missing — an expected fact no claim states. Counted for: a saturation state, an onset, a plateau in the unit
  that matters (y's unit; bytes/s too where block sizes are ≥ 64 KiB or mixed), each expected cap, a CPU-bound
  verdict of true, a layer (not ``"none"``), a mix verdict, a fall that happened. Not counted: a CPU-bound
  verdict of false and "does not fall" (those expectations only catch claims that say the opposite); an IOPS or
  byte cap on a series with one block size (one size cannot tell them apart).

Load axes are nvmemodel's own (``nvmemodel.fitting.axes.CONCURRENCY``: iodepth, numjobs, outstanding, drives,
targets, device_count …). Along any other axis (block size, read share, time) a saturation / onset / "from the first
point" expectation is neither missing nor graded (block size is no load); the expected plateau is the level there,
stated as a plateau, cap or limit in its unit. The totals' onset+plateau count covers series saturating along a load
axis; the totals also print the series with a contradicted or misleading claim as a fraction, and issue 28's bar
(no contradicted claim, at most 1 series in 10 misleading, onset + plateau for every such series): met / not met.

Each claim is read from ``claim["facts"]`` where the fact kinds of the contract are present; otherwise from its
text (numbers with units such as "32.3 K IOPS", "1.45 GB/s" or "0.268 GiB/s" are converted to SI, decimal and
binary prefixes each as named).
"""
from __future__ import annotations

import argparse
import copy
import dataclasses
import hashlib
import json
import math
import pathlib
import re
import sys
import traceback
import warnings

import numpy as np

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus"
REQUIRED_KEYS = ("id", "source", "kind", "fio_version", "fit", "author_cause", "reading", "expect")
EXPECT_KEYS = ("saturation", "onset_x", "plateau_iops", "plateau_bytes_per_s", "cap", "cpu_bound", "layer",
               "mix_below_harmonic", "falls")
SATURATION_STATES = ("from_first", "onset", "rising")
#: "memory": a target the files name as memory (an SPDK malloc bdev, a RAM disk, persistent-memory DIMMs), no drive
#: or link in the path (set after round 32 was read: UA)
LAYERS = ("page_cache", "loop", "dm", "md", "nbd", "rbd", "virtio", "network_fs", "beyond_device", "memory", "none")
# keys of case["fit"] that say how to load the points, not how to fit them
LOAD_KEYS = ("table", "raw", "select", "path_pattern", "path_regex", "labels")
GRADES = ("supported", "contradicted", "misleading")
BELOW_TOL = 0.02          # a stated ceiling more than 2 % below a measured point is contradicted
RANGE_SLACK = 0.01        # rounding of a number written in the text (4 significant digits)
NEAR_LAST = 0.05          # a limit within 5 % of the last point of a still-rising curve
RISING_STEP = 0.10        # the last step "still pays" when it adds ≥ 10 %
TRUST_R2, TRUST_MISS = 0.9, 0.25
BIG_BLOCK = 64 * 1024
#: the last round gathered; rounds 2 … LAST_ROUND have id prefixes ``r2_`` … (``ROUND_PREFIXES``)
LAST_ROUND = 32
ROUND_PREFIXES = tuple(f"r{n}_" for n in range(2, LAST_ROUND + 1))
#: a later round's id prefix → its split (each round gathered after the one before was scored and read)
ROUNDS = {p: f"blind{p[1:-1]}" for p in ROUND_PREFIXES}
#: the rounds not yet spent: --regrade refuses their saved reports (rounds 10 and 11, 12 and 13, 14 and 15, 16 and 17
#: were gathered in pairs and split by source; each is scored once). Rounds 2–32 are spent.
UNSPENT: tuple[str, ...] = ()
SPLITS = ("dev", "blind", *ROUNDS.values())


# ---------------------------------------------------------------------------------------------- the split
def split_of(case_id: str) -> str:
    """``"blindN"`` for a case of round N ≥ 2 (id starting ``rN_``, :data:`ROUNDS`); else ``"blind"`` when
    ``int(sha256(id).hexdigest(), 16) % 3 == 0``, else ``"dev"``.

    The first blind third was scored once and then read by hand, so it no longer tests anything; each later
    round's cases were gathered after the round before was scored and read, are all blind, and are scored once at
    the end of their round."""
    for prefix, split in ROUNDS.items():
        if case_id.startswith(prefix):
            return split
    return "blind" if int(hashlib.sha256(case_id.encode("utf-8")).hexdigest(), 16) % 3 == 0 else "dev"


def case_dirs(corpus: pathlib.Path = CORPUS) -> list[pathlib.Path]:
    return sorted(p.parent for p in corpus.glob("*/case.json"))


def load_case(case_dir: pathlib.Path) -> dict:
    with open(case_dir / "case.json", encoding="utf-8") as fh:
        return json.load(fh)


def iter_cases(split: str = "dev", corpus: pathlib.Path = CORPUS):
    """(folder, case) of every case in ``split`` (``dev``, ``blind``, ``blind2`` or ``all``), sorted by folder.
    ``all`` is every *spent* split: a round in :data:`UNSPENT` is scored only by naming it, once."""
    if split not in (*SPLITS, "all"):
        raise ValueError(f"split={split!r}: expected one of {', '.join(SPLITS)} or 'all'")
    for d in case_dirs(corpus):  # the split is told from the folder name (= the case's id): other cases stay unread
        if (split == "all" and split_of(d.name) not in UNSPENT) or split_of(d.name) == split:
            yield d, load_case(d)


# ------------------------------------------------------------------------------------------ loading, fitting
def load_table(case_dir: pathlib.Path, case: dict):
    """The case's results table: ``fit.table`` (a CSV/Parquet copy of a results table) when set, else the raw
    files of ``fit.raw`` read with the case's ``path_pattern`` / ``path_regex`` / ``labels``; then the rows
    ``fit.select`` keeps (``{column: value or [values]}``)."""
    import pandas as pd
    import nvmemodel as nm
    from nvmemodel.userfiles import read_table

    fit = case["fit"]
    if fit.get("table"):
        table = read_table(case_dir / fit["table"], what="table")
    elif fit.get("raw"):
        raw = fit["raw"] if isinstance(fit["raw"], list) else [fit["raw"]]
        labels = fit.get("labels")
        if isinstance(labels, str):
            labels = case_dir / labels
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a skipped file is in attrs["skipped"], checked below
            table = nm.read_results([case_dir / r for r in raw], path_pattern=fit.get("path_pattern"),
                                    path_regex=fit.get("path_regex"), labels=labels)
        if table.attrs.get("skipped"):
            s = table.attrs["skipped"][0]
            raise ValueError(f"{case['id']}: {len(table.attrs['skipped'])} raw file(s) not read ({s.path}: {s.reason})")
    else:
        raise ValueError(f"{case['id']}: case.json fit has neither 'table' nor 'raw'")
    for col, want in (fit.get("select") or {}).items():
        if col not in table.columns:
            raise ValueError(f"{case['id']}: fit.select names column {col!r}, not in the table")
        table = table[table[col].isin(want if isinstance(want, list) else [want])]
    if not isinstance(table, pd.DataFrame) or table.empty:
        raise ValueError(f"{case['id']}: no rows to fit")
    return table.reset_index(drop=True)


def fit_kwargs(case: dict) -> dict:
    kw = {k: v for k, v in case["fit"].items() if k not in LOAD_KEYS}
    if kw.get("by") is None:
        kw.pop("by", None)
    return kw


def fit_case(case_dir: pathlib.Path, case: dict):
    """``nm.fit`` of the case's table with its ``fit`` options, fitted once per process: a case fitted again (the
    same folder, id and ``fit`` section) is a deep copy of the first fit, a new object each call, so what one test
    does to its result, or to nvmemodel's caches kept per result (``claim.result_cache``: the verify pass's
    dropped sentences), never reaches another. A fit that raises is not kept (it raises each time), nor one whose
    ``fit`` section holds more than JSON (a test's own object)."""
    try:
        key = (str(pathlib.Path(case_dir).resolve()), case["id"], json.dumps(case["fit"], sort_keys=True))
    except TypeError:
        return _fit(case_dir, case)
    if key not in _FITS:
        _FITS[key] = _fit(case_dir, case)  # never handed out: only its copies are
    return copy.deepcopy(_FITS[key])


#: fit_case's first fits in this process (pytest-xdist: per worker), keyed on (folder, id, the fit section as JSON)
_FITS: dict[tuple[str, str, str], object] = {}


def _fit(case_dir: pathlib.Path, case: dict):
    import nvmemodel as nm

    table = load_table(case_dir, case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(table, **fit_kwargs(case))


def fit_case_id(case_id: str, split: str | None = None):
    """``fit_case`` of the case named ``case_id`` (for tests): skipped where it is not in the corpus; with ``split``,
    the case must be in that split."""
    import pytest

    d = CORPUS / case_id
    if not (d / "case.json").exists():
        pytest.skip(f"{case_id} not in the corpus")
    if split is not None:
        assert split_of(case_id) == split
    return fit_case(d, load_case(d))


# -------------------------------------------------------------------------------------- one curve's data
@dataclasses.dataclass
class CurveData:
    """What the grader needs of one measured curve (SI). ``iops`` / ``bytes_per_s``: the mean measured value at
    each ``x`` in that unit (None where the table cannot give it); ``y_unit``: the fitted y's unit."""
    x: np.ndarray
    y: np.ndarray
    y_unit: str
    iops: np.ndarray | None = None
    bytes_per_s: np.ndarray | None = None
    block_sizes: tuple = ()
    repeats: bool = False
    time_series: bool = False
    trust_r2: float | None = None
    trust_max_miss: float | None = None
    y_std: np.ndarray | None = None     # the sd of each point's runs (NaN or None: one run)
    n_runs: np.ndarray | None = None
    outstanding: np.ndarray | None = None   # I/Os in flight at each point (iodepth × numjobs)
    tools: tuple = ()                   # the tools that measured the runs (the table's ``tool``), lower case
    engines: tuple = ()                 # fio's ioengine of the runs
    x_name: str | None = None           # the x column (None: unknown, read as a load axis)
    lat_mean_s: np.ndarray | None = None    # fio's mean latency at each point
    model: str | None = None            # the model the fit kept for this curve
    paced_points: int = 0               # points at fio's rate_iops pace (≥ 95 % of rate_iops × jobs)
    mixed_rw: bool = False              # a read/write mix (0 < read_fraction < 1 at some point)
    cpu_busy: np.ndarray | None = None  # the job ≥ 90 % busy on a CPU at each point (fio's usr+sys per job)

    @property
    def load_axis(self) -> bool:
        """x is a load (concurrency) axis by nvmemodel's own list (``nvmemodel.fitting.axes.CONCURRENCY``): iodepth,
        numjobs, outstanding, drives/targets/device_count …; block size, read share and time are not loads."""
        if self.x_name is None:
            return True
        from nvmemodel.fitting.axes import axis_kind
        return axis_kind(self.x_name) == "concurrency"

    @property
    def along_size(self) -> bool:
        if self.x_name is None:
            return False
        from nvmemodel.fitting.axes import axis_kind
        return axis_kind(self.x_name) == "block size"

    @property
    def in_flight(self) -> np.ndarray | None:
        """IOPS × mean latency at each point (Little's law: the I/Os actually in flight)."""
        if self.iops is None or self.lat_mean_s is None:
            return None
        return np.asarray(self.iops, float) * np.asarray(self.lat_mean_s, float)

    @property
    def big_or_mixed_blocks(self) -> bool:
        bs = [b for b in self.block_sizes if b == b]
        return len(set(bs)) > 1 or (len(bs) == 1 and bs[0] >= BIG_BLOCK)

    def measured(self, unit: str) -> np.ndarray | None:
        return {"1/s": self.iops, "B/s": self.bytes_per_s}.get(unit)

    def byte_roof(self) -> np.ndarray | None:
        """The bandwidths a byte cap along block size must reach: a point whose job was ≥ 90 % busy on its CPU cannot
        define the byte roof, unless every point was (round 10's hand reading, JD: r10_icpe24sched_980pro…_bs)."""
        bw = self.bytes_per_s
        if bw is None or not self.along_size or self.cpu_busy is None or self.cpu_busy.all() \
                or len(self.cpu_busy) != len(bw):
            return bw
        return np.asarray(bw, float)[~self.cpu_busy]

    @property
    def still_rising(self) -> bool:
        """The last step added ≥ 10 % (a load axis)."""
        if len(self.y) < 2 or not self.y[-2] > 0:
            return False
        return self.y[-1] / self.y[-2] - 1 >= RISING_STEP


    @property
    def rises_to_the_end(self) -> bool:
        """The last point gains ≥ 10 % per doubling of x over each of the two points before it (a load axis): still
        rising, not a last step of scatter after a dip. With repeats at both points, the gain must also exceed twice
        the standard error of the two means' difference (the noise; set after blind3's r3_here_null_bs_repeats, whose
        runs scatter ±40 % along block size: +25 % on the last step within that noise is no rise)."""
        if len(self.y) < 3 or not np.all(self.x[-3:] > 0) or not np.all(self.y[-3:] > 0):
            return False
        return all((self.y[-1] / self.y[j]) ** (1 / math.log2(self.x[-1] / self.x[j])) - 1 >= RISING_STEP
                   and self._beyond_noise(j) for j in (-3, -2) if self.x[-1] > self.x[j])

    def _beyond_noise(self, j: int) -> bool:
        """The last mean exceeds point j's by more than twice the SE of their difference (True without repeats)."""
        if self.y_std is None or self.n_runs is None:
            return True
        s, n = np.asarray(self.y_std, float)[[j, -1]], np.asarray(self.n_runs, float)[[j, -1]]
        if not (np.all(np.isfinite(s)) and np.all(np.isfinite(n)) and np.all(n >= 2)):
            return True
        return self.y[-1] - self.y[j] > 2 * math.sqrt(float(np.sum(s ** 2 / n)))


def _curve_rows(frame, by: list, key: tuple):
    if not by:
        return frame
    mask = np.ones(len(frame), bool)
    for col, val in zip(by, key):
        if col in frame.columns:
            mask &= (frame[col].astype(str) == str(val)).to_numpy()
    return frame[mask]


def curve_data(result, key: tuple) -> CurveData:
    """The measured points of curve ``key`` of a FitResult, in IOPS and bytes/s where the block size is known."""
    by = list(result.by or [])
    pts = _curve_rows(result.points, by, key).sort_values(result.x)
    x = pts[result.x].to_numpy(float)
    y = pts["y"].to_numpy(float)
    tbl = _curve_rows(result.table, by, key)
    block_sizes = tuple(sorted(set(tbl["block_size_bytes"].dropna().astype(float)))) \
        if "block_size_bytes" in tbl.columns else ()
    if result.x == "block_size_bytes":
        bs = x
    elif len(block_sizes) == 1:
        bs = np.full(len(x), block_sizes[0])
    else:
        bs = None
    iops = bps = None
    if result.y_unit == "1/s":
        iops = y
        bps = y * bs if bs is not None else None
    elif result.y_unit == "B/s":
        bps = y
        iops = y / bs if bs is not None else None
    repeats = bool((pts["n_runs"] > 1).any()) if "n_runs" in pts.columns else False
    tools = tuple(sorted(set(tbl["tool"].dropna().astype(str).str.lower()))) if "tool" in tbl.columns else ()
    col = lambda c: pts[c].to_numpy(float) if c in pts.columns else None  # noqa: E731
    engines = tuple(sorted(set(tbl["ioengine"].dropna().astype(str)))) if "ioengine" in tbl.columns else ()
    paced = 0
    if "rate_iops" in tbl.columns and iops is not None and pd_notnull_any(tbl["rate_iops"]):
        jobs = tbl["numjobs"] if "numjobs" in tbl.columns else 1
        pace = (tbl["rate_iops"].astype(float) * jobs).groupby(tbl[result.x].astype(float)).max()
        for xv, yv in zip(x, iops):
            p = float(pace.get(xv, float("nan")))
            paced += bool(p > 0 and yv >= 0.95 * p)
    busy = None
    if {"cpu_usr", "cpu_sys"} <= set(tbl.columns):
        jobs = 1.0  # a job's row is one thread; a group's row sums its jobs (fio's group_reporting)
        if "numjobs" in tbl.columns and "is_aggregate" in tbl.columns:
            jobs = tbl["numjobs"].astype(float).where(tbl["is_aggregate"].astype(str).str.lower() == "true", 1.0)
        per_job = (tbl["cpu_usr"].astype(float) + tbl["cpu_sys"].astype(float)) / jobs
        med = per_job.groupby(tbl[result.x].astype(float)).median()
        busy = np.array([0.9 <= float(med.get(xv, float("nan"))) <= 1.05 for xv in x])
    mixed = False
    if "read_fraction" in tbl.columns:
        rf = tbl["read_fraction"].dropna().astype(float)
        mixed = bool(((rf > 0.001) & (rf < 0.999)).any())
    r2 = miss = None
    model = None
    try:
        model = name = result.chosen.get(key)
        if name:
            cmp = result.compare()
            if "group" in cmp.columns and by:
                cmp = cmp[cmp["group"].astype(str) == str(key if len(key) != 1 else key[0])]
            row = cmp[cmp["model"] == name]
            if len(row):
                r2 = float(row["r2"].iloc[0])
            pred = result.predict(x, group=key if key else None, model=name)["y"].to_numpy(float)
            with np.errstate(divide="ignore", invalid="ignore"):
                miss = float(np.nanmax(np.abs(pred / y - 1))) if len(y) else None
    except Exception:  # the model cannot predict here: no trust figures (claims' own facts still count)
        pass
    return CurveData(x=x, y=y, y_unit=result.y_unit, iops=iops, bytes_per_s=bps, block_sizes=block_sizes,
                     repeats=repeats, time_series=result.x in ("time_s", "timestamp"), trust_r2=r2,
                     trust_max_miss=miss, tools=tools, engines=engines, y_std=col("y_std"), n_runs=col("n_runs"),
                     outstanding=col("outstanding"), x_name=result.x, lat_mean_s=col("lat_mean_s"), model=model,
                     paced_points=paced, mixed_rw=mixed, cpu_busy=busy)


def pd_notnull_any(series) -> bool:
    s = series.dropna()
    try:
        return bool((s.astype(float) > 0).any())
    except (TypeError, ValueError):
        return False


# ------------------------------------------------------------------------------------------ reading text
_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_BIN = {"k": 2 ** 10, "K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30, "T": 2 ** 40, "P": 2 ** 50}
_QTY = re.compile(r"(?<![\w.])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*"
                  r"(?:(?P<pre>[kKMGTP])(?P<bin>i)?\s*)?(?P<unit>IOPS|iops|B/s)(?![\w])")
_BARE = re.compile(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?P<pre>[kKMGT])\b(?!\s*(?:i?B\b|iB/s|B/s|IOPS|iops))")


def quantities(text: str) -> list[tuple[float, str, int]]:
    """(value in SI, unit ``1/s`` or ``B/s``, position) of every rate written in ``text``."""
    out = []
    for m in _QTY.finditer(text):
        num = float(m["num"].replace(",", ""))
        pre = m["pre"] or ""
        factor = _BIN[pre] if m["bin"] else _PREFIX[pre]
        out.append((num * factor, "B/s" if m["unit"] == "B/s" else "1/s", m.start()))
    return out


_LIMIT = re.compile(r"\b(ceiling|cap|limit|tends to|at most|bound)\b", re.I)
_PLATEAU = re.compile(r"\b(plateau|flattens at|saturates at|levels? off at|level at|flat at|over all \d+ runs:"
                      r"|does not change with \w+[^:]*:)", re.I)
_NEGATED = re.compile(r"\b(no|not|never|nor|cannot|without)\b[^.;]{0,25}$", re.I)


def _first_after(text: str, pos: int, hint_unit: str | None, window: int = 70):
    """The first rate written after ``pos`` in the same clause (up to ';', '. ' or ``window`` characters); a bare
    number with a prefix (\"32.3 K\") takes ``hint_unit`` (the unit the phrase names)."""
    seg = text[pos:pos + window]
    stop = re.search(r";|\.\s|\.$|\)", seg)
    seg = seg[:stop.start()] if stop else seg
    q = quantities(seg)
    if q:
        return q[0][0], q[0][1]
    if hint_unit:
        m = _BARE.search(seg)
        if m:
            return float(m["num"]) * _PREFIX[m["pre"]], hint_unit
    return None


def _hint(text: str, pos: int) -> str | None:
    before = text[max(0, pos - 20):pos].lower()
    if "iops" in before:
        return "1/s"
    if "bandwidth" in before or "byte" in before:
        return "B/s"
    return None


def stated_limits(text: str) -> list[tuple[float, str, str]]:
    """(value, unit, word) of every ceiling / cap / limit the text states with a number."""
    out = []
    for m in _LIMIT.finditer(text):
        if _NEGATED.search(text[max(0, m.start() - 40):m.start()]):
            continue
        got = _first_after(text, m.end(), _hint(text, m.start()))
        if got:
            out.append((got[0], got[1], m[1].lower()))
    return out


def stated_plateaus(text: str) -> list[tuple[float, str]]:
    out = []
    for m in _PLATEAU.finditer(text):
        if _NEGATED.search(text[max(0, m.start() - 40):m.start()]):
            continue
        got = _first_after(text, m.end(), _hint(text, m.start()))
        if got:
            out.append(got)
    return out


_RISING = re.compile(r"still ris|keeps? ris|does not reach a ceiling|no ceiling is reached|not (yet )?saturat"
                     r"|still climb|still pays|has not (yet )?flattened", re.I)
_SATURATED = re.compile(r"saturat|flattens|plateau|levels? off|\blevel (from|at|over)|no effect|is flat|flat at"
                        r"|flat from", re.I)
_LEVEL_KINDS = ("flat", "constant", "no load", "level")  # "paced": fio's pace, no saturation (rounds 2 and 4)
_X_EQ = re.compile(r"\b[a-z_]+ = (\d+(?:\.\d+)?)(?:\s*([KMGT])iB\b)?")
_BINARY = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def _x_values(clause: str) -> list:
    """The x values a clause names ("numjobs = 4", "block_size_bytes = 4 KiB" is 4096: a size as the explanation
    writes it; read as 4 until blind3's r3_zman350x_sn740_randread_qd8_bs, whose CPU-bound point it then missed)."""
    return [float(v) * _BINARY[u or ""] for v, u in _X_EQ.findall(clause)]
_FALLS = re.compile(r"peaks? and falls?|\bfalls? (by )?[−-]?\d|\bretrograde|\bdeclines?\b", re.I)
# a fall in words the missing check accepts (round 4's reader: "IOPS fall from 2.00 K … to 969 IOPS at 1 MiB", "at 1 MiB
# the runs stayed below it (67.4%)"); not read as a "falls" verdict (IOPS fall along block size by nature)
_FALL_SAID = re.compile(r"\bfalls? from\b(?:[^.;]|\.(?=\d)){1,80}?\bto\b|\bstayed below (?:it|that rate|the pace)\b", re.I)
_CPU_NONCLAIM = re.compile(r"no cpu[- ]saturation claim", re.I)
_CPU_FALSE = re.compile(r"did not limit the rate|not cpu[- ]bound|cpu (was|is) not the limit", re.I)
_CPU_TRUE = re.compile(r"cpu[- ]bound|cpu[- ]saturat|limited by (the |one )?cpu", re.I)
_STATE = re.compile(r"not in the same state|warm-?up, caching|background work", re.I)
_CONTENTION = re.compile(r"contention|coherency|serial fraction|\bσ\s*=|\bκ\s*=|sigma\s*=|kappa\s*=", re.I)
_MODEL_WORDS = re.compile(r"contention|coherency|serial fraction|\bσ\s*=|\bκ\s*=|tends to|ceiling of|knee at"
                          r"|\br0\s*=|\bR₀\s*=", re.I)
_REFUSAL = re.compile(r"not (be )?read as|does not describe|is not interpreted|are not interpreted"
                      r"|no parameter[^.]*interpreted|not interpreted|describes? its points worse", re.I)
_EXTRAP = re.compile(r"extrapolat|estimate", re.I)
_WEAK_ONSET = re.compile(r"(?:flattens|levels? off) at [^()]{1,40}\([^()]*?\bat [a-z_]+ = (?P<x>\d+(?:\.\d+)?)\s*[–-]",
                         re.I)
_ONSET_X = re.compile(r"saturat\w* (?:from|at) [\w_]+ = (?P<x>\d+(?:\.\d+)?)", re.I)


# ------------------------------------------------------------------------------------- what a claim states
@dataclasses.dataclass
class Stated:
    """What one claim states, in SI (from its facts, else from its text)."""
    state: str | None = None            # saturated / rising
    falls: bool = False                 # says the curve falls after a maximum
    fall_said: bool = False             # states a fall in other words ("IOPS fall from … to …", "stayed below it")
    fact_state: str | None = None       # the fact's own state word (from_first for a level or paced series)
    cpu_at: list = dataclasses.field(default_factory=list)        # x values a CPU-bound verdict names
    onset_x: float | None = None
    plateaus: list = dataclasses.field(default_factory=list)      # (value, unit)
    limits: list = dataclasses.field(default_factory=list)        # (value, unit, word)
    cap_iops: float | None = None
    cap_bytes: float | None = None
    cpu_bound: bool | None = None
    layer: str | None = None
    mix_below: bool | None = None
    interpreted: bool | None = None
    model_r2: float | None = None
    model_miss: float | None = None
    device_state: bool = False
    contention: bool = False
    extrapolation: bool = False
    limit_source: str | None = None


def _num(v):
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def read_claim(claim: dict) -> Stated:
    kind = claim.get("kind", "")
    text = claim.get("text", "") or ""
    f = claim.get("facts") or {}
    s = Stated()
    s.device_state = bool(_STATE.search(text))
    s.fall_said = bool(_FALL_SAID.search(text))
    s.contention = bool(_CONTENTION.search(text))
    s.extrapolation = bool(_EXTRAP.search(text))
    has = lambda *keys: any(k in f for k in keys)  # noqa: E731

    if has("state"):                                   # saturation fact
        st = f["state"]
        s.fact_state = st
        s.state = {"from_first": "saturated", "onset": "saturated", "near": "saturated", "no_queue": "saturated",
                   "rising": "rising", "falls": "saturated"}.get(st)
        s.falls = st == "falls" or bool(f.get("falls")) or bool(_FALLS.search(text))
        s.onset_x = _num(f.get("onset_x"))
        unit = f.get("unit")
        if _num(f.get("plateau")) is not None and unit in ("1/s", "B/s"):
            s.plateaus.append((_num(f["plateau"]), unit))
        if _num(f.get("plateau_iops")) is not None:
            s.plateaus.append((_num(f["plateau_iops"]), "1/s"))
        if _num(f.get("plateau_bytes_per_s")) is not None:
            s.plateaus.append((_num(f["plateau_bytes_per_s"]), "B/s"))
    elif kind not in ("cpu", "little", "layer", "mix", "outstanding", "fit", "selection", "cap"):
        s.falls = bool(_FALLS.search(text))
        if _RISING.search(text):
            s.state = "rising"
        elif kind in _LEVEL_KINDS or (kind in ("saturation", "plateau", "falls") and _SATURATED.search(text)):
            s.state = "saturated"
        if s.state == "saturated":
            m = _ONSET_X.search(text)
            s.onset_x = float(m["x"]) if m else None
            if kind in _LEVEL_KINDS or re.search(r"from the first point", text, re.I):
                s.fact_state = "from_first"
            s.plateaus.extend(stated_plateaus(text))
            if not s.plateaus and kind in _LEVEL_KINDS:  # "flat: 4.89 K IOPS–5.00 K IOPS": the middle of the range
                q = quantities(text)
                for unit in ("1/s", "B/s"):
                    vals = [v for v, u, _p in q if u == unit]
                    if vals:
                        s.plateaus.append((float(np.median(vals)), unit))
    if kind == "falls":
        s.falls = True
    if s.state == "saturated" and s.onset_x is None:  # the weak form round 4's reader accepted: "flattens at 9.98 K
        m = _WEAK_ONSET.search(text)                   # IOPS (sd 9 IOPS over 6 runs at numjobs = 4–8)": onset 4
        s.onset_x = float(m["x"]) if m else None

    if has("iops_cap", "bytes_cap"):                   # cap fact
        s.cap_iops = _num(f.get("iops_cap"))
        s.cap_bytes = _num(f.get("bytes_cap"))
        s.limit_source = "measured" if f.get("measured") else "model"
        for v, u in ((s.cap_iops, "1/s"), (s.cap_bytes, "B/s")):
            if v is not None:
                s.limits.append((v, u, "cap"))
    if has("value") and kind == "ceiling":             # ceiling fact
        v, u = _num(f.get("value")), f.get("unit")
        if v is not None and u in ("1/s", "B/s"):
            s.limits.append((v, u, "ceiling"))
        s.limit_source = f.get("source")
    if not s.limits and kind not in ("outstanding", "cpu", "little", "layer", "mix", "fit", "selection"):
        s.limits.extend(stated_limits(text))  # a limit written in the text of a claim whose facts carry no number
        if kind == "cap":
            for v, u, _w in s.limits:
                if u == "1/s" and s.cap_iops is None:
                    s.cap_iops = v
                if u == "B/s" and s.cap_bytes is None:
                    s.cap_bytes = v

    if has("cpu_bound"):
        s.cpu_bound = bool(f["cpu_bound"])
        if _num(f.get("at_x")) is not None:
            s.cpu_at = [_num(f["at_x"])]
    elif kind == "cpu" or (not f and kind not in ("little", "selection", "fit", "layer", "mix")):
        if _CPU_NONCLAIM.search(text):
            s.cpu_bound = None
        elif _CPU_FALSE.search(text):
            s.cpu_bound = False
        elif _CPU_TRUE.search(text):
            s.cpu_bound = True
            s.cpu_at = [float(x) for clause in re.split(r";|\.\s", text) if _CPU_TRUE.search(clause)
                        for x in _x_values(clause)]

    if has("layer"):
        s.layer = f["layer"]
    elif kind == "layer":
        low = text.lower()
        s.layer = ("memory" if "the target is memory" in low else  # a memory target the files name (round 32, UA)
                   "loop" if "loop device" in low else "page_cache" if "page cache" in low else
                   "md" if "md raid" in low or "software raid" in low else None)

    if has("below_harmonic"):
        s.mix_below = None if f["below_harmonic"] is None else bool(f["below_harmonic"])
    elif kind == "mix" or "harmonic" in text.lower():
        if re.search(r"not below the harmonic|above the harmonic|at or above", text, re.I):
            s.mix_below = False
        elif re.search(r"below the harmonic", text, re.I):
            s.mix_below = True

    if has("interpreted"):
        s.interpreted = bool(f["interpreted"])
        s.model_r2, s.model_miss = _num(f.get("r2")), _num(f.get("max_miss"))
    elif not f and _MODEL_WORDS.search(text) and not _REFUSAL.search(text):
        s.interpreted = True
    return s


# ------------------------------------------------------------------------------------------------ grading
@dataclasses.dataclass
class GradedClaim:
    curve: str
    kind: str
    text: str
    grade: str
    reasons: list


def _in(v: float, rng, slack: float = RANGE_SLACK) -> bool:
    lo, hi = rng
    return lo * (1 - slack) <= v <= hi * (1 + slack)


def _fmt(v: float, unit: str) -> str:
    if unit == "1/s":
        return f"{v:,.4g} IOPS"
    if unit == "B/s":
        return f"{v / 1e9:.4g} GB/s" if v >= 1e8 else f"{v / 1e6:.4g} MB/s"
    return f"{v:.4g} {unit}"


def grade_claim(claim: dict, data: CurveData | None, expect: dict) -> tuple[str, list, Stated]:
    """(grade, reasons, what it states) of one claim against its curve's data and the case's expectations."""
    s = read_claim(claim)
    bad, mis = [], []
    exp_sat = expect.get("saturation")
    cap = expect.get("cap") or {}

    # a stated ceiling below a measured point
    for v, u, word in s.limits:
        meas = (data.byte_roof() if u == "B/s" and word == "cap" else data.measured(u)) if data is not None else None
        if meas is not None and len(meas) and np.nanmax(meas) > 0 and v < np.nanmax(meas) * (1 - BELOW_TOL):
            bad.append(f"states a {word} of {_fmt(v, u)} below the measured {_fmt(float(np.nanmax(meas)), u)}")
    # caps against the expected caps
    for v, rng, name in ((s.cap_iops, cap.get("iops"), "IOPS cap"), (s.cap_bytes, cap.get("bytes_per_s"), "byte cap")):
        if v is not None and rng is not None and not _in(v, rng):
            u = "1/s" if name == "IOPS cap" else "B/s"
            bad.append(f"{name} {_fmt(v, u)} outside the expected {_fmt(rng[0], u)}–{_fmt(rng[1], u)}")
    # a ceiling stated above a cap the case reads by more than the band a cap is read within (10 %): the smooth
    # per-I/O + per-byte form overshoots hard caps (issue 28: "a bandwidth ceiling 1.45 GB/s" over a 1.11 GB/s cap)
    over_cap = []
    for v, u, word in s.limits:
        rng = cap.get("iops" if u == "1/s" else "bytes_per_s")
        if word in ("ceiling", "limit", "tends to") and claim.get("kind") != "cap" and rng is not None \
                and v > rng[1] * 1.10:
            over_cap.append(f"states a {word} of {_fmt(v, u)} above the cap the data show ({_fmt(rng[0], u)}–"
                            f"{_fmt(rng[1], u)})")
    load = data is None or data.load_axis
    # saturation state (along block size, read share or time — no load — a saturation / onset expectation is not
    # graded: the level there is a cap or a level, graded by its value)
    if s.state == "rising" and exp_sat in ("from_first", "onset") and load:
        bad.append(f"says the curve still rises; the case reads saturation ({exp_sat})")
    if s.state == "saturated" and exp_sat == "rising":
        bad.append(f"says the curve saturates ({s.fact_state or 'text'}); the case reads it still rising")
    if s.falls and expect.get("falls") is False:
        bad.append("says the curve falls; the case reads no fall")
    if s.state == "saturated" and s.onset_x is None and s.fact_state == "from_first" and data is not None \
            and len(data.x) and load:
        s.onset_x = float(data.x[0])  # saturated (or level) from the first point: its onset is the first load
    if s.state == "saturated" and s.onset_x is not None and load:
        if exp_sat == "from_first" and data is not None and len(data.x) > 1 and s.onset_x > data.x[1]:
            bad.append(f"onset at {s.onset_x:g}; the case reads saturation from the first point ({data.x[0]:g})")
        rng = expect.get("onset_x")
        if rng is not None and not (rng[0] <= s.onset_x <= rng[1]):
            bad.append(f"onset at {s.onset_x:g} outside the expected {rng[0]:g}–{rng[1]:g}")
    if s.state == "saturated":
        for v, u in s.plateaus:
            rng = expect.get("plateau_iops" if u == "1/s" else "plateau_bytes_per_s")
            if rng is not None and not _in(v, rng):
                bad.append(f"plateau {_fmt(v, u)} outside the expected {_fmt(rng[0], u)}–{_fmt(rng[1], u)}")
    cpu_points = expect.get("cpu_bound_points") or []
    if s.cpu_bound and expect.get("cpu_bound") is False and s.cpu_at and all(x in cpu_points for x in s.cpu_at):
        pass  # CPU-bound at a point the case lists as CPU-bound (not the plateau the expectation is about)
    elif s.cpu_bound is not None and expect.get("cpu_bound") is not None and s.cpu_bound != expect["cpu_bound"]:
        bad.append(f"CPU-bound {s.cpu_bound}; the case reads {expect['cpu_bound']}")
    if s.layer is not None and expect.get("layer") is not None and s.layer != expect["layer"] \
            and not (s.layer == "beyond_device" and expect["layer"] != "none"):
        bad.append(f"names the layer {s.layer!r}; the case reads {expect['layer']!r}"
                   + (" (no storage was touched)" if expect["layer"] == "none" else ""))
    if s.mix_below is not None and expect.get("mix_below_harmonic") is not None \
            and s.mix_below != expect["mix_below_harmonic"]:
        bad.append(f"mixes below the harmonic mix: {s.mix_below}; the case reads {expect['mix_below_harmonic']}")

    # misleading
    if s.interpreted:
        r2 = s.model_r2 if s.model_r2 is not None else (data.trust_r2 if data is not None else None)
        miss = s.model_miss if s.model_miss is not None else (data.trust_max_miss if data is not None else None)
        if (r2 is not None and r2 < TRUST_R2) or (miss is not None and miss > TRUST_MISS):
            mis.append(f"interprets a model that does not describe the points (R² = {r2 if r2 is None else round(r2, 3)},"
                       f" misses a point by {'?' if miss is None else f'{miss:.0%}'})")
    if s.state == "saturated" and s.plateaus and data is not None and data.big_or_mixed_blocks \
            and all(u == "1/s" for _v, u in s.plateaus) and "B/s" not in claim.get("text", "") \
            and claim.get("kind") != "paced":  # fio's rate_iops is a pace in IOPS: IOPS is its unit (round 4)
        mis.append("states a plateau only in IOPS where block sizes are ≥ 64 KiB or mixed")
    if s.device_state and not (data is not None and (data.repeats or data.time_series)):
        mis.append("names a device-state cause (warm-up, caching …) without repeats or a time series")
    if s.contention and (exp_sat == "from_first" or any(v is not None for v in cap.values())):
        mis.append("a contention/coherency reading of a hard cap or a series saturated from its first point")
    if data is not None and data.still_rising and s.extrapolation and s.limits:
        last = data.y[-1]
        for v, u, word in s.limits:
            if u == data.y_unit and last > 0 and abs(v / last - 1) <= NEAR_LAST:
                mis.append(f"a {word} of {_fmt(v, u)} within 5 % of the last point of a still-rising curve, "
                           "given as an estimate / extrapolation")
                break
    mis.extend(over_cap)
    if expect.get("layer") == "page_cache" and _DEVICE_LIMIT.search(claim.get("text", "")):
        mis.append("a limit of 'the device' where the page cache served the I/O (memory, not a device)")
    mis.extend(misread(claim, data))
    bad.extend(false_of_data(claim, data))
    grade = "contradicted" if bad else "misleading" if mis else "supported"
    return grade, bad + mis, s


# ------------------------------------------------------------------------- misleading: what a reader misreads
_FIO_NAMED = re.compile(r"\bfio(?:'s| measured| ran| kept)\b", re.I)
# a range whose two ends read the same ("1.00–1.00", "2.98 GB/s (2.78 GiB/s) to 2.98 GB/s", "x = 1–1", "-11% … -11%")
_END = r"[-+−]?\d[\d,]*(?:\.\d+)?(?:\s*(?:%|[kKMGT]?\s*IOPS|[kKMGTP]?i?B/s|[KMG]iB|µs|ms|s\b))?"
_DEGENERATE = re.compile(rf"(?<![\w.])(?P<a>{_END})(?:\s*\([^()]*\))?\s*(?:–|…| to )\s*(?P=a)(?![\d.,]*\d)")


def misread(claim: dict, data: CurveData | None) -> list[str]:
    """The misleading reasons that need no expectation: the words themselves make a reader believe something the
    data do not say (each rule the same for any series; tests/fitting/test_explain_corpus.py holds each on a
    hand-made claim)."""
    text = claim.get("text", "") or ""
    out = []
    # a record attributed to fio where another tool measured the runs (elbencho's latency is not "fio's")
    if data is not None and data.tools and "fio" not in data.tools and _FIO_NAMED.search(text):
        out.append(f"attributes a record to fio; the runs were measured by {', '.join(data.tools)}")
    m = _DEGENERATE.search(text)
    if m:
        out.append(f"a range whose two ends are the same ({m[0]!r}): one value written as a spread")
    # a level (of a model or the data) said of a curve that still rises at its last point
    if data is not None and data.rises_to_the_end and claim.get("kind") in ("model", "plateau", "flat", "cpu") \
            and _LEVEL_WORDS.search(text) and not _RISING.search(text):
        out.append("describes a level where the curve still rises at its last point (+10 % or more)")
    # a host's CPU count offered from a level that is no whole number of CPUs ("about 1 CPUs" for 1.46)
    f = claim.get("facts") or {}
    for m in _ABOUT_CPUS.finditer(text):
        n = float(m[1])
        lv = _num(f.get("level_cpus"))
        if lv is None:
            got = re.search(r"level (\d+(?:\.\d+)?) CPUs", text)
            lv = float(got[1]) if got else None
        if lv is not None and n > 0 and abs(lv - n) > 0.1 * n:
            out.append(f"offers a host of about {n:g} CPUs for a level of {lv:.3g} CPUs (not within 10 % of it)")
    # a share rounded to nothing ("0.0031 CPUs …, 0% of one CPU per job")
    if re.search(r"(?<![\d.,])0 ?% of\b(?! the variance)", text):  # "explains 0% of the variance (R² = 0.0000)": exact
        out.append("a share written as 0 % (rounded to nothing: give its first digits)")
    # a fall said where the data do not fall beyond their noise
    got = _FALL_PCT.search(text)
    if got and data is not None and len(data.y) >= 2 and not _NEGATED.search(text[max(0, got.start() - 40):got.start()]):
        within = fall_within_noise(data)
        if within:
            out.append(f"states a fall ({got[0]!r}) within the data's noise: {within}")
    # a cause of a change named as fact, with no repeats or time series to show it and no hedge
    m = _CAUSE.search(text)
    if m and not (data is not None and (data.repeats or data.time_series)):
        sentence = re.split(r"(?<=[.;])\s", text[:m.end()])[-1] + text[m.end():].split(".")[0]
        if not _HEDGE.search(sentence):
            out.append(f"names a cause ({m[0]!r}) as fact without repeats or a time series to show it")
    # an IOPS ceiling along block size with no word on the outstanding I/O it was measured at
    if data is not None and data.block_sizes and len(set(data.block_sizes)) > 1 and claim.get("kind") in ("model", "ceiling") \
            and data.outstanding is not None and np.isfinite(data.outstanding).any() \
            and np.nanmin(data.outstanding) <= SMALL_OUTSTANDING \
            and re.search(r"IOPS ceiling", text) and not re.search(r"outstanding|queue|depth|CPU|not read|not a ceiling"
                                                                   r"|below what was measured|per-I/O term", text):
        out.append(f"an IOPS ceiling along block size measured at {np.nanmin(data.outstanding):g} I/O(s) outstanding, "
                   "not said (the small-block rate is what that much outstanding I/O allows)")
    # a read/write-mix verdict from runs at different loads (the harmonic mix compares each direction at one load)
    if data is not None and claim.get("kind") == "mix" and data.outstanding is not None \
            and np.isfinite(data.outstanding).all() and data.outstanding.min() > 0 \
            and data.outstanding.max() / data.outstanding.min() > 1.10 \
            and re.search(r"(below|above) the harmonic|below it|above it|interfere", text) \
            and not re.search(r"different loads", text):
        out.append(f"a read/write-mix verdict from runs at different loads ({data.outstanding.min():g}–"
                   f"{data.outstanding.max():g} I/Os outstanding)")
    # deeper-queue advice for a synchronous engine (one I/O in flight per job whatever iodepth says)
    dq = re.search(r"deeper queue", text, re.I)
    # ("more jobs, not a deeper queue, would tell" advises jobs; "no deeper queue", "rather than a deeper queue" in
    # the clause before it likewise: round 31 TF)
    if data is not None and data.engines and set(data.engines) <= _SYNC and dq \
            and not _QUEUE_NEGATED.search(re.split(r"[,;:.()\u2014]", text[:dq.start()])[-1]):
        out.append(f"advises a deeper queue; {', '.join(data.engines)} is synchronous (one I/O in flight per job)")
    out.extend(misled_by_data(claim, data))
    out.extend(misled_along_load(claim, data))
    for lo, unit, clause in limit_intervals(text):
        meas = data.measured(unit) if data is not None else None
        if meas is not None and len(meas) and np.nanmax(meas) > 0 and lo < np.nanmax(meas) * (1 - BELOW_TOL):
            out.append(f"a limit's interval reaches {_fmt(lo, unit)}, below the measured "
                       f"{_fmt(float(np.nanmax(meas)), unit)} (a ceiling's interval starts at what was measured)")
        elif data is not None and data.still_rising and unit == data.y_unit:
            out.append("an interval for a limit of a curve still rising at its last point (the data do not reach it: "
                       "its value is the model's shape beyond them)")
    return out


# ------------------------------------------- rounds 3 and 4's hand readings (classes P, Q, S, T, U, V, W, X, Y, Z)
_ONE_RUN = re.compile(r"\bone run a point\b|\bno repeats give\b", re.I)
_BRACKET = re.compile(r"\b(?P<word>stays at|cap of|ceiling of|limit of|level of)\s+(?P<x>(?:[^()]|\([^()]*\)){1,80}?)"
                      r"\s*\(between the (?P<m>(?:[^()]|\([^()]*\)){1,60}?) measured\b", re.I)
_PEAK_FALL = re.compile(r"\bpeaks?\b(?:[^.;]|\.(?=\d)){0,120}\bfalls?\b", re.I)
_SIGMA = re.compile(r"\b(sigma|kappa)\b|σ|κ", re.I)
_FITS_R2 = re.compile(r"\b(?P<model>[\w']+) fits (?:\d+ points )?with R² = (?P<r2>[-−]?\d+(?:\.\d+)?)")
_IOPS_CAP_MEASURED = re.compile(r"an IOPS cap of (?P<v>[^,;()]{1,30}?) (?:or a little above, )?measured", re.I)
_IN_FLIGHT_WORDS = re.compile(r"outstanding|in flight|queue depth|iodepth|a deeper queue", re.I)
_DEPTH_NAMED = re.compile(r"\bI/Os? outstanding\b|\bin flight\b", re.I)  # "(at 8 I/Os outstanding: …)"
_SMALL_BLOCK_CEILING = re.compile(r"\bIOPS ceiling of (?P<v>[^()]{1,30}?) (?:IOPS )?at small blocks", re.I)
_HOWEVER_FAR = re.compile(r"however far", re.I)
_SCALING_LAW = re.compile(r"amdahl|\busl\b|universal scalability|serial fraction|contention|σ|sigma", re.I)
_SERIAL_PATH = re.compile(r"one serial path", re.I)
PACE_BINDS = 2            # points at fio's pace before a model read from the curve is a model of the pace
SIZE_SPAN_CAP = 16        # an IOPS level flat over ≥ 16× the block size at ≤ 4 in flight is a per-I/O cap (r4 #2)
LITTLE_MATCH = 0.15       # outstanding ÷ latency within 15 % of the measured IOPS: Little's law explains the level
FLAT_BAND = 0.05          # a "flat cap": every point within ±5 % of the median
FITS_R2 = 0.7             # "<model> fits … R² = 0.2": below this "fits" is plain-English wrong (rounds 3 and 4: T)


def _rate(text: str, hint: str) -> float | None:
    """The first rate written in ``text`` (a bare "32.3 K" read in ``hint``'s unit)."""
    q = quantities(text)
    if q:
        return q[0][0]
    m = _BARE.search(text)
    return float(m["num"]) * _PREFIX[m["pre"]] if m and hint == "1/s" else None


_LINEAR_SAID = re.compile(r"scales linearly|\bScaling is linear\b|\bis linear (?:over|throughout)", re.I)
_SHARED_BINDS = re.compile(r"a limit the \w+ share binds", re.I)
#: a "deeper queue" negated in its own clause ("not a deeper queue", "no deeper queue", "rather than a deeper queue") is
#: no advice to deepen it (set after round 31 was read: TF, tmpfsbs "more jobs, not a deeper queue, would tell")
_QUEUE_NEGATED = re.compile(r"\b(?:not|no|rather than)\b", re.I)
#: a last step "in proportion" at a total below this share of the curve's maximum is a step at a collapsed level, no
#: evidence against a limit the devices share (set after round 31 was read: SA, spdk #3097, +22 %/+31 % one-run steps
#: at 38–45 % of the peak graded "the total grew in proportion")
COLLAPSED = 0.5
LINEAR_BAND = 0.15        # "linear": every count's rate per device (per unit of load) within ±15 % of the first's
FULL_YIELD = 0.90         # a step whose added devices each gave ≥ 90 % of the rate a device gave before it scaled


def _per_unit(data: CurveData) -> np.ndarray | None:
    """Each point's rate per unit of x on a load axis (per device, per job, per I/O outstanding), None where x is not
    a load or a point is not positive."""
    if data is None or not data.load_axis or len(data.x) < 3 or not np.all(data.x > 0) or not np.all(data.y > 0):
        return None
    return np.asarray(data.y, float) / np.asarray(data.x, float)


def misled_along_load(claim: dict, data: CurveData | None) -> list[str]:
    """Scaling words a reader takes as "y ∝ x" where the points' rate per unit of load says otherwise (round 29's
    hand reading NF: "scales linearly" of 117–128 % of linear; the same words of a model or a device axis)."""
    text = claim.get("text", "") or ""
    per = _per_unit(data)
    if per is None or not _LINEAR_SAID.search(text) or _NEGATED.search(text[:_LINEAR_SAID.search(text).start()][-40:]):
        return []
    ratio = per / per[0]
    if np.all(np.abs(ratio - 1) <= LINEAR_BAND):
        return []
    return [f"says the scaling is linear; the rate per {data.x_name or 'unit of x'} runs {ratio.min():.0%}–"
            f"{ratio.max():.0%} of the first point's (linear is one rate per unit, within ±{LINEAR_BAND:.0%})"]


def false_of_data(claim: dict, data: CurveData | None) -> list[str]:
    """Contradicted by the curve's own points whatever the case expects (round 4's X; round 29's NA)."""
    text = claim.get("text", "") or ""
    out = []
    # JF (round 28): "still rises" where the last measured doubling of the load gained < 10 % while the latency grew
    # with it (or < 5 % where no latency is known): a short last step stretched to a doubling is not the data's own
    m = _RISING.search(text)
    if m and data is not None and data.load_axis and len(data.x) >= 3 and np.all(data.x > 0) \
            and not _NEGATED.search(text[max(0, m.start() - 40):m.start()]):
        half = np.flatnonzero(np.isclose(data.x, data.x[-1] / 2, rtol=0.01))
        if half.size and data.y[half[0]] > 0:
            j = int(half[0])
            gain = data.y[-1] / data.y[j] - 1
            lat = None if data.lat_mean_s is None else np.asarray(data.lat_mean_s, float)
            grew = lat is not None and np.isfinite(lat[[j, -1]]).all() and lat[j] > 0 and lat[-1] / lat[j] >= 1.5
            if gain < RISING_STEP and (grew or gain < RISING_STEP / 2):
                out.append(f"says the curve still rises; its last doubling ({data.x[j]:g} → {data.x[-1]:g}) gained "
                           f"{gain:+.0%}" + (f" while the latency grew ×{lat[-1] / lat[j]:.2f}" if grew else ""))
    # PA (round 30): "each added device still paying more than half" where a step's added devices each gave less
    # than half of one device's rate at the first count (an average over the steps hid it)
    if data is not None and re.search(r"still paying more than half", text) and data.x_name is not None:
        from nvmemodel.fitting.axes import DEVICES
        per = _per_unit(data)
        if data.x_name in DEVICES and per is not None:
            dx = np.diff(data.x)
            each = np.diff(data.y) / np.where(dx > 0, dx, np.nan)
            low = np.flatnonzero(each < 0.5 * per[0])
            if low.size:
                k = int(low[0])
                out.append(f"says each added device still paid more than half a device's rate; the step "
                           f"{data.x[k]:g} → {data.x[k + 1]:g} yielded {each[k] / per[0]:.0%} of one")
    # QA (round 30): mixes said to fall below the harmonic mix (interference) where a mix lies above it by more than
    # 10 %: the mixes sit on both sides of the line, so no interference verdict holds
    if data is not None and data.x_name == "read_fraction" and re.search(r"Mixes fall below it|reads and writes "
                                                                        r"interfere beyond", text):
        r = np.asarray(data.x, float)
        r = r / 100 if r.max() > 1.5 else r
        y = np.asarray(data.y, float)
        pure_r, pure_w = np.isclose(r, 1), np.isclose(r, 0)
        if pure_r.any() and pure_w.any() and y[pure_r][0] > 0 and y[pure_w][0] > 0:
            mix = (r > 0.001) & (r < 0.999)
            line = 1 / (r / y[pure_r][0] + (1 - r) / y[pure_w][0])
            above = np.flatnonzero(mix & (y > 1.10 * line))
            if above.size:
                k = int(above[0])
                out.append(f"says the mixes fall below the harmonic mix; at a read share of {r[k]:g} the mix lies "
                           f"×{y[k] / line[k]:.2f} above it")
    # NA: "a limit the devices share binds" where the last step's added devices each gave (nearly) what a device gave
    # before it — the total grew in proportion at the end; a shared limit would not let it (r29 rpiotune ×1.97, ×2.03)
    if data is not None and _SHARED_BINDS.search(text) and data.x_name is not None:
        from nvmemodel.fitting.axes import DEVICES
        per = _per_unit(data)
        if data.x_name in DEVICES and per is not None and data.x[-1] > data.x[-2] \
                and data.y[-1] >= COLLAPSED * np.max(data.y):  # (below half the peak: a collapsed level, r31 SA)
            added = (data.y[-1] - data.y[-2]) / (data.x[-1] - data.x[-2])
            if added >= FULL_YIELD * per[-2] and data._beyond_noise(-2):
                out.append(f"says a limit the devices share binds; the last step's added devices each gave "
                           f"{added / per[-2]:.0%} of the rate one gave at {data.x[-2]:g} (the total grew in proportion)")
    # X: "one run a point" where some point has repeats (lorrocks: 1, 3 and 5 runs at QD 32/512/1024)
    if data is not None and data.n_runs is not None and _ONE_RUN.search(text):
        n = np.asarray(data.n_runs, float)
        if np.isfinite(n).any() and np.nanmax(n) > 1:
            out.append(f"says one run a point; the points have {np.nanmin(n):g}–{np.nanmax(n):g} runs")
    return out


def misled_by_data(claim: dict, data: CurveData | None) -> list[str]:
    """The misleading classes rounds 3 and 4's readers found and the scorer missed, each told from the claim's text
    and the curve's points (P, Q, S, T, U, V, W, Y, Z; X is :func:`false_of_data`)."""
    text = claim.get("text", "") or ""
    kind = claim.get("kind", "")
    out = []
    # P: a level / cap written below the measurement its own bracket names ("stays at 2.71 GB/s (between the 2.73 GB/s
    # measured and 2.76 GB/s …)": the bracket excludes the number it qualifies)
    for m in _BRACKET.finditer(text):
        unit = "B/s" if "B/s" in m["x"] else "1/s"
        x, meas = _rate(m["x"], unit), _rate(m["m"], unit)
        if x is not None and meas is not None and x < meas * (1 - 0.001):
            out.append(f"a level ({m['word']} {m['x'].strip()}) below the measured {m['m'].strip()} its own bracket "
                       "starts at")
    # T: "<model> fits N points with R² = 0.2" — a model that describes the points about as well as their mean
    m = _FITS_R2.search(text)
    if m and float(m["r2"].replace("−", "-")) < FITS_R2:
        out.append(f"says {m['model']} 'fits' at R² = {m['r2']} (it describes the points little better than their "
                   "mean)")
    if data is None:
        return out
    y = np.asarray(data.y, float)
    runs = np.asarray(data.n_runs, float) if data.n_runs is not None else np.ones(len(y))
    # Q: "peaks and falls" where the peak is one single-run point and the points after it are a level (the fall is
    # one step onto a level no claim states); not where a point before the peak also lies above that level: a rise
    # to a limit, then a fall, is a fall (round 15 TB, r15_spdk-iopacing kernel-initiator qd)
    if _PEAK_FALL.search(text) and len(y) >= 4 and np.isfinite(y).all():
        i = int(np.argmax(y))
        after = y[i + 1:]
        lone = i == 0 or not y[i - 1] > max(after.max(), 1.1 * after.mean()) if len(after) else True
        if 3 <= len(after) and lone and not (runs[i] > 1) and np.all(np.abs(after / np.median(after) - 1) <= 0.10) \
                and y[i] - after[0] >= 0.7 * (y[i] - after.min()):
            out.append(f"a peak and fall from one single-run point: after it the points are a level "
                       f"({after.min():,.4g}–{after.max():,.4g}), the fall one step")
    flat = len(y) >= 3 and np.all(y > 0) and np.all(np.abs(y / np.median(y) - 1) <= FLAT_BAND)
    # S: a USL σ/κ caution on a flat cap (a contention/coherency parameter of a flat line; Amdahl's σ = 1 is "fully
    # serial", which round 4 left alone)
    model = (data.model or "").lower()
    if flat and _SIGMA.search(text) and (model == "usl" or re.search(r"\busl\b", text, re.I)) \
            and kind in ("caution", "model", "fit"):
        out.append("a USL contention/coherency parameter read on a flat line (a cap)")
    # U: an IOPS "cap … measured" along block size where outstanding I/O ÷ latency explains the level at ≤ 4 in flight
    # and the level holds over < 16× the size (r4 yuming: 1 ÷ 92 µs = 10.8 K; r4's cgroup cap, latency flat over 64×,
    # is a cap)
    m = _IOPS_CAP_MEASURED.search(text)
    if m and data.along_size and data.iops is not None and data.outstanding is not None \
            and data.lat_mean_s is not None and not _IN_FLIGHT_WORDS.search(text):
        cap = _rate(m["v"], "1/s")
        io, out_, lat = (np.asarray(a, float) for a in (data.iops, data.outstanding, data.lat_mean_s))
        on = (io >= 0.9 * cap) & (io <= 1.02 * cap) if cap else np.zeros(len(io), bool)
        if on.sum() >= 2 and np.isfinite(out_[on]).all() and np.isfinite(lat[on]).all() and (lat[on] > 0).all():
            little = out_[on] / lat[on] / io[on]
            span = float(data.x[on].max() / data.x[on].min())
            if out_[on].max() <= SMALL_OUTSTANDING and np.all(np.abs(little - 1) <= LITTLE_MATCH) \
                    and span < SIZE_SPAN_CAP:
                out.append(f"an IOPS cap 'measured' where {out_[on].max():g} I/O(s) outstanding ÷ the latency gives "
                           f"the level (Little's law {little.min():.2f}–{little.max():.2f}, over {span:g}× the size): "
                           "a latency bound, not a cap")
    # V: an additive model's "IOPS ceiling at small blocks" ≥ 1.5× every measurement
    m = _SMALL_BLOCK_CEILING.search(text)
    if m and data.iops is not None and np.isfinite(data.iops).any() and not _DEPTH_NAMED.search(text) \
            and not _NEGATED.search(text[max(0, m.start() - 40):m.start()]):  # (a depth named: r3's R, fair)
        v = _rate(m["v"], "1/s")
        top = float(np.nanmax(data.iops))
        if v is not None and top > 0 and v >= 1.5 * top:
            out.append(f"an IOPS ceiling at small blocks of {_fmt(v, '1/s')}, {v / top:.1f}× every measurement "
                       f"(at most {_fmt(top, '1/s')}): the additive form's term, not a limit the data show")
    # W: model parameters read from a curve fio paced (rate_iops binding at ≥ 2 points)
    if data.paced_points >= PACE_BINDS and kind in ("model", "ceiling") and _MODEL_WORDS.search(text) \
            and not _REFUSAL.search(text):
        out.append(f"model parameters read from a curve fio paced (rate_iops binds at {data.paced_points} points)")
    # Y: "one serial path" said of a mixed read/write series (the directions have their own latencies and limits)
    if data.mixed_rw and _SERIAL_PATH.search(text):
        out.append("'one serial path' said of a read/write mix (each direction has its own latency; one may be capped)")
    # Z: an Amdahl / USL limit "however far … grows" where the I/Os in flight (IOPS × latency) stopped growing
    inf = data.in_flight
    if _HOWEVER_FAR.search(text) and _SCALING_LAW.search(text) and inf is not None and data.load_axis \
            and data.outstanding is not None and len(inf) >= 3 and np.isfinite(inf).all():
        out_ = np.asarray(data.outstanding, float)
        grew = [j for j in range(len(inf) - 1) if data.x[-1] >= 4 * data.x[j] and inf[-1] <= 1.25 * inf[j]]
        if grew and np.isfinite(out_[-1]) and inf[-1] < 0.5 * out_[-1]:
            j = grew[-1]
            out.append(f"a scaling-law limit 'however far' the load grows, where the I/Os in flight stopped growing "
                       f"({inf[j]:.3g} at {data.x[j]:g}, {inf[-1]:.3g} at {data.x[-1]:g}): the load stopped being one")
    return out


def fall_within_noise(data: CurveData) -> str:
    """Why the drop from the maximum to the last point is within the noise ("" if it is beyond): with repeats, twice
    the standard error of the difference of the two means; with one run a point, the ±10 % band a level is read
    within or the largest step-to-step change before the maximum, whichever is larger."""
    y = data.y
    i = int(np.nanargmax(y))
    if i == len(y) - 1:
        return "the last point is the maximum"
    drop = y[i] - y[-1]
    sd, n = data.y_std, data.n_runs
    if sd is not None and n is not None and np.isfinite(sd[[i, -1]]).all() and (n[[i, -1]] >= 2).all():
        noise = 2 * math.hypot(sd[i] / math.sqrt(n[i]), sd[-1] / math.sqrt(n[-1]))
        return "" if drop > noise else f"a drop of {drop / y[i]:.0%} against twice its standard error ({noise / y[i]:.0%})"
    k = i  # the level before the maximum: the points next to it within 10 % of it (the rise to it is no noise)
    while k > 0 and y[k - 1] >= 0.9 * y[i]:
        k -= 1
    steps = np.abs(np.diff(y[k:i + 1]))
    noise = max(float(steps.max()) if steps.size else 0.0, 0.10 * y[i])
    return "" if drop > noise else (f"a drop of {drop / y[i]:.0%}, one run a point, within the ±10 % band or a step "
                                    f"on the level before the maximum ({noise / y[i]:.0%})")


_CI = re.compile(r"95 % CI (?=\d)")
_DEVICE_LIMIT = re.compile(r"(ceiling|limit|cap)s? of the device|device(?:'s)? (ceiling|limit)", re.I)
_FALL_PCT = re.compile(r"\bfalls? (?:by )?[−-]?(\d+(?:\.\d+)?) ?%", re.I)
_CAUSE = re.compile(r"garbage collection|thermal throttl\w*|warm-?up|background work|steady[- ]state|write cache "
                    r"fill\w*|SLC cache|power states?|interrupt moderation", re.I)
_HEDGE = re.compile(r"\bor\b|\bmay\b|\bmight\b|\bcould\b|\?|cannot tell|whether|not known|if\b|e\.g\.|such as"
                    r"|not in the same state|no mechanism", re.I)
SMALL_OUTSTANDING = 4     # "small outstanding I/O": at most this many I/Os in flight at the smallest block
_ABOUT_CPUS = re.compile(r"\babout (\d+(?:\.\d+)?) CPUs?\b")
_SYNC = {"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap"}
_LEVEL_WORDS = re.compile(r"a level the points scatter about|stays at|limits throughput to|flattens at"
                          r"|the level is", re.I)


def limit_intervals(text: str) -> list[tuple[float, str, str]]:
    """(lower end, unit, clause) of every "95 % CI lo–hi" written for a ceiling / cap / limit in its clause."""
    out = []
    for m in _CI.finditer(text):
        clause = re.split(r"\.\s|;", text[max(0, m.start() - 160):m.start()])[-1]
        if not _LIMIT.search(clause) or re.search(r"stays at|where the fit|knee", clause, re.I):
            continue
        q = quantities(text[m.end():m.end() + 60])
        if q and q[0][2] == 0:
            out.append((q[0][0], q[0][1], clause))
    return out


def missing_facts(stated: list[Stated], data: CurveData | None, expect: dict) -> list[str]:
    """The expected facts no claim states."""
    out = []
    sat = expect.get("saturation")
    states = {s.state for s in stated if s.state}
    load = data is None or data.load_axis
    if load and sat in ("from_first", "onset") and "saturated" not in states:
        out.append(f"saturation ({sat})")
    if sat == "rising" and "rising" not in states:
        out.append("still rising")
    if load and (expect.get("onset_x") is not None or sat == "from_first"):
        if not any(s.onset_x is not None or s.fact_state == "from_first" for s in stated if s.state == "saturated"):
            out.append("onset")
    for unit, key in (("1/s", "plateau_iops"), ("B/s", "plateau_bytes_per_s")):
        if expect.get(key) is None or not plateau_unit_required(unit, data):
            continue
        if load:
            said = any(u == unit for s in stated if s.state == "saturated" for _v, u in s.plateaus)
        else:  # along block size (not a load): the level is stated as a plateau, a cap or a limit in that unit
            said = any(u == unit for s in stated for _v, u in s.plateaus) \
                or any(u == unit for s in stated for _v, u, _w in s.limits) \
                or any((s.cap_iops if unit == "1/s" else s.cap_bytes) is not None for s in stated)
        if not said:
            out.append(f"{'plateau' if load else 'level'} in {'IOPS' if unit == '1/s' else 'bytes/s'}")
    cap = expect.get("cap") or {}
    one_size = data is not None and len({b for b in data.block_sizes if b == b}) <= 1
    if not one_size:  # one block size cannot tell an IOPS cap from a byte cap (round 3's and round 4's readers)
        if cap.get("iops") is not None and not any(s.cap_iops is not None for s in stated):
            out.append("IOPS cap")
        if cap.get("bytes_per_s") is not None and not any(s.cap_bytes is not None for s in stated):
            out.append("byte cap")
    if expect.get("cpu_bound") is True and not any(s.cpu_bound is not None for s in stated):
        out.append("CPU-bound")
    if expect.get("layer") not in (None, "none") and not any(s.layer == expect["layer"] for s in stated):
        out.append(f"layer ({expect['layer']})")
    if expect.get("mix_below_harmonic") is not None and not any(s.mix_below is not None for s in stated):
        out.append("harmonic-mix comparison")
    if expect.get("falls") is True and not any(s.falls or s.fall_said for s in stated):
        out.append("falls")
    return out


def plateau_unit_required(unit: str, data: CurveData | None) -> bool:
    """The unit a plateau must be stated in: the fitted y's, and bytes/s too where blocks are ≥ 64 KiB or mixed."""
    if data is None:
        return True
    return unit == data.y_unit or (unit == "B/s" and data.big_or_mixed_blocks)


def states_onset_and_plateau(stated: list[Stated], data: CurveData | None, expect: dict) -> bool:
    """A saturating series' explanation states its onset and its plateau in the unit(s) that matter, within the
    expected ranges (the totals' last column)."""
    sat = [s for s in stated if s.state == "saturated"]
    onset_ok = False
    for s in sat:
        if expect.get("saturation") == "from_first":
            onset_ok |= s.fact_state == "from_first" or (
                s.onset_x is not None and data is not None and len(data.x) > 1 and s.onset_x <= data.x[1])
        elif s.onset_x is not None:
            rng = expect.get("onset_x")
            onset_ok |= rng is None or rng[0] <= s.onset_x <= rng[1]
    units = [u for u in ("1/s", "B/s") if plateau_unit_required(u, data)]
    plateau_ok = True
    for u in units:
        rng = expect.get("plateau_iops" if u == "1/s" else "plateau_bytes_per_s")
        plateau_ok &= any(pu == u and (rng is None or _in(v, rng)) for s in sat for v, pu in s.plateaus)
    return onset_ok and plateau_ok


# --------------------------------------------------------------------------------------------- one case
@dataclasses.dataclass
class CaseScore:
    id: str
    split: str
    claims: list = dataclasses.field(default_factory=list)     # GradedClaim
    missing: list = dataclasses.field(default_factory=list)    # (curve, fact)
    saturating: bool = False
    onset_plateau_ok: bool | None = None
    error: str | None = None

    def count(self, grade: str) -> int:
        return sum(c.grade == grade for c in self.claims)


def is_per_curve(expect: dict) -> bool:
    """``expect`` given per curve: ``{by value: {saturation: …}, …}`` (several ``by`` columns: their values joined
    with ", ") instead of one set of expectations for every curve."""
    return bool(expect) and not any(k in expect for k in EXPECT_KEYS) \
        and all(isinstance(v, dict) for k, v in expect.items() if k != "cpu_bound_points")


def curve_key_name(key: tuple) -> str:
    return ", ".join(str(v) for v in key)


def expect_for(expect: dict, key: tuple) -> dict:
    """The expectations of curve ``key`` (a group tuple); {} for a claim about no one curve of a per-curve case."""
    if not is_per_curve(expect):
        return expect
    exp = {}
    for k, v in expect.items():
        if k != "cpu_bound_points" and isinstance(v, dict) and key and _same_key(k, key):
            exp = dict(v)
    exp.setdefault("cpu_bound_points", expect.get("cpu_bound_points") or [])
    return exp


def _same_key(name: str, key: tuple) -> bool:
    if name == curve_key_name(key):
        return True
    try:  # numbers written as text: "16" == 16.0
        return [float(a) for a in name.split(",")] == [float(b) for b in key]
    except (TypeError, ValueError):
        return False


def score_claims(case_id: str, claims: list[dict], curves: dict, expect: dict, *, split: str = "dev") -> CaseScore:
    """Grade hand-made or real claims: ``curves`` maps a claim's group (a tuple) to its :class:`CurveData`;
    ``expect`` is one set of expectations for every curve or one per curve (:func:`is_per_curve`)."""
    sat_states = ("from_first", "onset")
    load = lambda d: d is None or d.load_axis  # noqa: E731  saturation is read along load axes only
    score = CaseScore(case_id, split, saturating=any(expect_for(expect, k).get("saturation") in sat_states
                                                     and load(d) for k, d in (curves or {(): None}).items()))
    per_curve: dict = {}
    names: dict = {}
    for c in claims:
        key = tuple(c.get("group") or ())
        names.setdefault(key, c.get("curve", ""))
        grade, reasons, s = grade_claim(c, curves.get(key), expect_for(expect, key))
        score.claims.append(GradedClaim(c.get("curve", ""), c.get("kind", ""), c.get("text", ""), grade, reasons))
        per_curve.setdefault(key, []).append(s)
    ok = []
    for key, data in (curves or {}).items():
        exp = expect_for(expect, key)
        stated = per_curve.get(key, []) + (per_curve.get((), []) if key != () else [])
        for m in missing_facts(stated, data, exp):
            score.missing.append((names.get(key, curve_key_name(key) or "all points"), m))
        if exp.get("saturation") in sat_states and load(data):
            ok.append(states_onset_and_plateau(stated, data, exp))
    score.onset_plateau_ok = all(ok) if ok else None
    return score


def score_case(case_dir: pathlib.Path, case: dict) -> CaseScore:
    split = split_of(case["id"])
    try:
        result = fit_case(case_dir, case)
        with warnings.catch_warnings():  # the fit's own warnings are in its explanation, graded here
            warnings.simplefilter("ignore")
            claims = result.claims()
            keys = list(result.chosen) or [()]
            curves = {tuple(k): curve_data(result, tuple(k)) for k in keys}
    except Exception as exc:  # graded as an error, with its message
        last = traceback.extract_tb(exc.__traceback__)[-1]
        return CaseScore(case["id"], split, error=f"{type(exc).__name__}: {exc} ({pathlib.Path(last.filename).name}:"
                                                   f"{last.lineno})")
    expect = dict(case["expect"])
    expect.setdefault("cpu_bound_points", case.get("cpu_bound_points") or [])
    return score_claims(case["id"], claims, curves, expect, split=split)


def score_corpus(split: str = "dev", corpus: pathlib.Path = CORPUS, only: list | None = None) -> list[CaseScore]:
    return [score_case(d, c) for d, c in iter_cases(split, corpus) if not only or c["id"] in only]


# ---------------------------------------------------------------------------------------------- reporting
def totals(scores: list[CaseScore]) -> dict:
    ok = [s for s in scores if s.error is None]
    sat = [s for s in ok if s.saturating]
    return {
        "cases": len(scores),
        "errors": len(scores) - len(ok),
        "claims": sum(len(s.claims) for s in ok),
        **{g: sum(s.count(g) for s in ok) for g in GRADES},
        "series_contradicted": sum(s.count("contradicted") > 0 for s in ok),
        "series_misleading": sum(s.count("misleading") > 0 for s in ok),
        "missing_facts": sum(len(s.missing) for s in ok),
        "series_missing": sum(bool(s.missing) for s in ok),
        "saturating": len(sat),
        "saturating_onset_plateau": sum(bool(s.onset_plateau_ok) for s in sat),
        "series_contradicted_or_misleading": sum(s.count("contradicted") + s.count("misleading") > 0 for s in ok),
    }


def bar(t: dict) -> dict:
    """Issue 28's bar on a set of series: no claim contradicted; at most 1 series in 10 with a misleading claim;
    every series saturating along a load axis states its onset and plateau in the unit that matters (a fit error
    fails the bar)."""
    n = t["cases"]
    parts = {"no contradicted claim": t["contradicted"] == 0 and t["errors"] == 0,
             "<= 1 in 10 series misleading": t["series_misleading"] <= n / 10,
             "onset+plateau for every saturating series (load axes)": t["saturating_onset_plateau"] == t["saturating"]}
    return {**parts, "met": all(parts.values())}


def format_case(s: CaseScore, *, show_claims: bool = True) -> str:
    head = f"== {s.id} [{s.split}]"
    if s.error:
        return f"{head}: ERROR {s.error}"
    lines = [f"{head}: {len(s.claims)} claims, {s.count('contradicted')} contradicted, {s.count('misleading')} "
             f"misleading, {len(s.missing)} missing" + ("" if s.onset_plateau_ok is None else
                                                       f"; onset+plateau stated: {'yes' if s.onset_plateau_ok else 'no'}")]
    if not show_claims:
        return lines[0]
    for c in s.claims:
        # a by= fit's claims with their curve (round 7 part 1 CI: three releases' blocks read without "release = …")
        label = f"{c.curve}: " if c.curve not in ("", "all points") else ""
        lines.append(f"  [{c.grade}] ({c.kind}) {label}{c.text}")
        lines.extend(f"      - {r}" for r in c.reasons)
    lines.extend(f"  [missing] {curve}: {fact}" for curve, fact in s.missing)
    return "\n".join(lines)


def format_totals(t: dict, title: str) -> str:
    rows = [("cases scored", t["cases"]), ("fit errors", t["errors"]), ("claims", t["claims"]),
            ("  supported", t["supported"]), ("  contradicted", t["contradicted"]), ("  misleading", t["misleading"]),
            ("series with >= 1 contradicted claim", t["series_contradicted"]),
            ("series with >= 1 misleading claim", t["series_misleading"]),
            ("missing facts (series with any)", f"{t['missing_facts']} ({t['series_missing']})"),
            ("saturating series (load axes) stating onset + plateau in the unit that matters",
             f"{t['saturating_onset_plateau']} of {t['saturating']}"),
            ("series with a contradicted or misleading claim",
             f"{t['series_contradicted_or_misleading']} of {t['cases']}"
             + (f" ({t['series_contradicted_or_misleading'] / t['cases']:.0%})" if t["cases"] else ""))]
    b = bar(t)
    rows.append(("bar (0 contradicted, <= 1 in 10 misleading, onset+plateau)",
                 ("met" if b["met"] else "NOT met: " + "; ".join(k for k, v in b.items() if k != "met" and not v))))
    w = max(len(r[0]) for r in rows)
    return "\n".join([f"-- totals: {title}"] + [f"{k:<{w}}  {v}" for k, v in rows])


def report(scores: list[CaseScore], *, show_blind: bool = False) -> str:
    parts = [format_case(s) for s in scores if s.split == "dev" or show_blind]
    for split in SPLITS:
        sub = [s for s in scores if s.split == split]
        if sub:
            parts.append(format_totals(totals(sub), f"{split} ({len(sub)} cases)"))
    return "\n\n".join(parts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fitting.corpus_score", description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=(*SPLITS, "all"), default="dev")
    ap.add_argument("--report", help="also write the report to this file")
    ap.add_argument("--case", action="append", help="score only this case id (repeatable)")
    ap.add_argument("--json", help="also write the totals and (dev cases only, unless --show-blind) every graded "
                                   "claim to this JSON file")
    ap.add_argument("--show-blind", action="store_true",
                    help="print the blind cases' claims too (default: their counts only, so the split stays blind)")
    ap.add_argument("--regrade", action="append", metavar="REPORT",
                    help="re-grade a spent round's saved report (_blind_rounds/roundN_scored.txt) with the rules that "
                         "need no expectation, and print the claims they flag (repeatable)")
    args = ap.parse_args(argv)
    if args.regrade:
        for path in args.regrade:
            for cid, flagged in regrade_saved(path).items():
                for text, why in flagged.items():
                    print(f"== {cid}: {text}")
                    print("\n".join(f"      - {w}" for w in why))
        return 0
    scores = score_corpus(args.split, only=args.case)
    text = report(scores, show_blind=args.show_blind)
    print(text)
    if args.report:
        pathlib.Path(args.report).write_text(text + "\n", encoding="utf-8")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(to_json(scores, show_blind=args.show_blind), indent=1,
                                                      ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


_SAVED_CASE = re.compile(r"== (\S+) \[")
_SAVED_CLAIM = re.compile(r"  \[(?:supported|contradicted|misleading)\] \(([^)]*)\) (.*)")


def regrade_saved(report_path) -> dict:
    """Re-grade the claims of a spent round's saved report (``_blind_rounds/roundN_scored.txt``: text only, no facts,
    no curve) with :func:`misled_by_data` and :func:`false_of_data` against each case's points as fitted now (every
    curve of a ``by=`` fit: a reason counts if it holds on any). ``{case id: {claim text: [reasons]}}`` of the claims
    with a reason. Refuses a report that names a case of a round not yet spent (:data:`UNSPENT`)."""
    cases: dict = {}
    cur = None
    for line in pathlib.Path(report_path).read_text(encoding="utf-8").splitlines():
        m = _SAVED_CASE.match(line)
        if m:
            cur = m[1]
            if split_of(cur) in UNSPENT:
                raise ValueError(f"{report_path}: names {cur}, a case of the unspent round {split_of(cur)}")
            cases[cur] = []
            continue
        m = _SAVED_CLAIM.match(line)
        if m and cur:
            cases[cur].append({"kind": m[1], "text": m[2], "facts": {}})
    out: dict = {}
    for cid, claims in cases.items():
        d = CORPUS / cid
        result = fit_case(d, load_case(d))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            curves = [curve_data(result, tuple(k)) for k in (list(result.chosen) or [()])]
        for c in claims:
            why = sorted({r for data in curves for r in misled_by_data(c, data) + false_of_data(c, data)})
            if why:
                out.setdefault(cid, {})[c["text"]] = why
    return out


def to_json(scores: list[CaseScore], *, show_blind: bool = False) -> dict:
    """Totals per split and, for the cases that may be shown, every graded claim and missing fact."""
    out = {"totals": {sp: totals([s for s in scores if s.split == sp]) for sp in SPLITS
                      if any(s.split == sp for s in scores)}, "cases": []}
    for s in scores:
        if s.split != "dev" and not show_blind:
            continue
        out["cases"].append({"id": s.id, "split": s.split, "error": s.error, "onset_plateau_ok": s.onset_plateau_ok,
                             "claims": [dataclasses.asdict(c) for c in s.claims],
                             "missing": [{"curve": c, "fact": m} for c, m in s.missing]})
    return out


if __name__ == "__main__":
    sys.exit(main())
