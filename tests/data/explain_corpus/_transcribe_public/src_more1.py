import sys; sys.path.insert(0, "/tmp/cw"); from lib import *
NOLIC = "none stated in the repository (numbers transcribed as facts, files not copied)"
TR = "points.csv = nvmemodel.read_results of the result file(s) at this commit (source_path = repo path), columns unchanged"

# ---- ChrisLvvvv WSL2 (3)
M = "/work/.mirror/ChrisLvvvv+ECSE_4320_Advanced-Computer-Systems/repo"; c = "d460b3e1c49eddbe6ceea035e4f1a99e6b009533"
REPO = "ChrisLvvvv/ECSE_4320_Advanced-Computer-Systems"
ENV = "Project3/README.md: 'OS: Ubuntu on WSL2 (Windows 11 host)', 'Tool: fio-3.36', 'Device: NVMe PCIe SSD, tested on 10GB file (ssdtestfile)', 'Direct I/O enabled (--direct=1)'"
def csrc(p, q): return {"repo": REPO, "paths": [p], "commit": c, "licence": NOLIC, "copied": False, "quote": ENV + "; " + q, "transcription": TR}
WSL = ("fio's disk stats name 'sdd': the WSL2 VM's virtual SCSI disk (Hyper-V storvsc over a VHDX file on the Windows host's NTFS), "
       "not the NVMe drive itself; the layer vocabulary has no Hyper-V entry and the name alone does not reveal it, so expect.layer is null")
p = "Project3/results/qd_sweep.json"; t, _ = read_blobs(M, c, [p])
write_case("chrislvvvv_wsl2-vdisk_4k-randread_qd", table=t, x="iodepth", source=csrc(p, "configs/qd_sweep.fio: stonewalled jobs qd-1 ... qd-128; README: 'Identify \"knee\" using Little's Law'"),
    kind="VM virtual disk: WSL2 (Hyper-V) virtual disk on a Windows 11 host's NVMe SSD, file in ext4", fio_version="fio-3.36",
    author_cause="README plan: 'Compare observed throughput vs PCIe 3.0/4.0 theoretical max', 'Identify \"knee\" using Little's Law' (no result stated)",
    reading=("One libaio job, 4 KiB random reads, QD 1-128 (one json+ file, 8 stonewalled jobs): 6.8 K IOPS at QD1 (146 us: a "
             "VM storage round trip, ~2-3x a bare NVMe read), near-linear to QD16 (83 K, 192 us), 90.8 K at QD32 (+9 %: saturation), "
             "then 88.9 K and 82.0 K (-10 % from the peak) while latency doubles per doubling (Little's law holds). The ~85-90 K IOPS "
             "plateau is the virtualization path's per-I/O rate (the same host's block-size sweep at QD32 holds ~80-84 K IOPS from "
             "4 to 32 KiB), far below what a PCIe NVMe drive does; job CPU 0.35, not CPU-bound inside the VM. " + WSL + "."),
    expect={"saturation": "onset", "onset_x": [16, 32], "plateau_iops": [8.1e4, 9.1e4], "plateau_bytes_per_s": [3.3e8, 3.75e8], "cap": None,
            "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": None},
    extra={"also_in": "../shared/data/real/fio_jsonplus/chrislvvvv_wsl2-vdisk_fio-3.36_jsonplus_4k-randread_qd1-128_stonewall.json"})

p = "Project3/results/blocksize_sweep.json"; t, _ = read_blobs(M, c, [p]); t = t[t["pattern"] == "randread"]
write_case("chrislvvvv_wsl2-vdisk_randread_qd32_bs", table=t, x="block_size_bytes", y="bytes_per_s", select_={"pattern": "randread"},
    source=csrc(p, "configs/blocksize_sweep.fio: randread and seqread jobs 4k ... 256k, iodepth 32 (only the randread jobs are this series)"),
    kind="VM virtual disk: WSL2 (Hyper-V), block-size sweep at QD32", fio_version="fio-3.36", author_cause=None,
    reading=("Random reads at QD32, one job: IOPS flat at 84.1 / 81.4 / 80.0 K from 4 to 32 KiB (within 5 %, latency 378-399 us "
             "= 32 / IOPS): an IOPS cap of the virtual-disk path measured over three sizes, not the drive. Above it bandwidth "
             "takes over: 4.18 GB/s at 64 KiB, 6.05 GB/s at 128 KiB, 6.57 GB/s at 256 KiB (+8.6 % for twice the size): "
             "approaching a byte cap near 6.6-7 GB/s (what the host's PCIe 4.0 NVMe or the host's cache of the VHDX can deliver; "
             "the files cannot tell which). Roofline: min(~82 K IOPS x size, ~6.6+ GB/s), crossover near 64-80 KiB. " + WSL + "."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
            "cap": {"iops": [8.41e4, 9.0e4], "bytes_per_s": [6.57e9, 7.9e9]}, "cpu_bound": False, "layer": None,
            "mix_below_harmonic": None, "falls": False})

p = "Project3/results/rw_mix_sweep.json"; t, _ = read_blobs(M, c, [p])
write_case("chrislvvvv_wsl2-vdisk_4k-randrw_qd32_readshare", table=t, x="read_fraction", source=csrc(p, "configs/rw_mix_sweep.fio: jobs rw-100R, rw-70R, rw-50R, rw-0R (randrw, rwmixread 100/70/50/0), iodepth 32"),
    kind="VM virtual disk: WSL2 (Hyper-V), read-share sweep at QD32", fio_version="fio-3.36", author_cause=None,
    reading=("4 KiB random I/O at QD32, one job: pure reads 84.3 K IOPS, pure writes 72.7 K; mixes (read+write): 70 % read 88.6 K, "
             "50 % read 104.2 K. The harmonic mix of the pure runs predicts 80.5 K and 78.1 K: the mixes are 10 % and 33 % ABOVE it "
             "(mix latency 306-379 us, below both pure runs' 379 and 439 us). Reads and writes do not share one per-I/O budget here: "
             "consistent with separate read and write paths in the virtual-disk stack (or the host cache absorbing the writes); "
             "mixes are not slower than the pure workloads. mix_below_harmonic is false."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None, "cap": None, "cpu_bound": False,
            "layer": None, "mix_below_harmonic": False, "falls": None},
    extra={"mix_harmonic_deficit": {"0.7": -0.10, "0.5": -0.33}})

# ---- DandinPower (2)
M = "/work/.mirror/DandinPower+NVMe-Benchmark/repo"; c = "ca3bbf3ca52496f9c95fabcfac8e7ae3782a946a"; REPO = "DandinPower/NVMe-Benchmark"
CMD = "fio_benchmark/run_raid0_fio.sh: 'sudo fio --name=test --ioengine=$IO_ENGINE --rw=read --bs=$BLOCK_SIZE --numjobs=$NUM_JOBS --size=$TOTAL_SIZE --iodepth=$IO_DEPTH --end_fsync=1 -direct=1 --filename=$1' with IO_ENGINE=io_uring, TOTAL_SIZE=10G, IO_DEPTH=16"
def dsrc(ps, q): return {"repo": REPO, "paths": ps, "commit": c, "licence": NOLIC, "copied": False, "quote": CMD + "; " + q,
                         "transcription": TR + "; direct=1 is on the command line (the normal output does not echo it, so points.csv has direct empty)"}
ps = [f"fio_benchmark/result/raid0/Job_1_Block_{b}/read_0.txt" for b in ["4k", "16k", "128k", "32M"]]
t, _ = read_blobs(M, c, ps, name=lambda p: p.replace("/", "__"))
write_case("dandinpower_mdraid0-2nvme_seqread_qd16_bs", table=t, x="block_size_bytes", y="bytes_per_s",
    source=dsrc(ps, "run_raid0_fio.sh: 'sudo mdadm --create --verbose \"$1\" --level=0 --raid-devices=2 \"$2\" \"$3\"' (RAID_PATH=/dev/md127, NVME_PATH_0=/dev/nvme1n1, NVME_PATH_1=/dev/nvme2n1)"),
    kind="md RAID0 of 2 NVMe SSDs (models not stated), one io_uring job, block-size sweep", fio_version="fio-3.28", author_cause=None,
    reading=("Sequential reads at QD16, one io_uring job, 4 KiB - 32 MiB on md127 (2 NVMe): 990 K IOPS at 4 KiB (16 us, job CPU 0.98) "
             "and 575 K at 16 KiB (job CPU 0.92): the single submitting job is CPU-bound at small blocks (~1.0-1.6 us of CPU per I/O); "
             "14.1 GB/s at 128 KiB and 13.7 GB/s at 32 MiB (job CPU 0.37 / 0.05): a byte ceiling of ~14 GB/s, twice the "
             "single drive's ~7 GB/s (case dandinpower_nvme_seqread_qd16_bs), i.e. two PCIe 4.0 x4 drives each near their link "
             "(~7.9 GB/s raw). Runs are short (10 GiB each: 0.7-2.6 s), one run per point."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
            "cap": {"iops": None, "bytes_per_s": [1.41e10, 1.6e10]}, "cpu_bound": True, "layer": "md",
            "mix_below_harmonic": None, "falls": None},
    extra={"cpu_bound_points": [4096, 16384],
           "ingest_note": "read_results gives the 32M point block_size_bytes 33566720, not 33554432 (the file says 'bs=(R) 32.0MiB'): reported to the lead, not changed here"})

ps = [f"fio_benchmark/result/multiple_nvme_device/Job_1_Block_{b}/read_0.txt" for b in ["4k", "16k", "128k", "32M"]]
t, _ = read_blobs(M, c, ps, name=lambda p: p.replace("/", "__"))
write_case("dandinpower_nvme_seqread_qd16_bs", table=t, x="block_size_bytes", y="bytes_per_s",
    source=dsrc(ps, "fio_benchmark/run_multiple_fio.sh: two fio processes at once, one per drive (NVME_PATH_0=/dev/nvme1n1, NVME_PATH_1=/dev/nvme2n1); this series is drive 0 (nvme1n1)"),
    kind="one NVMe SSD (PCIe 4.0 class, model not stated), one io_uring job, block-size sweep (while its twin ran the same job)", fio_version="fio-3.28", author_cause=None,
    reading=("Sequential reads at QD16, one io_uring job on nvme1n1: 1.05 M IOPS at 4 KiB (15 us, job CPU 0.95: CPU-bound job); "
             "at 16 KiB 294 K IOPS = 4.81 GB/s with latency 54 us and job CPU 0.43: neither CPU nor bandwidth, but the queue: "
             "16 outstanding / 54 us = 296 K IOPS (the device's 16 KiB read latency at that depth); 7.07 GB/s at 128 KiB and "
             "6.93 GB/s at 32 MiB: the drive's read bandwidth (~7 GB/s, a PCIe 4.0 x4 drive near its link). Runs are short."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
            "cap": {"iops": None, "bytes_per_s": [7.07e9, 7.9e9]}, "cpu_bound": True, "layer": None,
            "mix_below_harmonic": None, "falls": None},
    extra={"cpu_bound_points": [4096], "outstanding_points": {"16384": "16 / 54 us = 296 K IOPS vs 294 K measured"}})

# ---- oberstet (2, by layout)
M = "/work/.mirror/oberstet+scratchbox/repo"; c = "74b9a084bd7587749405336a97280d2f173b84ae"; REPO = "oberstet/scratchbox"
for ss in ["4096", "512"]:
    ps = [f"cruncher/sync-engines/sector-size-{ss}/{l}-nvmes-psync-{n}.log" for l in ["individual", "md"] for n in [512, 1024, 2048]]
    t, _ = read_blobs(M, c, ps); t = t.copy()
    t["layout"] = t["source_path"].str.extract(r"/(individual|md)-nvmes")[0]
    if ss == "4096":
        exp = {"individual": {"saturation": "onset", "onset_x": [512, 1024], "plateau_iops": [9.3e6, 9.45e6], "plateau_bytes_per_s": [3.8e10, 3.86e10],
                              "cap": None, "cpu_bound": None, "layer": None, "mix_below_harmonic": None, "falls": False},
               "md": {"saturation": "from_first", "onset_x": None, "plateau_iops": [4.16e6, 4.3e6], "plateau_bytes_per_s": [1.7e10, 1.76e10],
                      "cap": None, "cpu_bound": None, "layer": "md", "mix_below_harmonic": None, "falls": False}}
        rd = ("psync 4 KiB random reads, one I/O per thread, 512/1024/2048 threads over 16 NVMe namespaces (8 x Intel P3608, "
              "namespaces formatted to 4096-byte sectors). Individual devices (fio filename=nvme0n1:...:nvme15n1): 6.84 M IOPS at "
              "512 threads, 9.41 M at 1024 (+38 %), 9.33 M at 2048 (-0.8 %): saturated at ~9.4 M IOPS (38.5 GB/s) from 1024 threads. "
              "The same devices as one md RAID-0 (8 KiB chunks): 4.17 / 4.29 / 4.28 M IOPS: flat from the first point at less than half "
              "the devices' rate: the md layer (the README elsewhere names md_make_request) limits, not the drives. fio's per-thread "
              "CPU x threads: individual 140 / 148 / 147 CPUs, md 173 / 176 / 176 CPUs of the host's 176 hardware threads: the md "
              "curve is the host's CPUs saturated by md's per-I/O work; the individual curve's plateau leaves ~16 % of the CPUs idle. "
              "No latency in the files (gtod_reduce=1, disable_lat=1): Little's law cannot be checked.")
    else:
        exp = {"individual": {"saturation": "rising", "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
                              "cap": None, "cpu_bound": None, "layer": None, "mix_below_harmonic": None, "falls": False},
               "md": {"saturation": "onset", "onset_x": [512, 1024], "plateau_iops": [3.97e6, 4.15e6], "plateau_bytes_per_s": [1.62e10, 1.7e10],
                      "cap": None, "cpu_bound": None, "layer": "md", "mix_below_harmonic": None, "falls": False}}
        rd = ("Same host and jobs with the namespaces formatted to 512-byte sectors: individual devices 3.52 / 5.21 / 6.56 M IOPS "
              "(+48 %, +26 %: still rising at 2048 threads, and well below the 9.4 M of the 4096-byte format: 4 KiB reads on "
              "512-byte-sector namespaces cost the host or drive more per I/O); md RAID-0 3.25 / 3.98 / 4.14 M (+22 %, then +4 %: "
              "saturated from 1024 threads at ~4.1 M). Per-thread CPU x threads: individual 74 / 120 / 135 CPUs, md 100 / 169 / "
              "176 CPUs of 176: md again runs the host's CPUs out. No latency in the files (gtod_reduce=1).")
    write_case(f"oberstet_16nvme-p3608_4k-randread_psync_threads_sector{ss}", table=t, x="numjobs", by="layout",
        source={"repo": REPO, "paths": ps, "commit": c, "licence": NOLIC, "copied": False,
                "quote": ("cruncher/sync-engines/README.md: 'The following compares random 4kB read IO using different synchronous IO engines ... at different IO concurrencies 512 1024 2048 over 8 x Intel P3608 4TB NVMe (16 logical NVMes) as individual block devices / made into a RAID-0 (striped at chunksize 8k) using Linux MD'; "
                          "'Concurrency 1024, individual disks ... individual-nvmes-psync-1024: IOPS=9410k' (4096-byte sectors); cruncher/sync-engines-perf/README.md: '88 cores / 176 threads'"),
                "transcription": TR + "; the 'layout' column (individual / md) is added from the file name"},
        kind="16 NVMe namespaces (8 x Intel P3608) individually vs as Linux md RAID-0, 4-socket Xeon E7-8880 v4, psync threads",
        fio_version="fio-2.17-17-g9cf1",
        author_cause="README (sync-engines-perf, per ../shared SOURCES): the md RAID-0 result is limited by md (md_make_request); this folder's README states no cause",
        reading=rd, expect=exp, extra={"expect_by": "layout", "host_cpus": 176})
