#!/bin/bash
# series buffered_bs: run from its own folder (cd tests/data/review28/buffered_bs && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# psync sequential read, buffered (direct=0, the file is in the page cache after the first pass), one job, bs 4 KiB..1 MiB
for bs in 4k 16k 64k 256k 1m; do run bs_$bs.json --name=bb --filename=$F --size=64M --direct=0 --rw=read --bs=$bs --ioengine=psync --runtime=1 --time_based --output-format=json; done
stamp end
