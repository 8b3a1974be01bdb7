#!/bin/bash
# session 26 call 1 (H200): the Gaussian's tensor-core rung (kernels/gaussian/gaussian_tensor.cl, tensor_f16) on
# NVIDIA and on PoCL: every result checked against the CPU reference (borders, odd sizes, sigmas), then timed
# beside tiled_half2 at sigma 2 and the best 5x5 (gaussian5x5 stream), usual and L2-flushed; its PTX and SASS.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
$B devices > $R/devices.txt 2>&1; cat $R/devices.txt | head -20
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
export FWB_CACHE_DIR=/tmp/c1-cache
for dev in 1:0 cpu; do
  for f in gray8 rgba8888; do
    for s in 0.5 1 1.5 2; do for b in reflect101 replicate constant; do
      chk $dev "$dev $f sigma=$s $b 1283x719" --format $f --param sigma=$s --border $b --synthetic 1283x719
    done; done
    for size in 1x1 3x2 7x5 17x33 64x128 65x129; do
      chk $dev "$dev $f sigma=2 reflect101 $size" --format $f --param sigma=2 --synthetic $size
    done
    [ $dev = 1:0 ] && chk $dev "$dev $f sigma=2 replicate 6719x4481" --format $f --param sigma=2 --border replicate --synthetic 6719x4481
  done
done
stamp checks
row() { record_time_row "$@" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check; }
for round in 1 2; do
  for f in gray8 rgba8888; do for fl in "" --flush-cache; do
    row "sigma2-tensor_f16-$f$fl" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f $fl
    row "sigma2-tiled_half2-$f$fl" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f $fl
    row "g5-stream-$f$fl" --filter gaussian5x5 --variant stream --format $f $fl
  done; done
done
stamp times
for f in gray8 rgba8888; do for loc in 32x1 64x1 32x2 64x2 128x1 16x8 32x4 16x4 64x4; do
  row "sigma2-tensor_f16-$f-local$loc" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f --local $loc
done; done
stamp shapes
rm -rf /tmp/c1-sass-cache; FWB_CACHE_DIR=/tmp/c1-sass-cache $B run --device 1:0 --filter gaussian --param sigma=2 --variant tensor_f16 --format rgba8888 --synthetic 640x480 --repeat 1 --no-cpu-single --no-baselines > /dev/null 2>&1
record_sass /tmp/c1-sass-cache tensor-rgba gaussian_tensor_f16
stamp sass
record_pack
