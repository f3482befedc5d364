#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt). Run as root on Linux with fio installed; it writes only into this
# folder and a file it creates under /dev/shm (removed on exit).
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/*.json provenance.txt
prov() { echo "measured here with $(fio --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs" >> provenance.txt; }
prov
# buffered writes (direct=0) into a file on tmpfs: the page cache is the file's only storage, no block device
F=$(mktemp /dev/shm/nvmemodel-case.XXXXXX)
trap 'rm -f "$F"' EXIT INT TERM
dd if=/dev/zero of="$F" bs=1M count=256 status=none
for bs in 4 8 16 32 64 128 256 512 1024; do
  fio --name=pagecache --filename="$F" --size=256m --ioengine=psync --direct=0 --rw=randwrite --bs=${bs}k \
      --ramp_time=500ms --time_based --runtime=2 --output-format=json --output=raw/bs${bs}k.json >/dev/null
done
done_prov
