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
# a file on tmpfs read through the page cache (direct=0; tmpfs has no O_DIRECT): no block device at all
F=$(mktemp /dev/shm/nvmemodel-case.XXXXXX)
trap 'rm -f "$F"' EXIT INT TERM
dd if=/dev/zero of="$F" bs=1M count=256 status=none
for bs in 4 8 16 32 64 128 256 512 1024; do
  fio --name=pagecache --filename="$F" --size=256m --ioengine=psync --direct=0 --rw=randread --bs=${bs}k \
      --time_based --runtime=1 --output-format=json --output=raw/bs${bs}k.json >/dev/null
done
done_prov
