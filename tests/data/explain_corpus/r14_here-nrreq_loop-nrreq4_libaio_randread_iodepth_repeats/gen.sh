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
# one loop device over a 256 MiB tmpfs file, mq-deadline with nr_requests=4 (the block layer lets at most 4
# requests be queued or in flight on the device); libaio 4 KiB random reads, direct=1, one job, iodepth 1..64, 3 runs each
newimg 256; newloop "$IMG"; A=$LOOP; Q=/sys/block/${A#/dev/}/queue
echo mq-deadline > $Q/scheduler; echo 4 > $Q/nr_requests
[ "$(cat $Q/nr_requests)" = 4 ] || { echo "nr_requests not 4" >&2; exit 1; }
prov
for r in 1 2 3; do for qd in 1 2 4 8 16 32 64; do
  $RUN --name=nr --filename="$A" --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=$qd \
      --ramp_time=300ms --time_based --runtime=1500ms --output-format=json --output=raw/qd$qd-r$r.json >/dev/null
done; done
done_prov
