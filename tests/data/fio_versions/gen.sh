#!/bin/bash
# Regenerate one release's folder of tests/data/fio_versions from a fio binary built from its tag.
#
#   tests/data/fio_versions/gen.sh /tmp/fio-bin/3.42/fio [out-folder]
#
# Runs small jobs (files in a temporary folder, a few MiB each; a few seconds in all, the
# status-interval job ~3 s per form) in every output form the binary writes, one file per run,
# named <kind>.<form>.out.gz (gzip -9n of what fio wrote, to keep the corpus small), where <form> is the --output-format given ("json-normal-terse2":
# --output-format=json,normal,terse --terse-version=2). Every run that can also writes fio's JSON of
# the same run (multiple --output-format values: fio >= 2.21), the reference the tests grade against.
# fio 2.1/2.2 write one format per run: their JSON is read on its own, and --append-terse (normal
# output and a terse line of the same run) is graded against its terse line. Outputs are real
# measurements of the machine that ran the script; they differ from run to run. What could not run
# (an option or form the release lacks) is listed in the folder's skipped.txt with fio's message.
set -u
FIO=${1:?usage: gen.sh FIO-BINARY [OUT-FOLDER]}
FIO=$(readlink -f "$FIO")
VER=$("$FIO" --version | sed 's/^fio-//')
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${2:-$HERE/$VER}
mkdir -p "$OUT"
W=$(mktemp -d /tmp/fio-gen.XXXXXX)
trap 'rm -rf "$W"' EXIT
: >> "$OUT/skipped.txt"
: >> "$OUT/commands.txt"

ver_ge() { [ "$(printf '%s\n%s\n' "$1" "$VER" | sort -V | head -1)" = "$1" ]; }

AIO="--ioengine=libaio --direct=1 --iodepth=8 --filename=$W/data --size=8m"
SYNC="--filename=$W/data --size=4m --bs=4k"
declare -A KIND
KIND[psync]="--name=ps --ioengine=psync --rw=randread $SYNC"
KIND[sync-write]="--name=sw --ioengine=sync --rw=write --bs=64k --size=4m --filename=$W/sw"
KIND[aio-randread]="--name=ar $AIO --rw=randread --bs=4k"
KIND[aio-randwrite]="--name=aw $AIO --rw=randwrite --bs=4k"
KIND[aio-randrw]="--name=arw $AIO --rw=randrw --rwmixread=70 --bs=4k"
KIND[lat-percentiles]="--name=lp $AIO --rw=randread --bs=4k --lat_percentiles=1"
KIND[unified]="--name=un $AIO --rw=randrw --rwmixread=70 --bs=4k --unified_rw_reporting=1"
KIND[status]="--name=st --ioengine=psync --rw=randread $SYNC --time_based --runtime=3 --rate_iops=2000 --status-interval=1"
KIND[disable-lat]="--name=dl $AIO --rw=randread --bs=4k --disable_lat=1"
KIND[group]="--name=gr --ioengine=psync --rw=randread --filename=$W/data --size=2m --bs=4k --numjobs=3 --group_reporting"
KIND[stonewall]="--ioengine=psync --filename=$W/data --size=2m --bs=4k --name=first --rw=randread --name=second --stonewall --rw=randwrite"
KIND[trim-only]="--name=tr --ioengine=null --rw=randtrim --bs=4k --size=8m"
# three 1 MiB reads at 2 IOPS: a run of about 1 s whose terse IOPS (fio floors 1000 x I/Os / ms) is 2
KIND[few-ios]="--name=fw --ioengine=psync --rw=read --bs=1m --size=3m --filename=$W/data --rate_iops=2"
if ver_ge 3.20; then KIND[cmdprio]="--name=cp $AIO --rw=randread --bs=4k --cmdprio_percentage=50"; fi
if "$FIO" --cmdhelp=rw 2>/dev/null | grep -q randtrimwrite; then
  KIND[trimwrite]="--name=tw --ioengine=null --rw=randtrimwrite --bs=4k,16k,8k --size=8m"
elif "$FIO" --cmdhelp=rw 2>/dev/null | grep -q trimwrite; then
  KIND[trimwrite]="--name=tw --ioengine=null --rw=trimwrite --bs=4k,16k,8k --size=8m"
fi

# the forms this release writes
# (fio 2.1/2.2 take an unknown --output-format for normal: both forms must be in the output)
if "$FIO" --name=probe --ioengine=null --size=4k --output-format=json,normal 2>/dev/null | grep -q '"fio version"' \
    && "$FIO" --name=probe --ioengine=null --size=4k --output-format=json,normal 2>/dev/null | grep -q 'groupid='; then
  MULTI=1; else MULTI=0; fi
# --append-terse (fio 2.1 on): normal output and a terse line of the same run
if "$FIO" --name=probe --ioengine=null --size=4k --append-terse 2>/dev/null | grep -q '^[2-5];'; then APPEND=1; else APPEND=0; fi
TERSE=""
for v in 2 3 4 5; do
  if "$FIO" --name=probe --ioengine=null --size=4k --minimal --terse-version=$v 2>/dev/null | grep -q "^$v;"; then TERSE="$TERSE $v"; fi
done

run() {  # run KIND FORM-NAME ARGS...
  local kind=$1 form=$2; shift 2
  local f="$OUT/$kind.$form.out"
  echo "fio ${KIND[$kind]//$W//tmp/W} $*" >> "$OUT/commands.txt"
  ( cd "$W" && rm -f data sw && "$FIO" ${KIND[$kind]} "$@" > "$f" 2> "$W/err" )
  local rc=$?
  if [ $rc -ne 0 ] || [ ! -s "$f" ]; then
    echo "$kind $form: exit $rc: $(head -c 300 "$W/err" | tr '\n' ' ')" >> "$OUT/skipped.txt"; rm -f "$f"
  fi
}

# KINDS="a b" (environment): run only these kinds (and the --eta=always run only if "eta" is named)
for kind in $(printf '%s\n' "${!KIND[@]}" | sort); do
  if [ -n "${KINDS:-}" ] && [[ " $KINDS " != *" $kind "* ]]; then continue; fi
  if [ $MULTI = 1 ]; then
    run "$kind" json-normal-terse2 --output-format=json,normal,terse --terse-version=2
    for v in $TERSE; do [ "$v" = 2 ] || run "$kind" json-terse$v --output-format=json,terse --terse-version=$v; done
    run "$kind" json-normal --output-format=json,normal
    case $kind in aio-randread|lat-percentiles|status) run "$kind" jsonplus --output-format=json+ ;; esac
  else
    run "$kind" json --output-format=json
    if [ $APPEND = 1 ]; then run "$kind" normal-appendterse --append-terse
    else run "$kind" normal --output-format=normal; fi  # (fio 2.0: no --append-terse; normal output alone)
    for v in $TERSE; do run "$kind" terse$v --minimal --terse-version=$v; done
  fi
done
# progress lines before the JSON: --eta=always, stderr captured with stdout, a 2 s job (fio prints its
# progress once a second)
if [ $MULTI = 1 ] && { [ -z "${KINDS:-}" ] || [[ " $KINDS " == *" eta "* ]]; }; then
  ETA="--name=et --ioengine=psync --rw=randread $SYNC --time_based --runtime=2 --rate_iops=2000"
  echo "fio ${ETA//$W//tmp/W} --output-format=json,normal --eta=always 2>&1" >> "$OUT/commands.txt"
  ( cd "$W" && rm -f data && "$FIO" $ETA --output-format=json,normal --eta=always > "$OUT/eta.json-normal-eta.out" 2>&1 )
fi
sed -i "s#$W#/tmp/W#g" "$OUT"/*.out 2>/dev/null
gzip -9nf "$OUT"/*.out
echo "fio-$VER: forms multi=$MULTI terse:$TERSE; $(ls "$OUT"/*.out.gz | wc -l) files; skipped $(wc -l < "$OUT/skipped.txt")"
