import sys; sys.path.insert(0, "/tmp/cw"); from lib import *
M = "/work/.mirror/louwrentius+fio-plot/repo"
LIC = "BSD-3-Clause (LICENSE at the repository root)"
REPO = "louwrentius/fio-plot"

# 1. md RAID5 of 8 HDDs, iodepth sweep
c = "c8c3479a4d1c8c27ec630034b5f456dc9ae1c20f"; d = "benchmark_data/SERVER/IBM_M1015/8x2TBRAID5MDADM"
paths = [f"{d}/randread-{q}-1.json" for q in [1, 2, 4, 8, 16, 32, 64]]
t, b = read_blobs(M, c, paths); summary(t, "iodepth")
write_case("fioplot_mdraid5-8hdd_4k-randread_qd", table=t, x="iodepth", blobs=b,
    source={"repo": REPO, "paths": paths, "commit": c, "licence": LIC, "copied": True,
            "quote": "commit message: 'Added benchmark data. Fixed issue with 3d chart display.' (2020-01-31); folder name 8x2TBRAID5MDADM under SERVER/IBM_M1015; fio disk_util lists md6 over sda-sdh; file names randread-<iodepth>-<numjobs>.json"},
    kind="md RAID5 of 8 x 2 TB HDDs (Linux md6) behind an IBM M1015 (LSI SAS2008) HBA",
    fio_version="fio-3.1",
    author_cause=None,
    reading=("4 KiB random reads on 8 spinning disks in md RAID5, one job, iodepth 1-64: 106 IOPS at QD1 "
             "(9.4 ms mean latency, one disk seek+rotation), then nearly proportional to QD up to QD2-4 (more spindles busy), "
             "and sub-linear after (1.14 K at 32 -> 1.47 K at 64, +29 %) while mean latency grows from 9.4 ms to 44 ms. "
             "Little's law holds at every point (IOPS x latency = QD). Still rising at QD64: each extra outstanding I/O "
             "lets a disk's command queue reorder seeks (NCQ) and spreads load over the 8 spindles; the ceiling (8 disks x "
             "~150-200 random IOPS each with deep queues) is not reached. CPU is negligible (< 0.1 CPU)."),
    expect={"saturation": "rising", "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None, "cap": None,
            "cpu_bound": False, "layer": "md", "mix_below_harmonic": None, "falls": False})

# 2. Intel D3-S4610 SATA SSD on an IBM M1015, numjobs sweep at QD1
c = "62de2243e8a8487539772227d0e1be4b101c2794"; d = "benchmark_data/SERVER/IBM_M1015/INTEL_D3-S4610_SSDSC2KG48"
paths = [f"{d}/randread-1-{n}.json" for n in [1, 2, 4, 8, 16, 32, 64]]
t, b = read_blobs(M, c, paths); summary(t, "numjobs")
write_case("fioplot_sata-d3s4610_4k-randread_numjobs", table=t, x="numjobs", blobs=b,
    source={"repo": REPO, "paths": paths, "commit": c, "licence": LIC, "copied": True,
            "quote": "commit message: 'Added new benchmark data and images. Tested SSDs on IBM1015 HBA' (2020-01-29); README: 'fio-plot -i INTEL_D3-S4610 ... -T \"INTEL D3-S4610 SSD on IBM M1015\"'"},
    kind="enterprise SATA SSD (Intel D3-S4610 480 GB) on a SAS2008 HBA (SATA for contrast)",
    fio_version="fio-3.1",
    author_cause=None,
    reading=("numjobs 1-64 at iodepth 1 (outstanding I/O = numjobs): 7.8 K IOPS at 1 job (125 us), near-linear to 8 jobs "
             "(48.8 K), +25 % to 16 jobs (60.9 K), then +4.9 % and +0.2 % for each further doubling while mean latency doubles "
             "(260 -> 498 -> 995 us): saturated from 16 outstanding I/O at about 61-64 K IOPS (250-262 MB/s). Little's law holds "
             "(IOPS x latency = jobs). The per-job CPU falls as jobs grow (the jobs wait on the device), so it is the "
             "SATA SSD (or its HBA path) that limits, not the host CPU; 262 MB/s is half of what the 6 Gb/s SATA link carries, "
             "so the link is not the limit either: the drive's own random-read rate."),
    expect={"saturation": "onset", "onset_x": [8, 32], "plateau_iops": [60000, 64500], "plateau_bytes_per_s": [2.45e8, 2.65e8],
            "cap": None, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": False})

# 3. md RAID0 of 4 SATA SSDs, iodepth sweep, one job: CPU-bound at QD64
c = "d0fbcd15afea3b9ab935afba5c302ce099ba059b"; d = "benchmark_data/HPDL380G8/RAID/P420i_RAID0_4x_SSD"
paths = [f"{d}/randread-{q}-1.json" for q in [1, 2, 4, 8, 16, 32, 64]]
t, b = read_blobs(M, c, paths); summary(t, "iodepth")
write_case("fioplot_mdraid0-4ssd_4k-randread_qd", table=t, x="iodepth", blobs=b,
    source={"repo": REPO, "paths": paths, "commit": c, "licence": LIC, "copied": True,
            "quote": "folder benchmark_data/HPDL380G8/RAID/P420i_RAID0_4x_SSD (commit 'Updated README', 2019-11-28); fio disk_util lists md0 over sdb, sdc, sdd, sde"},
    kind="Linux md RAID0 of 4 SATA SSDs on an HP DL380 G8 (Smart Array P420i ports), one fio job",
    fio_version="fio-3.1",
    author_cause=None,
    reading=("One libaio job, 4 KiB random reads, iodepth 1-64 on md0 (4 SATA SSDs): 8.1 K IOPS at QD1 (121 us), then "
             "roughly proportional to QD while mean latency stays 210-230 us from QD4 to QD32 (the 4 SSDs absorb the load), "
             "and at QD64 173 K IOPS (+25 % for twice the QD) with latency up to 369 us. fio's accounting gives that one job "
             "0.999 CPU (usr+sys) at QD64, 0.80 at QD32: the submitting job is CPU-bound at the last point (about 5.8 us of "
             "CPU per I/O), which is why doubling the QD bought only 25 % and latency rose. The numjobs sweep in the same "
             "folder (not included) reaches 200 K IOPS at 64 jobs of QD1, above this 173 K: the single job's CPU, not the "
             "array, limits here. Still rising (last step +25 %), with a CPU-bound last point."),
    expect={"saturation": "rising", "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None, "cap": None,
            "cpu_bound": True, "layer": "md", "mix_below_harmonic": None, "falls": False})
