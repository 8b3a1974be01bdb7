#!/bin/bash
# session 27 call 1 (H200): tensor_f16 one channel at a time (16-pixel columns, rgba8888's channels gathered by byte
# permutes): checks on the GPU and PoCL, the same bytes on the tensor cores / tiles / PoCL, times beside tiled_half2
# and the 5x5 stream (usual and flushed), rgba8888 work-group shapes, SASS.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
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
for dev in 1:0 cpu; do for f in gray8 rgba8888; do
  if [ $dev = cpu ]; then ss="1 2"; bs="reflect101 constant"; else ss="0.5 1 1.5 2"; bs="reflect101 replicate constant"; fi
  for s in $ss; do for b in $bs; do
    chk $dev "$dev $f sigma=$s $b 1283x719" --format $f --param sigma=$s --border $b --synthetic 1283x719
  done; done
  for size in 1x1 7x5 17x33 65x129 70x300; do
    chk $dev "$dev $f sigma=2 reflect101 $size" --format $f --param sigma=2 --synthetic $size
  done
  [ $dev = 1:0 ] && chk $dev "$dev $f sigma=2 replicate 6719x4481" --format $f --param sigma=2 --border replicate --synthetic 6719x4481
  [ $dev = 1:0 ] && chk $dev "$dev $f sigma=2 replicate 6720x4480" --format $f --param sigma=2 --border replicate --synthetic 6720x4480
done; done
stamp checks
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
for round in 1 2; do for f in rgba8888 gray8; do
  row "sigma2-tensor_f16-$f" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f
  row "sigma2-tiled_half2-$f" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f
  row "g5-stream-$f" --filter gaussian5x5 --variant stream --format $f
  row "sigma2-tensor_f16-$f--flush-cache" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f --flush-cache
  row "g5-stream-$f--flush-cache" --filter gaussian5x5 --variant stream --format $f --flush-cache
done; done
stamp times
for loc in 64x2 32x4 128x1 64x1 32x2 16x8 64x4 128x2; do for bh in 16 32 64 128; do
  row "tensor-rgba8888-$loc-1x$bh" --filter gaussian --param sigma=2 --variant tensor_f16 --format rgba8888 --local $loc --block 1x$bh
done; done
for loc in 128x1 64x2 256x1; do for bh in 32 64; do
  row "tensor-gray8-$loc-1x$bh" --filter gaussian --param sigma=2 --variant tensor_f16 --format gray8 --local $loc --block 1x$bh
done; done
stamp shapes
for f in gray8 rgba8888; do
  rm -rf /tmp/c1-sass-$f; FWB_CACHE_DIR=/tmp/c1-sass-$f $B run --device 1:0 --filter gaussian --param sigma=2 --variant tensor_f16 --format $f --border replicate --synthetic 640x480 --repeat 1 --no-cpu-single --no-baselines > /dev/null 2>&1
  record_sass /tmp/c1-sass-$f tensor-$f gaussian_tensor_f16
done
stamp sass
record_pack
