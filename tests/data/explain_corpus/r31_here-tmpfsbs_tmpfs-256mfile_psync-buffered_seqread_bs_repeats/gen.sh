#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: a fresh mktemp
# directory under /tmp, a new 300 MiB tmpfs mounted on it and a 256 MiB file in that tmpfs; all are unmounted and
# removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt cpu.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
DIR= ; MNT=
cleanup() {
  [ -n "$MNT" ] && mountpoint -q "$MNT" && umount "$MNT"
  [ -n "$DIR" ] && rm -rf "$DIR"
}
trap cleanup EXIT INT TERM
F="--ramp_time=1s --time_based --runtime=3s --output-format=json"
# stat_busy: total non-idle jiffies of all CPUs (user+nice+system+irq+softirq+steal) and idle+iowait, from /proc/stat
stat_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat; }
# a new tmpfs (size=300m) mounted on a fresh directory under /tmp; one 256 MiB file laid out in it by fio (1 MiB
# writes); then psync buffered (direct=0) sequential reads of it by one job, bs 4k, 16k, 64k, 256k, 1m (the file
# wraps around when the end is reached); 3 runs a point, points interleaved.
# cpu.txt: busy / idle jiffies of all CPUs over each fio run.
DIR=$(mktemp -d /tmp/r31h.XXXXXX)
MNT="$DIR/mnt"; mkdir "$MNT"
mount -t tmpfs -o size=300m r31htmpfs "$MNT"
$FIO --name=lay --filename="$MNT/data" --size=256M --rw=write --bs=1M --ioengine=psync --output-format=terse >/dev/null
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
prov
for r in 1 2 3; do for bs in 4k 16k 64k 256k 1m; do
  a=$(stat_busy)
  $FIO --name=rd --filename="$MNT/data" --size=256M --ioengine=psync --direct=0 --rw=read --bs=$bs --numjobs=1 $F --output=raw/bs$bs-r$r.json >/dev/null
  b=$(stat_busy)
  echo "bs$bs-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
done; done
done_prov
