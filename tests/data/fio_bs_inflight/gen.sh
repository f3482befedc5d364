#!/bin/bash
# Regenerates tests/data/fio_bs_inflight: fio normal text whose BW= and IOPS= disagree by the I/Os in flight, so that
# BW / IOPS is not the block size within their printed precision (bs=1M read as 1,049,000 B before the fix).
#
#   tests/data/fio_bs_inflight/gen.sh /tmp/fio-bin/3.28/fio        (any fio with io_uring; writes only here and a
#                                                                  256 MiB file in /dev/shm, removed on exit)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
FIO=${1:-fio}
F=$(mktemp /dev/shm/bsinf.XXXXXX)
trap 'rm -f "$F"' EXIT INT TERM
"$FIO" --name=ubuf --filename="$F" --size=256M --ioengine=io_uring --direct=0 --rw=read --bs=1M --iodepth=16 \
  --time_based --ramp_time=1 --runtime=11 --output-format=normal > "$HERE/fio-$("$FIO" --version | sed 's/^fio-//')_iouring-buffered_qd16_bs1m.normal"
