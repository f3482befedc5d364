#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: a fresh mktemp
# directory under /tmp and a file in it; all are removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt cpu.txt vda_stat.txt threads.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
TDIRS=
cleanup() { for d in $TDIRS; do rm -rf "$d"; done; }
trap cleanup EXIT INT TERM
newdir() { DIR=$(mktemp -d "$1/r30h.XXXXXX"); TDIRS="$DIR $TDIRS"; }
F="--ramp_time=1s --time_based --runtime=4s --output-format=json"
# stat_busy: total non-idle jiffies of all CPUs (user+nice+system+irq+softirq+steal) and idle+iowait, from /proc/stat
stat_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat; }
vda_stat() { awk '{print $1, $3, $5, $10}' /sys/block/vda/stat; }
# snap PID: one line per thread of PID and of its children: pid tid comm utime stime (jiffies, /proc/<pid>/task/<tid>/stat)
snap() {
  for p in $1 $(pgrep -P "$1" || true); do for t in /proc/$p/task/*; do
    s=$(cat "$t/stat" 2>/dev/null) || continue; c=$(cat "$t/comm" 2>/dev/null) || continue
    echo "$p ${t##*/} $c $(echo "$s" | sed 's/.*) //' | awk '{print $12, $13}')"
  done; done
}
# the VM's own virtio disk vda (ext4 root, /tmp on it): one 512 MiB file in a fresh directory under /tmp, laid out by
# fio (1 MiB writes, fsynced), read with fio's io_uring engine with sqthread_poll=1 (a kernel thread iou-sqp-<pid>, a thread of the job process, polls the
# submission queue; fio 3.33 defaults otherwise: no fixed buffers, no hipri) direct=1 4 KiB random reads by one job at iodepth 1, 4, 16, 64; 3 runs per point, points interleaved.
# cpu.txt: busy / idle jiffies of all CPUs over each fio run; vda_stat.txt: vda's counters over each fio run (ramp
# included); threads.txt: every thread of fio and its job process with its utime/stime jiffies at 1.5 s and 4.5 s
# into each run (both inside the measured 1-5 s), so the sq thread's CPU (not counted in fio's usr/sys) is seen.
newdir /tmp
$FIO --name=lay --filename="$DIR/data" --size=512M --rw=write --bs=1M --ioengine=psync --end_fsync=1 --output-format=terse >/dev/null
sync
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
echo "run vda_read_ios vda_read_sectors vda_write_ios vda_io_ms (deltas over the whole fio process, ramp included)" > vda_stat.txt
echo "run t_s pid tid comm utime stime (jiffies, USER_HZ=$(getconf CLK_TCK))" > threads.txt
prov
for r in 1 2 3; do for qd in 1 4 16 64; do
  a=$(stat_busy); da=$(vda_stat)
  $FIO --name=sqp --filename="$DIR/data" --size=512M --ioengine=io_uring --sqthread_poll=1 --direct=1 --rw=randread --bs=4k --iodepth=$qd --numjobs=1 $F --output=raw/qd$qd-r$r.json >/dev/null &
  FP=$!
  sleep 1.5; snap $FP | sed "s/^/qd$qd-r$r 1.5 /" >> threads.txt
  sleep 3; snap $FP | sed "s/^/qd$qd-r$r 4.5 /" >> threads.txt
  wait $FP
  b=$(stat_busy); db=$(vda_stat)
  echo "qd$qd-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
  echo "qd$qd-r$r $(echo $da $db | awk '{print $5-$1, $6-$2, $7-$3, $8-$4}')" >> vda_stat.txt
done; done
done_prov
