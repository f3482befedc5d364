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
# a loop device (direct I/O off) over a 512 MiB tmpfs file; one psync direct=1 sequential-write job with
# refill_buffers (fio regenerates the random contents of every buffer before each write, in the job's own thread),
# block size 4 KiB .. 1 MiB; 3 runs per point, points interleaved. compare_zero_buffers_bs*.json: the same job with
# zero_buffers (buffers filled once with zeros), one run per size, not part of the series
newimg 512; newloop "$IMG"
prov
for r in 1 2 3; do for bs in 4k 16k 64k 256k 1m; do
  $FIO --name=rf --filename="$LOOP" --ioengine=psync --direct=1 --rw=write --bs=$bs --refill_buffers $F --output=raw/bs$bs-r$r.json >/dev/null
done; done
for bs in 4k 64k 1m; do
  $FIO --name=rf --filename="$LOOP" --ioengine=psync --direct=1 --rw=write --bs=$bs --zero_buffers $F --output=compare_zero_buffers_bs$bs.json >/dev/null
done
done_prov
