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
  for m in $MNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  for p in $PIDS; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for d in $TDIRS; do rm -rf "$d"; done
}
trap cleanup EXIT INT TERM
# newdir PARENT: a fresh directory under PARENT (removed on exit) -> $DIR
newdir() { DIR=$(mktemp -d "$1/r28h.XXXXXX"); TDIRS="$DIR $TDIRS"; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# newmnt: a fresh empty directory to mount on -> $MNT (unmounted and removed on exit; unmounts run before removals)
newmnt() { MNT=$(mktemp -d /tmp/r28h_mnt.XXXXXX); TDIRS="$TDIRS $MNT"; }
mnt() { mount "$@" "$MNT"; MNTS="$MNT $MNTS"; }
F="--ramp_time=1s --time_based --runtime=5s --output-format=json"
# stat_busy: total non-idle jiffies of all CPUs (user+nice+system+irq+softirq+steal) and idle+iowait, from /proc/stat
stat_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat; }
F="--ramp_time=1s --time_based --runtime=5s --output-format=json"
# btrfs (mkfs.btrfs defaults, single device) on a loop device over a sparse 6 GiB file in a fresh tmpfs directory
# (/dev/shm), mounted with compress-force=zstd:3 (every extent compressed, level 3) and discard=async; psync
# buffered 128 KiB sequential writes of half-compressible data (buffer_compress_percentage=50, refill_buffers: a
# fresh buffer for every write) by numjobs 1, 2, 4 jobs, each into its own 512 MiB file (fio loops over it when it
# reaches the end; time_based), end_fsync=1 (the run's last act is an fsync of the file, counted in the run's time).
# Compression runs in the kernel's btrfs worker threads (kworkers) at writeback, not in the fio process.
# cpu.txt: busy / idle jiffies of all CPUs over each fio run (from /proc/stat); kthreads.txt: the CPU (utime+stime
# jiffies) kernel threads (children of kthreadd) used over each run, summed by name with digits as N (threads that
# exited during the run are not counted); the fio jobs' own usr+sys are in the raw files. space.txt: the files'
# bytes and btrfs's Data "used" (btrfs filesystem df, after a sync) - the compressed size on the device.
# fallocate=none: fio must not preallocate the files (btrfs writes into preallocated extents without compressing).
# The files are removed after every run (a fresh file each run); 3 runs per point, points interleaved.
newdir /dev/shm; W=$DIR
truncate -s 6G "$W/btrfs.img"
newloop "$W/btrfs.img"
mkfs.btrfs -q -f "$LOOP" >/dev/null
newmnt; mnt -t btrfs -o compress-force=zstd:3,discard=async "$LOOP"
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
echo "run file bytes (du --apparent-size) and btrfs Data used bytes (btrfs filesystem df -b) after the run and a sync" > space.txt
echo "run kernel-thread CPU jiffies over the run: total, then per name (digits as N)" > kthreads.txt
kt() { for s in /proc/[0-9]*/stat; do cat "$s" 2>/dev/null; done | awk '{ i = index($0, "("); j = match($0, /\) [A-Za-z] /); if (!j) next; split(substr($0, j + 2), a, " "); if (a[2] == 2) print $1, a[12] + a[13], substr($0, i + 1, j - i - 1) }'; }
prov
for r in 1 2 3; do for nj in 1 2 4; do
  sync
  kt > "$W/kt.a"; a=$(stat_busy)
  $FIO --name=bz --directory="$MNT" --size=512M --fallocate=none --ioengine=psync --direct=0 --rw=write --bs=128k --buffer_compress_percentage=50 --refill_buffers --end_fsync=1 --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
  b=$(stat_busy); kt > "$W/kt.b"
  echo "nj$nj-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
  echo "nj$nj-r$r $(awk 'NR == FNR { t[$1] = $2; next } ($1 in t) { d = $2 - t[$1]; n = $3; gsub(/[0-9]+/, "N", n); s[n] += d; tot += d } END { printf "total=%d", tot; for (k in s) if (s[k] > 0) printf " %s=%d", k, s[k] }' "$W/kt.a" "$W/kt.b")" >> kthreads.txt
  sync
  echo "nj$nj-r$r apparent=$(du -sb --apparent-size "$MNT" | cut -f1) data_used=$(btrfs filesystem df -b "$MNT" | sed -n 's/^Data.*used=\([0-9]*\).*/\1/p')" >> space.txt
  rm -f "$MNT"/bz.*
  sync
done; done
done_prov
