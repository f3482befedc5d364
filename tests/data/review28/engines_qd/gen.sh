#!/bin/bash
# series engines_qd: run from its own folder (cd tests/data/review28/engines_qd && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# io_uring (--hipri=0) and libaio 4 KiB randread, direct, on an ext4 file, one job, iodepth 1..64, interleaved
for qd in 1 4 16 64; do
 run libaio_qd$qd.json --name=en --filename=$F --size=64M --direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd --runtime=1 --time_based --output-format=json
 run io_uring_qd$qd.json --name=en --filename=$F --size=64M --direct=1 --rw=randread --bs=4k --ioengine=io_uring --hipri=0 --iodepth=$qd --runtime=1 --time_based --output-format=json
done
stamp end
