#!/bin/sh
# A terminal log as people paste them: one echoed fio command and its output, then the output of a run made
# by a script (no command echoed) pasted after it. Measured here with fio 3.33 on a file in /dev/shm.
set -e
f=/dev/shm/nvmemodel_echo_pasted.dat
fio --name=mk --filename=$f --size=64m --rw=write --bs=1m --output=/dev/null
{
  echo '$ fio --name=t --filename='$f' --size=64m --rw=randread --bs=4k --ioengine=libaio --iodepth=4 --direct=0 --runtime=1 --time_based --iodepth_low=2'
  fio --name=t --filename=$f --size=64m --rw=randread --bs=4k --ioengine=libaio --iodepth=4 --direct=0 --runtime=1 --time_based --iodepth_low=2
  fio --name=t --filename=$f --size=64m --rw=randread --bs=4k --ioengine=psync --iodepth=1 --direct=0 --runtime=1 --time_based
} > pasted_log.txt
rm -f $f
