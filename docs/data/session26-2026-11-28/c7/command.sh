#!/bin/bash
# session 26 call 7 (H200): tensor_f16 with exact sums (taps in multiples of 2^-14 / 2^-13, row results in eighths):
# the result the same bytes on the tensor cores, tiled, and on PoCL; timed beside tiled_half2 and the 5x5 stream.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c7 -DCUDAToolkit_ROOT=/usr/local/cuda
export FWB_CACHE_DIR=/tmp/c7-cache
common="--filter gaussian --variant tensor_f16 --repeat 1 --no-cpu-single --no-baselines --check --synthetic 1283x719 --overwrite"
for f in gray8 rgba8888; do for s in 2 1.3; do
  timeout 60 $B run --device 1:0 $common --format $f --param sigma=$s --output /tmp/nv-$f-$s.png > /dev/null 2>&1; a=$?
  timeout 60 $B run --device 1:0 $common --format $f --param sigma=$s --tile 40x24 --output /tmp/nvt-$f-$s.png > /dev/null 2>&1; b=$?
  timeout 120 $B run --device cpu $common --format $f --param sigma=$s --output /tmp/cpu-$f-$s.png > /dev/null 2>&1; c=$?
  cmp /tmp/nv-$f-$s.png /tmp/nvt-$f-$s.png && t=same || t=differ
  cmp /tmp/nv-$f-$s.png /tmp/cpu-$f-$s.png && p=same || p=differ
  echo "$f sigma=$s rc $a $b $c; tiled $t; pocl $p" | tee -a $R/exact.txt
done; done
stamp exact
row() { record_time_row "$@" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check; }
for f in gray8 rgba8888; do
  row "sigma2-tensor_f16-$f" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f
  row "sigma2-tiled_half2-$f" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f
  row "g5-stream-$f" --filter gaussian5x5 --variant stream --format $f
  row "sigma2-tensor_f16-$f--flush-cache" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f --flush-cache
  row "g5-stream-$f--flush-cache" --filter gaussian5x5 --variant stream --format $f --flush-cache
done
stamp times
record_pack
