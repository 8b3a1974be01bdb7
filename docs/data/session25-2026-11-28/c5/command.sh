#!/bin/bash
# session 25 call 5: the landed tree: GPU checks of what changed (gaussian5x5 stream's permutes, both layouts;
# box and box3x3_interior stream two pixels a word), then every best rung beside NPP, the usual timing.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
chk() { echo "$* $(timeout 60 $B run --device 1:0 "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"; }
{
for fmt in gray8 rgba8888; do for b in replicate reflect101 constant; do
  for sz in 1x1 7x3 9x5 17x5 33x6 41x7 203x97 6719x4481; do chk --filter gaussian5x5 --variant stream --format $fmt --border $b --synthetic $sz; done
  chk --filter gaussian5x5 --variant stream --format $fmt --border $b --synthetic 203x97 --transfer zero_copy
  chk --filter gaussian5x5 --variant stream --format $fmt --border $b --synthetic 1203x397 --tile 256x128
  chk --filter box --variant stream --param radius=1 --format $fmt --border $b --synthetic 4099x33
  chk --filter box3x3_interior --variant stream --format $fmt --border $b --synthetic 4099x33 --transfer pinned
done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff' $R/checks.txt | head
grep -oE 'max diff [0-9]+' $R/checks.txt | sort | uniq -c
stamp checks
timeout 300 bash scripts/npp-compare.sh $B $R/npp --device 1:0 > $R/npp-log.txt 2>&1
rm -f $R/npp/*.txt
cut -d'|' -f2-6 $R/npp/npp.md
stamp npp
record_pack
