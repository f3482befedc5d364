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
FIO=${FIO:-/tmp/fio-bin/3.28/fio}
F="--ramp_time=500ms --time_based --runtime=1500ms --invalidate=0"
# one loop device over a 256 MiB tmpfs file; its page cache warmed by reading it whole (dd, buffered) before every
# run; io_uring with direct=0 (buffered: reads are served from the loop device's page cache), sequential reads
# (wrapping around the device), iodepth 4, one job, bs 4 KiB..1 MiB, invalidate=0; normal text output; 3 runs per point
newimg 256; newloop "$IMG"
prov
for r in 1 2 3; do for bs in 4k 16k 64k 256k 1m; do
  dd if=$LOOP of=/dev/null bs=1M status=none
  $FIO --name=ubuf --filename=$LOOP --ioengine=io_uring --direct=0 --rw=read --bs=$bs --iodepth=4 $F --output=raw/bs$bs-r$r.txt >/dev/null
done; done
done_prov
