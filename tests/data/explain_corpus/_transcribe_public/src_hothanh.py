import sys; sys.path.insert(0, "/tmp/cw"); from lib import *
M = "/work/.mirror/HoThanh7+RPI_ECSE_4320_Fall_25_Projects/repo"; c = "0bd04fbf1e77ff99d911709e294899eca9d8a1a2"
REPO = "HoThanh7/RPI_ECSE_4320_Fall_25_Projects"; LIC = "none stated in the repository (numbers transcribed as facts, files not copied)"
D = "ClassWideProjectsOct/Project_3/fio-results"
HOST = ("README (Project_3): 'CPU: [AMD Ryzen 7 7800X3D]', 'OS: Arch Linux x86_64', 'Kernel: 6.16.8-arch3-1', 'fio version: 3.39', "
        "'Test device used: /dev/nvme0n1 (dedicated test device) with test file'; SSD model left as a placeholder")
def src(paths, quote):
    return {"repo": REPO, "paths": paths, "commit": c, "licence": LIC, "copied": False, "quote": HOST + "; " + quote,
            "transcription": "points.csv = nvmemodel.read_results of the fio JSON files at this commit (source_path = repo path), columns unchanged",
            "also_in": "../shared/data/real/fio_json/hothanh7_* (the QD files)"}

paths = [f"{D}/qd_{q}.json" for q in [1, 2, 4, 8, 16, 32, 64, 128]]
t, _ = read_blobs(M, c, paths)
write_case("hothanh7_consumer-nvme_4k-randread_qd", table=t, x="iodepth",
    source=src(paths, "README: 'The knee in the trade-off curve indicates the concurrency level where throughput gain begins to diminish while latency increases rapidly.'; plots/qd_little_law.txt: '32,314367.62,1228.00,99.103,...' "),
    kind="consumer-class NVMe (model not stated) in a desktop (Ryzen 7 7800X3D), file on a filesystem", fio_version="fio-3.39",
    author_cause="'The knee in the trade-off curve indicates the concurrency level where throughput gain begins to diminish while latency increases rapidly.' (no cause named)",
    reading=("One libaio job, 4 KiB random reads, QD 1-128: 23.6 K IOPS at QD1 (42 us), nearly linear to QD16 (272 K, latency "
             "only 42 -> 59 us), +16 % to QD32 (314 K), then flat (313.6-314.9 K) while latency doubles per doubling "
             "(102 -> 204 -> 406 us): saturation onset at QD32 with a plateau of ~314 K IOPS (1.29 GB/s); Little's law holds "
             "(IOPS x latency = QD). The job's CPU is 0.77 at QD32-128, constant on the plateau: below the 90 % CPU-bound "
             "threshold, so these data do not show a CPU-bound job; whether the drive or one job's submission path sets "
             "314 K would need a numjobs sweep."),
    expect={"saturation": "onset", "onset_x": [16, 32], "plateau_iops": [3.12e5, 3.16e5], "plateau_bytes_per_s": [1.28e9, 1.295e9],
            "cap": None, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": False})

paths = [f"{D}/bsweep_randread_{s}.json" for s in ["4k", "16k", "32k", "64k", "128k", "256k"]]
t, _ = read_blobs(M, c, paths)
write_case("hothanh7_consumer-nvme_randread_qd1_bs", table=t, x="block_size_bytes", y="bytes_per_s",
    source=src(paths, "README: 'The block-size sweep results (bsweep) are shown below. IOPS and mean latency (us) were extracted from fio-results.csv and plotted.'"),
    kind="consumer-class NVMe, QD1 block-size sweep (random reads)", fio_version="fio-3.39", author_cause=None,
    reading=("Random reads at iodepth 1, one job, 4-256 KiB: every point is one outstanding I/O, so IOPS = 1 / latency "
             "(IOPS x latency = 0.996-0.998). 19.4 K IOPS at 4 KiB (51 us) down to 8.0 K at 256 KiB (124 us); bandwidth rises "
             "all the way (79 MB/s -> 2.10 GB/s, x1.78 for the last doubling). Neither an IOPS cap nor a byte cap is reached: "
             "the limit everywhere is one I/O in flight (the device's read latency, ~45-50 us of flash read plus transfer "
             "time growing with size). Any 'IOPS ceiling' from these points is the QD1 latency, not the drive's rate."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None, "cap": None,
            "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": None})

paths = [f"{D}/bsweep_read_{s}.json" for s in ["4k", "16k", "32k", "64k", "128k", "256k"]]
t, _ = read_blobs(M, c, paths)
write_case("hothanh7_consumer-nvme_seqread_qd1_bs", table=t, x="block_size_bytes", y="bytes_per_s",
    source=src(paths, "README: 'Block-size sweep — plot + analysis.'"),
    kind="consumer-class NVMe, QD1 block-size sweep (sequential reads)", fio_version="fio-3.39", author_cause=None,
    reading=("Sequential reads at iodepth 1: 80.4 K IOPS at 4 KiB with 12 us mean latency (far below a flash read: the "
             "drive's read-ahead serves it), 2.78 GB/s at 128 KiB and 2.92 GB/s at 256 KiB (+5 % for twice the size). The "
             "per-I/O time grows almost in proportion to size above 64 KiB (47 -> 89 us), i.e. a transfer rate of about "
             "3.1 GB/s (marginal 64->128 KiB: 3.7 GB/s; 128->256 KiB: 3.1 GB/s): the byte rate one outstanding sequential "
             "stream gets, approached but flat over only the last two sizes. Small sizes are per-I/O-time bound (QD1)."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
            "cap": {"iops": None, "bytes_per_s": [2.92e9, 3.8e9]}, "cpu_bound": False, "layer": None,
            "mix_below_harmonic": None, "falls": False})

paths = [f"{D}/{n}" for n in ["baseline_randwrite_4k.json", "mix_50r.json", "mix_70r.json", "mix_100r.json"]]
t, _ = read_blobs(M, c, paths)
write_case("hothanh7_consumer-nvme_4k-randrw_qd1_readshare", table=t, x="read_fraction",
    source=src(paths, "README: 'The read/write mix sweep (4 KiB fixed block size, varying read/write mix) results are shown below. Throughput (MiB/s) and latency (mean us) were collected for the mixtures 100%R, 70/30R/W, and 50/50.' (the 0 % read point is the author's baseline_randwrite_4k run, same bs, QD1, job)"),
    kind="consumer-class NVMe, read-share sweep at QD1", fio_version="fio-3.39", author_cause=None,
    reading=("4 KiB random I/O at QD1, one job. Pure reads 19.40 K IOPS (51 us), pure writes 38.65 K IOPS (26 us, the "
             "drive's write cache acknowledges faster than a flash read). Mixes (sum of both directions): 70 % read 22.13 K, "
             "50 % read 24.55 K. The harmonic mix from the pure runs (1/X = r/R + (1-r)/W) predicts 22.81 K and 25.83 K: the "
             "mixes are 3 % and 5 % below it. Read latency is unchanged in the mixes (50 us) but write latency rises from 26 to "
             "31-33 us: the writes are slowed by the interleaved reads. Mixes are faster than pure reads only because writes "
             "are cheaper at QD1. One run per point: the 3-5 % deficit is small; the write-latency rise supports it."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None, "cap": None,
            "cpu_bound": False, "layer": None, "mix_below_harmonic": True, "falls": None},
    extra={"mix_harmonic_deficit": {"0.7": 0.030, "0.5": 0.050}})
