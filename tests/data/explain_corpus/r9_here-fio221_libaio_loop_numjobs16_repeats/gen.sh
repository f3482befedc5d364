#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt). Run as root on Linux with fio installed.
# It writes only into this folder and into what it creates itself: files under /dev/shm, loop devices over
# them and (where used) a cgroup v1 blkio group; all are removed on exit.
set -eu
cd "$(dirname "$0")"
FIO=${FIO:-fio}
mkdir -p raw
rm -f raw/*.json provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> provenance.txt; }
IMGS=; LOOPS=; CG=
cleanup() {
  if [ -n "$CG" ]; then rmdir "$CG" 2>/dev/null || true; fi
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g12_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
majmin() { cat "/sys/block/${1#/dev/}/dev"; }
# a blkio cgroup (cgroup v1 blkio.throttle: this machine's io controller is bound to v1)
newcg() { CG=/sys/fs/cgroup/blkio/nvmemodel-r8g12-$$; mkdir "$CG"; }
cap() { echo "$(majmin "$1") $3" > "$CG/blkio.throttle.$2"; }     # cap DEVICE read_iops_device|read_bps_device|write_iops_device|write_bps_device VALUE
incg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
F="--ramp_time=500ms --time_based --runtime=2 --output-format=json"
# fio 2.21 (built from source; FIO=/path/to/fio-2.21); one loop device over a 256 MiB tmpfs file, no cap;
# libaio 4 KiB random reads, direct=1, iodepth 4 a job, numjobs 1..16 (group_reporting), 3 runs each
: "${FIO:?set FIO to a fio 2.21 binary}"
newimg 256; newloop "$IMG"; A=$LOOP
prov
for r in 1 2 3; do for nj in 1 2 4 8 16; do
  $FIO --name=la --filename="$A" --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=4 \
      --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
