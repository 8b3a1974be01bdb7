#!/bin/bash
# session 26 call 3 (H200): tensor_f16's rows per warp (--block 1xH) and work-group shapes, sigma 2, 6720x4480.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
row() { record_time_row "$@" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check; }
export FWB_CACHE_DIR=/tmp/c3-cache
for loc in 128x1 64x1 64x2 32x4; do for bh in 32 64 128 256; do
  row "tensor-gray8-$loc-1x$bh" --filter gaussian --param sigma=2 --variant tensor_f16 --format gray8 --local $loc --block 1x$bh
done; done
for loc in 16x8 32x4 32x2 16x4 64x2; do for bh in 16 32 64 128; do
  row "tensor-rgba8888-$loc-1x$bh" --filter gaussian --param sigma=2 --variant tensor_f16 --format rgba8888 --local $loc --block 1x$bh
done; done
stamp sweep
for f in gray8 rgba8888; do
  row "sigma2-tiled_half2-$f" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f
  row "g5-stream-$f" --filter gaussian5x5 --variant stream --format $f
done
record_pack
