#!/bin/bash
# QA round-6 fio series (fio 3.33, this VM). Every command is echoed to commands.txt (cwd = this folder).
set -u
O=/work/coord/s25/qa/fio
D=/work/coord/s25/qa/disk.bin
cd $O
: > commands.txt
run() { # outfile args...   (json/terse outputs via --output)
  local out=$1; shift
  echo "fio $* --output=$out" >> commands.txt
  fio "$@" --output=$out >/dev/null 2>>$O/stderr.txt
}
app() { # outfile args...  (appended with >>)
  local out=$1; shift
  echo "fio $* >> $out" >> commands.txt
  fio "$@" >> $out 2>>$O/stderr.txt
}
echo "# warm: fio --name=warm --filename=$D --size=64M --rw=write --bs=1M --direct=1" >> commands.txt
fio --name=warm --filename=$D --size=64M --rw=write --bs=1M --direct=1 >/dev/null
# A: numjobs x iodepth grid, io_uring direct randread on the VM disk, group_reporting, json
mkdir -p grid
for nj in 1 2 4; do for qd in 1 4 16 64; do
 run grid/nj${nj}_qd${qd}.json --name=grid --filename=$D --size=64M --rw=randread --bs=4k --ioengine=io_uring --direct=1 --iodepth=$qd --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done; done
# B: block-size series, libaio direct sequential read, iodepth 8, 2 repeats, json+
mkdir -p bs
for bs in 4k 16k 64k 256k 1m; do for r in 1 2; do
 run bs/bs${bs}_r${r}.json --name=bs --filename=$D --size=64M --rw=read --bs=$bs --ioengine=libaio --direct=1 --iodepth=8 --runtime=1 --time_based --output-format=json+
done; done
# C: randrw 70/30 iodepth series with time-series logs (bw, iops, lat; 250 ms averages)
mkdir -p rwlogs
for qd in 1 4 16; do
 run rwlogs/rw_qd${qd}.json --name=rw_qd${qd} --filename=$D --size=64M --rw=randrw --rwmixread=70 --bs=4k --ioengine=libaio --direct=1 --iodepth=$qd --runtime=2 --time_based --write_bw_log=rwlogs/rw_qd${qd} --write_iops_log=rwlogs/rw_qd${qd} --write_lat_log=rwlogs/rw_qd${qd} --log_avg_msec=250 --output-format=json
done
# D: terse (v3) runs appended into one file, iodepth 1..32
mkdir -p tersapp
for qd in 1 2 4 8 16 32; do
 app tersapp/qd_appended.terse --name=tq --filename=$D --size=64M --rw=randread --bs=4k --ioengine=libaio --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=terse
done
# E: iodepth series where one run fails (qd8 names a file in a missing folder), json
mkdir -p errs
for qd in 1 2 4 8 16; do
 f=$D; [ $qd = 8 ] && f=/work/coord/s25/qa/missing_dir/disk.bin
 run errs/qd${qd}.json --name=eq --filename=$f --size=64M --rw=randread --bs=4k --ioengine=libaio --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=json
done
# E2: two jobs in one run, the second fails to open its file
run errs/two_jobs_one_fails.json --name=good --filename=$D --size=64M --rw=randread --bs=4k --ioengine=libaio --direct=1 --iodepth=4 --runtime=1 --time_based --name=bad --filename=/proc/version --size=1M --rw=write --bs=4k --output-format=json
# F: json appended, numjobs 1,2,4 without group_reporting (one entry per clone)
mkdir -p njapp
for nj in 1 2 4; do
 app njapp/nj_appended.json --name=nja --filename=$D --size=64M --rw=randread --bs=4k --ioengine=io_uring --direct=1 --iodepth=8 --numjobs=$nj --runtime=1 --time_based --output-format=json
done
# G: psync numjobs series (CPU-bound on 2 vCPUs beyond 2 jobs?), group_reporting, json
mkdir -p psyncnj
for nj in 1 2 4 8; do
 run psyncnj/nj${nj}.json --name=pnj --filename=$D --size=64M --rw=randread --bs=4k --ioengine=psync --direct=1 --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done
# H: kb_base=1000 block-size series on tmpfs (bs=4k means 4000 bytes here), buffered io_uring, json
mkdir -p kb1000
for bs in 4k 16k 64k; do
 run kb1000/bs${bs}.json --name=kb --kb_base=1000 --filename=/dev/shm/qa6_kb.bin --size=32M --rw=read --bs=$bs --ioengine=io_uring --iodepth=4 --runtime=1 --time_based --output-format=json
done
rm -f /dev/shm/qa6_kb.bin
# I: mixed read/write with different block sizes per direction (bs=4k,64k), iodepth 1..16, json+
mkdir -p rwbs
for qd in 1 4 16; do
 run rwbs/qd${qd}.json --name=rwbs --filename=$D --size=64M --rw=randrw --rwmixread=50 --bs=4k,64k --ioengine=libaio --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=json+
done
echo done >> commands.txt
