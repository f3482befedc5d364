#!/bin/bash
# series file_qd_nj2: run from its own folder (cd tests/data/review28/file_qd_nj2 && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# libaio 4 KiB randread, direct, on an ext4 file, 2 jobs with group_reporting, iodepth 1..64
for qd in 1 2 4 8 16 32 64; do run qd$qd.json --name=fq --filename=$F --size=64M --direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --numjobs=2 --group_reporting --runtime=1 --time_based --output-format=json; done
stamp end
