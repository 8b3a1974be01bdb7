#!/bin/bash
# session 21 call 14 (H100): gaussian tiled_half2 at its new default work-group (64x2) beside the best 5x5
# (gaussian5x5 stream), flushed and not, two rounds; GPU checks at the default shape.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c14 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c14; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --format gray8"
for round in 1 2; do for fl in "" --flush-cache; do
  echo "$fl $(timeout 60 $B run --filter gaussian --param sigma=2 --variant tiled_half2 $fl $D 2>&1 | grep -E '^gaussian ' | head -1)" | tee -a $R/sigma2.txt
  echo "$fl $(timeout 60 $B run --filter gaussian5x5 --variant stream $fl $D 2>&1 | grep -E '^gaussian5x5 ' | head -1)" | tee -a $R/sigma2.txt
done; done
for b in reflect101 replicate constant; do for sz in 1x1 33x6 203x97 6719x4481; do
  echo "$b $sz $(timeout 60 $B run --device 1:0 --filter gaussian --param sigma=2 --variant tiled_half2 --border $b --synthetic $sz --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|ERROR.*' | head -1)" >> $R/checks.txt
done; done
echo "checks ok: $(grep -c 'ok (max diff [01])' $R/checks.txt) of $(wc -l < $R/checks.txt)"
stamp done
