#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: a fresh mktemp
# directory under /tmp and the files in it; all are removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt cpu.txt vda_stat.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
TDIRS=
cleanup() { for d in $TDIRS; do rm -rf "$d"; done; }
trap cleanup EXIT INT TERM
newdir() { DIR=$(mktemp -d "$1/r32h.XXXXXX"); TDIRS="$DIR $TDIRS"; }
F="--ramp_time=1s --time_based --runtime=3s --output-format=json"
# stat_busy: total non-idle jiffies of all CPUs (user+nice+system+irq+softirq+steal) and idle+iowait, from /proc/stat
stat_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat; }
vda_stat() { awk '{print $1, $3, $5, $7, $10}' /sys/block/vda/stat; }
# the VM's own virtio disk vda (ext4 root, /tmp on it): eight 128 MiB files (1 GiB in all, the most this machine's
# /tmp may take) in one fresh directory under /tmp, each laid out by fio (1 MiB writes, fsynced); then for N = 1, 2,
# 4, 8 targets one fio run with N jobs, job i reading file i only, libaio direct=1 4 KiB random reads at iodepth 8 a
# job (8 x N outstanding in all), group_reporting (one row a run). All N files share the one disk vda.
# 3 runs per point, points interleaved.
# cpu.txt: busy / idle jiffies of all CPUs over each fio run; vda_stat.txt: vda's counters over each fio run (ramp
# included).
newdir /tmp
for i in 1 2 3 4 5 6 7 8; do
  $FIO --name=lay --filename="$DIR/f$i" --size=128M --rw=write --bs=1M --ioengine=psync --end_fsync=1 --output-format=terse >/dev/null
done
sync
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
echo "run vda_read_ios vda_read_sectors vda_write_ios vda_write_sectors vda_io_ms (deltas over the whole fio process, ramp included)" > vda_stat.txt
prov
for r in 1 2 3; do for n in 1 2 4 8; do
  jobs=
  i=1; while [ $i -le $n ]; do jobs="$jobs --name=t$i --filename=$DIR/f$i"; i=$((i+1)); done
  a=$(stat_busy); da=$(vda_stat)
  $FIO --size=128M --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=8 --numjobs=1 --group_reporting $F --output=raw/t$n-r$r.json $jobs >/dev/null
  b=$(stat_busy); db=$(vda_stat)
  echo "t$n-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
  echo "t$n-r$r $(echo $da $db | awk '{print $6-$1, $7-$2, $8-$3, $9-$4, $10-$5}')" >> vda_stat.txt
done; done
done_prov
