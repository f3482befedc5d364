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
newdir() { DIR=$(mktemp -d "$1/r29h.XXXXXX"); TDIRS="$DIR $TDIRS"; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# newmnt: a fresh empty directory to mount on -> $MNT (unmounted and removed on exit; unmounts run before removals)
newmnt() { MNT=$(mktemp -d /tmp/r29h_mnt.XXXXXX); TDIRS="$TDIRS $MNT"; }
mnt() { mount "$@" "$MNT"; MNTS="$MNT $MNTS"; }
F="--ramp_time=1s --time_based --runtime=5s --output-format=json"
# stat_busy: total non-idle jiffies of all CPUs (user+nice+system+irq+softirq+steal) and idle+iowait, from /proc/stat
stat_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat; }
# vda_stat: vda's read I/Os, write I/Os, flush requests, flush ms, io ms (fields 1, 5, 16, 17, 10 of /sys/block/vda/stat)
vda_stat() { awk '{print $1, $5, $16, $17, $10}' /sys/block/vda/stat; }
# the VM's own virtio disk vda (ext4 root, /tmp on it; vda's queue says "write back" and fua 0: the guest believes a
# volatile cache is there and cannot send FUA writes, so an O_DSYNC write is a write and then a cache flush): one
# 64 MiB file a job in a fresh directory under /tmp, laid out by fio (written once with 1 MiB writes, then fsynced:
# the measured writes are overwrites in place, no allocation), overwritten with psync direct=1 sync=1 (O_DSYNC)
# 4 KiB random writes by 1..8 jobs, one write in flight a job; 3 runs per point, points interleaved.
# cpu.txt: busy / idle jiffies of all CPUs over each fio run (from /proc/stat); vda_stat.txt: vda's counters over
# each fio run (including the 1 s ramp and other users of vda).
newdir /tmp
$FIO --name=ds --directory="$DIR" --size=64M --numjobs=8 --rw=write --bs=1M --ioengine=psync --end_fsync=1 --output-format=terse >/dev/null
sync
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
echo "run vda_read_ios vda_write_ios vda_flushes vda_flush_ms vda_io_ms (deltas over the whole fio process)" > vda_stat.txt
echo "vda queue: fua $(cat /sys/block/vda/queue/fua), write_cache '$(cat /sys/block/vda/queue/write_cache)', scheduler '$(cat /sys/block/vda/queue/scheduler)'" > vda_queue.txt
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  a=$(stat_busy); da=$(vda_stat)
  $FIO --name=ds --directory="$DIR" --size=64M --ioengine=psync --direct=1 --sync=1 --rw=randwrite --bs=4k --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
  b=$(stat_busy); db=$(vda_stat)
  echo "nj$nj-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
  echo "nj$nj-r$r $(echo $da $db | awk '{print $6-$1, $7-$2, $8-$3, $9-$4, $10-$5}')" >> vda_stat.txt
done; done
done_prov
