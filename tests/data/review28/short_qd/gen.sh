#!/bin/bash
# series short_qd: run from its own folder (cd tests/data/review28/short_qd && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# libaio 4 KiB randread, direct, on an ext4 file, one job, iodepth 1..64, runtime 300 ms each
for qd in 1 2 4 8 16 32 64; do run qd$qd.json --name=sq --filename=$F --size=64M --direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --runtime=300ms --time_based --output-format=json; done
stamp end
