import sys; sys.path.insert(0, "/tmp/cw"); from vps import *
REPO = "dyu/vps-comparison (branch fio)"; LIC = "MIT (LICENSE on the branch: 'MIT License, Copyright (c) 2017 joe di castro')"
paths = [f"fio-iodepth-32/fio-{s}.md" for s in SIZES]
T = table(paths); T["direct"] = True
blobs = {os.path.basename(p): git_blob(M, C, p) for p in paths}
HDR = ("fio-iodepth-32/fio-4K.md: '# fio results (all on ubuntu 16.04 x64)', 'fio --filename=test4K --rw=read --ioengine=posixaio --direct=1 "
       "--blocksize=4K --runtime=300 --iodepth=32 --group_reporting --name=myjob' (the same with 8K ... 128K in the other files)")
NOTE = ("raw/ holds the six markdown files byte for byte (MIT); each provider section's *reads* code block is a fio-3.1 normal-output "
        "report: points.csv = nvmemodel.read_results of each block (cut from its 'myjob: (g=0)' line), source_path = <file>#<provider>#reads; "
        "direct=True from the command line quoted in the file (the normal output does not echo it). nvmemodel cannot read the markdown itself.")
def case(cid, prov, kind, reading, expect, extra=None):
    t = T[(T["provider"].str.startswith(prov)) & (T["section"] == "reads")]
    assert len(t) == 6, (prov, len(t))
    write_case(cid, table=t, x="block_size_bytes", y="bytes_per_s", blobs=blobs, raw_readable=False,
        source={"repo": REPO, "paths": paths, "commit": C, "licence": LIC, "copied": True, "quote": HDR + f"; section '## {t['provider'].iloc[0]}'",
                "transcription": NOTE},
        kind=kind, fio_version="fio-3.1", author_cause=None, reading=reading, expect=expect, extra=extra)
case("vpscmp_aws-t2micro-gp2_seqread_qd32_bs", "aws ec2 micro",
     "cloud block volume: AWS EC2 t2.micro root EBS volume (xvda; gp2 implied by 2017 defaults, not stated), posixaio QD32",
     ("Sequential reads, posixaio QD32, one job, 4-128 KiB on the instance's EBS root volume (disk stats: xvda): 2.21 K IOPS at 4 KiB "
      "and 2.14 K at 8 KiB (latency 14.5-15 ms = 32 / IOPS: a throttle, not a device latency), 1.67 K at 16 KiB (below the trend: "
      "an anomaly one run cannot explain, e.g. burst credits), then bandwidth flat at 63.6 / 65.0 / 65.0 MB/s for 32, 64 and 128 KiB: "
      "a byte cap of ~65 MB/s measured over three sizes (the writes in the same files stop at the same 65.0 MB/s at 128 KiB). "
      "Roofline: min(~2.2 K IOPS x size, 65 MB/s), crossover near 30 KiB. A provisioned/throttled volume, not a device."),
     {"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
      "cap": {"iops": None, "bytes_per_s": [6.5e7, 6.7e7]}, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": None})
case("vpscmp_gcloud-f1micro-pd_seqread_qd32_bs", "gcloud micro",
     "cloud block volume: Google Compute Engine f1-micro persistent disk (sda; disk type not stated), posixaio QD32",
     ("Sequential reads, posixaio QD32, 4-128 KiB: bandwidth flat at 59.0 / 61.7 / 62.8 / 60.3 MB/s from 16 to 128 KiB (+-3 %): a byte "
      "cap of ~60-63 MB/s measured over four sizes. The small sizes are NOT on a roofline: 1.36 K IOPS at 4 KiB and 1.02 K at 8 KiB but "
      "3.60 K at 16 KiB; the 4 and 8 KiB runs hit the 300 s time limit while the others finished 4 GiB in ~70 s, so a time-varying "
      "throttle (burst allowance) is the likely reason: an IOPS cap cannot be read from these points."),
     {"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
      "cap": {"iops": None, "bytes_per_s": [6.28e7, 6.6e7]}, "cpu_bound": False, "layer": None, "mix_below_harmonic": None, "falls": None})
case("vpscmp_upcloud-virtio_seqread_qd32_bs", "upcloud",
     "VPS virtual disk (UpCloud 1 GB plan, virtio vda), posixaio QD32",
     ("Sequential reads, posixaio QD32, 4-128 KiB on a virtio disk (vda): IOPS fall smoothly 14.1 / 13.3 / 11.5 / 9.3 / 6.3 / 3.2 K while "
      "bandwidth rises 57.6 / 109 / 188 / 306 / 413 / 420 MB/s: per-I/O plus per-byte cost (smooth form) with the byte rate nearly "
      "level at 64-128 KiB (+1.7 %): approaching ~420 MB/s, the virtual disk's (provider's) bandwidth. Not a hard IOPS cap: IOPS already "
      "fall between 4 and 16 KiB. The layer is a VM virtual disk (virtio)."),
     {"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
      "cap": {"iops": None, "bytes_per_s": [4.2e8, 4.6e8]}, "cpu_bound": False, "layer": "virtio", "mix_below_harmonic": None, "falls": False})
case("vpscmp_vultr-virtio_seqread_qd32_bs", "vultr",
     "VPS virtual disk (Vultr 20 GB SSD plan, virtio vda), posixaio QD32",
     ("Sequential reads, posixaio QD32 on a virtio disk (vda): 8.5 / 9.2 / 7.0 / 5.2 / 3.2 / 1.39 K IOPS; bandwidth 34.9 / 75.2 / 116 / "
      "169 / 210 MB/s up to 64 KiB and then 182 MB/s at 128 KiB (-13 %). The per-byte cost dominates above 16 KiB; a byte limit of "
      "~200-210 MB/s is reached at 64 KiB and the 128 KiB point falls below it (latency 23 ms = 32 / IOPS): one run per point, a "
      "noisy shared VPS, so the fall is measured but its cause (neighbours, throttling) cannot be told from these data."),
     {"saturation": None, "onset_x": None, "plateau_iops": None, "plateau_bytes_per_s": None,
      "cap": {"iops": None, "bytes_per_s": [2.1e8, 2.4e8]}, "cpu_bound": False, "layer": "virtio", "mix_below_harmonic": None, "falls": True})
