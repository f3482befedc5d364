#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt). Run as root on Linux with fio installed; it writes only into this
# folder (and, for loop-device cases, a file it creates under /dev/shm, the loop device it attaches to that
# file and a blkio cgroup it creates); all three are removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/*.json provenance.txt
prov() { echo "measured here with $(fio --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs" >> provenance.txt; }
prov
# ioengine=null (no file, no device: fio's own cost per I/O), 4 KiB, iodepth 1, 1..8 jobs (group_reporting),
# 3 runs each
for r in 1 2 3; do for nj in 1 2 4 8; do
  fio --name=null --ioengine=null --size=1g --rw=randread --bs=4k --iodepth=1 --numjobs=$nj --group_reporting \
      --ramp_time=500ms --time_based --runtime=2 --output-format=json --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
