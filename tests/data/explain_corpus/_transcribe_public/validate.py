import json, warnings, math
from pathlib import Path
import pandas as pd, nvmemodel as nm
C = Path("tests/data/explain_corpus")
KEYS = {"saturation", "onset_x", "plateau_iops", "plateau_bytes_per_s", "cap", "cpu_bound", "layer", "mix_below_harmonic", "falls"}
LAYERS = {None, "page_cache", "loop", "dm", "md", "nbd", "rbd", "virtio", "network_fs", "beyond_device"}
bad = 0; rows = []
for p in sorted(C.glob("*/case.json")):
    k = json.loads(p.read_text())
    if k.get("corpus_half") != "public": continue
    d = p.parent; errs = []
    for f in ["id", "source", "kind", "fio_version", "fit", "author_cause", "reading", "expect", "described_in_issue"]:
        if f not in k: errs.append(f"missing {f}")
    if k["id"] != d.name: errs.append("id != folder")
    if "split" in k: errs.append("has split")
    s = k["source"]
    for f in ["paths", "commit", "licence", "copied", "quote"]:
        if f not in s: errs.append(f"source.{f} missing")
    exps = k["expect"].values() if k.get("expect_by") else [k["expect"]]
    for e in exps:
        if set(e) != KEYS: errs.append(f"expect keys {set(e) ^ KEYS}")
        if e["saturation"] not in (None, "from_first", "onset", "rising"): errs.append("saturation value")
        if e["layer"] not in LAYERS: errs.append("layer value")
        for r in [e["onset_x"], e["plateau_iops"], e["plateau_bytes_per_s"]] + ([e["cap"]["iops"], e["cap"]["bytes_per_s"]] if e["cap"] else []):
            if r is not None and not (len(r) == 2 and r[0] <= r[1]): errs.append(f"range {r}")
    t = pd.read_csv(d / "points.csv")
    f = k["fit"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nm.fit(t, x=f["x"], y=f["y"], by=f["by"])
        try:
            n_claims = len(r.claims())
        except Exception as ex:
            n_claims = f"claims() raised {type(ex).__name__}"
    if f.get("raw"):
        raw = nm.read_results(str(d / f["raw"]))
        for col, v in f["select"].items(): raw = raw[raw[col] == v]
        if len(raw) != len(t): errs.append(f"raw rows {len(raw)} != points {len(t)}")
    if s["copied"] != (d / "raw").exists(): errs.append("copied flag vs raw/")
    if errs: bad += 1
    rows.append((d.name, len(t), f["x"], f["y"], n_claims, "; ".join(errs) or "ok"))
for r in rows: print(*r, sep=" | ")
print(len(rows), "public cases,", bad, "with problems")
