#!/bin/sh
# Regenerates this case's fio results (raw/*, provenance.txt). Run as root on Linux with the named fio build.
# It writes only into this folder and into what it creates itself: files and directories under /dev/shm, loop
# devices over them (and, where used, an ext4 mount of a loop device, under /dev/shm); all are removed on exit.
# fio runs under nice -n -10 and ionice -c2 -n0 (the host is shared); here it was run as
# /tmp/team/measure sh ./gen.sh (a lock that keeps the host's other test runs out while it runs).
set -eu
cd "$(dirname "$0")"
FIO=${FIO:-fio}
RUN="nice -n -10 ionice -c2 -n0 $FIO"
mkdir -p raw
rm -f raw/* provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs (uptime: $(uptime))" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ) (uptime: $(uptime))" >> provenance.txt; }
IMGS=; LOOPS=; MNTS=; DIRS=; EXTLOOPS=
cleanup() {
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for m in $MNTS; do umount "$m" 2>/dev/null || true; rmdir "$m" 2>/dev/null || true; done
  for l in $EXTLOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for d in $DIRS; do rm -rf "$d"; done
  for f in $IMGS; do rm -f "$f"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g18c_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING [losetup options]: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# newext4 MiB: ext4 (mkfs.ext4 defaults) on a loop device over a MiB-sized tmpfs file, mounted under /dev/shm -> $MNT
# (that loop device is detached after the unmount, and after any loop device over a file on the mount)
newext4() {
  newimg "$1"
  EXTLOOP=$(losetup -f --show "$IMG")
  case "$EXTLOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $EXTLOOP" >&2; exit 1 ;; esac
  EXTLOOPS="$EXTLOOP $EXTLOOPS"
  [ "$(losetup -n -O BACK-FILE "$EXTLOOP")" = "$IMG" ] || { echo "$EXTLOOP is not backed by $IMG" >&2; exit 1; }
  mkfs.ext4 -q -F "$EXTLOOP"
  MNT=$(mktemp -d /dev/shm/g18c_mnt.XXXXXX); MNTS="$MNT $MNTS"; mount "$EXTLOOP" "$MNT"
}
# newtmpdir: an empty directory under /dev/shm (tmpfs) -> $TD
newtmpdir() { TD=$(mktemp -d /dev/shm/g18c_dir.XXXXXX); DIRS="$DIRS $TD"; }
F="--ramp_time=300ms --time_based --runtime=1500ms"

# one loop device over a 256 MiB tmpfs file (no cap); libaio 4 KiB random reads, direct=1, iodepth 32 per job with
# iodepth_batch_submit=32 and iodepth_batch_complete_min=32 (lock-step batches of 32), numjobs 1..16 on the same
# device, group_reporting
newimg 256; newloop "$IMG"; A=$LOOP
prov
for r in 1 2 3; do for nj in 1 2 4 8 16; do
  $RUN --name=bt --filename="$A" --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=32 \
      --iodepth_batch_submit=32 --iodepth_batch_complete_min=32 --numjobs=$nj --group_reporting $F \
      --output-format=json --output=raw/nj$nj-r$r.json >/dev/null
done; done
done_prov
