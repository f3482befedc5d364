# sourced by each series' gen.sh: run fio, log the exact command line to commands.txt in the series folder
F=/tmp/review28_disk.bin     # 64 MiB file on ext4 (/dev/vda, virtio)
run() { local out=$1; shift; echo "fio $* --output=$out" >> commands.txt; fio "$@" --output=$out >/dev/null 2>>stderr.txt; }
warm() { [ -f $F ] || fio --name=warm --filename=$F --size=64M --rw=write --bs=1M --direct=1 >/dev/null; }
stamp() { echo "# $(date -u +%FT%H:%M:%SZ) $1; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >> commands.txt; }
