#!/bin/bash
# Regenerates tests/data/fio_normal_disks: fio's normal-text disk statistics ("Disk stats (read/write):") from every
# fio build given, against fio's JSON of the same run.
#
#   tests/data/fio_normal_disks/gen.sh /tmp/fio-bin/*/fio        (as root, Linux, loop devices free)
#
# One short job per release on two loop devices over 16 MiB files in /dev/shm (tmpfs: no real disk is touched),
# libaio random 70/30 reads/writes of 4 KiB, direct=1, iodepth 4, 0.3 s, --filename=loopA:loopB, so fio's disk list
# holds two devices that both read and wrote. fio >= 2.21 writes JSON and normal text of one run
# (--output-format=json,normal); fio 2.1/2.2 write one form per run, so their normal text (--output-format=normal) has
# no JSON beside it. Each file is <release>.<form>.out.gz (gzip -9n); the loop device names are those of the host that
# ran it (loopN). Everything it creates (the files under /dev/shm, the loop devices) is removed on exit.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
IMGS=; LOOPS=
cleanup() {
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
}
trap cleanup EXIT INT TERM
newloop() {  # a loop device over a new zero-filled 16 MiB file in /dev/shm -> $LOOP
  local img; img=$(mktemp /dev/shm/normal_disks.XXXXXX); IMGS="$IMGS $img"
  dd if=/dev/zero of="$img" bs=1M count=16 status=none
  LOOP=$(losetup -f --show "$img")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$img" ] || { echo "$LOOP is not backed by $img" >&2; exit 1; }
}
newloop; A=$LOOP; newloop; B=$LOOP
JOB="--name=dk --filename=$A:$B --ioengine=libaio --direct=1 --rw=randrw --rwmixread=70 --bs=4k --iodepth=4
     --time_based --runtime=300ms"
: > "$HERE/commands.txt"
for FIO in "$@"; do
  VER=$("$FIO" --version | sed 's/^fio-//; s/-dirty$//')
  run() {  # run FORM ARGS...
    local form=$1; shift
    echo "fio-$VER: fio $(echo $JOB) $(printf "%q " "$@")" >> "$HERE/commands.txt"
    "$FIO" $JOB "$@" > "$HERE/$VER.$form.out"
    gzip -9nf "$HERE/$VER.$form.out"
  }
  if "$FIO" --name=probe --ioengine=null --size=4k --output-format=json,terse 2>/dev/null | grep -q '"fio version"'; then
    run json-normal --output-format=json,normal
  else
    run normal --output-format=normal
  fi
done
echo "measured with $(for f in "$@"; do "$f" --version; done | tr '\n' ' ')on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$HERE/provenance.txt"
