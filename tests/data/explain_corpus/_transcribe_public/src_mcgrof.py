import sys, glob, re, os; sys.path.insert(0, "/tmp/cw"); from lib import *
ROOT = "/tmp/cw/mcgrof"
REPO = "mcgrof/fio-tests"; c = "b90df76d0185df5be765697b97ca6f07f7989a28"
LIC = "GPL-2.0 (repository LICENSE: 'fio-tests is licensed under the GPLv2.'); not in the copyable list, so numbers transcribed, files not copied"
def load(d, rwmix=None):
    fs = sorted(glob.glob(f"{ROOT}/tests/{d}/*.out"))
    t = nm.read_results(fs)
    t["source_path"] = t["source_path"].map(lambda s: "tests-demo-results.tar.xz:" + s[len(ROOT) + 1:])
    m = t["source_path"].str.extract(r"bs(\d+)k-(\d+)j-(\d+)qd-(\w+)\.ini\.out")
    # labels the terse-v3 lines do not carry, read from the file name (bs<k>k-<jobs>j-<qd>qd-<rw>.ini.out) and the template
    t["block_size_bytes"] = m[0].astype(float) * 1024; t["numjobs"] = m[1].astype("Int64"); t["iodepth"] = m[2].astype("Int64")
    t["pattern"] = m[3]; t["ioengine"] = "libaio"; t["direct"] = True
    t["read_fraction"] = rwmix if rwmix is not None else t["pattern"].map({"randread": 1.0, "read": 1.0, "randwrite": 0.0, "write": 0.0})
    paths = sorted(set(t["source_path"]))
    return t, paths
NOTE = ("terse v3 lines do not carry iodepth, numjobs, rw or bs: those columns of points.csv are read from each file's name "
        "(e.g. '0009-bs4k-1j-256qd-randread.ini.out' = bs 4k, 1 job, iodepth 256, randread) and ioengine=libaio, direct=1 from "
        "templates/0001-basic-template.ini.in; every measured column is nvmemodel.read_results of the file")
def src(paths, quote):
    return {"repo": REPO, "paths": paths, "commit": c, "licence": LIC, "copied": False,
            "archive": "tests-demo-results.tar.xz (blob bc07b8bd2026c6713a5c5bb4d258ddb878ef0225), members extracted with tar xJf",
            "quote": quote, "transcription": NOTE,
            "device": "README: 'filename=/dev/nvme0n1' (raw NVMe namespace; drive model not stated)"}

t, p = load("0001-basic-tests/0004-randread")
write_case("mcgrof_nvme_4k-randread_qd1-4096", table=t, x="iodepth", source=src(p,
    "README ('A demo run'): 'The demo untars a collection or a previously run set of all tests'; job template: 'threads=1 ... ioengine=libaio direct=1 ... iodepth=@IODEPTH@ numjobs=@NUMJOBS@'"),
    kind="NVMe namespace (model not stated), raw device, one libaio job", fio_version="fio-3.8-83-g24a9", author_cause=None,
    reading=("One job, 4 KiB random reads, iodepth 1-4096 (13 runs of 300 s): 9.2 K IOPS at QD1 (108 us), near-linear to "
             "QD32 (202 K; latency 108 -> 158 us), +24 % to QD64 (250 K), then 248-249 K to QD512 and a slow slide to 236 K "
             "at QD4096 (-5.6 %, latency 17 ms). fio's CPU for the single job is 0.82 at QD32 and 0.998 from QD64 on: the "
             "plateau is the submitting job's CPU (about 4 us of CPU per I/O), not the drive; the same drive gives 620-667 K "
             "IOPS with 2-64 jobs (case mcgrof_nvme_4k-randread_qd256_numjobs). The slow decline at very deep queues is the "
             "cost of managing thousands of in-flight I/O on the same saturated CPU."),
    expect={"saturation": "onset", "onset_x": [32, 64], "plateau_iops": [2.35e5, 2.51e5], "plateau_bytes_per_s": [9.6e8, 1.03e9],
            "cap": None, "cpu_bound": True, "layer": None, "mix_below_harmonic": None, "falls": None})

t, p = load("0004-maxiobatch-jobs/0004-maxiobatch-randread/0001-256qd-randread")
write_case("mcgrof_nvme_4k-randread_qd256_numjobs", table=t, x="numjobs", source=src(p,
    "README ('70/30 demo for 0004-maxiobatch-jobs test'): 'Each test multiplies the numbe of jobs by 2.' and 'iodepth_batch_submit=4096 iodepth_batch_complete_min=4096 iodepth_batch_complete_max=4096'"),
    kind="NVMe namespace (model not stated), raw device, jobs sweep at iodepth 256 with batched submit/complete", fio_version="fio-3.8-83-g24a9",
    author_cause="README, for the 70/30 profile of the same test: 'The graph below tell us that after about 8 threads we don't really achieve much better bandwidth.'",
    reading=("4 KiB random reads, iodepth 256 per job with batched submission, 1-64 jobs: 380 K IOPS at one job with that job "
             "at 0.998 CPU (CPU-bound), 631 K at two jobs (each 0.994 CPU: still both busy), then 621-667 K for 4-64 jobs "
             "(spread +-4 %, no trend) while latency grows with the jobs (1.6 -> 25 ms) and per-job CPU falls (0.70 -> 0.07): "
             "the drive's random-read ceiling of roughly 650 K IOPS (2.6-2.7 GB/s), reached at two jobs. The author's 'after "
             "about 8 threads' (for the 70/30 mix) is later than what these read data show (2 jobs)."),
    expect={"saturation": "onset", "onset_x": [1, 2], "plateau_iops": [6.2e5, 6.7e5], "plateau_bytes_per_s": [2.54e9, 2.74e9],
            "cap": None, "cpu_bound": None, "layer": None, "mix_below_harmonic": None, "falls": False})

t, p = load("0001-basic-tests/0003-randwrite")
write_case("mcgrof_nvme_4k-randwrite_qd1-4096", table=t, x="iodepth", source=src(p,
    "job template: 'threads=1 ... ioengine=libaio direct=1 ... rw=@RW@'"),
    kind="NVMe namespace (model not stated), raw device, random writes, one job", fio_version="fio-3.8-83-g24a9", author_cause=None,
    reading=("One job, 4 KiB random writes: 74 K IOPS at QD1 (13 us: the drive's write cache acknowledges), 137 K at QD2, "
             "207 K at QD4 with the job at 0.94 CPU, then 194-219 K from QD8 to QD4096 with the job at 0.99-0.998 CPU while "
             "latency grows with QD (37 us -> 21 ms). Saturated at QD4 by the single job's CPU (about 4.6 us of CPU per I/O), "
             "not by the drive; a slight decline past QD512 (219 K peak -> 192 K, -12 %)."),
    expect={"saturation": "onset", "onset_x": [4, 8], "plateau_iops": [1.9e5, 2.2e5], "plateau_bytes_per_s": [7.8e8, 9.0e8],
            "cap": None, "cpu_bound": True, "layer": None, "mix_below_harmonic": None, "falls": None})

t, p = load("0001-basic-tests/0005-randwrite-70-30", rwmix=0.7)
write_case("mcgrof_nvme_4k-randrw7030_qd1-4096", table=t, x="iodepth", source=src(p,
    "README ('Demo graphs - Using the 70 % read / 30 % write profile'): 'rw=randrw rwmixread=70'; for the 0003 variant of this test: 'at IO depth of 512 we've already maximized the bandwidth'"),
    kind="NVMe namespace (model not stated), raw device, 70/30 random mix, one job", fio_version="fio-3.1", author_cause=None,
    reading=("One job, 4 KiB random 70/30 read/write (these files are fio-3.1, an earlier run than the randread/randwrite "
             "series): total (read+write) 17.8 K IOPS at QD1, 71 K at QD8, 174 K at QD32, 220 K at QD64 (job CPU 0.95), "
             "242 K at QD128 (+10 %, job CPU 0.996), then 219-233 K to QD4096 while latency grows with QD. The plateau is "
             "the one job's CPU (>= 0.95 CPU from QD64); reads keep 70 % of the I/O throughout. Onset between QD64 and QD128 "
             "(the last doubling that paid +10 % ends at 128)."),
    expect={"saturation": "onset", "onset_x": [64, 128], "plateau_iops": [2.17e5, 2.43e5], "plateau_bytes_per_s": [8.9e8, 1.0e9],
            "cap": None, "cpu_bound": True, "layer": None, "mix_below_harmonic": None, "falls": None})
