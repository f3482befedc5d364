import sys; sys.path.insert(0, "/tmp/cw"); from lib import *
REPO = "lee-j-sanders/perfresults"; c = "bbdff31648b971700a184f22b29edb4564885c28"
LIC = "none stated in the repository (no LICENSE file found; numbers transcribed as facts, files not copied)"
D = "251204_replica_min_shard_read_size/3way_reads_osds_4_shardsize_131072/visualisation/"
# transcribed from the files (values are strings there): total_iodepth: (iops, bandwidth_bytes, latency_ns, total_ios)
K128 = {2: ("2122.047966", "278141070.0", "935504.994761404", "127325"), 4: ("5834.002767", "764674409.0", "681478.4981401736", "350046"),
        6: ("10340.127665", "1355301211.0", "576510.2330251487", "620418"), 8: ("15024.399594999999", "1969278100.0", "528943.0360806728", "901479"),
        12: ("22568.873851", "2958147430.0", "528030.259540461", "1354155"), 16: ("27889.101846999998", "3655480350.0", "569547.3803446813", "1673374"),
        24: ("37292.695123000005", "4888045603.0", "639237.7956274367", "2237599"), 32: ("45237.02938100001", "5929342859.0", "702854.8814573442", "2714267"),
        64: ("63334.375444000005", "8301468105.0", "1005613.7806291577", "3800138"), 128: ("72851.293036", "9549009332.0", "1751786.0535888476", "4371228"),
        256: ("74626.14552199998", "9781922212.0", "3425017.0395515147", "4479383"), 384: ("74591.436892", "9777652162.0", "5142917.169201859", "4478568"),
        512: ("74444.92834799999", "9758730540.0", "6872380.506800954", "4470039")}
M1 = {1: ("368.631568", "386538215", "2695746.596365", "22119"), 2: ("897.9436860000001", "941562198.0", "2213255.2822300303", "53878"),
      3: ("1591.350026", "1668651444.0", "1875147.3133852663", "95483"), 4: ("1955.570138", "2050563912.0", "2034946.4005387232", "117337"),
      8: ("3441.083832", "3608237916.0", "2315361.1668798192", "206472"), 12: ("4916.810302000001", "5155649276.0", "2431708.500584815", "295017"),
      16: ("6092.500796", "6388450106.0", "2617210.080161797", "365560"), 20: ("6830.481709000001", "7162349085.0", "2919645.1596751455", "409845"),
      24: ("7243.912172999999", "7595932247.0", "3304930.427590645", "434652"), 28: ("8389.984382999999", "8797745965.0", "3329362.6376226684", "503419"),
      32: ("9081.047622", "9522448190.0", "3515992.2100375923", "544885"), 64: ("11265.021187999999", "11813069638.0", "5672637.578221501", "675957"),
      128: ("11405.657126999999", "11961672852.0", "11211520.179542739", "684438"), 256: ("11298.506726", "11851531824.0", "22649712.20660389", "678798"),
      384: ("11522.079166000001", "12088189855.0", "33373192.47308641", "693166")}
def table(d, bs, name):
    rows = []
    for qd, (iops, bw, lat, ios) in sorted(d.items()):
        rows.append({"source_path": f"{D}{name}#{qd}", "tool": "fio", "tool_version": None, "format": "cbt-visualisation-json",
                     "job_name": "randread", "pattern": "randread", "direction": "read", "read_fraction": 1.0,
                     "block_size_bytes": float(bs), "iodepth": qd, "numjobs": 1, "ioengine": "rbd", "direct": True,
                     "runtime_s": 60.0, "ios": float(ios), "iops": float(iops), "bw_bytes_per_s": float(bw), "lat_mean_s": float(lat) * 1e-9})
    return pd.DataFrame(rows)
NOTE = ("points.csv typed from CBT's per-size summary JSON: keys are CBT's total_iodepth (outstanding I/O summed over the fio "
        "processes of the run; the folder layout is .../numjobs-001/total_iodepth-<N>/iodepth-<per process>/output.<k>), put in "
        "the iodepth column with numjobs 1; 'iops' -> iops; 'bandwidth_bytes' (B/s) -> bw_bytes_per_s; 'latency' (ns, "
        "checked: iops x latency = total_iodepth within 1 %) x 1e-9 -> lat_mean_s; 'total_ios' -> ios; runtime 60 s; ioengine "
        "rbd per the LibrbdFio benchmark folder. No value rounded or dropped.")
def src(name, quote):
    return {"repo": REPO, "paths": [D + name], "commit": c, "licence": LIC, "copied": False, "quote": quote, "transcription": NOTE}

write_case("cephrbd_128k-randread_totalqd", table=table(K128, 131072, "131072_randread.json"), x="iodepth", y="bytes_per_s",
    source=src("131072_randread.json", "131072_randread.json: '\"256\": {\"bandwidth_bytes\": \"9781922212.0\", ... \"iops\": \"74626.14552199998\", \"latency\": \"3425017.0395515147\" ...}', 'maximum_bandwidth': '9781922212.0'; folder 3way_reads_osds_4_shardsize_131072/.../LibrbdFio/osd_ra-00004096/"),
    kind="Ceph RBD (librbd fio engine via CBT), 3-way replicated pool, '4 OSDs' per the folder name", fio_version="not in the summary (CBT; the run is 2025-12)",
    author_cause=None,
    reading=("128 KiB random reads from RBD volumes, total outstanding 2-512: 2.1 K IOPS at 2 (0.94 ms), near-linear while "
             "latency falls to ~0.53 ms (8-12 outstanding: the cluster's per-I/O latency), 63.3 K at 64, 72.9 K at 128 "
             "(+15 %), then 74.4-74.6 K IOPS (9.76-9.78 GB/s) for 256-512 while latency doubles with the load (3.4 -> 6.9 ms): "
             "saturated from 128-256 outstanding. 9.8 GB/s is below the 1 MiB plateau of the same cluster (11.8-12.1 GB/s, case "
             "cephrbd_1m-randread_totalqd), so at 128 KiB the limit is per I/O (OSD/librbd work per request, ~74.6 K IOPS), not "
             "bytes. Little's law holds (IOPS x latency = outstanding)."),
    expect={"saturation": "onset", "onset_x": [64, 256], "plateau_iops": [7.28e4, 7.47e4], "plateau_bytes_per_s": [9.5e9, 9.79e9],
            "cap": None, "cpu_bound": None, "layer": "rbd", "mix_below_harmonic": None, "falls": False},
    extra={"layer_note": "no fio disk stats here (librbd engine, no block device): 'rbd' is from ioengine=rbd, which the layer fact may not see"})

write_case("cephrbd_1m-randread_totalqd", table=table(M1, 1048576, "1048576_randread.json"), x="iodepth", y="bytes_per_s",
    source=src("1048576_randread.json", "1048576_randread.json: '\"64\": {\"bandwidth_bytes\": \"11813069638.0\" ...}', '\"384\": {\"bandwidth_bytes\": \"12088189855.0\" ...}', 'maximum_bandwidth': '12088189855.0'"),
    kind="Ceph RBD (librbd fio engine via CBT), 3-way replicated pool, 1 MiB reads", fio_version="not in the summary (CBT; the run is 2025-12)",
    author_cause=None,
    reading=("1 MiB random reads, total outstanding 1-384: 0.39 GB/s at 1 (2.7 ms per MiB), rising with load to 9.5 GB/s at 32, "
             "11.8 GB/s at 64 (+24 %), then 11.8-12.1 GB/s to 384 while latency grows in proportion (5.7 -> 33 ms): a byte "
             "ceiling of ~12 GB/s reached at 64 outstanding. 12.1 GB/s = 96.7 Gb/s, just under what one 100 Gb/s Ethernet link "
             "carries, so the likely limit is the client's network link (not stated in the source: an inference); the 128 KiB "
             "curve of the same cluster stops lower (9.8 GB/s, per-I/O limited). The small dip of latency from 1 to 3 "
             "outstanding (2.7 -> 1.9 ms) without a repeat is noise or warm-up we cannot separate."),
    expect={"saturation": "onset", "onset_x": [32, 128], "plateau_iops": [1.12e4, 1.16e4], "plateau_bytes_per_s": [1.17e10, 1.21e10],
            "cap": None, "cpu_bound": None, "layer": "rbd", "mix_below_harmonic": None, "falls": False},
    extra={"layer_note": "no fio disk stats (librbd engine): 'rbd' is from ioengine=rbd"})
