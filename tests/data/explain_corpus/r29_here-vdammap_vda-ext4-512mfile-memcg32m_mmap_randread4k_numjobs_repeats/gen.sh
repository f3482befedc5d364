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
# vda_stat: vda's read I/Os, read sectors, write I/Os, io ms (fields 1, 3, 5, 10 of /sys/block/vda/stat)
vda_stat() { awk '{print $1, $3, $5, $10}' /sys/block/vda/stat; }
# the VM's own virtio disk vda (ext4 root, /tmp on it): one 512 MiB file in a fresh directory under /tmp, laid out by
# fio (1 MiB writes, fsynced), its page cache dropped (dd iflag=nocache count=0) after the layout and before every
# run; read through fio's mmap engine (a shared mapping of the file; each 4 KiB read is a memcpy from the mapping, a
# page fault that reads vda where the page is not cached, with the kernel's fault-around / read-around) by jobs
# inside a new cgroup v1 memory group limited to 32 MiB (1/16 of the file), so most faults miss and reclaim an
# older page; random 4 KiB reads, numjobs 1..8; 3 runs per point, points interleaved.
# cpu.txt: busy / idle jiffies of all CPUs over each fio run; vda_stat.txt: vda's counters over each fio run;
# memcg.txt: the group's pgmajfault / pgfault / pgpgin / pgpgout (memory.stat) over each fio run.
MCG=
newmemcg() {
  MCG=/sys/fs/cgroup/memory/nvmemodel-r29h-$$; mkdir "$MCG"
  echo "$1" > "$MCG/memory.limit_in_bytes"
  [ "$(cat "$MCG/memory.limit_in_bytes")" = "$1" ] || { echo "memory limit not set" >&2; exit 1; }
}
inmcg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$MCG" "$@"; }
mstat() { awk '$1=="pgmajfault"||$1=="pgfault"||$1=="pgpgin"||$1=="pgpgout"{printf "%s ", $2}' "$MCG/memory.stat"; }
trap 'if [ -n "$MCG" ]; then echo 0 > "$MCG/memory.force_empty" 2>/dev/null || true; rmdir "$MCG" 2>/dev/null || true; fi; cleanup' EXIT INT TERM
newdir /tmp
$FIO --name=lay --filename="$DIR/data" --size=512M --rw=write --bs=1M --ioengine=psync --end_fsync=1 --output-format=terse >/dev/null
sync
dd if="$DIR/data" iflag=nocache count=0 status=none
newmemcg 33554432
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
echo "run vda_read_ios vda_read_sectors vda_write_ios vda_io_ms (deltas over the whole fio process, ramp included)" > vda_stat.txt
echo "run pgmajfault pgfault pgpgin pgpgout (deltas of the memory group's memory.stat over the whole fio process)" > memcg.txt
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  dd if="$DIR/data" iflag=nocache count=0 status=none
  a=$(stat_busy); da=$(vda_stat); ma=$(mstat)
  inmcg $FIO --name=mm --filename="$DIR/data" --size=512M --ioengine=mmap --rw=randread --bs=4k --numjobs=$nj --group_reporting $F --output=raw/nj$nj-r$r.json >/dev/null
  b=$(stat_busy); db=$(vda_stat); mb=$(mstat)
  echo "nj$nj-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
  echo "nj$nj-r$r $(echo $da $db | awk '{print $5-$1, $6-$2, $7-$3, $8-$4}')" >> vda_stat.txt
  echo "nj$nj-r$r $(echo $ma $mb | awk '{print $5-$1, $6-$2, $7-$3, $8-$4}')" >> memcg.txt
done; done
done_prov
cat "$MCG/memory.stat" > memcg_memory_stat_after.txt
echo "memory.failcnt $(cat "$MCG/memory.failcnt") memory.max_usage_in_bytes $(cat "$MCG/memory.max_usage_in_bytes")" >> memcg_memory_stat_after.txt
