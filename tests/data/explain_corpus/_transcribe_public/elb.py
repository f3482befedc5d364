import sys, io; sys.path.insert(0, "/tmp/cw"); from lib import *
M = "/work/.mirror/glennklockwood+elbencho-test/repo"; C = "797d01f7bba5d4be986430a366d8bba4ca268929"
def elb(d, pre, job, ns, hosts):
    rows = []; paths = []
    for n in ns:
        p = f"{d}/{pre}.{n}threads.{job}.csv"; paths.append(p)
        df = pd.read_csv(io.BytesIO(git_blob(M, C, p)))
        r = df[df["operation"].isin(["WRITE", "READ"])]
        assert len(r) == 1, (p, len(r)); r = r.iloc[0]
        op = r["operation"].lower()
        rows.append({"source_path": p, "tool": "elbencho", "tool_version": r["version"], "format": "elbencho-csv",
                     "job_name": pre, "pattern": op if not r["random"] else "rand" + op, "direction": op,
                     "read_fraction": 1.0 if op == "read" else 0.0, "block_size_bytes": float(r["block size"]),
                     "iodepth": int(r["IO depth"]), "numjobs": int(r["threads"]) * int(r["hosts"]), "direct": bool(r["direct IO"]),
                     "runtime_s": r["time ms [last]"] / 1000, "iops": float(r["IOPS [last]"]),
                     "bw_bytes_per_s": float(r["MiB/s [last]"]) * 1048576, "lat_mean_s": float(r["IO lat us [avg]"]) * 1e-6,
                     "threads_per_host": int(r["threads"]), "hosts": int(r["hosts"]), "elbencho_cpu_pct_last": r["CPU% [last]"],
                     "path": r["command"].split('"')[-2] if r["command"].count('"') >= 2 else None})
    return pd.DataFrame(rows), paths
if __name__ == "__main__":
    for a in [("results.cgpu/elbencho-scaling/2799486", "bw-direct", "2799486", ["01","02","04","08","16","24","32"], 4),
              ("results.coribb/elbencho-scaling", "iops-direct", "56977775", ["01","02","04","08","16","24","32"], 4),
              ("results.coribb/elbencho-scaling", "bw-direct", "56126653", ["02","04","08","16","24","32","48","64"], 4),
              ("results.perlmutter/elbencho-scaling", "bw-direct", "1524250", ["01","02","04","08","16"], 4)]:
        try:
            t, p = elb(*a); t["L"] = t.iops * t.lat_mean_s
            print(t[["numjobs","pattern","block_size_bytes","iodepth","iops","bw_bytes_per_s","lat_mean_s","L","elbencho_cpu_pct_last","path"]].to_string())
        except Exception as e: print("ERR", a, e)
