import sys, re, os, tempfile; sys.path.insert(0, "/tmp/cw"); from lib import *
M = "/work/.mirror/dyu+vps-comparison/repo/.git"; C = "c59e0b0c3a15855dcd816219798923f27a6778af"
SIZES = ["4K", "8K", "16K", "32K", "64K", "128K"]
def blocks(path):
    text = git_blob(M, C, path).decode()
    out = []
    for sec in re.split(r"\n(?=## )", text):
        m = re.match(r"## (.+)", sec)
        if not m: continue
        prov = m.group(1).strip()
        for kind, body in re.findall(r"\*(writes|reads)\*\n```\n(.*?)```", sec, flags=re.S):
            if "fio-" in body:
                out.append((prov, kind, body))
    return out
def table(paths):
    rows = []
    tmp = tempfile.mkdtemp(dir="/tmp/cw")
    for p in paths:
        for i, (prov, kind, body) in enumerate(blocks(p)):
            # keep only the fio report: from the job line (first line naming 'myjob: (g=0)') on
            j = body.find("myjob: (g=0)")
            f = os.path.join(tmp, f"{os.path.basename(p)}.{i}.txt"); open(f, "w").write(body[j:])
            t = nm.read_results(f); t["source_path"] = f"{p}#{prov}#{kind}"; t["provider"] = prov; t["section"] = kind
            rows.append(t)
    return pd.concat(rows, ignore_index=True)
if __name__ == "__main__":
    t = table([f"fio-iodepth-32/fio-{s}.md" for s in SIZES])
    t["L"] = t.iops * t.lat_mean_s
    print(t[["provider","section","pattern","block_size_bytes","iodepth","ioengine","iops","bw_bytes_per_s","lat_mean_s","L","devices","runtime_s"]].sort_values(["provider","section","block_size_bytes"]).to_string())
