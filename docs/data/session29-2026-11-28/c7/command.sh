#!/bin/bash
# Prepared in session 29 for the next session's first device call (issue 25; NOT RUN: no device time was left):
# median5x5 forgetful_w16 rgba8888 with and without the interior strip's copy on NVIDIA (MF_INSIDE_COPY; 2026-11-26
# on the H100: 44.7 -> 21.8 s cold build and 10.05 -> 9.51 ms without it, but the variant's define never reached a
# program, core/families/median/Median.cpp). Cold build (no program cache, CUDA's JIT cache off), kernel time at
# 3840x2160 and 6720x4480, pinned, median of 10, checked; two rounds. If "without" builds faster and runs no slower
# than 3%, put `.defines = {"MF_INSIDE_COPY=0"}` back on the rung in Median.cpp. Results written as they come ($OUT).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c7 -DCUDAToolkit_ROOT=/usr/local/cuda
export CUDA_CACHE_DISABLE=1
for round in 1 2; do for size in 3840x2160 6720x4480; do for k in copy nocopy; do
  opt=""; [ $k = nocopy ] && opt="-DMF_INSIDE_COPY=0"
  FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 120 $B run --device 1:0 --filter median5x5 --variant forgetful_w16 --format rgba8888 --synthetic $size --repeat 10 --no-cpu-single --no-baselines --transfer pinned --check --cache-dir - --json > $OUT/$k-$size-r$round.json 2> $OUT/$k-$size-r$round.err
  python3 -c "import json; r=json.load(open('$OUT/$k-$size-r$round.json'))['results'][0]; print('$k $size r$round', 'kernel %.4f ms' % r['kernel_ms']['median'], 'build_ms', r.get('build_ms'), 'matches', r.get('matches'))" | tee -a $OUT/summary.txt
done; done; done
