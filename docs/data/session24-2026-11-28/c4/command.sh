#!/bin/bash
# session 24 call 4 (H200): the landed tree: Sobel stream's 16-bit outputs launch one row a work-item on GPUs by
# default (VariantSpec::blockHeightGpuWide, c3); its work-group then, two rounds; NPP's table twice, usual and
# flushed; GPU checks of the default at outputs 3 and 4.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
S="--filter sobel --variant stream --format gray8"
for round in 1 2; do
  record_time_row "out3 default" $D $S --param output=3 --cache-dir /tmp/c4p
  python3 -c "import json;r=json.load(open('/tmp/record-row.json'))['results'][0];print('  block', r['block'], r['block_source'], 'local', r['local'])" | tee -a $R/times.tsv
  for loc in 32x4 64x4 32x8 128x2 16x16; do record_time_row "out3 local $loc" $D $S --param output=3 --local $loc --cache-dir /tmp/c4p; done
  record_time_row "out0 default" $D $S --param output=0 --cache-dir /tmp/c4p
done
stamp shapes
for round in 1 2; do
  scripts/npp-compare.sh $B $R/npp-r$round --device 1:0 --only 'sobel stream' > $R/npp-r$round.txt 2>&1
  scripts/npp-compare.sh $B $R/npp-flushed-r$round --device 1:0 --only 'sobel stream' --flush > $R/npp-flushed-r$round.txt 2>&1
done
cat $R/npp-*/npp.md | grep gray8
stamp npp
chk() { echo "$* $(timeout 60 $B run --device 1:0 "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"; }
{
for o in 3 4; do for b in replicate reflect101 constant; do
  for sz in 1x1 17x3 33x6 203x97 6719x4481; do chk $S --param output=$o --border $b --synthetic $sz; done
  chk $S --param output=$o --border $b --synthetic 203x97 --transfer zero_copy
done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff 0)' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff 0)' $R/checks.txt | head
stamp checks
cat $R/times.tsv
record_pack
