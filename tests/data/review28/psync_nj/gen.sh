#!/bin/bash
# series psync_nj: run from its own folder (cd tests/data/review28/psync_nj && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# psync 4 KiB randread, direct, on an ext4 file, numjobs 1..8, group_reporting
for nj in 1 2 4 8; do run nj$nj.json --name=pn --filename=$F --size=64M --direct=1 --rw=randread --bs=4k --ioengine=psync --numjobs=$nj --group_reporting --runtime=1 --time_based --output-format=json; done
stamp end
