#!/bin/bash
# Regenerates tests/data/fio_group_mixed: one fio run whose group_reporting group holds jobs with different iodepth,
# ioengine and rw, so the group's block cannot be described by its first job's header line (normal text echoes one
# header per job; the group's result block carries the first job's name). No storage is touched: the null engine and
# the psync engine on a 1 MiB file in a new /dev/shm directory, removed on exit.
#
#   tests/data/fio_group_mixed/gen.sh [fio]        (writes group/clones.json-normal.out.gz and provenance.txt)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
FIO=${1:-fio}
DIR=$(mktemp -d /dev/shm/group_mixed.XXXXXX)
trap 'rm -rf "$DIR"' EXIT INT TERM
VER=$("$FIO" --version)
"$FIO" --output-format=json,normal --group_reporting --time_based --runtime=300ms --size=1M --directory="$DIR" \
  --name=qd1_null --ioengine=null --rw=randread --bs=4k --iodepth=1 \
  --name=qd8_null --ioengine=null --rw=randwrite --bs=4k --iodepth=8 \
  --name=psync_read --ioengine=psync --rw=read --bs=4k > "$HERE/group.json-normal.out"
gzip -9nf "$HERE/group.json-normal.out"
# the counter-case: one section cloned (numjobs=2) in a group: its echoed options are every job's
"$FIO" --output-format=json,normal --group_reporting --time_based --runtime=300ms --size=1M --directory="$DIR" \
  --name=clones --ioengine=null --rw=randread --bs=4k --iodepth=4 --numjobs=2 > "$HERE/clones.json-normal.out"
gzip -9nf "$HERE/clones.json-normal.out"
echo "measured here with $VER on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%FT%TZ); load average $(cut -d' ' -f1-3 /proc/loadavg)" > "$HERE/provenance.txt"
