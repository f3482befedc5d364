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
# 64 files of 1 MiB per job in a fresh directory on tmpfs (/dev/shm); psync buffered 4 KiB random reads with
# openfiles=1 and file_service_type=roundrobin (fio switches file after every I/O, so each read is preceded by a
# close() of the previous file and an open() of the next); numjobs 1..8, each job its own 64 files; 3 runs per point.
# compare_openfiles64_nj*.json: the same job with all 64 files kept open (one run each, not part of the series)
D=$(mktemp -d /dev/shm/r26h_dir.XXXXXX); TDIRS="$D $TDIRS"
$FIO --name=of --directory="$D" --ioengine=psync --rw=write --bs=1M --nrfiles=64 --filesize=1M --numjobs=8 --output-format=terse >/dev/null
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  $FIO --name=of --directory="$D" --ioengine=psync --rw=randread --bs=4k --nrfiles=64 --filesize=1M --openfiles=1 --file_service_type=roundrobin --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
done; done
for nj in 1 8; do
  $FIO --name=of --directory="$D" --ioengine=psync --rw=randread --bs=4k --nrfiles=64 --filesize=1M --file_service_type=roundrobin --numjobs=$nj --group_reporting $F --output=compare_openfiles64_nj$nj.json >/dev/null
done
done_prov
