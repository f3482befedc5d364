#!/bin/bash
# series loop_bs_qd64: run from its own folder (cd tests/data/review28/loop_bs_qd64 && bash gen.sh)
set -u; . ../common.sh; : > commands.txt; : > stderr.txt; warm; stamp start
# libaio randread, direct, on a loop device over a 256 MiB tmpfs file, iodepth 64, bs 4 KiB..1 MiB
T=/dev/shm/review28_loop.img; fio --name=fill --filename=$T --size=256M --rw=write --bs=1M >/dev/null
L=$(losetup --find --show $T); echo "# loop device $L over $T" >> commands.txt
for bs in 4k 16k 64k 128k 256k 1m; do run bs_$bs.json --name=lb --filename=$L --direct=1 --rw=randread --bs=$bs --ioengine=libaio --iodepth=64 --runtime=1 --time_based --output-format=json; done
losetup -d $L; rm -f $T
stamp end
