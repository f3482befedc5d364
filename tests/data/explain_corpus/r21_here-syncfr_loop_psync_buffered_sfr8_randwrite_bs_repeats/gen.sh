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
F="--ramp_time=500ms --time_based --runtime=1500ms --output-format=json"
# one loop device over a 256 MiB tmpfs file; psync buffered (direct=0) random writes into the loop device's page
# cache, with sync_file_range=write,wait_after:8 (after every 8 writes fio starts writeback of the range written and
# waits for it: the dirty pages go through the loop device to the tmpfs file); one job, bs 4 KiB..256 KiB; the
# device's cached pages dropped (blockdev --flushbufs) before every run; 3 runs per point
newimg 256; newloop "$IMG"
prov
for r in 1 2 3; do for bs in 4k 16k 64k 256k; do
  blockdev --flushbufs "$LOOP"
  $FIO --name=sfr --filename=$LOOP --ioengine=psync --direct=0 --rw=randwrite --bs=$bs --sync_file_range=write,wait_after:8 $F --output=raw/bs$bs-r$r.json >/dev/null
done; done
done_prov
