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
for qd in 1 2 4 8 16 32 64; do
  fio --name=null --ioengine=null --rw=randread --bs=4k --size=1g --iodepth=$qd --numjobs=1 \
      --time_based --runtime=1 --output-format=json --output=raw/qd$qd.json >/dev/null
done
done_prov
