import sys; sys.path.insert(0, "/tmp/cw"); from lib import *
M = "/work/.mirror/AIALRA-0+ECSE-4320-Advanced-Computer-Systems/repo"; c = "609ac2f554ef119cf0345d7cb9657e25073fc518"
REPO = "AIALRA-0/ECSE-4320-Advanced-Computer-Systems"; LIC = "none stated in the repository (numbers transcribed as facts, files not copied)"
D = "Project3 SSD/results"
Q = ("Project3 SSD/mix_rw_test.bash: ': \"${ENGINE:=io_uring}\"', ': \"${REPEAT:=3}\"  # Repetitions per mix case', ': \"${RUNTIME:=30}\"', "
     "': \"${RAMP:=5}\"  # Warm-up time (seconds)', ': \"${IODEPTH:=32}\"'; fio-3.36, io_uring, direct=1, a 64G file on a filesystem on nvme1n1 (disk_util); SSD model not stated")
TR = "points.csv = nvmemodel.read_results of the JSON files at this commit (source_path = repo path); three repeats per point (files *_1/_2/_3.json)"
def src(ps, q): return {"repo": REPO, "paths": ps, "commit": c, "licence": LIC, "copied": False, "quote": Q + "; " + q, "transcription": TR}
nm_ = lambda p: p.split("/")[-1]

ps = [f"{D}/qd_sweep/qd{q}_{r}.json" for q in [1, 2, 4, 8, 16, 32, 64, 128] for r in [1, 2, 3]]
t, _ = read_blobs(M, c, ps, name=nm_)
write_case("aialra0_nvme_4k-randread_qd_repeats", table=t, x="iodepth", source=src(ps, "Project3 SSD/qd_sweep_test.bash (QD 1..128, 3 repeats)"),
    kind="NVMe SSD (model not stated), one io_uring job, QD sweep with 3 repeats per point", fio_version="fio-3.36", author_cause=None,
    reading=("4 KiB random reads, one io_uring job, QD 1-128, three 30 s repeats per QD (repeats within +-0.5 %): 12.5 K IOPS at QD1 "
             "(79 us), 68.7 K at QD8, 102 K at QD16 (+48 %), 133.8 K at QD32 (+31 %), 145.1 K at QD64 (+8.4 %: below 10 % for twice the "
             "latency, 239 -> 441 us) and 148.6 K at QD128 (+2.4 %, latency 861 us). Saturated (onset QD32, near-flat 134-149 K) with "
             "the repeats showing the last +2.4 % is real but negligible against a doubling of latency. Job CPU 0.32-0.36: not "
             "CPU-bound. Little's law holds (IOPS x latency = QD)."),
    expect={"saturation": "onset", "onset_x": [16, 64], "plateau_iops": [1.33e5, 1.49e5], "plateau_bytes_per_s": [5.45e8, 6.1e8],
            "cap": None, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": False}, extra={"repeats": 3})

ps = [f"{D}/bs_sweep/randread_bs{b}_{r}.json" for b in ["4k", "16k", "32k", "64k", "128k", "256k", "512k", "1m"] for r in [1, 2, 3]]
t, _ = read_blobs(M, c, ps, name=nm_)
write_case("aialra0_nvme_randread_qd32_bs_repeats", table=t, x="block_size_bytes", y="bytes_per_s", source=src(ps, "Project3 SSD/bs_sweep_test.bash (4k..1m, 3 repeats)"),
    kind="NVMe SSD (model not stated), random-read block-size sweep at QD32 with 3 repeats", fio_version="fio-3.36", author_cause=None,
    reading=("Random reads at QD32, three repeats per size (within +-0.2 % except one 512 KiB repeat at -22 %): 145.5 K IOPS at 4 KiB "
             "(596 MB/s) but only 40.1 K at 16 KiB (658 MB/s: bandwidth almost unchanged for 4x the size, latency 220 -> 797 us), then "
             "1.00 / 1.63 / 2.32 / 2.69 GB/s at 32 KiB-256 KiB and 3.0 / 3.1 GB/s at 512 KiB / 1 MiB. Not a roofline: no IOPS level "
             "is flat over sizes (IOPS fall 3.6x from 4 to 16 KiB), and 4-16 KiB sit on a ~600-660 MB/s shelf below the 3.1 GB/s "
             "reached at 1 MiB, i.e. the drive reads small random blocks inefficiently (plausibly a mapping/read unit larger than "
             "4 KiB, or a DRAM-less controller; not stated). Bandwidth approaches ~3.1 GB/s at the two largest sizes (+3 %). "
             "All points at QD32 (Little's law holds)."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
            "cap": {"iops": None, "bytes_per_s": [3.12e9, 3.6e9]}, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": False},
    extra={"repeats": 3})

ps = [f"{D}/rw_mix/mix_{m}_{r}.json" for m in ["R100W0", "R70W30", "R50W50", "R0W100"] for r in [1, 2, 3]]
t, _ = read_blobs(M, c, ps, name=nm_)
write_case("aialra0_nvme_4k-randrw_qd32_readshare_repeats", table=t, x="read_fraction", source=src(ps, "Project3 SSD/mix_rw_test.bash: 'R70W30)  rw=\"randrw\"; mixopt=\"--rwmixread=70\"'"),
    kind="NVMe SSD (model not stated), read-share sweep at QD32 with 3 repeats", fio_version="fio-3.36", author_cause=None,
    reading=("4 KiB random I/O at QD32, three repeats: pure reads 140 / 142 / 162 K IOPS, pure writes 131 / 154 / 101 K (noisy: the "
             "drive's write cache and background work), 70 % reads 103 / 92 / 94 K total, 50 % reads 101 / 94 / 95 K. The harmonic mix "
             "of the median pure runs (142 K read, 131 K write) predicts 138 K (70 %) and 136 K (50 %): every mix repeat is 25-33 % "
             "below it, more than the pure runs' spread. In the mixes read latency rises to 435-660 us (pure: 200-230 us) while writes "
             "complete in ~20 us (acknowledged from cache): the interleaved writes slow the reads: read/write interference."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None, "cap": None, "cpu_bound": False,
            "layer": None, "mix_below_harmonic": True, "falls": None},
    extra={"repeats": 3, "mix_harmonic_deficit": {"0.7": [0.26, 0.33], "0.5": [0.26, 0.31]}})
