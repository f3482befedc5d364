#!/bin/bash
# series randrw70_qd: run from its own folder (cd tests/data/review28/randrw70_qd && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# libaio 4 KiB randrw 70 % reads, direct, on an ext4 file, one job, iodepth 1..64 (fit read_iops)
for qd in 1 2 4 8 16 32 64; do run qd$qd.json --name=mx --filename=$F --size=64M --direct=1 --rw=randrw --rwmixread=70 --bs=4k --ioengine=libaio --iodepth=$qd --runtime=1 --time_based --output-format=json; done
stamp end
