#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: a fresh mktemp
# directory (under /tmp or /dev/shm), files in it, loop devices over those files, file systems on them mounted under
# fresh mktemp directories; all are unmounted / detached / removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
LOOPS=; MNTS=; TDIRS=; PIDS=
cleanup() {
  for p in $PIDS; do kill "$p" 2>/dev/null || true; done
  for m in $MNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for d in $TDIRS; do rm -rf "$d"; done
}
trap cleanup EXIT INT TERM
# newdir PARENT: a fresh directory under PARENT (removed on exit) -> $DIR
newdir() { DIR=$(mktemp -d "$1/r27h.XXXXXX"); TDIRS="$DIR $TDIRS"; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# newmnt: a fresh empty directory to mount on -> $MNT (unmounted and removed on exit; unmounts run before removals)
newmnt() { MNT=$(mktemp -d /tmp/r27h_mnt.XXXXXX); TDIRS="$TDIRS $MNT"; }
mnt() { mount "$@" "$MNT"; MNTS="$MNT $MNTS"; }
F="--ramp_time=1s --time_based --runtime=5s --output-format=json"
# fio's filestat engine: each job 64 files of 4 KiB in a fresh tmpfs directory (/dev/shm); the engine does no I/O,
# its "I/O" is a stat() of the file when fio opens it; loops (not time_based) make fio close and reopen every file
# each pass, so every counted I/O is one stat() (runtime=5s ends the loops); numjobs 1..8; 3 runs per point,
# points interleaved
newdir /dev/shm
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  $FIO --name=fs --directory="$DIR" --ioengine=filestat --rw=randread --bs=4k --filesize=4k --nrfiles=64 --loops=1000000000 --ramp_time=1s --runtime=5s --numjobs=$nj --group_reporting --output-format=json --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
