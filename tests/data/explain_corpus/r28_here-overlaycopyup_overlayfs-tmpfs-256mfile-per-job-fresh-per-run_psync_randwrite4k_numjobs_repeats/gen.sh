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
# overlayfs: a lower directory in a fresh tmpfs directory (/dev/shm) holding 4 files of 256 MiB (vf.j.0, written
# once by fio), and for every run a fresh upper + work directory (also on tmpfs) and a fresh overlay mount; psync
# buffered 4 KiB random writes into the lower files through the overlay by numjobs 1, 2, 4 jobs (job j on file
# vf.j.0). The first open for writing of a lower file copies the whole 256 MiB file up into the upper directory
# (overlayfs copy-up, at open() — before fio's ramp and measured time); every later write lands in the upper
# tmpfs copy. walltime.txt: the wall time of each whole fio process (open/copy-up + 1 s ramp + 5 s) against the
# 6 s fio itself counts; 3 runs per point, points interleaved; the overlay is unmounted and its upper removed
# after each run.
newdir /dev/shm; W=$DIR
mkdir "$W/lower"
$FIO --name=vf --directory="$W/lower" --size=256M --numjobs=4 --rw=write --bs=1M --ioengine=psync --output-format=terse >/dev/null
echo "run wall_s_of_fio_process (ramp 1 s + run 5 s = 6 s counted by fio; the rest is start-up, the copy-up at open and exit) upper_bytes_after" > walltime.txt
prov
for r in 1 2 3; do for nj in 1 2 4; do
  mkdir "$W/upper" "$W/work"
  newmnt; mnt -t overlay overlay -o "lowerdir=$W/lower,upperdir=$W/upper,workdir=$W/work"
  t0=$(date +%s.%N)
  $FIO --name=vf --directory="$MNT" --size=256M --ioengine=psync --direct=0 --rw=randwrite --bs=4k --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
  t1=$(date +%s.%N)
  umount "$MNT"; MNTS=$(echo "$MNTS" | sed "s|$MNT||")
  echo "nj$nj-r$r $(echo $t0 $t1 | awk '{printf "%.3f", $2-$1}') $(du -sb "$W/upper" | cut -f1)" >> walltime.txt
  rm -rf "$W/upper" "$W/work"
done; done
done_prov
