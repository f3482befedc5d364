#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: files under
# /dev/shm, loop devices over them, a zram device it hot-adds, a cgroup v1 group (where used); all are removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
IMGS=; LOOPS=; CG=; ZRAM=
cleanup() {
  if [ -n "$CG" ]; then rmdir "$CG" 2>/dev/null || true; fi
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
  if [ -n "$ZRAM" ]; then echo 1 > "/sys/block/zram$ZRAM/reset" 2>/dev/null || true; echo "$ZRAM" > /sys/class/zram-control/hot_remove 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/r24h_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING [losetup options]: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# newzram MiB ALG: a new zram device (hot_add, our own, removed on exit) of MiB, compressor ALG -> $ZDEV
newzram() {
  ZRAM=$(cat /sys/class/zram-control/hot_add); ZDEV=/dev/zram$ZRAM
  [ -b "$ZDEV" ] || { echo "no block device $ZDEV" >&2; exit 1; }
  [ "$(cat /sys/block/zram$ZRAM/disksize)" = 0 ] || { echo "zram$ZRAM already in use" >&2; exit 1; }
  echo "$2" > /sys/block/zram$ZRAM/comp_algorithm
  grep -q "\[$2\]" /sys/block/zram$ZRAM/comp_algorithm || { echo "compressor $2 not selected" >&2; exit 1; }
  echo "$1M" > /sys/block/zram$ZRAM/disksize
}
# newcpucg QUOTA_US PERIOD_US: a cgroup v1 cpu group with a CFS quota (only the fio processes are put inside) -> $CG
newcpucg() {
  CG=/sys/fs/cgroup/cpu/nvmemodel-r24h-$$; mkdir "$CG"
  echo "$2" > "$CG/cpu.cfs_period_us"; echo "$1" > "$CG/cpu.cfs_quota_us"
  [ "$(cat "$CG/cpu.cfs_quota_us")" = "$1" ] || { echo "cpu quota not set" >&2; exit 1; }
}
incg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
F="--ramp_time=500ms --time_based --runtime=1500ms --output-format=json"
# no block device: a 256 MiB file on tmpfs (/dev/shm), read with fio's splice engine (splice from the file into a pipe,
# vmsplice from the pipe into fio's buffer: page-cache pages moved by the kernel, CPU work only), 64 KiB random reads,
# each job its own file, numjobs 1..8; 3 runs per point
D=$(mktemp -d /dev/shm/r24h_splice.XXXXXX); IMGS="$IMGS $D/sp.0.0 $D/sp.1.0 $D/sp.2.0 $D/sp.3.0 $D/sp.4.0 $D/sp.5.0 $D/sp.6.0 $D/sp.7.0"
trap 'cleanup; rmdir "$D" 2>/dev/null || true' EXIT INT TERM
$FIO --name=sp --directory=$D --numjobs=8 --size=256m --rw=write --bs=1m --output-format=terse >/dev/null
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  $FIO --name=sp --directory=$D --size=256m --ioengine=splice --rw=randread --bs=64k --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
