#!/usr/bin/env bash
# Regenerate tests/data/compare/: the same random-read iodepth sweep of one file, run with
# ioengine=psync (psync/), ioengine=libaio (libaio/), and psync again (psync-again/: the same
# settings as psync/), 3 repeats each, interleaved (psync, libaio, psync-again; 3 times) so that
# a change of the machine's load over the run falls on all three alike.
#
#   bash tests/data/compare/gen.sh        # needs fio and nvmemodel; about 90 s of fio
#
# Each sweep is written by 'nvmemodel fio-jobs' and run by 'nvmemodel run-sweep'; only the
# results (fio's JSON) are kept, as <engine>/rep<k>/1drives/<point>.json.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d /tmp/nvmemodel-compare.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
TARGET="$WORK/data.bin"            # a 32 MiB file on the file system of /tmp
for rep in 1 2 3; do
  for name in psync libaio psync-again; do
    engine="${name%-again}"
    nvmemodel fio-jobs --out "$WORK/$name-rep$rep" --targets "$TARGET" --pattern randread --bs 4K \
        --iodepth 1,8,32 --runtime 2s --ramp 0.5s --size 32M --ioengine "$engine" > /dev/null
    nvmemodel run-sweep "$WORK/$name-rep$rep" > /dev/null
    mkdir -p "$HERE/$name/rep$rep"
    cp -r "$WORK/$name-rep$rep/results/1drives" "$HERE/$name/rep$rep/"
  done
done
{
  echo "generated: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "fio: $(fio --version)"
  echo "kernel: $(uname -srm)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
  echo "file system of /tmp: $(df -T /tmp | awk 'NR==2 {print $2" on "$1}')"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$HERE/provenance.txt"
