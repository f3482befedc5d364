#!/bin/bash
# QA round-7 fio series (fio 3.33, this VM). Every command is echoed to commands.txt (cwd = this folder).
set -u
O=/work/coord/s26/qa/fio
D=/work/coord/s26/qa/disk.bin
T=/dev/shm/qa7.bin
cd $O
: > commands.txt
: > stderr.txt
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
echo "# $(date -u +%H:%M:%S) UTC start. warm: fio --name=warm --filename=$D --size=64M --rw=write --bs=1M --direct=1 ; fio --name=warmt --filename=$T --size=64M --rw=write --bs=1M" >> commands.txt
fio --name=warm --filename=$D --size=64M --rw=write --bs=1M --direct=1 >/dev/null
fio --name=warmt --filename=$T --size=64M --rw=write --bs=1M >/dev/null
DK="--filename=$D --size=64M --direct=1"

# rateqd: rate-limited at 20,000 IOPS (per job), libaio randread on the disk, iodepth sweep: a flat ceiling at a known value
mkdir -p rateqd
for qd in 1 2 4 8 16 32; do
 run rateqd/qd${qd}.json --name=rq $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --rate_iops=20000 --runtime=2 --time_based --output-format=json
done
# ratenj: null engine rate-limited 50,000 IOPS per job, numjobs sweep, group_reporting: exactly linear 50 K per job
mkdir -p ratenj
for nj in 1 2 4 8; do
 run ratenj/nj${nj}.json --name=rn --ioengine=null --size=1G --rw=randread --bs=4k --rate_iops=50000 --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done
# ratebw: bandwidth-limited at 20 MiB/s (--rate=20m), 128k sequential read on the disk, iodepth sweep
mkdir -p ratebw
for qd in 1 4 16; do
 run ratebw/qd${qd}.json --name=rb $DK --rw=read --bs=128k --ioengine=libaio --iodepth=$qd --rate=20m --runtime=2 --time_based --output-format=json
done
# nullnj: null engine (no I/O: a pure CPU ceiling on 2 vCPUs), numjobs sweep, group_reporting
mkdir -p nullnj
for nj in 1 2 3 4 8; do
 run nullnj/nj${nj}.json --name=nn --ioengine=null --size=1G --rw=randread --bs=4k --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done
# nullqd: null engine iodepth sweep, one job
mkdir -p nullqd
for qd in 1 4 16 64 256; do
 run nullqd/qd${qd}.json --name=nq --ioengine=null --size=1G --rw=randread --bs=4k --iodepth=$qd --runtime=1 --time_based --output-format=json
done
# mix: rwmixread sweep, libaio randrw on the disk, iodepth 8
mkdir -p mix
for m in 0 25 50 75 100; do
 run mix/mix${m}.json --name=mx $DK --rw=randrw --rwmixread=$m --bs=4k --ioengine=libaio --iodepth=8 --runtime=1 --time_based --output-format=json
done
# bssplit / bsrange: several block sizes in one job, libaio randread on the disk
mkdir -p bssplit
for qd in 1 4 16; do
 run bssplit/split_qd${qd}.json --name=bsp $DK --rw=randread --bssplit=4k/50:64k/50 --ioengine=libaio --iodepth=$qd --runtime=1 --time_based --output-format=json+
 run bssplit/range_qd${qd}.json --name=bsr $DK --rw=randread --bsrange=4k-64k --ioengine=libaio --iodepth=$qd --runtime=1 --time_based --output-format=json
done
# thinktime: 500 us think time after each I/O, iodepth 1, numjobs sweep (latency/think-bound: ~ nj / (500 us + latency))
mkdir -p think
for nj in 1 2 4 8; do
 run think/nj${nj}.json --name=tt $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=1 --thinktime=500 --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done
# gtod: --gtod_reduce=1 (fio measures no latency), iodepth sweep
mkdir -p gtod
for qd in 1 4 16; do
 run gtod/qd${qd}.json --name=gt $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --gtod_reduce=1 --runtime=1 --time_based --output-format=json
done
# latpct: --lat_percentiles=1 (percentiles of total latency) and --clat_percentiles=0
mkdir -p latpct
for qd in 1 8; do
 run latpct/lat_qd${qd}.json --name=lp $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --lat_percentiles=1 --clat_percentiles=0 --runtime=1 --time_based --output-format=json
 run latpct/clat_qd${qd}.json --name=cp $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --runtime=1 --time_based --output-format=json
done
run latpct/lat_qd8.terse --name=lp $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=8 --lat_percentiles=1 --clat_percentiles=0 --runtime=1 --time_based --output-format=terse
# verify: write then verify (the verify reads are reported as reads), size-bound, tmpfs and disk
mkdir -p verify
run verify/tmpfs_write_verify.json --name=vw --filename=$T --size=32M --rw=write --bs=64k --ioengine=psync --verify=crc32c --do_verify=1 --output-format=json
for qd in 1 8; do
 run verify/disk_randwrite_verify_qd${qd}.json --name=vr $DK --size=16M --rw=randwrite --bs=4k --ioengine=libaio --iodepth=$qd --verify=crc32c --do_verify=1 --output-format=json
done
# multi: three different concurrent jobs in one run, no group_reporting, and the same with group_reporting
mkdir -p multi
run multi/three_jobs.json --name=rr --filename=$D --size=64M --direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=8 --runtime=1 --time_based --name=rw --filename=$D --size=64M --direct=1 --rw=randwrite --bs=4k --ioengine=libaio --iodepth=8 --runtime=1 --time_based --name=sr --filename=$D --size=64M --direct=1 --rw=read --bs=128k --ioengine=libaio --iodepth=4 --runtime=1 --time_based --output-format=json
run multi/three_jobs_grouped.json --group_reporting --name=rr --filename=$D --size=64M --direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=8 --runtime=1 --time_based --name=rw --filename=$D --size=64M --direct=1 --rw=randwrite --bs=4k --ioengine=libaio --iodepth=8 --runtime=1 --time_based --name=sr --filename=$D --size=64M --direct=1 --rw=read --bs=128k --ioengine=libaio --iodepth=4 --runtime=1 --time_based --output-format=json
# unified: randrw 70/30 with --unified_rw_reporting=mixed (one "mixed" section) and =both, iodepth sweep
mkdir -p unified
for qd in 1 4 16; do
 run unified/mixed_qd${qd}.json --name=um $DK --rw=randrw --rwmixread=70 --bs=4k --ioengine=libaio --iodepth=$qd --unified_rw_reporting=mixed --runtime=1 --time_based --output-format=json
done
run unified/both_qd4.json --name=ub $DK --rw=randrw --rwmixread=70 --bs=4k --ioengine=libaio --iodepth=4 --unified_rw_reporting=both --runtime=1 --time_based --output-format=json
# stonewall: one file, block-size sweep as stonewalled sections (one group each), json and normal
mkdir -p stonewall
SW="--filename=$D --size=64M --direct=1 --rw=read --ioengine=libaio --iodepth=8 --runtime=1 --time_based"
run stonewall/bs_sweep.json --output-format=json --name=b4k $SW --bs=4k --stonewall --name=b16k $SW --bs=16k --stonewall --name=b64k $SW --bs=64k --stonewall --name=b256k $SW --bs=256k --stonewall
run stonewall/bs_sweep.normal --output-format=normal --name=b4k $SW --bs=4k --stonewall --name=b16k $SW --bs=16k --stonewall --name=b64k $SW --bs=64k --stonewall --name=b256k $SW --bs=256k --stonewall
# ramp: --ramp_time=1 before 1 s of measurement, iodepth sweep
mkdir -p ramp
for qd in 1 4 16; do
 run ramp/qd${qd}.json --name=rp $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --ramp_time=1 --runtime=1 --time_based --output-format=json
done
# sizebound: no time_based, 16 MiB per run, iodepth sweep (runtime is what it took)
mkdir -p sizebound
for qd in 1 4 16; do
 run sizebound/qd${qd}.json --name=sb --filename=$D --size=16M --direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --output-format=json
done
# histlog: json+ with clat histograms and --write_hist_log (250 ms)
mkdir -p histlog
for qd in 1 16; do
 run histlog/qd${qd}.json --name=hl $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --runtime=1 --time_based --write_hist_log=histlog/hl_qd${qd} --log_hist_msec=250 --output-format=json+
done
# fsync: psync randwrite with fsync after every write (JSON 'sync' section), numjobs sweep
mkdir -p fsync
for nj in 1 2 4; do
 run fsync/nj${nj}.json --name=fs --filename=$D --size=64M --rw=randwrite --bs=4k --ioengine=psync --fsync=1 --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done
# batch: libaio iodepth 32 with iodepth_batch_submit 1, 8, 32
mkdir -p batch
for b in 1 8 32; do
 run batch/b${b}.json --name=bt $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=32 --iodepth_batch_submit=$b --iodepth_batch_complete_min=$b --runtime=1 --time_based --output-format=json
done
# trim: null engine randtrim (a trim direction), numjobs 1 and 2
mkdir -p trim
for nj in 1 2; do
 run trim/nj${nj}.json --name=tr --ioengine=null --size=1G --rw=randtrim --bs=4k --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done
# status: --status-interval=1 over a 3 s run (interim reports in one json file)
mkdir -p status
run status/qd4.json --name=st $DK --rw=randread --bs=4k --ioengine=libaio --iodepth=4 --runtime=3 --time_based --status-interval=1 --output-format=json
# numa: null engine pinned with --numa_cpu_nodes=0, numjobs 1 and 2
mkdir -p numa
for nj in 1 2; do
 run numa/nj${nj}.json --name=nu --ioengine=null --size=1G --rw=randread --bs=4k --numa_cpu_nodes=0 --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json
done
# twofiles: one job over two files (colon-separated filename), iodepth sweep
mkdir -p twofiles
for qd in 1 8; do
 run twofiles/qd${qd}.json --name=tf --filename=$D:$T --size=64M --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --runtime=1 --time_based --output-format=json
done
# zonemode: strided zones, size-bound, tmpfs
mkdir -p zone
run zone/strided.json --name=zn --filename=$T --size=32M --zonemode=strided --zonesize=1M --zonerange=8M --rw=read --bs=4k --ioengine=psync --output-format=json
echo "# $(date -u +%H:%M:%S) UTC end" >> commands.txt
