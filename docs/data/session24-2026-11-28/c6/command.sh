#!/bin/bash
# session 24 call 6 (H200): the landed tree: Sobel stream's 16-bit outputs launch two rows a work-item on GPUs (c5:
# flushed 0.0298 against one row's 0.0326 ms; usual c3 0.032 against 0.0314); NPP's table twice, usual and flushed;
# GPU checks of the default at outputs 3 and 4.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
for round in 1 2; do
  scripts/npp-compare.sh $B $R/npp-r$round --device 1:0 --only 'sobel stream' > $R/npp-r$round.txt 2>&1
  scripts/npp-compare.sh $B $R/npp-flushed-r$round --device 1:0 --only 'sobel stream' --flush > $R/npp-flushed-r$round.txt 2>&1
done
for f in $R/npp-*/npp.md; do echo "== $f"; grep gray8 $f; done
python3 -c "import json;r=json.load(open('$R/npp-r1/sobel-stream-16bit-gray8.json'))['results'][0];print('block', r['block'], r['block_source'], 'local', r['local'])"
stamp npp
chk() { echo "$* $(timeout 60 $B run --device 1:0 "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"; }
{
for o in 3 4; do for b in replicate reflect101 constant; do
  for sz in 1x1 17x3 33x6 203x97 6719x4481; do chk --filter sobel --variant stream --format gray8 --param output=$o --border $b --synthetic $sz; done
  chk --filter sobel --variant stream --format gray8 --param output=$o --border $b --synthetic 203x97 --transfer zero_copy
done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff 0)' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff 0)' $R/checks.txt | head
stamp checks
record_pack
