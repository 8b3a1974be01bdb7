#!/bin/bash
# Prepared in session 31 for the next session's first device call (issue 25; not run: no device time was left).
# byte_strips.clh's rgba8888 edge blocks gathered and stored by whole pixels (-DBS_PIXEL_GATHER=1; today bytes):
# c5 of session 31 found the same change in cpu_rows.cl halved NVIDIA's builds and made the kernels 7-16% faster.
# Every rgba8888 program that loads rows through bs_load_row_p, cold build (no program cache, CUDA's cache off) and
# kernel at 6720x4480 (pinned, replicate, median of 20, checked), both forms, two rounds interleaved. A proxy
# (clang 14's PTX for nvptx64, -Dcl_nv_pragma_unroll): median5x5 forgetful_w16 171,467 -> 137,229 lines, forgetful
# 123,640 -> 98,799, sorted_columns 21,678 -> 17,340; erode strips 10,412 -> 9,490. Land it (the default in
# rgba8888 on NVIDIA: `CHANNELS == 4 && FWB_UNROLL_GATHERS`, as cpu_rows.cl's CR_PIXEL_GATHER) where the builds
# fall and no kernel loses more than 3%; tst_median / tst_sobel / tst_morphology pixelGatherSameBytes check the
# bytes on PoCL. If the median5x5 rows take too long, command2.sh has the rest.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start next -DCUDAToolkit_ROOT=/usr/local/cuda
export CUDA_CACHE_DISABLE=1
cold=(--device 1:0 --format rgba8888 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --cache-dir -)
for round in 1 2; do for row in "median5x5 forgetful_w16" "median5x5 forgetful" "median5x5 forgetful_u16x2" "median5x5 forgetful_u16x2_ptx" "median5x5 sorted_columns"; do
  read -r f v <<<"$row"
  for g in 0 1; do
    FWB_EXTRA_BUILD_OPTIONS="-DBS_PIXEL_GATHER=$g" record_time_row "r$round $f $v rgba8888" --filter $f --variant $v "${cold[@]}"
  done
done; done
stamp median5x5
record_pack
