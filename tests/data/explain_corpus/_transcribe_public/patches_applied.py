"""Edits made by hand to four case.json files after their src_*.py run (run once, after src_budisc.py / src_mcgrof.py / src_fioplot.py).
Re-running those scripts rewrites the folders; apply this afterwards to get the committed case.json."""
import json
def patch(cid, f):
    p = f"tests/data/explain_corpus/{cid}/case.json"; k = json.load(open(p)); f(k); open(p, "w").write(json.dumps(k, indent=2, ensure_ascii=False) + "\n")
def a(k):
    k["expect"]["cpu_bound"] = False; k["cpu_bound_points"] = [1, 2]
    k["reading"] += (" On CPU: at one and two jobs each job is at 0.99-0.998 CPU, but 4-64 jobs (per-job CPU 0.70 -> 0.07, spare CPU) "
                     "give no more IOPS: the plateau is the drive, not the submitting CPU, even though the jobs at the onset happen to be busy "
                     "(a rule 'CPU >= 90 % at the onset => CPU-bound' would misread this case). cpu_bound_points lists where a job is CPU-bound.")
patch("mcgrof_nvme_4k-randread_qd256_numjobs", a)
def b(k):
    k["expect"]["cpu_bound"] = False; k["cpu_bound_points"] = [1]
    k["reading"] = k["reading"].replace(" cpu_bound left null: the first point is CPU-bound, the plateau is not.", " expect.cpu_bound is about the plateau (false: 3-10 jobs with spare CPU add nothing); the first point (numjobs 1) is CPU-bound (cpu_bound_points).")
patch("budisc_optane-p4800x_4k-randread_qd128_numjobs", b)
patch("mcgrof_nvme_4k-randread_qd1-4096", lambda k: k.__setitem__("cpu_bound_points", [64, 128, 256, 512, 1024, 2048, 4096]))
patch("mcgrof_nvme_4k-randwrite_qd1-4096", lambda k: k.__setitem__("cpu_bound_points", [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]))
patch("mcgrof_nvme_4k-randrw7030_qd1-4096", lambda k: k.__setitem__("cpu_bound_points", [64, 128, 256, 512, 1024, 2048, 4096]))
patch("fioplot_mdraid0-4ssd_4k-randread_qd", lambda k: k.__setitem__("cpu_bound_points", [64]))
