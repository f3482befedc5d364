#!/bin/sh
# Regenerates this case's fio results (raw/*, provenance.txt). Run as root on Linux with fio installed.
# It writes only into this folder and into what it creates itself: files (and sockets) under /dev/shm and loop
# devices over them; all are removed on exit.
set -eu
cd "$(dirname "$0")"
FIO=${FIO:-fio}
mkdir -p raw
rm -f raw/* provenance.txt
prov() { echo "measured here with $($FIO --version) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs" > provenance.txt; }
done_prov() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs at $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> provenance.txt; }
IMGS=; LOOPS=
cleanup() {
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
}
trap cleanup EXIT INT TERM
# newimg MiB: a zero-filled file under /dev/shm (tmpfs), every page present -> $IMG
newimg() { IMG=$(mktemp /dev/shm/g10c_img.XXXXXX); IMGS="$IMGS $IMG"; dd if=/dev/zero of="$IMG" bs=1M count="$1" status=none; }
# newloop BACKING: a loop device over BACKING -> $LOOP (checked to be a loop device over it)
newloop() {
  b=$1; shift
  LOOP=$(losetup -f --show "$@" "$b")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$b" ] || { echo "$LOOP is not backed by $b" >&2; exit 1; }
}
# fio's net engine over loopback TCP (127.0.0.1): one listening job reads, one job writes (the series: the writer),
# block size 4 KiB - 1 MiB, one connection, 0.3 s ramp + 1.5 s measured, 3 runs each; no storage touched
# the reader is not time based: it reads until the writer closes the connection (a reader that stops first
# kills the writer with SIGPIPE), with a 3 s guard
F="--ramp_time=300ms --time_based --runtime=1500ms --size=8g --output-format=json"
R="--ramp_time=300ms --runtime=3 --size=64g --output-format=json"
P=$((20000 + $$ % 20000))
prov
for r in 1 2 3; do for bs in 4k 16k 64k 256k 1m; do
  P=$((P+1))
  timeout 30 $FIO --name=rx --ioengine=net --protocol=tcp --port=$P --listen --rw=read --bs=$bs $R \
      --name=tx --ioengine=net --protocol=tcp --hostname=127.0.0.1 --port=$P --rw=write --bs=$bs --startdelay=200ms $F \
      --output=raw/bs$bs-r$r.json >/dev/null
done; done
done_prov
