#!/bin/bash
# Regenerates tests/data/fio_signal: fio runs stopped by SIGINT (as Ctrl-C or a wrapper's timeout stops them) after
# about 1 s of a 10 s time_based job, in JSON and normal text: fio writes "fio: terminating on signal 2" and then its
# full report of the shortened run. The null engine: no storage touched.
#
#   tests/data/fio_signal/gen.sh [fio]        (writes sigint.json, sigint.normal and provenance.txt here)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
FIO=${1:-fio}
for form in json normal; do
  "$FIO" --name=stopped --ioengine=null --size=1G --bs=4k --rw=randread --time_based --runtime=10 \
    --output-format=$form > "$HERE/sigint.$form" 2>&1 &
  pid=$!
  sleep 1
  kill -INT $pid
  wait $pid || true
done
echo "measured here with $("$FIO" --version) on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%FT%TZ); load average $(cut -d' ' -f1-3 /proc/loadavg)" > "$HERE/provenance.txt"
