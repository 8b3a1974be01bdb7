#!/bin/bash
# session 27 call 4 (H200): tensor_f16 with its portable products batched (a step's products through local memory
# at two barriers, instead of two barriers a product): the tensor-core path checked and timed again (its source is
# the same operations), the portable path run on the GPU too (-DGM_MMA=0: real warps, real local memory) and on
# PoCL, all three compared byte for byte.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
chk() { echo "$* $(timeout 90 $B run "$@" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"; }
export FWB_CACHE_DIR=/tmp/c4-cache
{
for f in gray8 rgba8888; do for b in replicate reflect101 constant; do
  for sz in 1x1 17x33 259x37 1283x719 6719x4481; do chk --device 1:0 --filter gaussian --variant tensor_f16 --param sigma=2 --format $f --border $b --synthetic $sz; done
  chk --device 1:0 --filter gaussian --variant tensor_f16 --param sigma=1 --format $f --border $b --synthetic 1283x719
  for sz in 17x33 259x37 1283x719; do FWB_EXTRA_BUILD_OPTIONS=-DGM_MMA=0 chk --device 1:0 --filter gaussian --variant tensor_f16 --param sigma=2 --format $f --border $b --synthetic $sz; done
done; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff' $R/checks.txt | head
common="--filter gaussian --variant tensor_f16 --repeat 1 --no-cpu-single --no-baselines --check --synthetic 1283x719 --overwrite"
for f in gray8 rgba8888; do for s in 2 1.3; do
  timeout 60 $B run --device 1:0 $common --format $f --param sigma=$s --output /tmp/nv-$f-$s.png > /dev/null 2>&1; a=$?
  FWB_EXTRA_BUILD_OPTIONS=-DGM_MMA=0 timeout 60 $B run --device 1:0 $common --format $f --param sigma=$s --output /tmp/nve-$f-$s.png > /dev/null 2>&1; b=$?
  timeout 120 $B run --device cpu $common --format $f --param sigma=$s --output /tmp/cpu-$f-$s.png > /dev/null 2>&1; c=$?
  cmp /tmp/nv-$f-$s.png /tmp/nve-$f-$s.png && e=same || e=differ
  cmp /tmp/nv-$f-$s.png /tmp/cpu-$f-$s.png && p=same || p=differ
  echo "$f sigma=$s rc $a $b $c; GPU portable path $e; pocl $p" | tee -a $R/exact.txt
done; done
stamp checks
row() { record_time_row "$@" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check; }
for round in 1 2; do for f in rgba8888 gray8; do
  row "sigma2-tensor_f16-$f" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f
  row "g5-stream-$f" --filter gaussian5x5 --variant stream --format $f
done; done
FWB_EXTRA_BUILD_OPTIONS=-DGM_MMA=0 row "sigma2-tensor_f16-rgba8888-portable" --filter gaussian --param sigma=2 --variant tensor_f16 --format rgba8888
stamp times
record_pack
