"""Helpers to build explain-corpus cases (public half). Run from /work/main."""
import json, subprocess, tempfile, shutil, os, math
from pathlib import Path
import pandas as pd
import nvmemodel as nm

CORPUS = Path("/work/main/tests/data/explain_corpus")
POINT_COLS = ["source_path", "run", "group_id", "job_index", "tool", "tool_version", "format", "job_name", "pattern", "direction", "read_fraction",
              "block_size_bytes", "iodepth", "numjobs", "ioengine", "direct", "targets", "devices", "device_count",
              "runtime_s", "iops", "bw_bytes_per_s", "lat_mean_s", "clat_mean_s", "clat_p99_s", "cpu_usr", "cpu_sys",
              "level", "is_aggregate"]
pd.set_option("display.width", 250); pd.set_option("display.max_columns", 40); pd.set_option("display.max_rows", 300)

def git_blob(mirror, commit, path):
    return subprocess.run(["git", "--git-dir", mirror, "show", f"{commit}:{path}"], check=True, capture_output=True).stdout

def read_blobs(mirror, commit, paths, name=lambda p: os.path.basename(p)):
    """Read result files from a mirror at a commit; return (table with source_path = repo path, {name: bytes})."""
    tmp = Path(tempfile.mkdtemp(dir="/tmp/cw"))
    blobs, back = {}, {}
    for p in paths:
        n = name(p)
        assert n not in blobs, n
        blobs[n] = git_blob(mirror, commit, p)
        (tmp / n).write_bytes(blobs[n]); back[str(tmp / n)] = p
    t = nm.read_results([str(tmp / n) for n in blobs])
    t["source_path"] = t["source_path"].map(lambda s: back.get(s, s))
    shutil.rmtree(tmp)
    return t, blobs

def select(t, sel):
    for k, v in (sel or {}).items():
        t = t[t[k].isin(v if isinstance(v, list) else [v])]
    return t

def summary(t, x, by=None):
    t = t.copy()
    t["outst"] = t["iodepth"].astype(float) * t["numjobs"].astype(float)
    t["L=X*R"] = t["iops"] * t["lat_mean_s"]
    t["cpu"] = t["cpu_usr"] + t["cpu_sys"]
    cols = [c for c in [by, x, "pattern", "direction", "block_size_bytes", "iodepth", "numjobs", "iops", "bw_bytes_per_s",
                        "lat_mean_s", "L=X*R", "cpu", "devices"] if c and c in t]
    cols = list(dict.fromkeys(cols))
    print(t[cols].sort_values([c for c in [by, x] if c]).to_string())

def write_case(cid, *, table, x, y="iops", by=None, select_=None, blobs=None, raw_names=None, source, kind, fio_version,
               author_cause, reading, expect, described_in_issue=False, extra=None, points_note=None, fit_model_check=True, raw_readable=True):
    d = CORPUS / cid
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    from nvmemodel.ingest.schema import COLUMNS
    cols = [c for c in POINT_COLS if c in table.columns] + [c for c in table.columns if c not in COLUMNS and c not in POINT_COLS]
    pts = table[cols].copy()
    pts.to_csv(d / "points.csv", index=False)
    if blobs:
        (d / "raw").mkdir()
        for n, b in blobs.items():
            (d / "raw" / n).write_bytes(b)
    case = {"id": cid, "corpus_half": "public", "source": source, "kind": kind, "fio_version": fio_version,
            "fit": {"table": "points.csv", "raw": "raw/" if (blobs and raw_readable) else None, "select": select_ or {}, "x": x, "y": y, "by": by},
            "author_cause": author_cause, "reading": reading, "expect": expect,
            "described_in_issue": described_in_issue}
    if points_note:
        case["points_note"] = points_note
    if extra:
        case.update(extra)
    (d / "case.json").write_text(json.dumps(case, indent=2, ensure_ascii=False) + "\n")
    check(cid)

def check(cid):
    d = CORPUS / cid
    case = json.loads((d / "case.json").read_text())
    f = case["fit"]
    t = pd.read_csv(d / "points.csv")
    try:
        r = nm.fit(t, x=f["x"], y=f["y"], by=f["by"])
    except ValueError as e:
        if f["x"] != "read_fraction":
            raise
        print(f"--- {cid}: nm.fit refuses x=read_fraction today (issue 28 item 3): {e}")
        return
    print(f"--- {cid}: fit ok on points.csv ({len(t)} rows)")
    print(r.explain()[:1500])
    if f.get("raw"):
        raw = nm.read_results(str(d / "raw"))
        raw = select(raw, f["select"])
        assert len(raw) == len(t), (len(raw), len(t))
        for col in ["iops", "bw_bytes_per_s"]:
            a = raw.sort_values(["source_path", "direction"])[col].to_numpy(); b = t.sort_values(["source_path", "direction"])[col].to_numpy()
        nm.fit(raw, x=f["x"], y=f["y"], by=f["by"])
        print(f"    raw/ read + select -> {len(raw)} rows, fit ok")
