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
# the VM's own virtio disk vda (ext4 root, data=ordered, /tmp on it; vda's queue says "write back", so every fsync
# ends with a cache flush sent to the disk): 8 files of 32 MiB in a fresh directory under /tmp, one a job, laid out
# by fio (written with 1 MiB writes and fsynced, so the runs overwrite allocated blocks), then psync buffered
# (direct=0) 4 KiB random writes with fsync=1 (an fsync after every write) by numjobs 1, 2, 4, 8 jobs, each on
# its own file (job j uses file vf.j.0); 3 runs per point, points interleaved. cpu.txt: busy / idle jiffies of all
# CPUs over each run; diskstats.txt: vda's writes and flushes, their counts and summed device times in ms (from
# /sys/block/vda/stat) over each run.
newdir /tmp
$FIO --name=vf --directory="$DIR" --size=32M --numjobs=8 --rw=write --bs=1M --ioengine=psync --end_fsync=1 --output-format=terse >/dev/null
sync
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
echo "run vda_write_ios vda_write_ticks_ms vda_flush_ios vda_flush_ticks_ms (deltas of /sys/block/vda/stat fields 5, 8, 16 and 17 over the whole fio process, ramp included; the whole disk, other users of vda included)" > diskstats.txt
dstat() { awk '{print $5, $8, $16, $17}' /sys/block/vda/stat; }
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  a=$(stat_busy); da=$(dstat)
  $FIO --name=vf --directory="$DIR" --size=32M --ioengine=psync --direct=0 --fsync=1 --rw=randwrite --bs=4k --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
  b=$(stat_busy); db=$(dstat)
  echo "nj$nj-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
  echo "nj$nj-r$r $(echo $da $db | awk '{print $5-$1, $6-$2, $7-$3, $8-$4}')" >> diskstats.txt
done; done
done_prov
