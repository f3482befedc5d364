#!/bin/sh
# Regenerates this case's fio results (raw/*, provenance.txt). Run as root on Linux with the named fio build.
# It writes only into this folder and into what it creates itself: files under /dev/shm, loop devices over
# them (and, where used, an ext4 mount of a loop device, under /dev/shm); all are removed on exit.
# fio runs under nice -n -10 and ionice -c2 -n0 (the host is shared).
set -eu
cd "$(dirname "$0")"
FIO=${FIO:-fio}
RUN="nice -n -10 ionice -c2 -n0 $FIO"
mkdir -p raw
rm -f raw/* provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs (uptime: $(uptime))" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ) (uptime: $(uptime))" >> provenance.txt; }
IMGS=; LOOPS=; MNTS=
cleanup() {
  for m in $MNTS; do umount "$m" 2>/dev/null || true; rmdir "$m" 2>/dev/null || true; done
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g14c_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# one loop device over a 256 MiB tmpfs file with read-ahead off (blockdev --setra 0: read_ahead_kb=0);
# psync buffered (direct=0) sequential reads of the device's first 128 MiB, once (not time based; invalidate=1
# drops the device's page cache before each run), one job, block size 4 KiB..256 KiB, 3 runs each
newimg 256; newloop "$IMG"; A=$LOOP
blockdev --setra 0 "$A"; [ "$(cat /sys/block/${A#/dev/}/queue/read_ahead_kb)" = 0 ] || exit 1
prov
for r in 1 2 3; do for bs in 4 8 16 32 64 128 256; do
  $RUN --name=ra --filename="$A" --ioengine=psync --direct=0 --invalidate=1 --rw=read --bs=${bs}k --size=128m \
      --runtime=2 --output-format=json --output=raw/bs${bs}k-r$r.json >/dev/null
done; done
done_prov
