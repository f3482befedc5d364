#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: files under
# /dev/shm, loop devices over them, file systems on those loops mounted under a fresh mktemp directory, a cgroup v1
# group (where used), a neighbour process it starts (where used); all are removed / stopped on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
IMGS=; LOOPS=; MNTS=; CG=; BGPID=; TDIRS=
cleanup() {
  if [ -n "$BGPID" ]; then kill "$BGPID" 2>/dev/null || true; wait "$BGPID" 2>/dev/null || true; fi
  for m in $MNTS; do umount "$m" 2>/dev/null || true; done
  if [ -n "$CG" ]; then echo 0 > "$CG/memory.force_empty" 2>/dev/null || true; rmdir "$CG" 2>/dev/null || true; fi
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
  for d in $TDIRS; do rm -rf "$d"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/r26h_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING [losetup options]: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# newmnt: a fresh empty directory to mount on -> $MNT (unmounted and removed on exit)
newmnt() { MNT=$(mktemp -d /tmp/r26h_mnt.XXXXXX); TDIRS="$MNT $TDIRS"; }
mnt() { mount "$@" "$MNT"; MNTS="$MNT $MNTS"; }
F="--ramp_time=1s --time_based --runtime=5s --output-format=json"
ZRAM=
zcleanup() { if [ -n "$ZRAM" ]; then echo 1 > "/sys/block/zram$ZRAM/reset" 2>/dev/null || true; echo "$ZRAM" > /sys/class/zram-control/hot_remove 2>/dev/null || true; fi; cleanup; }
trap zcleanup EXIT INT TERM
# a new 512 MiB zram device (hot_add, removed on exit) with the lz4 compressor; psync direct=1 4 KiB random writes of
# incompressible data (refill_buffers, buffer_compress_percentage=0: fresh random bytes in every buffer), so zram
# runs lz4 over every page in the writing thread, finds it does not shrink and stores it whole (huge_pages);
# numjobs 1..8; 3 runs per point, points interleaved; zram mm_stat after the runs in zram_mm_stat_after.txt
ZRAM=$(cat /sys/class/zram-control/hot_add); ZDEV=/dev/zram$ZRAM
[ -b "$ZDEV" ] || { echo "no block device $ZDEV" >&2; exit 1; }
[ "$(cat /sys/block/zram$ZRAM/disksize)" = 0 ] || { echo "zram$ZRAM already in use" >&2; exit 1; }
echo lz4 > /sys/block/zram$ZRAM/comp_algorithm
grep -q "\[lz4\]" /sys/block/zram$ZRAM/comp_algorithm || { echo "compressor lz4 not selected" >&2; exit 1; }
echo 512M > /sys/block/zram$ZRAM/disksize
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  $FIO --name=zi --filename=$ZDEV --ioengine=psync --direct=1 --rw=randwrite --bs=4k --refill_buffers --buffer_compress_percentage=0 --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
cat /sys/block/zram$ZRAM/mm_stat > zram_mm_stat_after.txt
echo "mm_stat columns: orig_data_size compr_data_size mem_used_total mem_limit mem_used_max same_pages pages_compacted huge_pages huge_pages_since" >> zram_mm_stat_after.txt
