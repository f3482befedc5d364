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
# a blkio cgroup (cgroup v1 blkio.throttle: this machine's io controller is bound to v1, and the v2 hierarchy
# at /sys/fs/cgroup/unified has no io controller, so io.max is not available) capping the loop device:
# the same block-layer throttle (blk-throttle) that io.max rbps/riops/wbps/wiops set on cgroup v2
CG=/sys/fs/cgroup/blkio/nvmemodel-case-$$
mkdir "$CG"
cap() { echo "$MAJMIN $2" > "$CG/blkio.throttle.$1"; }
incg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
prov
# a provisioned volume of 200 MiB/s of reads; one libaio job at iodepth 4, random reads, block size
# 4 KiB..1 MiB, 3 runs each
cap read_bps_device 209715200
for r in 1 2 3; do for bs in 4k 16k 64k 256k 1m; do
  incg fio --name=vol --filename="$LOOP" --ioengine=libaio --direct=1 --rw=randread --bs=$bs --iodepth=4 \
      --ramp_time=500ms --time_based --runtime=2 --output-format=json --output=raw/bs$bs-r$r.json >/dev/null
done; done
done_prov
