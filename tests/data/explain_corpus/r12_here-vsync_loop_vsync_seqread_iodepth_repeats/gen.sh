#!/bin/sh
# Regenerates this case's fio results (raw/*, provenance.txt). Run as root on Linux with fio installed.
# It writes only into this folder and into what it creates itself: files under /dev/shm and loop devices over
# them; all are removed on exit.
set -eu
cd "$(dirname "$0")"
FIO=${FIO:-fio}
mkdir -p raw
rm -f raw/* provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> provenance.txt; }
IMGS=; LOOPS=; DIRS=
cleanup() {
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
  for d in $DIRS; do rm -rf "$d"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g12c_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newdir: an empty directory under /dev/shm (tmpfs) -> $DIR
newdir() { DIR=$(mktemp -d /dev/shm/g12c_dir.XXXXXX); DIRS="$DIRS $DIR"; }
# newloop BACKING [losetup options]: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
F="--ramp_time=250ms --time_based --runtime=1500ms --output-format=json"
# one loop device over a 256 MiB tmpfs file; vsync engine (readv: fio coalesces up to iodepth adjacent
# I/Os into one vectored call), 4 KiB sequential reads, direct=1, iodepth 1..32, one job, 3 runs each
newimg 256; newloop "$IMG"; A=$LOOP
prov
for r in 1 2 3; do for qd in 1 2 4 8 16 32; do
  $FIO --name=vs --filename="$A" --ioengine=vsync --direct=1 --rw=read --bs=4k --iodepth=$qd $F --output=raw/qd$qd-r$r.json >/dev/null
done; done
done_prov
