#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt). Runs fio's null engine: it touches no device and
# no file, and writes only into this folder.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/*.json provenance.txt
prov() { echo "measured here with $(fio --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs" >> provenance.txt; }
prov
# ioengine=null (no device, no data copied): one job, iodepth 1, block size 4 KiB..1 MiB, 2 runs each
for r in 1 2; do for bs in 4k 8k 16k 32k 64k 128k 256k 512k 1m; do
  fio --name=null --ioengine=null --rw=randread --bs=$bs --size=1g --iodepth=1 --numjobs=1 \
      --ramp_time=500ms --time_based --runtime=2 --output-format=json --output=raw/bs$bs-r$r.json >/dev/null
done; done
done_prov
