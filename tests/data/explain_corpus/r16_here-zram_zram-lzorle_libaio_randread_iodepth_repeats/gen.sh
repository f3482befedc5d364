#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt). Run as root on Linux with fio installed.
# It writes only into this folder and into what it creates itself: files under /dev/shm, loop devices over
# them, a zram device it hot-adds, a cgroup v1 cpu group (where used); all are removed on exit.
set -eu
cd "$(dirname "$0")"
FIO=${FIO:-fio}
mkdir -p raw
rm -f raw/*.json provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
IMGS=; LOOPS=; CG=; ZRAM=; DIRS=
cleanup() {
  if [ -n "$CG" ]; then rmdir "$CG" 2>/dev/null || true; fi
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
  for d in $DIRS; do rm -rf "$d"; done
  if [ -n "$ZRAM" ]; then echo 1 > "/sys/block/zram$ZRAM/reset" 2>/dev/null || true; echo "$ZRAM" > /sys/class/zram-control/hot_remove 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g16c_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# newzram MiB [ALG]: a new zram device (hot_add, our own, removed on exit) of MiB, compressor ALG -> $ZDEV
newzram() {
  ZRAM=$(cat /sys/class/zram-control/hot_add); ZDEV=/dev/zram$ZRAM
  [ -b "$ZDEV" ] || { echo "no block device $ZDEV" >&2; exit 1; }
  [ "$(cat /sys/block/zram$ZRAM/disksize)" = 0 ] || { echo "zram$ZRAM already in use" >&2; exit 1; }
  if [ $# -ge 2 ]; then echo "$2" > /sys/block/zram$ZRAM/comp_algorithm; fi
  echo "$1M" > /sys/block/zram$ZRAM/disksize
}
newdir() { D=$(mktemp -d /dev/shm/g16c_dir.XXXXXX); DIRS="$DIRS $D"; }
# a cgroup v1 cpu group with a CFS quota (QUOTA_us per 100 ms period): only the fio processes are inside
newcpucg() { CG=/sys/fs/cgroup/cpu/nvmemodel-g16c-$$; mkdir "$CG"; echo 100000 > "$CG/cpu.cfs_period_us"; echo "$1" > "$CG/cpu.cfs_quota_us"; }
incg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
F="--ramp_time=500ms --time_based --runtime=1500ms --output-format=json"
# a 256 MiB zram device (lzo-rle, the kernel default), filled once with fio's incompressible data; libaio 4 KiB
# random reads, direct=1, iodepth 1..32, one job, 3 runs each
newzram 256 lzo-rle
$FIO --name=fill --filename=$ZDEV --ioengine=psync --direct=1 --rw=write --bs=1M --size=256M --output-format=terse >/dev/null
cat /sys/block/zram$ZRAM/mm_stat > zram_mm_stat_after_fill.txt
prov
for r in 1 2 3; do for qd in 1 2 4 8 16 32; do
  $FIO --name=zr --filename=$ZDEV --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=$qd $F --output=raw/qd$qd-r$r.json >/dev/null
done; done
done_prov
