#!/bin/bash
O=/work/coord/qa/fio; cd $O
for r in 1 2 3; do for bs in 4k 8k 16k 32k 64k 128k 256k 512k 1m; do
 echo "fio --name=ubs --filename=/dev/shm/qa_u2.bin --size=64M --rw=read --bs=$bs --ioengine=io_uring --direct=0 --iodepth=4 --runtime=1 --time_based --output-format=json --output=uringbs2/bs${bs}_r${r}.json" >> commands.txt
 fio --name=ubs --filename=/dev/shm/qa_u2.bin --size=64M --rw=read --bs=$bs --ioengine=io_uring --direct=0 --iodepth=4 --runtime=1 --time_based --output-format=json --output=uringbs2/bs${bs}_r${r}.json >/dev/null 2>>stderr.txt
done; done
rm -f /dev/shm/qa_u2.bin; echo done > uringbs2/DONE
