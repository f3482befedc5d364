#!/usr/bin/env bash
# Regenerate tests/data/steadystate/: a small file preconditioned and measured to steady state.
#
#   bash tests/data/steadystate/gen.sh     # needs fio and nvmemodel; about 1 min of fio
#
# 1. loose/: 'nvmemodel fio-jobs --precondition' on a 16 MiB file (a sequential fill of 2 x 16 MiB, random
#    4 KiB writes over it twice), then random 4 KiB writes at iodepth 1 and 8, each with fio's steady-state
#    check as --precondition sets it (iops_slope at 10 % of the mean over a 5 s window: 2.5 % per second),
#    at most 20 s a point. Kept: results/ (the points) and precondition/ (fio's report of each step).
# 2. strict/: the same file, the same points with a check no run of 8 s on a shared machine meets
#    (iops_slope:0.01%, window 4 s), so fio runs the whole 8 s and reports steady state not attained.
# 3. logged/: one fio run with the loose check and 1-second IOPS and bandwidth logs (what 'nvmemodel plot
#    --logs' draws, with the steady-state window), written by fio directly (fio-jobs writes no logs).
# 4. loop/ (as root only): the same on a block device — a 32 MiB loop device this script attaches over a file in
#    its work folder and detaches at the end: the preconditioning then starts with a discard (fio rw=trim), and
#    random 4 KiB writes at iodepth 4 run to steady state (at most 15 s). Kept: plan.json, precondition/, results/.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d /tmp/nvmemodel-steadystate.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
TARGET="$WORK/target.bin"
nvmemodel fio-jobs --out "$WORK/loose" --targets "$TARGET" --pattern randwrite --bs 4K --iodepth 1,8 \
    --runtime 20s --ramp 0s --size 16M --precondition --ss-dur 5s
nvmemodel run-sweep "$WORK/loose"
nvmemodel fio-jobs --out "$WORK/strict" --targets "$TARGET" --pattern randwrite --bs 4K --iodepth 1,8 \
    --runtime 8s --ramp 0s --size 16M --steady-state 'iops_slope:0.01%' --ss-dur 4s
nvmemodel run-sweep "$WORK/strict"
mkdir -p "$HERE/logged"
(cd "$HERE/logged" && fio --name=randwrite-qd8 --filename="$TARGET" --size=16M --rw=randwrite --bs=4k \
    --ioengine=libaio --iodepth=8 --direct=1 --time_based --runtime=20 --ss=iops_slope:2.5% --ss_dur=5 \
    --write_iops_log=randwrite-qd8 --write_bw_log=randwrite-qd8 --log_avg_msec=1000 \
    --output-format=json --output=randwrite-qd8.json)
if [ "$(id -u)" = 0 ]; then
  truncate -s 32M "$WORK/loop.bin"
  LOOP="$(losetup -f --show "$WORK/loop.bin")"
  trap 'losetup -d "$LOOP"; rm -rf "$WORK"' EXIT
  nvmemodel fio-jobs --out "$WORK/loop" --targets "$LOOP" --pattern randwrite --bs 4K --iodepth 4 --runtime 15s \
      --ramp 0s --size 32M --precondition --ss-dur 5s --allow-raw-device-writes
  nvmemodel run-sweep "$WORK/loop" --allow-raw-device-writes
  rm -rf "$HERE/loop" && mkdir -p "$HERE/loop"
  cp -r "$WORK/loop/plan.json" "$WORK/loop/precondition" "$WORK/loop/results" "$HERE/loop/"
fi
rm -rf "$HERE/loose" "$HERE/strict"
mkdir -p "$HERE/loose" "$HERE/strict"
cp -r "$WORK/loose/results" "$WORK/loose/precondition" "$WORK/loose/plan.json" "$HERE/loose/"
cp -r "$WORK/strict/results" "$WORK/strict/plan.json" "$HERE/strict/"
{
  echo "generated: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "fio: $(fio --version)"
  echo "kernel: $(uname -srm)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
  echo "file system of /tmp: $(df -T /tmp | awk 'NR==2 {print $2" on "$1}')"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$HERE/provenance.txt"
