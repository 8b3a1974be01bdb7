#!/bin/bash
# session 26 call 4 (H200): what holds tensor_f16 back: the products replaced by an add (GM_DIAG=1), the loads by
# made-up words (2), the stores skipped (3); the diagnostic forms were taken out of the kernel after this call.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
row() { record_time_row "$@" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate; }
export FWB_CACHE_DIR=/tmp/c4-cache
for d in 0 1 2 3; do
  FWB_EXTRA_BUILD_OPTIONS=-DGM_DIAG=$d row "tensor-gray8-128x1-1x128" --filter gaussian --param sigma=2 --variant tensor_f16 --format gray8 --local 128x1 --block 1x128
  FWB_EXTRA_BUILD_OPTIONS=-DGM_DIAG=$d row "tensor-rgba8888-64x2-1x64" --filter gaussian --param sigma=2 --variant tensor_f16 --format rgba8888 --local 64x2 --block 1x64
done
FWB_EXTRA_BUILD_OPTIONS="-DGM_DIAG=2 -DGM_AHEAD=0" row "tensor-rgba8888-64x2-1x64" --filter gaussian --param sigma=2 --variant tensor_f16 --format rgba8888 --local 64x2 --block 1x64
for d in 0 2; do
  rm -rf /tmp/c4-sass-$d; FWB_EXTRA_BUILD_OPTIONS=-DGM_DIAG=$d FWB_CACHE_DIR=/tmp/c4-sass-$d $B run --device 1:0 --filter gaussian --param sigma=2 --variant tensor_f16 --format rgba8888 --border replicate --synthetic 640x480 --repeat 1 --no-cpu-single --no-baselines --local 64x2 --block 1x64 > /dev/null 2>&1
  record_sass /tmp/c4-sass-$d diag$d-rgba gaussian_tensor_f16
done
record_pack
