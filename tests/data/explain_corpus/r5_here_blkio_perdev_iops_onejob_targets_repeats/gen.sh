#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt). Run as root on Linux with fio installed.
# It writes only into this folder and into what it creates itself: files under /dev/shm, loop devices over
# them (or over one of its own loop devices) and a blkio cgroup; all are removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/*.json provenance.txt
prov() { echo "measured here with $(fio --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> provenance.txt; }
IMGS=; LOOPS=; CG=; MNT=
cleanup() {
  if [ -n "$MNT" ]; then umount "$MNT" 2>/dev/null || true; rmdir "$MNT" 2>/dev/null || true; fi
  if [ -n "$CG" ]; then rmdir "$CG" 2>/dev/null || true; fi
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done   # newest first: slices before their base
  for f in $IMGS; do rm -f "$f"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/nvmemodel-r5.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING [losetup options]: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
majmin() { cat "/sys/block/${1#/dev/}/dev"; }
# a blkio cgroup: cgroup v1 blkio.throttle (this machine's io controller is bound to v1; the v2 hierarchy has no
# io controller, so io.max is not available); the same block-layer throttle (blk-throttle) io.max sets on v2
newcg() { CG=/sys/fs/cgroup/blkio/nvmemodel-r5-$$; mkdir "$CG"; }
cap() { echo "$(majmin "$1") $3" > "$CG/blkio.throttle.$2"; }     # cap DEVICE read_iops_device|read_bps_device|... VALUE
incg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
# four volumes, each over its own 128 MiB tmpfs file, each capped at 1500 read IOPS (blkio read_iops_device)
newcg
DEVS=
for i in 1 2 3 4; do newimg 128; newloop "$IMG"; cap "$LOOP" read_iops_device 1500; DEVS="$DEVS $LOOP"; done
prov
# ONE libaio job (iodepth 16, direct, 4 KiB random reads) spread over the first 1..4 devices (filename=a:b:..,
# fio's default file_service_type=roundrobin); 3 runs each
for r in 1 2 3; do for n in 1 2 3 4; do
  list=; i=0
  for dev in $DEVS; do i=$((i + 1)); [ $i -le $n ] && list="${list:+$list:}$dev"; done
  incg fio --name=spread --filename="$list" --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=16 \
      --ramp_time=500ms --time_based --runtime=2 --output-format=json --output=raw/dev$n-r$r.json >/dev/null
done; done
done_prov
