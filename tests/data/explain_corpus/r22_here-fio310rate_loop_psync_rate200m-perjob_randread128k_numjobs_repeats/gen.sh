#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt). Run as root on Linux with fio installed
# (FIO= the fio binary named below). It writes only into this folder and into what it creates itself: files under
# /dev/shm, loop devices over them, a zram device it hot-adds, a cgroup v1 memory group (where used); all are
# removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
IMGS=; LOOPS=; MCG=; ZRAM=
cleanup() {
  if [ -n "$MCG" ]; then echo 0 > "$MCG/memory.force_empty" 2>/dev/null || true; rmdir "$MCG" 2>/dev/null || true; fi
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
  if [ -n "$ZRAM" ]; then echo 1 > "/sys/block/zram$ZRAM/reset" 2>/dev/null || true; echo "$ZRAM" > /sys/class/zram-control/hot_remove 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g22m_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
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
# newmemcg BYTES: a cgroup v1 memory group with that limit (only the fio processes are put inside) -> $MCG
newmemcg() {
  MCG=/sys/fs/cgroup/memory/nvmemodel-g22m-$$; mkdir "$MCG"
  echo "$1" > "$MCG/memory.limit_in_bytes"
  [ "$(cat "$MCG/memory.limit_in_bytes")" = "$1" ] || { echo "memory limit not set" >&2; exit 1; }
}
inmcg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$MCG" "$@"; }
F="--ramp_time=500ms --time_based --runtime=1500ms --output-format=json"
# fio 3.10 built from git tag fio-3.10 (github.com/axboe/fio) with two build-only fixes for a current glibc/kernel
# headers: a stub <linux/raw.h> on the include path and gettid() renamed fio_gettid in os/os-linux.h;
# ./configure --disable-native --extra-cflags="-fcommon -I<stub dir>" && make -j2
FIO=${FIO:-/tmp/fio-bin/3.10/fio}
[ "$($FIO --version)" = fio-3.10 ] || { echo "not fio-3.10: $FIO" >&2; exit 1; }
# a loop device over a 256 MiB tmpfs file; psync direct=1 128 KiB random reads, each job capped by fio at
# rate=200m (fio: 200 MiB/s = 209715200 B/s a job; caps add up), numjobs 1..16, group_reporting; 3 runs per point
newimg 256; newloop "$IMG"
prov
for r in 1 2 3; do for nj in 1 2 4 8 16; do
  $FIO --name=rb --filename=$LOOP --ioengine=psync --direct=1 --rw=randread --bs=128k --rate=200m --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
