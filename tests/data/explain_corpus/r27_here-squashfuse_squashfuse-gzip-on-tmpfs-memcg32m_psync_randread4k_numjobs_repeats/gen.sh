#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: a fresh mktemp
# directory (under /tmp or /dev/shm), files in it, loop devices over those files, file systems on them mounted under
# fresh mktemp directories, a squashfuse daemon it starts (its pid kept) and a cgroup v1 memory group it makes; all
# are unmounted / stopped / detached / removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
LOOPS=; MNTS=; TDIRS=; PIDS=
CG=
cleanup() {
  for m in $MNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  for p in $PIDS; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  if [ -n "$CG" ]; then echo 0 > "$CG/memory.force_empty" 2>/dev/null || true; rmdir "$CG" 2>/dev/null || true; fi
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
# a squashfs image (gzip, 128 KiB blocks) of one 256 MiB file of 50 %-compressible data, in a fresh tmpfs directory,
# mounted with squashfuse (a FUSE daemon in user space, started here in the foreground, its pid recorded and stopped
# on exit); psync buffered 4 KiB random reads by jobs in a memory cgroup v1 limited to 32 MiB, so the FUSE file's page
# cache cannot hold it and most reads miss: each miss is a FUSE read request served by the squashfuse daemon, which
# reads the compressed block from the image and gunzips it; numjobs 1..8; 3 runs per point, points interleaved.
# squashfuse_daemon.txt: the daemon's threads and CPU time (ps) after each run.
newdir /dev/shm; W=$DIR
mkdir "$W/src"
$FIO --name=mk --filename="$W/src/data" --ioengine=psync --rw=write --bs=1M --size=256M --refill_buffers --buffer_compress_percentage=50 --output-format=terse >/dev/null
mksquashfs "$W/src" "$W/img" -comp gzip -b 131072 -noappend -quiet >/dev/null
ls -l "$W/img" | awk '{print "squashfs image bytes", $5, "for 268435456 bytes of data"}' > squashfs_image_size.txt
rm -rf "$W/src"
newmnt
squashfuse -f "$W/img" "$MNT" & SQPID=$!; PIDS="$SQPID"; MNTS="$MNT $MNTS"
for i in 1 2 3 4 5 6 7 8 9 10; do mountpoint -q "$MNT" && break; sleep 1; done
mountpoint -q "$MNT" || { echo "squashfuse did not mount" >&2; exit 1; }
CG=/sys/fs/cgroup/memory/nvmemodel-r27h-$$; mkdir "$CG"
echo 33554432 > "$CG/memory.limit_in_bytes"
[ "$(cat "$CG/memory.limit_in_bytes")" = 33554432 ] || { echo "memory limit not set" >&2; exit 1; }
incg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
echo "squashfuse $(squashfuse --version 2>&1 | head -1); after each run: pid threads cputime(s) of the daemon" > squashfuse_daemon.txt
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  incg $FIO --name=sf --filename="$MNT/data" --ioengine=psync --rw=randread --bs=4k --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
  echo "nj$nj-r$r $(ps -o pid=,nlwp=,cputimes= -p $SQPID)" >> squashfuse_daemon.txt
done; done
done_prov
cat "$CG/memory.stat" > memcg_memory_stat_after.txt
