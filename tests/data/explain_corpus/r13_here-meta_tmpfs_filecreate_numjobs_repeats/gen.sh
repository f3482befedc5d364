#!/bin/sh
# Regenerates this case's fio results (raw/*, provenance.txt). Run as root on Linux with fio installed.
# It writes only into this folder and into what it creates itself: files under /dev/shm and loop devices over
# them; all are removed on exit.
set -eu
cd "$(dirname "$0")"
FIO=${FIO:-fio}
mkdir -p raw
rm -f raw/* provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> provenance.txt; }
IMGS=; LOOPS=; DIRS=
cleanup() {
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
  for d in $DIRS; do rm -rf "$d"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g12c_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newdir: an empty directory under /dev/shm (tmpfs) -> $DIR
newdir() { DIR=$(mktemp -d /dev/shm/g12c_dir.XXXXXX); DIRS="$DIRS $DIR"; }
# newloop BACKING [losetup options]: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
F="--ramp_time=250ms --time_based --runtime=1500ms --output-format=json"
# ioengine=filecreate on tmpfs: each I/O is an open(O_CREAT)+close of a new empty file (fio times the
# create); 3000 files per job (nrfiles=3000, filesize=4k, create_on_open), numjobs 1..8 (group_reporting),
# all jobs in one fresh tmpfs directory, 3 runs each (fresh dirs each run)
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  newdir
  $FIO --name=fc --directory="$DIR" --ioengine=filecreate --nrfiles=3000 --filesize=4k --create_on_open=1 --openfiles=1 --numjobs=$nj --group_reporting --output-format=json --output=raw/nj$nj-r$r.json >/dev/null
  rm -rf "$DIR"
done; done
done_prov
