#!/bin/bash
# Prepared in session 30 (next/command.sh), run in session 31 as c1 (issue 25).
# Two measurements, both of forms the catalogue does not build yet (today's programs are unchanged by them):
# (1) below: sobel strips per output; (2) at the end: the stream rungs with their row ends' strips rolled.
# sobel strips built for one output (-DFWB_PARAM_OUTPUT, kernels/sobel/sobel.cl) against today's program, which holds
# the three outputs' arithmetic in every unrolled row (NVIDIA's cold build of rgba8888 4.3 s in session 30's c5):
# cold build (no program cache, CUDA's cache off) and kernel at 6720x4480 (pinned, replicate, median of 20,
# checked), outputs 0 and 2, both layouts, two rounds interleaved. If the per-output form builds faster and its
# kernels run within 3% (or faster), give the strips variant `.paramDefines = {"output"}` in
# core/families/sobel/Sobel.cpp (as the stream rung has) and take the "waits for" sentence out of sobel.cl.
# A proxy measured here (clang 14's PTX for nvptx64 with -Dcl_nv_pragma_unroll, the GPU blocks): gray8 12,450 ->
# 5,829 lines (the 16-bit outputs' loop copy goes), rgba8888 8,951 -> 8,115 (output 0) / 8,554 (2): clang does not
# unswitch the loop per output, so rgba8888 may gain little; NVIDIA's own PTX for it was 15,521 lines (session 27).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
export CUDA_CACHE_DISABLE=1
# One cold row each (record_time_row: kernel median, check, build ms -> $R/times.tsv; the options in the label).
cold=(--device 1:0 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --cache-dir -)
for round in 1 2; do for fmt in rgba8888 gray8; do for o in 0 2; do for k in shared per-output; do
  opt=""; [ $k = per-output ] && opt="-DFWB_PARAM_OUTPUT=$o"
  FWB_EXTRA_BUILD_OPTIONS="$opt" record_time_row "r$round sobel strips $fmt output=$o" --filter sobel --variant strips --param output=$o --format $fmt "${cold[@]}" --synthetic 6720x4480
done; done; done; done
stamp sobel
# (2) stream3x3.clh's S3_UNROLL_ENDS=0: only the strips inside the row in unrolled copies (aligned and not), the
# row ends' strips in one rolled copy: two unrolled copies of the loop instead of five or six. For the rgba8888
# stream programs over 3 s cold in session 30's c5 (gaussian5x5 4.3 s, median3x3 3.3 s) and the gray8 ones beside
# them: cold build and kernel (6720x4480, and 1920x1080 where the ends' warps are a larger share), both forms, two
# rounds. Worth landing (as the default on NVIDIA for the programs that gain) only where the
# build falls and every kernel stays within 3%. tst_gaussian5x5 / tst_median streamEndsRolledSameBytes check the bytes.
for round in 1 2; do for row in "gaussian5x5 - rgba8888" "median3x3 - rgba8888" "gaussian5x5 - gray8" "median3x3 - gray8" "box radius=1 rgba8888" "box radius=1 gray8"; do
  read -r f p fmt <<<"$row"; pa=(); [ $p != - ] && pa=(--param $p)
  for ends in 1 0; do for size in 6720x4480 1920x1080; do
    FWB_EXTRA_BUILD_OPTIONS="-DS3_UNROLL_ENDS=$ends" record_time_row "r$round $f stream $fmt $size" --filter $f "${pa[@]}" --variant stream --format $fmt "${cold[@]}" --synthetic $size
  done; done
done; done
stamp ends
record_pack
