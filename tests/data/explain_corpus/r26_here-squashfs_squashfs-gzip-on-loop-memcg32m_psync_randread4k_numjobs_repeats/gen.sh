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
# a squashfs image (gzip, 128 KiB blocks) of one 256 MiB file of 50 %-compressible data, on a loop device over the
# image in tmpfs, mounted read-only; psync buffered 4 KiB random reads (squashfs has no direct I/O) by jobs in a
# memory cgroup v1 limited to 32 MiB, so the file's page cache cannot hold it and most reads miss: each miss reads
# and decompresses a whole 128 KiB block in the reading thread; numjobs 1..8; 3 runs per point, points interleaved
SRC=$(mktemp -d /dev/shm/r26h_src.XXXXXX); TDIRS="$SRC $TDIRS"
$FIO --name=mk --filename="$SRC/data" --ioengine=psync --rw=write --bs=1M --size=256M --refill_buffers --buffer_compress_percentage=50 --output-format=terse >/dev/null
IMG=$(mktemp /dev/shm/r26h_img.XXXXXX); IMGS="$IMGS $IMG"; rm -f "$IMG"
mksquashfs "$SRC" "$IMG" -comp gzip -b 131072 -noappend -quiet >/dev/null
ls -l "$IMG" | awk '{print "squashfs image bytes", $5, "for 268435456 bytes of data"}' > squashfs_image_size.txt
rm -rf "$SRC"
newloop "$IMG"; newmnt; mnt -t squashfs -o ro "$LOOP"
CG=/sys/fs/cgroup/memory/nvmemodel-r26h-$$; mkdir "$CG"
echo 33554432 > "$CG/memory.limit_in_bytes"
[ "$(cat "$CG/memory.limit_in_bytes")" = 33554432 ] || { echo "memory limit not set" >&2; exit 1; }
incg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  incg $FIO --name=sq --filename="$MNT/data" --ioengine=psync --rw=randread --bs=4k --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
cat "$CG/memory.stat" > memcg_memory_stat_after.txt
