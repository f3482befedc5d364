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
# a file on tmpfs read through the page cache (direct=0; tmpfs has no O_DIRECT): no block device at all
F=$(mktemp /dev/shm/nvmemodel-case.XXXXXX)
trap 'rm -f "$F"' EXIT INT TERM
dd if=/dev/zero of="$F" bs=1M count=256 status=none
for r in 1 2 3; do for nj in 1 2 4 8; do
  fio --name=pagecache --filename="$F" --size=256m --ioengine=psync --direct=0 --rw=randread --bs=128k \
      --numjobs=$nj --group_reporting --ramp_time=500ms --time_based --runtime=2 --output-format=json \
      --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
