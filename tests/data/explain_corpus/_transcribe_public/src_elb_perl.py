import sys; sys.path.insert(0, '/tmp/cw')
exec(open('/tmp/cw/src_elb.py').read().split('\nt, p = elb("results.cgpu')[0])

t, p = elb("results.perlmutter/elbencho-scaling", "bw-direct", "1524250", ["01","02","04","08","16","24","32","48","64"], 4)
write_case("elbencho_perlmutter-lustre_1m-write_threads", table=t, x="numjobs", y="bytes_per_s",
    source=src(p, "submit-bw-direct-blockvarpct0.sbatch: 'OUTPUT_DIR=\"/pscratch/sd/g/glock/ost100\"', '#SBATCH -C gpu', '#SBATCH -N 4', 'for threads in 1 2 4 8 16 24 32 48 64', '--block 1m'; commit 'add pscratch/ior results' (2022-03-14)"),
    kind="parallel file system: Perlmutter scratch (all-flash Lustre), 4 GPU-node clients, 1 MiB direct writes", fio_version="elbencho 2.1-0 (not fio)",
    author_cause=None,
    reading=("1 MiB direct writes, IO depth 1 per thread, 4-256 threads over 4 clients: 2.76 GB/s at 4 (1.5 ms per MiB), 9.40 GB/s "
             "at 64, 10.8 GB/s at 128 (+15 % for twice the threads), 11.3 GB/s at 256 (+4.4 %) while latency doubles per doubling "
             "(12.4 -> 23.8 ms): near saturation at 128 threads, plateau ~11 GB/s, Little's law holding throughout. The "
             "directory name 'ost100' suggests the files sit on one OST (not stated): then ~11 GB/s would be one Lustre server "
             "target's write bandwidth; with unknown striping we only state the measured plateau."),
    expect={"saturation": "onset", "onset_x": [64, 256], "plateau_iops": [9.8e3, 1.08e4], "plateau_bytes_per_s": [1.03e10, 1.13e10],
            "cap": None, "cpu_bound": None, "layer": "network_fs", "mix_below_harmonic": None, "falls": False},
    extra={"layer_note": "elbencho reports no block devices"})
