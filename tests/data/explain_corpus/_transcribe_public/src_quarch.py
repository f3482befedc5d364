import sys; sys.path.insert(0, "/tmp/cw"); from lib import *
F = "/work/shared/data/real/iometer_csv/quarch_iometer-1.1.0_intel-p3600-ssdpe2me016t4_results.csv"
import os
F = os.path.realpath("/work/main/../shared/data/real/iometer_csv/quarch_iometer-1.1.0_intel-p3600-ssdpe2me016t4_results.csv")
t = nm.read_results(F)
a = t[(t.level == "ALL")].reset_index(drop=True)
seq = a.iloc[24:40].copy()   # the 16 consecutive 'Sequential Read' tests (512B, 4K, 16K, 32K x 4 repeats), file order
assert (seq["job_name"].str.contains("Sequential Read")).all() and len(seq) == 16
P = "Application_Notes/AN-016_QPS_Performance_Test_with_Iometer/Iometer/testfile.csv"
runs = set(seq["run"])
w = t[(t.level == "DISK") & t["run"].isin(runs)].copy()
assert len(w) == 64, len(w)
chk = w.groupby("run")["iops"].sum().reindex(seq["run"]).to_numpy() / seq["iops"].to_numpy()
print("worker sum / ALL:", chk.min(), chk.max())
seq = w
seq["source_path"] = P + "#test" + seq["run"].astype(str)
write_case("quarch_iometer_p3600_seqread_qd1x4_bs_repeats", table=seq, x="block_size_bytes", y="bytes_per_s",
    source={"repo": "QuarchTechnologyLtd/quarchpy-appnotes", "paths": [P], "commit": "15572e62331bfe25bb9028934f60fbc393193544",
            "licence": "Quarch proprietary terms (AN-016 LICENSE.txt: 'provided under the terms ... https://quarch.com/legal/'): numbers transcribed as facts, file not copied",
            "copied": False,
            "quote": "Iometer 1.1.0 results file, 'Access specifications' '512B Sequential Read', '4K Sequential Read', '16K Sequential Read', '32K Sequential Read'; DISK rows name 'INTEL SSDPE2ME016T4'; 4 workers, 1 outstanding I/O each",
            "transcription": ("points.csv = the DISK rows (4 per test, one per worker target; the leaf rows, they sum to the ALL row) of nvmemodel.read_results of the file (also ../shared/data/real/iometer_csv/quarch_iometer-1.1.0_intel-p3600-ssdpe2me016t4_results.csv), "
                              "the 16 consecutive Sequential Read tests (file order 25-40 of 59: each size four times); source_path = file#test<run>. "
                              "cpu_usr/cpu_sys are IOmeter's whole-machine CPU (12 processors), not per worker")},
    kind="enterprise NVMe (Intel DC P3600 1.6 TB), IOmeter, 4 workers x QD1, block-size sweep with 4 repeats", fio_version="Iometer 1.1.0 (not fio)",
    author_cause="Quarch AN-016 runs these as a power/performance demo; no limit stated",
    reading=("Sequential reads with 4 workers at 1 outstanding I/O each (4 in flight), four repeats per size: 512 B 46.6-48.2 K IOPS, 4 KiB "
             "28.5-29.7 K, 16 KiB 12.7-13.0 K, 32 KiB 9.2-9.4 K (repeats within +-2 %). Every point is outstanding-bound: IOPS x mean latency "
             "= 3.97-4.0 (Little's law with 4 in flight), latency growing with size (83 us at 512 B -> 430 us at 32 KiB). Bandwidth rises "
             "24 -> 304 MB/s and reaches no cap: at 4 outstanding I/O the P3600 is latency-bound everywhere. IOmeter's whole-machine CPU "
             "is 8.2-8.6 of 12 CPUs, constant across sizes: the host is busy (IOmeter's workers spin) but the rate follows latency, "
             "so no CPU-bound reading per worker can be made (IOmeter reports no per-worker CPU)."),
    expect={"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None, "cap": None,
            "cpu_bound": None, "layer": None, "mix_below_harmonic": None, "falls": False},
    extra={"repeats": 4})
