#!/bin/bash
# Prepared in session 30 (next/command2.sh), run in session 31 as c2 (issue 25), after command.sh.
# gray8 median5x5's forgetful programs on NVIDIA with their row loads and stores in rolled loops (MF_ROLL_LOOPS=1,
# kernels/median/median_forgetful.clh; PoCL's default since session 29, NVIDIA's never measured): cold build (no
# program cache, CUDA's cache off) and kernel at 6720x4480 (pinned, replicate, median of 20, checked), two rounds
# interleaved. In session 30's c5 these built in 5.7 s (u16x2), 3.6 s (w16), 2.8 s (u16x2_ptx). A proxy here
# (clang 14's PTX for nvptx64, -Dcl_nv_pragma_unroll): 40,948 -> 32,968 lines (u16x2), 41,340 -> 35,562 (w16 at 16
# across), 22,668 -> 19,450 (8 across). Land it for a program (a define on its variant, gray8 only) where the build
# falls and the kernel stays within 3%.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
export CUDA_CACHE_DISABLE=1
for round in 1 2; do for v in forgetful_u16x2 forgetful_w16 forgetful_u16x2_ptx forgetful; do for k in default rolled; do
  opt=""; [ $k = rolled ] && opt="-DMF_ROLL_LOOPS=1"
  # record_time_row: kernel median, check, build ms -> $R/times.tsv
  FWB_EXTRA_BUILD_OPTIONS="$opt" record_time_row "r$round median5x5 $v gray8" --device 1:0 --filter median5x5 --variant $v --format gray8 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --cache-dir -
done; done; done
record_pack
