import sys; sys.path.insert(0, "/tmp/cw"); from lib import *
M = "/work/.mirror/BU-DiSC+SSD-Benchmark/repo"; c = "3e6881d4491314463b6bd1280eb1c4761863966f"
REPO = "BU-DiSC/SSD-Benchmark"; LIC = "none stated in the repository (numbers transcribed as facts, files not copied)"
README = "README: 'File formated as `blocksize_readwritemode_threads`, for example: 8k_r_5 stands for read 8k blocks using 5 threads'"
def src(paths, what):
    return {"repo": REPO, "paths": paths, "commit": c, "licence": LIC, "copied": False,
            "quote": f"{README}; '{what}'", "transcription": "points.csv = nvmemodel.read_results of the fio normal-output files at this commit (source_path = repo path), columns unchanged"}

paths = [f"results/optane/4G_3.35/4k_r_{n}.txt" for n in range(1, 11)]
t, _ = read_blobs(M, c, paths)
write_case("budisc_optane-p4800x_4k-randread_qd128_numjobs", table=t, x="numjobs",
    source=src(paths, "`optane` -> Intel Optane P4800X with 375 GB capacity. Tested when space are running out (~50 GB left out of 375 GB)"),
    kind="enterprise NVMe, Intel Optane P4800X 375 GB (3D XPoint)", fio_version="fio-3.35", author_cause=None,
    reading=("libaio, 4 KiB random reads, iodepth 128 per job, 1-10 jobs on a file in a filesystem on nvme1n1. One job: 388 K IOPS "
             "with that job at 0.998 CPU (usr+sys): the single submitting job is CPU-bound (2.6 us of CPU per I/O). Two jobs: "
             "507 K IOPS, and 507.3-507.6 K IOPS (+-0.05 %) for 3-10 jobs while mean latency grows in proportion to the jobs "
             "(0.50 -> 2.52 ms; Little's law: IOPS x latency = 128 x jobs): the drive's own 4 KiB random-read rate, reached at "
             "the second point; per-job CPU falls to 0.25 as jobs wait. With QD 128 per job an Optane drive (~10 us service "
             "time) is far deeper than it needs, so latency is almost all queueing. cpu_bound left null: the first point is "
             "CPU-bound, the plateau is not."),
    expect={"saturation": "onset", "onset_x": [1, 2], "plateau_iops": [5.05e5, 5.1e5], "plateau_bytes_per_s": [2.06e9, 2.09e9],
            "cap": None, "cpu_bound": None, "layer": None, "mix_below_harmonic": None, "falls": False})

paths = [f"results/p4510/4G_3.35/128k_r_{n}.txt" for n in range(1, 11)]
t, _ = read_blobs(M, c, paths)
write_case("budisc_p4510_128k-seqread_qd128_numjobs", table=t, x="numjobs", y="bytes_per_s",
    source=src(paths, "`p4510` -> Intel DC P4510 with 1 TB capacity. Tested when space are running out (~60 GB left out of 1 TB)"),
    kind="enterprise TLC NVMe, Intel DC P4510 1 TB (PCIe 3.0 x4)", fio_version="fio-3.35", author_cause=None,
    reading=("128 KiB sequential reads, iodepth 128 per job, 1-10 jobs: 2.98 GB/s with one job, then 2.62-2.82 GB/s for 2-10 "
             "jobs while latency grows with the jobs (5.6 -> 61.7 ms; IOPS x latency = 128 x jobs). Saturated from the first "
             "point: one job with 128 x 128 KiB outstanding already fills the drive's read bandwidth (and 3 GB/s is close to what "
             "a PCIe 3.0 x4 link carries after protocol overhead, ~3.2-3.5 GB/s). The 8-12 % lower rate with 2+ jobs is "
             "plausibly several interleaved sequential streams looking less sequential to the drive; no repeats, so 'falls' is "
             "left undecided. CPU per job tiny (0.11 at one job)."),
    expect={"saturation": "from_first", "onset_x": None, "plateau_iops": [1.99e4, 2.28e4], "plateau_bytes_per_s": [2.6e9, 3.0e9],
            "cap": None, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": None})

paths = [f"results/p4510/4G_3.35/4k_w_{n}.txt" for n in range(1, 11)]
t, _ = read_blobs(M, c, paths)
write_case("budisc_p4510_4k-randwrite_qd128_numjobs", table=t, x="numjobs",
    source=src(paths, "`p4510` -> Intel DC P4510 with 1 TB capacity. Tested when space are running out (~60 GB left out of 1 TB)"),
    kind="enterprise TLC NVMe, Intel DC P4510 1 TB, random writes", fio_version="fio-3.35", author_cause=None,
    reading=("4 KiB random writes, iodepth 128 per job, 1-10 jobs (runs in the order 1..10 presumably, one run each): 150 K IOPS "
             "at one job (job CPU 0.39, not CPU-bound), 245 K at two (+63 %), a peak of 266 K at four (+8.7 % for twice the "
             "jobs: saturation), then a steady fall to 215 K at ten (-19 % from the peak, monotone over six steps) while "
             "latency grows faster than the jobs. The fall is plausibly the drive's write path (garbage collection on a drive "
             "with ~60 GB free, as the README notes) rather than the host: a drive-state effect that only a time series "
             "could confirm; the decline itself is measured."),
    expect={"saturation": "onset", "onset_x": [2, 4], "plateau_iops": [2.14e5, 2.66e5], "plateau_bytes_per_s": [8.7e8, 1.09e9],
            "cap": None, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": True})

paths = [f"results/nvm_nofs/4k_r_{n}.txt" for n in range(1, 11)]
t, _ = read_blobs(M, c, paths)
write_case("budisc_samsung-nvme-raw_4k-randread_qd128_numjobs", table=t, x="numjobs",
    source=src(paths, "`nvm_nofs` -> Extra Samsung NVMe SSD tested when bypassing the file system."),
    kind="enterprise NVMe (Samsung, model not stated, 1.92 TB), raw device", fio_version="fio-3.35", author_cause=None,
    reading=("4 KiB random reads on the raw device, iodepth 128 per job: 621 K IOPS at one job (job CPU 0.78), 910 K at two "
             "(+47 %), then 912-913 K (+-0.1 %) to ten jobs while latency grows with the jobs (0.28 -> 1.40 ms, Little's law "
             "holding): the drive's random-read ceiling (3.74 GB/s) reached at two jobs. One job at 0.78 CPU is near, not at, "
             "its CPU limit, so the first point is partly host-limited; the plateau is the device."),
    expect={"saturation": "onset", "onset_x": [1, 2], "plateau_iops": [9.05e5, 9.2e5], "plateau_bytes_per_s": [3.7e9, 3.77e9],
            "cap": None, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": False})
