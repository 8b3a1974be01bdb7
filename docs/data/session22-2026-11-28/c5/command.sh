#!/bin/bash
# session 22 call 5 (H100): tiled_half2 with GT_SPAN 2 and (rgba8888) GT_SPLIT 1 as the kernel's defaults and
# rgba8888 16 rows a work-item: one work-group shape for both layouts? gray8 and rgba8888 at 64x2 (the GPU
# default), 32x4 and 16x8, beside strips_half2 and the best 5x5, two rounds, flushed and not at the chosen
# shape; GPU checks of rgba8888 and gray8 at the default shape, every border, odd sizes, sigma 1 and 2.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c5; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check"
t2() { local l=$1; shift; echo "$l $(timeout 90 $B run "$@" $D 2>&1 | grep -E '^(gaussian|gaussian5x5) ' | head -1)" | tee -a $R/times.tsv; }
G="--filter gaussian --param sigma=2 --variant tiled_half2"
for f in gray8 rgba8888; do
  for shape in "64x2 auto" "32x4 1x64" "32x4 1x32" "32x4 1x16" "16x8 1x64" "16x8 1x32" "16x8 1x16"; do
    set -- $shape; ba=(); [ "$2" = auto ] || ba=(--block $2)
    t2 "$f-$1-$2" $G --format $f --local $1 "${ba[@]}"
  done
done
stamp shapes
for round in 1 2; do for fl in "" --flush-cache; do
  for f in gray8 rgba8888; do
    t2 "default-$f$fl" $G --format $f $fl
    t2 "5x5-$f$fl" --filter gaussian5x5 --variant stream --format $f $fl
  done
done; done
stamp rounds
for f in rgba8888 gray8; do for b in reflect101 replicate constant; do for sz in 33x6 203x97 6719x4481; do for sg in 1 2; do
  echo "$f $b $sz sigma=$sg $(timeout 60 $B run --device 1:0 --filter gaussian --param sigma=$sg --variant tiled_half2 --format $f --border $b --synthetic $sz --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|ERROR.*|rror.*' | head -1)" >> $R/checks.txt
done; done; done; done
echo "checks ok: $(grep -c 'ok (max diff [01])' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff [01])' $R/checks.txt | head
stamp checks
