#!/bin/sh
# Regenerates this case's fio results (raw/*.json, provenance.txt and side files). Run as root on Linux with fio
# installed (FIO= the fio binary). It writes only into this folder and into what it creates itself: files under
# /dev/shm, loop devices over them, a zram device it hot-adds, a cgroup v1 group (where used); all are removed on exit.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
rm -f raw/* provenance.txt
FIO=${FIO:-fio}
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; uptime: $(uptime)" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ); uptime: $(uptime)" >> provenance.txt; }
IMGS=; LOOPS=; CG=; ZRAM=
cleanup() {
  if [ -n "$CG" ]; then rmdir "$CG" 2>/dev/null || true; fi
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
  if [ -n "$ZRAM" ]; then echo 1 > "/sys/block/zram$ZRAM/reset" 2>/dev/null || true; echo "$ZRAM" > /sys/class/zram-control/hot_remove 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/r24h_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING [losetup options]: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# newzram MiB ALG: a new zram device (hot_add, our own, removed on exit) of MiB, compressor ALG -> $ZDEV
newzram() {
  ZRAM=$(cat /sys/class/zram-control/hot_add); ZDEV=/dev/zram$ZRAM
  [ -b "$ZDEV" ] || { echo "no block device $ZDEV" >&2; exit 1; }
  [ "$(cat /sys/block/zram$ZRAM/disksize)" = 0 ] || { echo "zram$ZRAM already in use" >&2; exit 1; }
  echo "$2" > /sys/block/zram$ZRAM/comp_algorithm
  grep -q "\[$2\]" /sys/block/zram$ZRAM/comp_algorithm || { echo "compressor $2 not selected" >&2; exit 1; }
  echo "$1M" > /sys/block/zram$ZRAM/disksize
}
# newcpucg QUOTA_US PERIOD_US: a cgroup v1 cpu group with a CFS quota (only the fio processes are put inside) -> $CG
newcpucg() {
  CG=/sys/fs/cgroup/cpu/nvmemodel-r24h-$$; mkdir "$CG"
  echo "$2" > "$CG/cpu.cfs_period_us"; echo "$1" > "$CG/cpu.cfs_quota_us"
  [ "$(cat "$CG/cpu.cfs_quota_us")" = "$1" ] || { echo "cpu quota not set" >&2; exit 1; }
}
incg() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" "$@"; }
F="--ramp_time=500ms --time_based --runtime=1500ms --output-format=json"
# no storage: fio's net engine, UDP over the loopback interface (127.0.0.1): one receiver job bound to the port (rw=read) and
# one sender job (rw=write, the series) in one fio run; UDP has no flow control, so the sender writes datagrams at its
# own pace whatever the receiver takes (datagrams the receiver's socket buffer cannot hold are dropped; UDP counters
# of /proc/net/snmp before and after each run in udp_snmp.txt); block size (datagram size) 1 KiB..60 KiB; 3 runs a point
P=$((20000 + $$ % 20000))
: > udp_snmp.txt
prov
for r in 1 2 3; do for bs in 1k 4k 16k 60k; do
  P=$((P+1))
  echo "before bs$bs-r$r: $(grep '^Udp:' /proc/net/snmp | tail -1)" >> udp_snmp.txt
  timeout 40 $FIO --name=rx --ioengine=net --protocol=udp --port=$P --rw=read --bs=$bs --ramp_time=300ms --runtime=3 --time_based --size=64g \
      --name=tx --new_group --ioengine=net --protocol=udp --hostname=127.0.0.1 --port=$P --rw=write --bs=$bs --startdelay=200ms --size=8g $F \
      --output=raw/bs$bs-r$r.json >/dev/null
  echo "after  bs$bs-r$r: $(grep '^Udp:' /proc/net/snmp | tail -1)" >> udp_snmp.txt
done; done
grep '^Udp:' /proc/net/snmp | head -1 > udp_snmp_columns.txt
done_prov
