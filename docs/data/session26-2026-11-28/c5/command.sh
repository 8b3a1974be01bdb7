#!/bin/bash
# session 26 call 5 (H200): tensor_f16 with the inner tasks by stepped pointers (no border rule), new default shapes:
# checks (GPU and PoCL), times beside tiled_half2 and the 5x5 stream (usual and flushed), shapes, SASS.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
chk() { # device label args
  local dev="$1" label="$2"; shift 2
  timeout 120 "$B" run --device "$dev" --filter gaussian --variant tensor_f16 --repeat 1 --no-cpu-single --no-baselines --check "$@" --json > /tmp/chk.json 2>/tmp/chk.err
  echo "$label rc=$? $(python3 -c "
import json,sys
try:
  r=json.load(open('/tmp/chk.json'))['results'][0]; print('matches=%s maxdiff=%s err=%s' % (r.get('matches'), r.get('max_abs_diff'), (r.get('error') or '')[:300]))
except Exception as e: print('no json', open('/tmp/chk.err').read()[-600:])
")" | tee -a $R/checks.txt
}
export FWB_CACHE_DIR=/tmp/c5-cache
for dev in 1:0 cpu; do for f in gray8 rgba8888; do
  for s in 0.5 1.5 2; do for b in reflect101 replicate constant; do
    chk $dev "$dev $f sigma=$s $b 1283x719" --format $f --param sigma=$s --border $b --synthetic 1283x719
  done; done
  for size in 1x1 7x5 17x33 65x129 70x300; do
    chk $dev "$dev $f sigma=2 reflect101 $size" --format $f --param sigma=2 --synthetic $size
  done
  [ $dev = 1:0 ] && chk $dev "$dev $f sigma=2 replicate 6719x4481" --format $f --param sigma=2 --border replicate --synthetic 6719x4481
done; done
stamp checks
row() { record_time_row "$@" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check; }
for round in 1 2; do for f in gray8 rgba8888; do
  row "sigma2-tensor_f16-$f" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f
  row "sigma2-tensor_f16-$f--flush-cache" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f --flush-cache
  row "sigma2-tiled_half2-$f--flush-cache" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f --flush-cache
  row "g5-stream-$f--flush-cache" --filter gaussian5x5 --variant stream --format $f --flush-cache
  row "sigma2-tiled_half2-$f" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f
  row "g5-stream-$f" --filter gaussian5x5 --variant stream --format $f
done; done
stamp times
for loc in 64x1 128x1 256x1 64x2; do for bh in 64 128 256; do
  row "tensor-gray8-$loc-1x$bh" --filter gaussian --param sigma=2 --variant tensor_f16 --format gray8 --local $loc --block 1x$bh
done; done
for loc in 64x2 32x4 128x1 64x4 128x2; do for bh in 32 64 128; do
  row "tensor-rgba8888-$loc-1x$bh" --filter gaussian --param sigma=2 --variant tensor_f16 --format rgba8888 --local $loc --block 1x$bh
done; done
stamp shapes
for f in gray8 rgba8888; do
  rm -rf /tmp/c5-sass-$f; FWB_CACHE_DIR=/tmp/c5-sass-$f $B run --device 1:0 --filter gaussian --param sigma=2 --variant tensor_f16 --format $f --border replicate --synthetic 640x480 --repeat 1 --no-cpu-single --no-baselines > /dev/null 2>&1
  record_sass /tmp/c5-sass-$f tensor-$f gaussian_tensor_f16
done
stamp sass
record_pack
