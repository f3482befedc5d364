"""Every fio release's output read right (issue 30): tests/data/fio_versions/<release>/, real runs of
fio releases built from their git tags (see that folder's README.md and gen.sh), in every output form
each release writes, graded against fio's own JSON of the same run.

A run of fio >= 2.21 writes several forms at once (``--output-format=json,normal,terse``): the file is
kept as fio wrote it (gzipped) and the forms a user would have are cut from it here — the JSON
document(s), the terse lines, the normal report, the ``normal,terse`` file (everything but the JSON)
and the whole combined file; ``json,terse`` runs give terse v3–v5 and the ``json,terse`` file, ``json,normal`` runs the
``json,normal`` file (one with ``--eta=always`` progress lines before the JSON), ``json+`` runs their
own JSON. fio 2.0/2.1/2.2 write one form per run: their JSON is read on its own (the stdlib ``json``
module, here, is the reference), ``--append-terse`` files (normal output and a terse line of the same
run) and ``--minimal`` files are graded against the terse line, parsed here field by field; fio 2.0 has no
``--append-terse``: its normal output is graded against the numbers it prints (:func:`_ref_from_normal_20`).

Tolerances are each form's printed precision: JSON exact; normal I/O counts exact, latencies to the
digits printed (1 %); terse whole IOPS, whole KiB, latencies in µs. Known format limits (what a form
cannot say) are listed in :data:`LIMITS`, each stated in docs/ingest.md, and counted apart.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import math
import os
import pathlib
import re
import warnings

import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestError

DATA = pathlib.Path(__file__).parents[1] / "data" / "fio_versions"


def _release_key(name: str) -> tuple:
    return tuple(int(p) for p in re.findall(r"\d+", name))


RELEASES = sorted((p.name for p in DATA.iterdir() if p.is_dir() and any(p.glob("*.out.gz"))), key=_release_key) \
    if DATA.is_dir() else []

#: kinds whose engine has no submission step (psync, sync, null): fio measures no submission latency
NO_SLAT = {"psync", "sync-write", "status", "group", "stonewall", "trim-only", "trimwrite", "few-ios", "eta"}
#: kinds that turn total-latency measurement off (disable_lat; fio still reports a submission latency)
NO_LAT = {"disable-lat"}
_PCT = {"50.000000": "50", "90.000000": "90", "95.000000": "95", "99.000000": "99", "99.900000": "99_9",
        "99.990000": "99_99"}
_DOC_START = re.compile(r'\{\s*"fio version"')
_TERSE = re.compile(r"^[2-5];.*$", re.MULTILINE)


def _docs(text: str) -> list[tuple[int, int, dict]]:
    """(start, end, document) of every fio JSON document in ``text``."""
    out, pos, dec = [], 0, json.JSONDecoder()
    while (m := _DOC_START.search(text, pos)) is not None:
        doc, end = dec.raw_decode(re.sub(r"(?<=: )-?nan\b", "NaN ", text[m.start():]))
        out.append((m.start(), m.start() + end, doc))
        pos = m.start() + end
    return out


def _cut(text: str, spans) -> str:
    parts, pos = [], 0
    for start, end, _ in spans:
        parts.append(text[pos:start])
        pos = end
    return "".join(parts) + text[pos:]


def forms(path: pathlib.Path) -> dict[str, str]:
    """{form: the text a user of that form has} of one corpus file."""
    text = gzip.decompress(path.read_bytes()).decode()
    kind, given = path.name.removesuffix(".out.gz").split(".", 1)
    docs = _docs(text)
    terse = "\n".join(_TERSE.findall(text)) + "\n"
    if given == "json-normal-terse2":
        no_json = _cut(text, docs)
        return {"json": "\n".join(text[s:e] for s, e, _ in docs) + "\n", "terse2": terse,
                "normal": _TERSE.sub("", no_json), "normal,terse": no_json, "json,normal,terse": text}
    if given.startswith("json-terse"):
        return {f"terse{given[-1]}": terse, f"json,terse{given[-1]}": text}
    if given.startswith("terse"):
        return {given: text}
    return {{"json-normal": "json,normal", "json-normal-eta": "json,normal --eta=always 2>&1", "jsonplus": "json+",
             "json": "json", "normal-appendterse": "normal --append-terse", "normal": "normal"}[given]: text,
            **({"normal": _TERSE.sub("", text)} if given == "normal-appendterse" else {})}


# ---- the reference: fio's JSON of the same run (or the terse line where fio 2.1/2.2 wrote no JSON) ----

def _ref_from_json(docs: list[dict], kind: str) -> list[dict]:
    out = []
    for snap, doc in enumerate(docs):
        for job in doc["jobs"]:
            opts = {**doc.get("global options", {}), **job.get("job options", {})}
            lat_pct = str(opts.get("lat_percentiles", "0")) == "1"
            for d in ("read", "write", "trim", "mixed"):
                r = job.get(d)
                if not isinstance(r, dict) or r["io_bytes"] <= 0:
                    continue
                ns = "lat_ns" in r  # fio 3 (2.x: µs)
                scale = 1e-9 if ns else 1e-6
                row = {"snapshot": snap, "job_name": job["jobname"], "direction": d,
                       "io_bytes": r["io_bytes"] * (1 if "io_kbytes" in r else 1024), "iops": r["iops"],
                       "bw_bytes_per_s": r["bw_bytes"] if "bw_bytes" in r else r["bw"] * 1024,
                       "bw_kib": "bw_bytes" not in r,  # (fio < 3.2 writes whole KiB/s only)
                       "runtime_s": r["runtime"] / 1000, "ios": r.get("total_ios", math.nan)}
                blocks = {b: r[f"{b}_ns"] if ns else r[b] for b in ("lat", "clat", "slat")}
                for b, blk in blocks.items():
                    measured = blk["N"] > 0 if "N" in blk else not (
                        (b == "slat" and kind in NO_SLAT) or (b == "lat" and kind in NO_LAT))
                    row[f"{b}_mean_s"] = blk["mean"] * scale if measured else math.nan
                    if measured and "lat_max_s" not in row and b in ("lat", "clat"):
                        row["lat_max_s"] = blk["max"] * scale
                # with lat_percentiles=1 fio's percentiles are of total latency, wherever the JSON put them
                # (fio 3.1-3.7 wrote them as clat_ns.percentile; later releases as lat_ns.percentile, with
                # the completion-latency ones beside them)
                for b, pct in (("lat", blocks["lat"].get("percentile")), ("clat", blocks["clat"].get("percentile"))):
                    if not pct or not blocks["clat"].get("N", 1):
                        continue
                    name = "lat" if b == "lat" or (lat_pct and "percentile" not in blocks["lat"]) else "clat"
                    for key, suffix in _PCT.items():
                        if key in pct:
                            row[f"{name}_p{suffix}_s"] = pct[key] * scale
                out.append(row)
    return out


def _ref_from_terse(text: str, kind: str) -> list[dict]:
    """fio 2.1/2.2 --append-terse / --minimal: the numbers of the terse line(s), field by field (fio HOWTO)."""
    out, seen = [], {}
    for line in _TERSE.findall(text):
        f = line.split(";")
        v = int(f[0])
        nh = 4 if v == 2 else 5
        dirs = ("read", "write") if v == 3 else ("read", "write", "trim")
        for k, d in enumerate(dirs):
            o = nh + k * 41
            kib, bw, iops, rt = (float(x) for x in f[o:o + 4])
            if kib <= 0:
                continue
            lat = {b: float(f[o + i]) * 1e-6 or math.nan for b, i in (("slat", 6), ("clat", 10), ("lat", 34))}
            # (--status-interval: a job's k-th line is its k-th report; fio 2.x unified_rw_reporting writes the
            # mixed numbers in the read fields, see LIMITS)
            snap = seen[(f[nh - 3], d)] = seen.get((f[nh - 3], d), -1) + 1
            d = "mixed" if d == "read" and kind == "unified" else d
            row = {"snapshot": snap, "job_name": f[nh - 3], "direction": d, "io_bytes": kib * 1024, "iops": iops,
                   "bw_bytes_per_s": bw * 1024, "runtime_s": rt / 1000, "ios": math.nan,
                   **{f"{b}_mean_s": x for b, x in lat.items()}}
            out.append(row)
    return out


_N20_BLOCK = re.compile(r"^(\S.*?): \(groupid=\d+, jobs=\d+\): err=", re.MULTILINE)
_N20_DIR = re.compile(r"^  (read |write|trim ): io=.*?, runt=\s*(\d+)msec$")
_N20_LAT = re.compile(r"^ +(slat|clat|lat) \((usec|msec)\): min=\S+ ?, max=(\d+)(K?) ?, avg=\s*([\d.]+), stdev=")
_N20_PCT = re.compile(r"(\d+\.\d+)th=\[\s*(\d+)\]")
_N20_ISSUED = re.compile(r"^ +issued +: total=r=(\d+)/w=(\d+)/d=(\d+),")


def _ref_from_normal_20(text: str) -> list[dict]:
    """fio 2.0 normal output (no --append-terse, no JSON of the same run): the numbers it prints, read field by
    field from the format strings of fio-2.0.13's stat.c (show_ddir_status: ``"    clat %s: min=%s, max=%s,
    avg=%5.02f, stdev=%5.02f"`` with num2str's ``"%lu%c"``, a space for no unit: ``min=77 , max=937 ,``;
    show_clat_percentiles ``" %sth=[%5u]"``; ``"     issued    : total=r=%lu/w=%lu/d=%lu,"``). I/O counts,
    run times, latency means and maxima, completion percentiles; fio 2.0 prints no block size exactly."""
    out = []
    starts = [m for m in _N20_BLOCK.finditer(text)]
    for k, m in enumerate(starts):
        block = text[m.end():starts[k + 1].start() if k + 1 < len(starts) else len(text)].split("\n")
        issued = next(i for i in (_N20_ISSUED.match(ln) for ln in block) if i)
        row, pct_unit = None, None
        for ln in block:
            if d := _N20_DIR.match(ln):
                direction = d[1].strip()
                ios = float(issued[1 + ("read", "write", "trim").index(direction)])
                row = {"snapshot": 0, "job_name": m[1], "direction": direction, "runtime_s": int(d[2]) / 1000,
                       "ios": ios, "slat_mean_s": math.nan, "clat_mean_s": math.nan, "lat_mean_s": math.nan}
                out.append(row)
            elif row is not None and (lat := _N20_LAT.match(ln)):
                scale = 1e-6 if lat[2] == "usec" else 1e-3
                row[f"{lat[1]}_mean_s"] = float(lat[5]) * scale
                if lat[1] in ("clat", "lat"):  # the total latency's maximum where measured, else completion's
                    mx = int(lat[3]) * (1000 if lat[4] else 1) * scale
                    row["lat_max_s"] = mx if lat[1] == "lat" or "lat_max_s" not in row else row["lat_max_s"]
            elif row is not None and (p := re.match(r" +clat percentiles \((usec|msec)\):", ln)):
                pct_unit = 1e-6 if p[1] == "usec" else 1e-3
            elif row is not None and pct_unit and ln.lstrip().startswith("|"):
                for q, v in _N20_PCT.findall(ln):
                    if (key := f"{float(q):.6f}") in _PCT:
                        row[f"clat_p{_PCT[key]}_s"] = int(v) * pct_unit
            else:
                pct_unit = None
    return out


# ---- grading ----

#: Known format limits: (form regex, release range [lo, hi), kind regex, what) -> the sentence of
#: docs/ingest.md that states it. A difference that matches one is counted apart, not as wrong.
LIMITS: list[tuple[str, tuple, str, str, str]] = []


@dataclasses.dataclass
class Graded:
    release: str
    kind: str
    form: str
    problems: list[str]
    limits: list[str]
    warnings: list[str] = dataclasses.field(default_factory=list)


def _close(a, b, rel, abs_=0.0) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return abs(a - b) <= max(rel * abs(b), abs_)
    except TypeError:
        return False


def _tolerance(form: str, col: str, ref_terse: bool):
    """(rel, abs) of a column in a form (its printed precision; the reference's where it is a terse line)."""
    if form in ("json", "json+") or form.startswith("json,"):
        return (1e-9, 0.0) if not ref_terse else (1e-9, 0.0)
    if form.startswith("terse") or ref_terse:
        return {"iops": (0, 1.0), "bw_bytes_per_s": (0, 1024.0), "io_bytes": (0, 1024.0), "runtime_s": (0, 0.0011),
                "ios": (1e-3, 1.0)}.get(col, (1e-6, 1.01e-6))  # latencies: µs (means with 6 decimals)
    return {"iops": (1e-6, 0.0), "bw_bytes_per_s": (1e-6, 1.0), "io_bytes": (0, 0.0), "runtime_s": (0, 0.0011),
            "ios": (0, 0.0)}.get(col, (0.011, 1e-8))  # latencies: the digits normal output prints


def grade(release: str, path: pathlib.Path, form: str, text: str, tmp: pathlib.Path) -> Graded:
    kind = path.name.split(".", 1)[0]
    g = Graded(release, kind, form, [], [])
    full = gzip.decompress(path.read_bytes()).decode()
    docs = [d for _, _, d in _docs(full)]
    ref_terse = not docs
    ref = _ref_from_json(docs, kind) if docs else _ref_from_terse(full, kind)
    if not ref and not docs and path.name.endswith(".normal.out.gz"):  # fio 2.0: normal output alone
        ref = _ref_from_normal_20(full)
    v3_ref = ref_terse and all(ln.startswith("3;") for ln in _TERSE.findall(full))
    if not ref:
        if v3_ref and kind == "trim-only":  # (the run's terse v3 line has no trim block: nothing to grade against)
            g.limits.append("no reference: the terse v3 line of the same run has no trim block")
        else:
            g.problems.append("no reference rows")
        return g
    f = tmp / f"{release}-{kind}-{re.sub(r'[^a-z0-9+]+', '_', form)}.txt"
    f.write_text(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            df = nm.read_results(f, errors="raise")
        except IngestError as exc:
            if form == "terse3" and all(r["direction"] == "trim" for r in ref) and "no trim block" in str(exc):
                g.limits.append("terse v3 has no trim block (a trim-only job refused, saying so)")
            else:
                g.problems.append(f"refused: {exc}")
            return g
    g.warnings = [str(w.message) for w in caught]
    g.problems += [w for w in g.warnings if "unknown fio" in w or "unknown top-level" in w]
    rows = df.to_dict("records")
    final_snap = max(r["snapshot"] for r in ref)
    ref_final = [r for r in ref if r["snapshot"] == final_snap]
    said = " ".join(g.warnings)
    if form == "terse3" and any(r["direction"] == "trim" for r in ref_final):
        # (a line that also wrote cannot say that the job trimmed: nothing to warn about)
        g.limits.append("terse v3 has no trim block")
        ref_final = [r for r in ref_final if r["direction"] != "trim"]
    if form.startswith("terse") and _release_key(release) < (3, 28) and any(r["direction"] == "mixed" for r in ref_final):
        if form != "terse2" and "unified_rw_reporting" not in said:
            g.problems.append("a unified_rw_reporting line of fio < 3.28 read as reads without a warning")
        g.limits.append("terse before fio 3.28 writes unified reporting's mixed numbers as reads")
        ref_final = [{**r, "direction": "read"} if r["direction"] == "mixed" else r for r in ref_final]
    got_final = [r for r in rows if r["final"] and not (v3_ref and r["direction"] == "trim")]
    key = lambda r: (r["job_name"], "read" if r["direction"] == "verify" else r["direction"])  # noqa: E731
    if sorted(map(key, got_final)) != sorted(map(key, ref_final)):
        g.problems.append(f"final rows {sorted(map(key, got_final))} != fio's {sorted(map(key, ref_final))}")
        return g
    got = {key(r): r for r in got_final}
    for r in ref_final:
        row = got[key(r)]
        for col, want in r.items():
            if col in ("snapshot", "job_name", "direction", "bw_kib") or ("lat_p" in col and form.startswith("terse") and (
                    any(c.startswith("lat_p") for c in r) or math.isnan(float(row.get("clat_p50_s") or math.nan)))):
                continue  # (see below)
            have = row.get(col)
            have = math.nan if have is None or have is pd_na() else float(have)
            if col == "ios" and math.isnan(want):
                continue
            if col.endswith("_p50_s") or col.endswith("_p99_s") or col.endswith("_p90_s") or col.endswith("_p95_s") \
                    or col.endswith("_p99_9_s") or col.endswith("_p99_99_s"):
                rel, abs_ = (1e-9, 0.0) if form in ("json", "json+") or form.startswith("json,") else (0.011, 1.01e-6)
            else:
                rel, abs_ = _tolerance(form, col, ref_terse)
                if col == "bw_bytes_per_s" and r.get("bw_kib"):
                    abs_ = max(abs_, 1024.0)  # the reference is whole KiB/s
                if col == "iops" and math.isnan(r["ios"]) and not ref_terse:
                    abs_ = max(abs_, 1.0)  # fio 2.1 JSON: integer IOPS, truncated (the reader's: count / runtime)
            if not _close(have, float(want), rel, abs_):
                if form.startswith("terse") and math.isnan(have) and want < 1e-6 and "_s" in col:
                    g.limits.append(f"{key(r)} {col}: terse prints {want * 1e6:.3f} µs as 0 (whole µs)")
                    continue
                g.problems.append(f"{key(r)} {col}: read {have!r}, fio {want!r}")
        if form.startswith("terse") and any(c.startswith("lat_p") for c in r):
            # terse does not say which kind its percentiles are (lat_percentiles=1): left out or tabulated as
            # completion latency, with a warning either way
            if "percentiles" not in said:
                g.problems.append(f"{key(r)}: total-latency percentiles in terse without a warning")
            g.limits.append("terse does not say whether its percentiles are of total latency")
            continue
        if form.startswith("terse") and math.isnan(float(row.get("clat_p50_s") or math.nan)) \
                and r.get("clat_p50_s", 0) >= 1e-6:  # (under 1 µs terse prints 0: counted above)
            # terse does not say the kind; where the submission latency is 5 % of the completion latency or more
            # they are left out, with a warning naming the line
            if "not tabulated" not in said:
                g.problems.append(f"{key(r)}: terse percentiles left out without a warning")
            g.limits.append("terse percentiles of unknown kind left out (submission latency >= 5 %)")
        for pct_kind in ("clat", "lat"):  # percentiles of the other kind must be NaN, not a number
            other = f"{'lat' if pct_kind == 'clat' else 'clat'}_p50_s"
            if f"{pct_kind}_p50_s" in r and other not in r and not math.isnan(float(row.get(other) or math.nan)):
                g.problems.append(f"{key(r)} {other}: read {row.get(other)!r} where fio's are {pct_kind} percentiles")
    n_ref = len({r["snapshot"] for r in ref})
    n_got = len({r["snapshot"] for r in rows})
    if n_got != n_ref and not ref_terse:
        g.problems.append(f"{n_got} report(s) read, fio's JSON has {n_ref}")
    return g


def pd_na():
    import pandas as pd

    return pd.NA


def corpus():
    for release in RELEASES:
        for path in sorted((DATA / release).glob("*.out.gz")):
            for form, text in forms(path).items():
                yield release, path, form, text


def _sampled(cases):
    """A third of the corpus (every release, form and kind, each in about a third of the releases) unless
    NVMEMODEL_FIO_VERSIONS=all: the whole corpus takes a few minutes on a loaded machine, the sample about 40 s."""
    if os.environ.get("NVMEMODEL_FIO_VERSIONS") == "all":
        return cases
    kinds = sorted({p.name.split(".", 1)[0] for _, p, _, _ in cases})
    return [c for c in cases if (RELEASES.index(c[0]) + kinds.index(c[1].name.split(".", 1)[0])) % 3 == 0]


CASES = [pytest.param(r, p, f, t, id=f"{r}/{p.name.split('.', 1)[0]}/{f}") for r, p, f, t in _sampled(list(corpus()))]


@pytest.mark.skipif(not RELEASES, reason="tests/data/fio_versions holds no release folder")
def test_corpus_spans_ten_releases():
    assert len(RELEASES) >= 10, RELEASES
    assert _release_key(RELEASES[0]) < (2, 3) and _release_key(RELEASES[-1]) >= (3, 40)


@pytest.mark.parametrize("release, path, form, text", CASES)
def test_read_like_fio_json(release, path, form, text, tmp_path):
    g = grade(release, path, form, text, tmp_path)
    assert not g.problems, "\n".join(g.problems)


if __name__ == "__main__":  # a summary: python tests/ingest/test_fio_versions.py
    import collections
    import sys
    import tempfile

    if len(sys.argv) > 1:
        DATA = pathlib.Path(sys.argv[1])
        RELEASES = sorted((p.name for p in DATA.iterdir() if p.is_dir()), key=_release_key)
    counts = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for release, path, form, text in corpus():
            g = grade(release, path, form, text, pathlib.Path(tmp))
            counts[(release, form, "wrong" if g.problems else "limit" if g.limits else "right")] += 1
            for p in g.problems[:3]:
                print(f"{release} {g.kind} [{form}]: {p[:300]}")
    for k, v in sorted(counts.items()):
        print(k, v)


# ---- one test per class of issue 30 (each failed before its fix) ----

def _read_form(tmp_path, release: str, kind: str, given: str, form: str, *, raise_errors: bool = True):
    """(rows, warnings, fio's JSON documents) of one form of one corpus file."""
    path = DATA / release / f"{kind}.{given}.out.gz"
    if not path.exists():
        pytest.skip(f"{path.relative_to(DATA)} is not in the corpus")
    text = forms(path)[form]
    f = tmp_path / f"{kind}.{re.sub(r'[^a-z0-9+]+', '_', form)}.txt"
    f.write_text(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = nm.read_results(f, errors="raise")
    docs = [d for _, _, d in _docs(gzip.decompress(path.read_bytes()).decode())]
    return df.to_dict("records"), [str(w.message) for w in caught], docs


@pytest.mark.parametrize("release", ["2.2.10", "3.1", "3.16"])
def test_unmeasured_submission_latency_before_320_is_nan(tmp_path, release):
    # fio < 3.20 writes a psync job's slat as {min 0, max 0, mean 0.0} with no sample count
    (row,), _, docs = _read_form(tmp_path, release, "psync", "json" if release < "2.3" else "json-normal-terse2",
                                 "json")
    slat = docs[0]["jobs"][0]["read"].get("slat_ns") or docs[0]["jobs"][0]["read"]["slat"]
    assert "N" not in slat and slat["mean"] == 0 and slat["max"] == 0
    assert math.isnan(row["slat_mean_s"]) and row["clat_mean_s"] > 0


@pytest.mark.parametrize("release", ["3.1", "3.7"])
def test_total_latency_percentiles_under_clat_ns_are_lat_percentiles(tmp_path, release):
    (row,), _, docs = _read_form(tmp_path, release, "lat-percentiles", "json-normal-terse2", "json")
    r = docs[0]["jobs"][0]["read"]
    assert "percentile" not in r["lat_ns"] and docs[0]["jobs"][0]["job options"]["lat_percentiles"] == "1"
    assert row["lat_p99_s"] == r["clat_ns"]["percentile"]["99.000000"] * 1e-9
    assert math.isnan(row["clat_p50_s"])


def test_terse_percentiles_that_may_be_total_latency_are_warned_about(tmp_path):
    found = 0
    for release in RELEASES:
        if _release_key(release) < (3, 1):
            continue
        for v in ("2", "3", "4", "5"):
            given = "json-normal-terse2" if v == "2" else f"json-terse{v}"
            if not (DATA / release / f"lat-percentiles.{given}.out.gz").exists():
                continue
            (row,), said, _ = _read_form(tmp_path, release, "lat-percentiles", given, f"terse{v}")
            if not math.isnan(row["clat_p50_s"]):  # tabulated: its slat under 5 % of its clat
                found += 1
                assert any("tabulated as completion latency" in s and "lat_percentiles=1" in s for s in said), said
            else:
                assert any("are not tabulated" in s for s in said), said
    assert found or not RELEASES


@pytest.mark.parametrize("release", ["3.20", "3.42"])
def test_normal_output_with_cmdprio_reads_the_jobs_own_percentiles(tmp_path, release):
    (row,), _, docs = _read_form(tmp_path, release, "cmdprio", "json-normal-terse2", "normal")
    pct = docs[0]["jobs"][0]["read"]["clat_ns"]["percentile"]
    for key, col in (("50.000000", "clat_p50_s"), ("99.000000", "clat_p99_s")):
        assert row[col] == pytest.approx(pct[key] * 1e-9, rel=0.011, abs=1e-6)


@pytest.mark.parametrize("form", ["terse3", "normal,terse"])
def test_unified_reporting_in_terse_before_328(tmp_path, form):
    given = "json-terse3" if form == "terse3" else "json-normal-terse2"
    (row,), said, docs = _read_form(tmp_path, "3.16", "unified", given, form)
    mixed = docs[0]["jobs"][0]["mixed"]
    if form == "terse3":  # the line cannot say: read, with a warning naming the file and the line
        assert row["direction"] == "read"
        assert any("unified_rw_reporting" in s and "line 1" in s and "unified.terse3.txt" in s for s in said), said
    else:  # the normal report says mixed; the terse line's read fields are the same numbers
        assert row["direction"] == "mixed" and row["ios"] == mixed["total_ios"]


def test_fio_21_unified_json_is_read(tmp_path):
    (row,), _, docs = _read_form(tmp_path, "2.1.11", "unified", "json", "json")
    assert row["direction"] == "mixed" and row["io_bytes"] == docs[0]["jobs"][0]["mixed"]["io_bytes"] * 1024


def test_fio_21_status_interval_interim_runtimes_in_microseconds(tmp_path):
    rows, _, docs = _read_form(tmp_path, "2.1.11", "status", "json", "json")
    assert len(docs) >= 3 and docs[0]["jobs"][0]["read"]["runtime"] > 100_000  # µs, the final report's ms
    assert [r["final"] for r in rows] == [False] * (len(docs) - 1) + [True]
    assert rows[-1]["runtime_s"] == docs[-1]["jobs"][0]["read"]["runtime"] / 1000
    times = [r["runtime_s"] for r in rows]
    assert times == sorted(times) and times[-1] < 4


@pytest.mark.parametrize("given, form", [("terse3", "terse3"), ("normal-appendterse", "normal"),
                                         ("normal-appendterse", "normal --append-terse")])
def test_fio_21_status_interval_in_terse_and_normal_output(tmp_path, given, form):
    rows, _, _ = _read_form(tmp_path, "2.1.11", "status", given, form)
    text = gzip.decompress((DATA / "2.1.11" / f"status.{given}.out.gz").read_bytes()).decode()
    assert re.search(r"runt=\s*\d{6,}msec|^3;fio-2\.1\.11;st;0;0;\d+;\d+;\d+;\d{6,};", text, re.MULTILINE)
    assert [r["final"] for r in rows] == [False] * (len(rows) - 1) + [True] and len(rows) >= 3
    times = [r["runtime_s"] for r in rows]
    assert times == sorted(times) and times[-1] < 4 and {r["run"] for r in rows} == {0}
    assert all(1000 < r["iops"] < 5000 for r in rows)  # rate_iops=2000 (the µs runtimes gave 2-3 IOPS)


@pytest.mark.parametrize("v", ["2", "3", "4", "5"])
def test_terse_io_count_is_floored_as_fio_floors_iops(tmp_path, v):
    given = "json-normal-terse2" if v == "2" else f"json-terse{v}"
    (row,), _, docs = _read_form(tmp_path, "3.42", "few-ios", given, f"terse{v}")
    r = docs[0]["jobs"][0]["read"]
    printed = 1000 * r["total_ios"] // r["runtime"]  # terse IOPS: fio floors 1000 x I/Os / ms
    assert round(printed * r["runtime"] / 1000) != r["total_ios"]  # rounding IOPS x runtime misses the count
    assert row["ios"] == r["total_ios"] == 3 and row["block_size_bytes"] == 1048576


@pytest.mark.parametrize("form", ["normal", "normal,terse"])
def test_randtrimwrite_normal_output_writes_the_trim_size(tmp_path, form):
    rows, _, docs = _read_form(tmp_path, "3.42", "trimwrite", "json-normal-terse2", form)
    write = next(r for r in rows if r["direction"] == "write")
    w = docs[0]["jobs"][0]["write"]
    assert write["block_size_bytes"] == 8192 and write["io_bytes"] == w["io_bytes"]
    assert write["bw_bytes_per_s"] == pytest.approx(w["bw_bytes"], rel=1e-6, abs=1)


def _edited_json(tmp_path, **read_fields):
    """A copy of a real fio 3.42 report with read-direction fields edited (a file fio could not write here)."""
    path = DATA / "3.42" / "aio-randread.json-normal-terse2.out.gz"
    if not path.exists():
        pytest.skip("the fio 3.42 corpus is not here")
    (_, _, doc), = _docs(gzip.decompress(path.read_bytes()).decode())
    doc["jobs"][0]["read"].update(read_fields)
    f = tmp_path / "edited.json"
    f.write_text(json.dumps(doc))
    return f, doc


def test_bandwidth_wrapped_past_2_64_is_recomputed(tmp_path):
    # 20 PB read in 2 s: fio computes 1000 x io_bytes in uint64, which wraps (stat.c add_ddir_status_json)
    io_bytes, runtime = 20 * 10**15, 2000
    ios = io_bytes // 4096  # (the count and rate of the same run: fio writes iops as 1000 x total_ios / runtime)
    f, _ = _edited_json(tmp_path, io_bytes=io_bytes, io_kbytes=io_bytes >> 10, runtime=runtime,
                        bw_bytes=(1000 * io_bytes % 2**64) // runtime, total_ios=ios, iops=1000 * ios / runtime)
    with pytest.warns(nm.IngestWarning, match="wrap past 2\\*\\*64"):
        (row,) = nm.read_results(f, errors="raise").to_dict("records")
    assert row["bw_bytes_per_s"] == pytest.approx(io_bytes / 2.0, rel=1e-12)


def test_negative_io_bytes_is_a_corrupt_file(tmp_path):
    f, _ = _edited_json(tmp_path, io_bytes=-4096)
    with pytest.raises(IngestError, match="io_bytes = -4096: expected a number >= 0"):
        nm.read_results(f, errors="raise")


@pytest.mark.parametrize("release", ["3.1", "3.42"])
def test_json_normal_with_progress_lines_before_the_report(tmp_path, release):
    rows, _, docs = _read_form(tmp_path, release, "eta", "json-normal-eta", "json,normal --eta=always 2>&1")
    text = gzip.decompress((DATA / release / "eta.json-normal-eta.out.gz").read_bytes()).decode()
    assert "\r{" in text  # the report's '{' follows a progress line ending in '\r'
    assert rows[-1]["ios"] == docs[-1]["jobs"][0]["read"]["total_ios"]


def test_terse_v3_trim_only_says_v3_has_no_trim_block(tmp_path):
    with pytest.raises(IngestError, match="terse v3 has no trim block"):
        _read_form(tmp_path, "3.42", "trim-only", "json-terse3", "terse3")


@pytest.mark.parametrize("v", ["2", "3", "4", "5"])
def test_terse_disable_lat_keeps_the_completion_maximum(tmp_path, v):
    given = "json-normal-terse2" if v == "2" else f"json-terse{v}"
    (row,), _, docs = _read_form(tmp_path, "3.42", "disable-lat", given, f"terse{v}")
    clat = docs[0]["jobs"][0]["read"]["clat_ns"]
    assert math.isnan(row["lat_mean_s"])
    assert row["lat_max_s"] == pytest.approx(clat["max"] * 1e-9, abs=1e-6)  # whole µs
    assert row["clat_p50_s"] == pytest.approx(clat["percentile"]["50.000000"] * 1e-9, abs=1e-6)
