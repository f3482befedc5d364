#!/bin/sh
# Regenerates this case's fio results (raw/*, provenance.txt). Run as root on Linux with fio installed
# (FIO= the fio binary named below). It writes only into this folder and into what it creates itself: files under
# /dev/shm and loop devices over them; all are removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
IMGS=; LOOPS=
cleanup() {
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g20c_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
FIO=${FIO:-/tmp/fio-bin/3.30/fio}
F="--ramp_time=500ms --time_based --runtime=1500ms --group_reporting --output-format=json"
# one loop device over a 256 MiB tmpfs file; psync buffered (direct=0) 128 KiB sequential writes, each job in its
# own 40 MiB region (offset_increment=40M, size=40M, wrapping), sync_file_range=write,wait_after:1 (after every write:
# start writeback of it and wait); numjobs 1, 2, 3, 4, 6, group_reporting; cached pages dropped before every run;
# 3 runs per point
newimg 256; newloop "$IMG"
prov
for r in 1 2 3; do for n in 1 2 3 4 6; do
  blockdev --flushbufs "$LOOP"
  $FIO --name=sfr --filename=$LOOP --ioengine=psync --direct=0 --rw=write --bs=128k --size=40M --offset_increment=40M --sync_file_range=write,wait_after:1 --numjobs=$n $F --output=raw/nj$n-r$r.json >/dev/null
done; done
done_prov
