#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: a fresh mktemp
# directory under /tmp and a file in it; all are removed on exit.
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
newdir() { DIR=$(mktemp -d "$1/r31h.XXXXXX"); TDIRS="$DIR $TDIRS"; }
F="--ramp_time=1s --time_based --runtime=3s --output-format=json"
# stat_busy: total non-idle jiffies of all CPUs (user+nice+system+irq+softirq+steal) and idle+iowait, from /proc/stat
stat_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat; }
vda_stat() { awk '{print $1, $3, $5, $7, $10}' /sys/block/vda/stat; }
# the VM's own virtio disk vda (ext4 root, /tmp on it): one 512 MiB file in a fresh directory under /tmp, laid out by
# fio (1 MiB writes, fsynced), then libaio direct=1 4 KiB random mixed reads/writes by one job at iodepth 16,
# rwmixread 0, 25, 50, 75, 100 (the read share); 3 runs per point, points interleaved.
# cpu.txt: busy / idle jiffies of all CPUs over each fio run; vda_stat.txt: vda's counters over each fio run (ramp
# included).
newdir /tmp
$FIO --name=lay --filename="$DIR/data" --size=512M --rw=write --bs=1M --ioengine=psync --end_fsync=1 --output-format=terse >/dev/null
sync
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
echo "run vda_read_ios vda_read_sectors vda_write_ios vda_write_sectors vda_io_ms (deltas over the whole fio process, ramp included)" > vda_stat.txt
prov
for r in 1 2 3; do for m in 0 25 50 75 100; do
  a=$(stat_busy); da=$(vda_stat)
  $FIO --name=rw --filename="$DIR/data" --size=512M --ioengine=libaio --direct=1 --rw=randrw --rwmixread=$m --bs=4k --iodepth=16 --numjobs=1 $F --output=raw/mix$m-r$r.json >/dev/null
  b=$(stat_busy); db=$(vda_stat)
  echo "mix$m-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
  echo "mix$m-r$r $(echo $da $db | awk '{print $6-$1, $7-$2, $8-$3, $9-$4, $10-$5}')" >> vda_stat.txt
done; done
done_prov
