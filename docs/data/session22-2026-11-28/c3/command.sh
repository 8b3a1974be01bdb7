#!/bin/bash
# session 22 call 3 (H100): gaussian tiled_half2 for rgba8888 (a byte's neighbours along the row 4 bytes away,
# the column pass as gray8's) at sigma 2: work-group shapes and rows per work-item, beside strips_half2 (the
# rgba8888 rung it would replace) and the best 5x5 (gaussian5x5 stream), flushed and not; gray8 tiled_half2
# before (kernels-before/: the parent commit's kernels/, not kept) and after the change; GPU checks of
# rgba8888 at the default shape and the best, every border, odd sizes.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c3; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check"
line() { grep -E "^$1 " | head -1; }
t2() { # LABEL ARGS...
  local l=$1; shift
  echo "$l $(timeout 90 $B run "$@" $D 2>&1 | grep -E '^(gaussian|gaussian5x5) ' | head -1)" | tee -a $R/rgba.txt
}
for round in 1 2; do
  for fl in "" --flush-cache; do
    t2 "strips_half2$fl" --filter gaussian --param sigma=2 --variant strips_half2 --format rgba8888 $fl
    t2 "5x5-stream$fl" --filter gaussian5x5 --variant stream --format rgba8888 $fl
    t2 "tiled-default$fl" --filter gaussian --param sigma=2 --variant tiled_half2 --format rgba8888 $fl
  done
  stamp "round $round"
done
for shape in "64x2 1x16" "64x2 1x40" "32x4 1x16" "32x4 1x32" "32x2 1x32" "16x8 1x16" "128x1 1x32" "64x4 1x8" "64x4 1x16" "32x8 1x8"; do
  set -- $shape
  t2 "tiled-$1-$2" --filter gaussian --param sigma=2 --variant tiled_half2 --format rgba8888 --local $1 --block $2
done
stamp shapes
KB="$PWD/docs/data/session22-2026-11-28/c3/kernels-before"
for round in 1 2; do
  t2 "gray8-before" --filter gaussian --param sigma=2 --variant tiled_half2 --format gray8 --kernel-dir $KB
  t2 "gray8-after" --filter gaussian --param sigma=2 --variant tiled_half2 --format gray8
done
stamp gray8
for b in reflect101 replicate constant; do for sz in 1x1 33x6 203x97 6719x4481; do for sg in 1 2; do
  echo "$b $sz sigma=$sg $(timeout 60 $B run --device 1:0 --filter gaussian --param sigma=$sg --variant tiled_half2 --format rgba8888 --border $b --synthetic $sz --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|ERROR.*|rror.*' | head -1)" >> $R/checks.txt
done; done; done
echo "checks ok: $(grep -c 'ok (max diff [01])' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff [01])' $R/checks.txt | head
stamp checks
