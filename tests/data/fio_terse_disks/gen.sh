#!/bin/bash
# Regenerates tests/data/fio_terse_disks: fio's terse disk statistics from every fio build given, against fio's JSON.
#
#   tests/data/fio_terse_disks/gen.sh /tmp/fio-bin/*/fio        (as root, Linux, loop devices free)
#
# One short job per release and form on two loop devices over 16 MiB files in /dev/shm (tmpfs: no real disk is
# touched), libaio random 70/30 reads/writes of 4 KiB, direct=1, iodepth 4, 0.3 s, --filename=loopA:loopB, so fio's
# disk list holds two devices that both read and wrote. fio >= 2.21 writes JSON and terse of one run
# (--output-format=json,terse --terse-version=N, N = 3, 4 and 5 where the release has it); fio 2.1/2.2 write one form
# per run: --minimal --terse-version=3 and 4, and --output-format=json of a run of its own. Each file is
# <release>.<form>.out.gz (gzip -9n); the loop device names are those of the host that ran it (loopN). The form
# "extras" is terse v3 (with JSON of the run where the release writes both) of the same job with
# --continue_on_error=all and --description='two;loops', which fio writes after the disk statistics (";errors;first
# error;two;loops": the description unescaped).
# Everything it creates (the files under /dev/shm, the loop devices) is removed on exit.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
IMGS=; LOOPS=
cleanup() {
  for l in $LOOPS; do losetup -d "$l" 2>/dev/null || true; done
  for f in $IMGS; do rm -f "$f"; done
}
trap cleanup EXIT INT TERM
newloop() {  # a loop device over a new zero-filled 16 MiB file in /dev/shm -> $LOOP
  local img; img=$(mktemp /dev/shm/terse_disks.XXXXXX); IMGS="$IMGS $img"
  dd if=/dev/zero of="$img" bs=1M count=16 status=none
  LOOP=$(losetup -f --show "$img")
  case "$LOOP" in /dev/loop[0-9]*) ;; *) echo "not a loop device: $LOOP" >&2; exit 1 ;; esac
  LOOPS="$LOOP $LOOPS"
  [ "$(losetup -n -O BACK-FILE "$LOOP")" = "$img" ] || { echo "$LOOP is not backed by $img" >&2; exit 1; }
}
newloop; A=$LOOP; newloop; B=$LOOP
JOB="--name=dk --filename=$A:$B --ioengine=libaio --direct=1 --rw=randrw --rwmixread=70 --bs=4k --iodepth=4
     --time_based --runtime=300ms"
: > "$HERE/commands.txt"
for FIO in "$@"; do
  VER=$("$FIO" --version | sed 's/^fio-//; s/-dirty$//')
  run() {  # run FORM ARGS...
    local form=$1; shift
    echo "fio-$VER: fio $(echo $JOB) $(printf "%q " "$@")" >> "$HERE/commands.txt"
    "$FIO" $JOB "$@" > "$HERE/$VER.$form.out"
    gzip -9nf "$HERE/$VER.$form.out"
  }
  if "$FIO" --name=probe --ioengine=null --size=4k --output-format=json,terse 2>/dev/null | grep -q '"fio version"'; then
    for v in 3 4 5; do
      if "$FIO" --name=probe --ioengine=null --size=4k --minimal --terse-version=$v 2>/dev/null | grep -q "^$v;"; then
        run json-terse$v --output-format=json,terse --terse-version=$v
      fi
    done
    run extras --output-format=json,terse --terse-version=3 --continue_on_error=all --description='two;loops'
  else
    run json --output-format=json
    for v in 3 4; do run terse$v --minimal --terse-version=$v; done
    run extras --minimal --terse-version=3 --continue_on_error=all --description='two;loops'
  fi
done
echo "measured with $(for f in "$@"; do "$f" --version; done | tr '\n' ' ')on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($(nproc) cores), Linux $(uname -r) at $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$HERE/provenance.txt"
