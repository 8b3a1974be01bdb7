#!/bin/bash
# session 30 call 6 (issue 25): the separable strips' row loop unrolled 2 or 4 times instead of fully on NVIDIA
# (SS_ROW_UNROLL, kernels/shared/separable_strips.clh) for the strips programs over 3 s in c5: cold build (CUDA's
# JIT cache off, no program cache) and kernel time at 6720x4480 (pinned, replicate, median of 20, checked), the
# kernel timed twice more from the cached program, the three forms interleaved.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
export CUDA_CACHE_DISABLE=1
for row in "gaussian5x5 strips_half2 rgba8888" "gaussian5x5 strips rgba8888" "box3x3_interior strips rgba8888" "gaussian5x5 strips_half2 gray8" "gaussian5x5 strips gray8"; do
  read -r f v fmt <<<"$row"
  for u in full 2 4; do
    opt=""; [ $u != full ] && opt="-DSS_ROW_UNROLL=$u"
    rm -rf /tmp/c6-cache
    for k in cold warm1 warm2; do
      FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 60 $B run --device 1:0 --filter $f --variant $v --format $fmt --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --cache-dir /tmp/c6-cache --json > /tmp/c6.json 2>/dev/null
      python3 -c "import json; r=json.load(open('/tmp/c6.json'))['results'][0]; print('$f $v $fmt unroll=$u $k', 'kernel %.4f ms' % r['kernel_ms']['median'], 'build %.0f ms' % (r.get('build_ms') or 0), r.get('build_origin'), 'matches', r.get('matches'))" 2>&1 | tee -a $R/rows.txt
    done
  done
  stamp "$row"
done
record_pack
