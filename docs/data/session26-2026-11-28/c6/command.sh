#!/bin/bash
# session 26 call 6 (H200): the final tree: tensor_f16 at its default shapes beside tiled_half2 (sigma 2) and the best
# 5x5 (gaussian5x5 stream), usual and L2-flushed, two rounds; a check of each layout and border at odd sizes.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
export FWB_CACHE_DIR=/tmp/c6-cache
for f in gray8 rgba8888; do for b in reflect101 replicate constant; do for size in 1283x719 6719x4481; do
  timeout 120 $B run --device 1:0 --filter gaussian --variant tensor_f16 --param sigma=2 --format $f --border $b --synthetic $size --repeat 1 --no-cpu-single --no-baselines --check > /dev/null 2>&1
  echo "$f $b $size rc=$?" | tee -a $R/checks.txt
done; done; done
stamp checks
row() { record_time_row "$@" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check; }
for round in 1 2; do for f in gray8 rgba8888; do for fl in "" --flush-cache; do
  row "sigma2-tensor_f16-$f$fl" --filter gaussian --param sigma=2 --variant tensor_f16 --format $f $fl
  row "sigma2-tiled_half2-$f$fl" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f $fl
  row "g5-stream-$f$fl" --filter gaussian5x5 --variant stream --format $f $fl
done; done; done
stamp times
CUDA_CACHE_DISABLE=1 FWB_CACHE_DIR=/tmp/c6-cold timeout 300 $B prepare --device 1:0 --filter gaussian --format gray8,rgba8888 --json > $R/prepare-gaussian.json 2> $R/prepare-gaussian.err
python3 - $R/prepare-gaussian.json <<'PY' | tee $R/prepare-gaussian.txt
import json, sys
d = json.load(open(sys.argv[1]))
print('wall_s', d.get('wall_s'), 'built', d.get('built'), 'failed', d.get('failed'))
for r in d.get('results', []):
    print(r.get('variant'), r.get('format'), r.get('build_ms'), r.get('error') or '')
PY
stamp prepare
record_pack
