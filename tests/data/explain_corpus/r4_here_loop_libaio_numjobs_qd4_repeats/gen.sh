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
# a loop device over a 256 MiB file on tmpfs (/dev/shm), filled with zeros so every page exists
IMG=$(mktemp /dev/shm/nvmemodel-case.XXXXXX)
CG=
cleanup() { if [ -n "$CG" ]; then rmdir "$CG" 2>/dev/null || true; fi; losetup -d "$LOOP" 2>/dev/null || true; rm -f "$IMG"; }
dd if=/dev/zero of="$IMG" bs=1M count=256 status=none
LOOP=$(losetup -f --show "$IMG")
trap cleanup EXIT INT TERM
case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
[ "$(losetup -n -O BACK-FILE "$LOOP")" = "$IMG" ] || { echo "$LOOP is not backed by $IMG" >&2; exit 1; }
MAJMIN=$(cat "/sys/block/${LOOP#/dev/}/dev")
prov
# 4 KiB random reads on a loop device over tmpfs (no cap), libaio jobs at iodepth 4 each, 1..8 jobs
# (group_reporting), 3 runs each
for r in 1 2 3; do for nj in 1 2 4 8; do
  fio --name=loop --filename="$LOOP" --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=4 \
      --numjobs=$nj --group_reporting --ramp_time=500ms --time_based --runtime=2 --output-format=json --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
