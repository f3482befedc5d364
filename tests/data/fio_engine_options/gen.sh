#!/bin/sh
# Regenerates the files of this folder (fio 3.33; run as root on a Linux host with io_uring). Reads /dev/zero only.
set -u
C='--filename=/dev/zero --rw=read --bs=4k --size=64m --runtime=1 --time_based'
for h in 0 1; do  # hipri=1 is refused where the file has no poll queues (/dev/zero: error 95, EOPNOTSUPP)
  fio --output-format=json --name=hp$h --ioengine=io_uring --hipri=$h --iodepth=4 --iodepth_batch_submit=2 \
      --iodepth_low=2 --iodepth_batch_complete=1 --cpus_allowed=0 $C > io_uring_hipri$h.json 2> io_uring_hipri$h.err
  [ -s io_uring_hipri$h.err ] || rm -f io_uring_hipri$h.err
done
fio --output-format=json --name=pv --ioengine=pvsync2 --hipri $C > pvsync2_bare_hipri.json  # a bare --hipri
fio --output-format=json --name=pv1 --ioengine=pvsync2 --hipri=1 $C > pvsync2_hipri1.json
fio --output-format=json --name=sq --ioengine=io_uring --sqthread_poll=1 --iodepth=8 --iodepth_batch=16 $C \
    > sqpoll.json  # iodepth_batch 16 above iodepth 8: fio runs 8 (named sqpoll.json: fio < 3.34 stamps no issue time)
fio --output-format=json --name=grp --ioengine=libaio --iodepth=4 --numjobs=2 --group_reporting $C > libaio_group.json
fio --output-format=json --name=nj --ioengine=libaio --iodepth=4 --numjobs=2 $C > libaio_numjobs.json
fio --output-format=terse --terse-version=3 --name=t --ioengine=io_uring --hipri=0 --iodepth=4 $C > io_uring.terse
fio --output-format=normal --name=n --ioengine=io_uring --hipri=0 --iodepth=4 $C > io_uring.normal
{ echo "fio --output-format=terse --name=e --ioengine=io_uring --sqthread_poll --iodepth=8 --iodepth_low=4 $C"
  fio --output-format=terse --name=e --ioengine=io_uring --sqthread_poll --iodepth=8 --iodepth_low=4 $C; } \
    > echoed_sqpoll_terse.txt
fio --output-format=json,normal --name=jn --ioengine=io_uring --hipri=0 --iodepth=4 --numjobs=2 --group_reporting $C \
    > io_uring_group.json_normal.txt  # (run alone at 16:03 UTC, after the others)
{ date -u; uptime; fio --version; uname -r; } > provenance.txt
