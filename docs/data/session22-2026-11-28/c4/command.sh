#!/bin/bash
# session 22 call 4 (H100): tiled_half2 rgba8888 at sigma 2 with its row tasks two chunks wide (GT_SPAN=2: 80
# bytes turned into floats for 32 outputs instead of 128) and/or a channel pair at a time (GT_SPLIT=1: half the
# window's floats live at once), over the shapes c3 found best and more; strips_half2 and the best 5x5 in the
# same call; gray8 with GT_SPAN=2; GPU checks of the chosen form.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c4; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check"
t2() { # LABEL OPTS ARGS...
  local l=$1 o=$2; shift 2
  echo "$l [$o] $(FWB_EXTRA_BUILD_OPTIONS="$o" timeout 90 $B run "$@" $D 2>&1 | grep -E '^(gaussian|gaussian5x5) ' | head -1)" | tee -a $R/rgba.txt
}
G="--filter gaussian --param sigma=2 --variant tiled_half2"
t2 strips_half2 "" --filter gaussian --param sigma=2 --variant strips_half2 --format rgba8888
t2 5x5-stream "" --filter gaussian5x5 --variant stream --format rgba8888
for shape in "16x8 1x16" "32x4 1x16" "16x8 1x8" "16x16 1x8" "8x16 1x16" "16x8 1x32" "32x4 1x8" "32x8 1x8" "16x4 1x32" "64x2 1x16"; do
  set -- $shape
  for o in "" "-DGT_SPAN=2" "-DGT_SPLIT=1" "-DGT_SPAN=2 -DGT_SPLIT=1"; do
    t2 "tiled-$1-$2" "$o" $G --format rgba8888 --local $1 --block $2
  done
done
stamp shapes
t2 strips_half2 "" --filter gaussian --param sigma=2 --variant strips_half2 --format rgba8888
t2 5x5-stream "" --filter gaussian5x5 --variant stream --format rgba8888
for o in "" "-DGT_SPAN=2"; do t2 gray8 "$o" $G --format gray8; t2 gray8-flushed "$o" $G --format gray8 --flush-cache; done
stamp gray8
