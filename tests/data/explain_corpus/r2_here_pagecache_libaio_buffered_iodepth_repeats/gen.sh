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
# libaio on a buffered file (direct=0): a file on tmpfs read through the page cache, no block device at all
F=$(mktemp /dev/shm/nvmemodel-case.XXXXXX)
trap 'rm -f "$F"' EXIT INT TERM
dd if=/dev/zero of="$F" bs=1M count=256 status=none
for r in 1 2 3; do for qd in 1 2 4 8 16 32; do
  fio --name=pagecache --filename="$F" --size=256m --ioengine=libaio --direct=0 --rw=randread --bs=4k \
      --iodepth=$qd --ramp_time=500ms --time_based --runtime=2 --output-format=json \
      --output=raw/qd$qd-r$r.json >/dev/null
done; done
done_prov
