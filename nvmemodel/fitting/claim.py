"""What every claim is made of, one floor below the claims: the :class:`Claim`, a curve's points and the noise fits its
evidence is tested against, and the few ways a claim writes x values, sizes, shares and levels. The facts
(:mod:`~nvmemodel.fitting.facts`), their sentences (:mod:`~nvmemodel.fitting.fact_claims`), the CPU and pacing claims
and :mod:`~nvmemodel.fitting.claims` all build on it, so none of them imports another sideways."""

from __future__ import annotations

import dataclasses

import numpy as np

from .evidence import Evidence, residual_structure, shape_evidence
from .wording import _fx, fmt_y, span

__all__ = ["Claim", "curve_evidence", "in_tool_words", "noise_fits", "runs_rows"]


@dataclasses.dataclass(frozen=True)
class Claim:
    """One sentence of an explanation, the kind of evidence behind it and, for a claim built from a fact of
    :mod:`~nvmemodel.fitting.facts`, that fact's numbers (SI)."""

    kind: str
    text: str
    facts: dict = dataclasses.field(default_factory=dict, compare=False)


def _pts(result, key):
    pts = result.points
    for b, v in zip(result.by, key):
        pts = pts[pts[b] == v]
    return pts


#: the noise fits of each result's curves (id(result) → {key: fits}), dropped with the result
_NOISE_FITS: dict = {}


def _own_fit(f) -> bool:
    """A fit of this curve's own points (not a joint fit's view of it: its residuals hold the other curves' misfit)."""
    return f.stats.get("n_curve", f.stats["n"]) == f.stats["n"]


def result_cache(store: dict, result) -> dict:
    """``result``'s own cache in ``store`` (id(result) → {key: value}), dropped when the result is."""
    import weakref

    cache = store.get(id(result))
    if cache is None:
        cache = store[id(result)] = {}
        weakref.finalize(result, store.pop, id(result), None)
    return cache


def noise_fits(result, key) -> dict:
    """The fits whose residual scatter is the noise of a curve without repeats: every candidate model of the axis
    (Little's law, MVA, USL, Amdahl, linear; the per-I/O + per-byte model along block size), fitted to this curve's
    own points — whichever models ``model=`` asked for and whether parameters were shared. A statement about the
    measurements ("falls beyond the scatter", "flattens") must not change with the models fitted (QA s25 H41), nor
    take a poor joint fit's misfit as noise (H27)."""
    from ..errors import NvmeModelError
    from .axes import axis_kind
    from .engine import fit_shape
    from .models import BLOCK_MODELS, EMPIRICAL, QUEUEING, SHAPES, block_shape

    cache = result_cache(_NOISE_FITS, result)
    if key in cache:
        return cache[key]
    pts = _pts(result, key).sort_values(result.x)
    repeated = "n_runs" in pts and bool((pts["n_runs"] >= 2).all()) and "y_std" in pts
    own = result.fits[key]
    out = {}
    if not repeated and axis_kind(result.x) != "share":  # with repeats the noise is theirs: no fit is needed
        block = axis_kind(result.x) == "block size" and result.y_unit in ("1/s", "B/s")
        xv, yv = pts[result.x].to_numpy(float), pts["y"].to_numpy(float)
        w = pts["weight"].to_numpy(float) if result.points.attrs.get("weighted") else None
        for m in (BLOCK_MODELS if block else (*QUEUEING, *EMPIRICAL)):
            if m in own and _own_fit(own[m]):
                out[m] = own[m]
                continue
            shape = block_shape(result.y_unit) if m in BLOCK_MODELS else SHAPES[m]
            if len(xv) <= len(shape.params):
                continue
            try:
                out[m] = fit_shape(shape, xv, yv, w, ci="wald")
            except NvmeModelError:
                continue
    cache[key] = out
    return out


def curve_evidence(result, key) -> tuple[Evidence, dict | None]:
    """The shape evidence of one curve and the structure of its chosen model's residuals."""
    model = result.chosen[key]
    f = result.fits[key][model]
    ev = shape_evidence(_pts(result, key), result.x, noise_fits(result, key), model)
    struct = residual_structure(ev, f) if f.shape.params else None
    return dataclasses.replace(ev, structured=struct), struct


def _xv(result, v) -> str:
    """An x value as written; block sizes in KiB/MiB (:func:`~.wording.xv`)."""
    from .wording import xv

    return xv(result, v)


def _what(result) -> str:
    return {"1/s": "IOPS", "B/s": "throughput", "s": "latency"}.get(result.y_unit, result.y)


def _level_runs(result, p: dict, spread: bool = True) -> str:
    """The runs behind a measured level (plateau or step level) as they are: "sd s over n runs at x = a–b" when
    points were repeated, "sd s over k points of one run each at x = a–b" when each point is one run — the spread
    of one run at each of k different x values is not the spread of repeated runs."""
    k = int(p.get("points", 0))
    sd = f"sd {fmt_y(p['spread'], result.y_unit)} over " if spread and np.isfinite(p["spread"]) else ""
    runs = (f"{k} points of one run each" if k >= 2 and p["runs"] == k else f"{p['runs']} runs")
    return f"{sd}{runs} at {result.x} = {span(_xv(result, p['x_from']), _xv(result, p['x_to']))}"


def _bytes(v: float) -> str:
    if not np.isfinite(v):
        return "∞"
    for f, name in ((2**20, "MiB"), (2**10, "KiB")):
        if v >= f:
            return f"{v / f:.3g} {name}"
    return f"{v:.3g} B"


def _pct(v: float) -> str:
    """A share as a percentage with two significant digits below 10 % (0.41 %, not 0 %)."""
    return f"{v:.0%}" if v >= 0.1 else f"{100 * v:.2g} %"


def _pcts(lo: float, hi: float) -> str:
    """Two shares as a range, or one value where they print alike ("100 %", not "100 %–100 %": round 8, DE)."""
    return _pct(lo) if _pct(lo) == _pct(hi) else f"{_pct(lo)}–{_pct(hi)}"


#: an asymptote further than this above the largest measurement is an extrapolation
EXTRAPOLATION = 1.5
#: an asymptote the data do not reach gets no interval: the model's t or profile interval assumes its shape holds
#: beyond the data, and a curve that bends for another reason gives a narrow interval around a wrong value
#: (tests/fitting/test_qa4_findings.py: a seeded synthetic curve whose cap is 2 M IOPS, fitted 66 K–111 K)
NO_INTERVAL = ("; no interval is given: its value rests on the model's shape beyond the data, not on measurements "
               "near it")

_CPU_TOOLS = {"diskspd": "DiskSpd", "iometer": "IOmeter"}


def _machine_cpu(pts) -> str:
    """The tool's name where the points' CPU numbers are a whole machine's (DiskSpd, IOmeter: every process,
    not the jobs' own), else "" (fio's own accounting of its jobs; QA s25 H25)."""
    tools = {t for v in (pts["cpu_tool"].dropna().astype(str) if "cpu_tool" in pts else ()) for t in v.split("+") if t}
    machine = sorted(_CPU_TOOLS.get(t, t) for t in tools if t != "fio")
    return " and ".join(machine)


def runs_rows(result, points):
    """The rows of the results table that belong to ``points``' runs (their ``sources``), or None without a table
    that names its files: what the runs recorded beyond the points (engine, options, disk statistics)."""
    tbl = result.table
    if tbl is None or "source_path" not in tbl:
        return None
    # a point's sources are joined by ";", which a transcribed path may itself hold: the whole value is a source too
    # (round 28 LC: r28_hetznervol's "… multi-threaded; can't complete …" rows were never found)
    srcs = {s for v in points["sources"] for s in (str(v), *str(v).split(";")) if s}
    return tbl[tbl["source_path"].astype(str).isin(srcs)]



def stated(rows, col):
    """``rows[col]`` with the values the reader filled in (the row's ``defaulted`` column) set to NA: an option the
    files did not state proves nothing about the run (set after round 11 was read: r11_here-net_tcp-loopback_write_bs
    _repeats, KB, where a defaulted direct=0 was read as page-cache work). fio's JSON is the exception: its job
    options echo every option the job file or command line set (``fio --output-format=json``; a bare flag aside,
    see ``ingest.fio_options._flag``), so an absent value option is the default fio itself ran."""
    vals = rows[col].astype(object).copy()
    if "defaulted" not in rows:
        return vals
    filled = rows["defaulted"].astype(object).fillna("").astype(str).str.split(";").map(lambda cols: col in cols)
    if "format" in rows:
        filled &= ~rows["format"].astype(object).fillna("").astype(str).str.startswith("fio-json")
    vals[filled.to_numpy(bool)] = None
    return vals

_TOOL_NAMES = {"iometer": "IOmeter", "diskspd": "DiskSpd", "elbencho": "elbencho"}
_FIO_WORDS = __import__("re").compile(r"\b([Ff])io(?='s\b| measured\b| ran\b| kept\b)")


def in_tool_words(result, key, claims: list) -> list:
    """The claims with the tool that measured the curve's runs named where a sentence says whose record it reads
    ("fio's mean latency" of an elbencho series is elbencho's): one tool recorded in every run, not fio."""
    import dataclasses

    rows = runs_rows(result, _pts(result, key))
    if rows is None or "tool" not in rows or not len(rows) or rows["tool"].isna().any():
        return claims
    tools = set(rows["tool"].astype(str).str.lower())
    if len(tools) != 1 or tools == {"fio"}:
        return claims
    name = _TOOL_NAMES.get(next(iter(tools)), next(iter(tools)))

    def sub(m):
        return name[0].upper() + name[1:] if m[1] == "F" else name

    return [dataclasses.replace(c, text=_FIO_WORDS.sub(sub, c.text)) for c in claims]
