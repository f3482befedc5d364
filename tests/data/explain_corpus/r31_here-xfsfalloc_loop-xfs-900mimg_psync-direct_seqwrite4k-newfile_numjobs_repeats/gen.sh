#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio,
# mkfs.xfs, losetup and fstrim installed (FIO= the fio binary). It writes only into this folder and into what it
# creates itself: a fresh mktemp directory under /tmp, a sparse 900 MiB image file in it, the loop device it binds
# to that image (losetup -f), the xfs made on it and the files fio creates there; all are unmounted, detached and
# removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt cpu.txt vda_stat.txt loop_stat.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
DIR= ; LOOP= ; MNT=
cleanup() {
  [ -n "$MNT" ] && mountpoint -q "$MNT" && umount "$MNT"
  [ -n "$LOOP" ] && losetup -d "$LOOP"
  [ -n "$DIR" ] && rm -rf "$DIR"
}
trap cleanup EXIT INT TERM
F="--ramp_time=1s --runtime=3s --output-format=json"
# stat_busy: total non-idle jiffies of all CPUs (user+nice+system+irq+softirq+steal) and idle+iowait, from /proc/stat
stat_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat; }
dstat() { awk '{print $1, $3, $5, $7, $10}' "$1"; }
# xfs (mkfs.xfs defaults) on a loop device (losetup defaults: buffered I/O into the backing file) over a sparse
# 900 MiB image file in a fresh directory under /tmp (ext4 on the VM's virtio disk vda). Each run: numjobs jobs, each
# psync direct=1 4 KiB sequential writes into its OWN NEW file (fallocate=none, so every write extends the file and
# allocates its block), 600 MiB / numjobs a job at most, 1 s ramp + 3 s; then the files are removed and the xfs
# trimmed (fstrim, so the image's freed blocks are punched out of /tmp again). numjobs 1, 2, 4, 8; 3 runs a point,
# points interleaved.
# At numjobs 4 and 8 jobs can write their 150 / 75 MiB (ramp included) before the 3 s end: fio then stops them early
# (each job's runtime in its JSON); group_reporting=0 keeps every job's own rate and runtime.
# cpu.txt: busy / idle jiffies of all CPUs over each fio run; loop_stat.txt, vda_stat.txt: the loop device's and
# vda's counters over each fio run (ramp included): read_ios read_sectors write_ios write_sectors io_ms.
DIR=$(mktemp -d /tmp/r31h.XXXXXX)
truncate -s 900M "$DIR/img"
mkfs.xfs -q "$DIR/img"
LOOP=$(losetup -f --show "$DIR/img")
MNT="$DIR/mnt"; mkdir "$MNT"
mount -t xfs "$LOOP" "$MNT"
LS=/sys/block/${LOOP#/dev/}/stat
{ echo "loop device $LOOP over $DIR/img"; xfs_info "$MNT"; } > xfs_info.txt
echo "run busy_jiffies idle_jiffies (all CPUs, over the whole fio process; USER_HZ=$(getconf CLK_TCK))" > cpu.txt
echo "run read_ios read_sectors write_ios write_sectors io_ms (deltas over the whole fio process, ramp included)" > loop_stat.txt
echo "run read_ios read_sectors write_ios write_sectors io_ms (deltas over the whole fio process, ramp included)" > vda_stat.txt
prov
for r in 1 2 3; do for nj in 1 2 4 8; do
  mkdir "$MNT/w"; sync
  a=$(stat_busy); la=$(dstat $LS); va=$(dstat /sys/block/vda/stat)
  $FIO --name=al --directory="$MNT/w" --size=$((600 / nj))M --fallocate=none --ioengine=psync --direct=1 --rw=write --bs=4k --numjobs=$nj --group_reporting=0 $F --output=raw/nj$nj-r$r.json >/dev/null
  b=$(stat_busy); lb=$(dstat $LS); vb=$(dstat /sys/block/vda/stat)
  echo "nj$nj-r$r $(echo $a $b | awk '{print $3-$1, $4-$2}')" >> cpu.txt
  echo "nj$nj-r$r $(echo $la $lb | awk '{print $6-$1, $7-$2, $8-$3, $9-$4, $10-$5}')" >> loop_stat.txt
  echo "nj$nj-r$r $(echo $va $vb | awk '{print $6-$1, $7-$2, $8-$3, $9-$4, $10-$5}')" >> vda_stat.txt
  rm -rf "$MNT/w"; fstrim "$MNT"
done; done
done_prov
