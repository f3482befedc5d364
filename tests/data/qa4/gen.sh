#!/bin/bash
# QA round-4 fio series, measured on this VM. Every command is echoed to commands.txt.
set -u
O=/work/coord/qa/fio
cd $O
: > commands.txt
run() { # outfile args...
  local out=$1; shift
  echo "fio $* --output=$out" >> commands.txt
  fio "$@" --output=$out >/dev/null 2>>$O/stderr.txt
}
# warm disk file
fio --name=warm --filename=/work/coord/qa/disk.bin --size=64M --rw=read --bs=1M --direct=1 >/dev/null
# A: psync iodepth sweep (iodepth has no effect on a sync engine)
mkdir -p psyncqd
for qd in 1 2 4 8 16 32; do for r in 1 2; do
 run psyncqd/qd${qd}_r${r}.json --name=psq --filename=/work/coord/qa/disk.bin --size=64M --rw=randread --bs=4k --ioengine=psync --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=json
done; done
# B: io_uring numjobs sweep on tmpfs, buffered
mkdir -p uringnj
for nj in 1 2 3 4 6 8; do for r in 1 2; do
 run uringnj/nj${nj}_r${r}.json --name=unj --filename=/dev/shm/qa_u.bin --size=64M --rw=randread --bs=4k --ioengine=io_uring --direct=0 --iodepth=8 --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done; done
# C: io_uring block size sweep on tmpfs
mkdir -p uringbs
for bs in 4k 16k 64k 256k 1m; do for r in 1 2; do
 run uringbs/bs${bs}_r${r}.json --name=ubs --filename=/dev/shm/qa_u.bin --size=64M --rw=read --bs=$bs --ioengine=io_uring --direct=0 --iodepth=4 --runtime=1 --time_based --output-format=json
done; done
# D: libaio randwrite QD sweep on disk
mkdir -p wqd
for qd in 1 2 4 8 16 32 64; do
 run wqd/qd${qd}.json --name=wq --filename=/work/coord/qa/disk.bin --size=64M --rw=randwrite --bs=4k --ioengine=libaio --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=json
done
# E: appended runs: json+ and normal/terse, iodepth 1,4,16 (libaio randread)
mkdir -p appended
for qd in 1 4 16; do
 echo "fio --name=app --filename=/work/coord/qa/disk.bin --size=64M --rw=randread --bs=4k --ioengine=libaio --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=json+ >> appended/jsonplus.txt" >> commands.txt
 fio --name=app --filename=/work/coord/qa/disk.bin --size=64M --rw=randread --bs=4k --ioengine=libaio --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=json+ >> appended/jsonplus.txt 2>>stderr.txt
 echo "fio ... --iodepth=$qd --output-format=normal,terse >> appended/normalterse.txt" >> commands.txt
 fio --name=app --filename=/work/coord/qa/disk.bin --size=64M --rw=randread --bs=4k --ioengine=libaio --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=normal,terse >> appended/normalterse.txt 2>>stderr.txt
done
# F: rate-limited per job, numjobs sweep, no group_reporting (per-job entries)
mkdir -p ratenj
for nj in 1 2 4 8; do
 run ratenj/nj${nj}.json --name=rnj --filename=/dev/shm/qa_u.bin --size=64M --rw=randread --bs=4k --ioengine=psync --direct=0 --rate_iops=2000 --numjobs=$nj --runtime=1 --time_based --output-format=json
done
# G: randrw 70/30 io_uring QD sweep on disk, direct
mkdir -p rwqd
for qd in 1 2 4 8 16 32; do
 run rwqd/qd${qd}.json --name=rw --filename=/work/coord/qa/disk.bin --size=64M --rw=randrw --rwmixread=70 --bs=4k --ioengine=io_uring --direct=1 --iodepth=$qd --runtime=1 --time_based --output-format=json
done
rm -f /dev/shm/qa_u.bin
echo done >> $O/DONE
