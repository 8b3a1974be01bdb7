#!/bin/bash
# session 25 call 2: box's streaming rung with its arithmetic two pixels a word (BOX_SWAR 1, the new default)
# against the 16-bit lanes it had (-DBOX_SWAR=0), box and box3x3_interior, both layouts, beside NPP, usual
# and L2-flushed, alternating, two rounds; registers and SASS of both; GPU checks of the new one.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
for round in 1 2; do
  for swar in 1 0; do
    export FWB_EXTRA_BUILD_OPTIONS=-DBOX_SWAR=$swar
    scripts/npp-compare.sh $B $R/npp-swar$swar-r$round --device 1:0 --only 'box stream|box3x3_interior stream' > /dev/null 2>&1
    scripts/npp-compare.sh $B $R/npp-swar$swar-flushed-r$round --device 1:0 --only 'box stream|box3x3_interior stream' --flush > /dev/null 2>&1
  done
done
unset FWB_EXTRA_BUILD_OPTIONS
for f in $R/npp-*/npp.md; do echo "== $f"; grep -E '^\| box' $f | cut -d'|' -f2-6; done
stamp npp
for swar in 1 0; do
  for fmt in gray8 rgba8888; do
    C=/tmp/pc-$swar-$fmt; rm -rf $C
    FWB_EXTRA_BUILD_OPTIONS=-DBOX_SWAR=$swar $B run --device 1:0 --filter box --variant stream --param radius=1 --format $fmt --synthetic 256x64 --cache-dir $C --repeat 1 --no-cpu-single --no-baselines > /dev/null 2>&1
    record_sass $C box-swar$swar-$fmt box_stream
    for s in $R/sass/box-swar$swar-$fmt-*.sass; do echo "  $s: $(grep -cE '^\s+/\*[0-9a-f]+\*/' $s) SASS instructions"; done
  done
done
stamp sass
chk() { echo "$* $(timeout 60 $B run --device 1:0 "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"; }
{
for f in box box3x3_interior; do
  p=(); [ $f = box ] && p=(--param radius=1)
  for fmt in gray8 rgba8888; do for b in replicate reflect101 constant; do
    for sz in 1x1 7x3 17x5 33x6 203x97 6719x4481; do chk --filter $f --variant stream "${p[@]}" --format $fmt --border $b --synthetic $sz; done
    chk --filter $f --variant stream "${p[@]}" --format $fmt --border $b --synthetic 203x97 --transfer zero_copy
    chk --filter $f --variant stream "${p[@]}" --format $fmt --border $b --synthetic 1203x397 --tile 256x128
  done; done
done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff' $R/checks.txt | head
grep -oE 'max diff [0-9]+' $R/checks.txt | sort | uniq -c
stamp checks
record_pack
