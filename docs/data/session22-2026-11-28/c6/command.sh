#!/bin/bash
# session 22 call 6 (H100): the catalogue's defaults as a user gets them, no shape given: tiled_half2 rgba8888
# (its own GPU tile, 32x4, 16 rows a work-item) and gray8 (64x2) at sigma 2 beside the best 5x5, flushed and
# not; GPU checks of rgba8888 at that default, every border, odd sizes, sigma 1 and 2.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c6; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check"
t2() { local l=$1; shift; echo "$l $(timeout 90 $B run "$@" $D 2>&1 | grep -E '^(gaussian|gaussian5x5) ' | head -1)" | tee -a $R/times.tsv; }
for fl in "" --flush-cache; do for f in rgba8888 gray8; do
  t2 "default-$f$fl" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f $fl
  t2 "5x5-$f$fl" --filter gaussian5x5 --variant stream --format $f $fl
done; done
stamp times
for b in reflect101 replicate constant; do for sz in 33x6 203x97 6719x4481; do for sg in 1 2; do
  echo "rgba8888 $b $sz sigma=$sg $(timeout 60 $B run --device 1:0 --filter gaussian --param sigma=$sg --variant tiled_half2 --format rgba8888 --border $b --synthetic $sz --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|ERROR.*|rror.*' | head -1)" >> $R/checks.txt
done; done; done
echo "checks ok: $(grep -c 'ok (max diff [01])' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff [01])' $R/checks.txt | head
stamp checks
