#!/bin/sh
# Measured here with fio 3.33: the runs of README.md, written into this folder (run as root: step 1 attaches
# three loop devices over 64 MiB files in a new temporary folder and detaches them at the end).
# Not run by the tests.
set -eu
OUT=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d /tmp/fio-targets.XXXXXX)
FIO=${FIO:-/usr/bin/fio}
J="--output-format=json"
{ echo "fio: $($FIO --version)"; echo "host: $(uname -srm), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)";
  echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"; echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"; echo "work folder: $W"; } > "$OUT/provenance.txt"

# 1. one job section per device (filename= differs per section), with and without group_reporting
L0=""; for i in 0 1 2; do truncate -s 64M "$W/img$i"; L0="$L0 $(losetup -f --show "$W/img$i")"; done
set -- $L0
cat > "$W/sections.fio" <<JOB
[global]
ioengine=psync
rw=randread
bs=4k
size=16m
runtime=1
time_based
group_reporting

[d0]
filename=$1
[d1]
filename=$2
[d2]
filename=$3
JOB
sed 's/^group_reporting$//' "$W/sections.fio" > "$W/sections_nogroup.fio"
$FIO $J --output="$OUT/sections_group.json" "$W/sections.fio"
$FIO $J --output="$OUT/sections_nogroup.json" "$W/sections_nogroup.fio"
# the same group run with its job file echoed before it by a wrapper (cat job.fio; fio job.fio)
{ cat "$W/sections.fio"; $FIO $J "$W/sections.fio"; } > "$OUT/sections_group_echoed.txt"
for l in $L0; do losetup -d "$l"; done

# 2. directory= jobs: fio names each clone's files <jobname>.<clone>.<file> in the directory
mkdir -p "$W/dirA" "$W/dirB"
$FIO $J --output="$OUT/directory.json" --name=dj --directory="$W/dirA" --numjobs=2 --nrfiles=2 --size=4m \
    --rw=randread --bs=4k --runtime=1
$FIO $J --output="$OUT/directory_group.json" --name=dj --directory="$W/dirA" --numjobs=2 --nrfiles=2 --size=4m \
    --rw=randread --bs=4k --runtime=1 --group_reporting
$FIO $J --output="$OUT/directory_two.json" --name=dk --directory="$W/dirA:$W/dirB" --numjobs=2 --size=4m \
    --rw=randread --bs=4k --runtime=1
ls -R "$W/dirA" "$W/dirB" > "$OUT/directory_files.txt"
# 2b. directory= with filename=: fio opens <first directory>/<filename>, shared by the clones (run 13:29 UTC, load 6.2)
mkdir -p "$W/dirC" "$W/dirD"
$FIO $J --output="$OUT/directory_filename.json" --name=df --directory="$W/dirC:$W/dirD" --filename=rel.dat \
    --numjobs=2 --size=1m --rw=read --bs=4k
ls -R "$W/dirC" "$W/dirD" > "$OUT/directory_filename_files.txt"

# 3. syncs: fsync every 8 writes, fdatasync every 16 (their latency is in the job's "sync" block)
$FIO $J --output="$OUT/fsync.json" --name=fs --filename="$W/fsfile" --size=8m --ioengine=psync --rw=write --bs=4k \
    --fsync=8 --runtime=1
$FIO $J --output="$OUT/fdatasync.json" --name=fds --filename="$W/fdsfile" --size=8m --ioengine=psync --rw=randwrite \
    --bs=4k --fdatasync=16 --runtime=1

# 4. io_uring with sqthread_poll (fio 3.33 leaves the I/Os' issue time unset: completion latency is garbage)
$FIO $J --output="$OUT/sqpoll.json" --name=sq --filename="$W/sqfile" --size=16m --ioengine=io_uring \
    --sqthread_poll=1 --rw=randread --bs=4k --iodepth=8 --direct=1 --runtime=2 --time_based
# 4b. the same sqpoll job in terse output (run alone at 13:33 UTC, load 5.5)
$FIO --output-format=terse --output="$OUT/sqpoll.terse" --name=sq --filename="$W/sqfile" --size=16m \
    --ioengine=io_uring --sqthread_poll=1 --rw=randread --bs=4k --iodepth=8 --direct=1 --runtime=2 --time_based

echo "ended: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" >> "$OUT/provenance.txt"
rm -rf "$W"
