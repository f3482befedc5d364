#!/bin/bash
# series repeats_qd: run from its own folder (cd tests/data/review28/repeats_qd && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# libaio 4 KiB randread, direct, on an ext4 file, one job, iodepth 1..32, 3 repeats per point (rounds interleaved)
for r in 1 2 3; do for qd in 1 4 8 16 32; do run qd${qd}_r$r.json --name=rq --filename=$F --size=64M --direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --runtime=700ms --time_based --output-format=json; done; done
stamp end
