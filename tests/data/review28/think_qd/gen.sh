#!/bin/bash
# series think_qd: run from its own folder (cd tests/data/review28/think_qd && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# libaio 4 KiB randread, direct, on an ext4 file, --thinktime=200 (us) after every I/O, one job, iodepth 1..32
for qd in 1 2 4 8 16 32; do run qd$qd.json --name=tq --filename=$F --size=64M --direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --thinktime=200 --thinktime_blocks=1 --runtime=1 --time_based --output-format=json; done
stamp end
