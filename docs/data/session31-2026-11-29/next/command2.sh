#!/bin/bash
# Prepared in session 31 for the next session (issue 25; not run), after command.sh: BS_PIXEL_GATHER (see command.sh)
# for the other rgba8888 programs that load rows through bs_load_row_p: median3x3's forgetful rungs and
# sorted_columns, Sobel strips (|gx| and the magnitude), erode / dilate strips; same rows, then GPU checks of the
# pixel form (every border, odd sizes) for one program per kernel.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start next2 -DCUDAToolkit_ROOT=/usr/local/cuda
export CUDA_CACHE_DISABLE=1
cold=(--device 1:0 --format rgba8888 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate --check --cache-dir -)
for round in 1 2; do for row in "median3x3 forgetful_w16 -" "median3x3 forgetful -" "median3x3 forgetful_u16x2 -" "median3x3 forgetful_u16x2_ptx -" "median3x3 sorted_columns -" "sobel strips output=0" "sobel strips output=2" "erode strips -" "dilate strips -"; do
  read -r f v p <<<"$row"; pa=(); [ $p != - ] && pa=(--param $p)
  for g in 0 1; do
    FWB_EXTRA_BUILD_OPTIONS="-DBS_PIXEL_GATHER=$g" record_time_row "r$round $f $v $p rgba8888" --filter $f --variant $v "${pa[@]}" "${cold[@]}"
  done
done; done
stamp rows
unset CUDA_CACHE_DISABLE
export FWB_EXTRA_BUILD_OPTIONS="-DBS_PIXEL_GATHER=1"
for b in reflect101 replicate constant; do for sz in 67x45 1x1 6719x45 5x3; do
  for row in "median3x3 forgetful" "median5x5 forgetful_w16" "median5x5 sorted_columns" "sobel strips" "erode strips"; do
    read -r f v <<<"$row"
    record_gpu_check --filter $f --variant $v --format rgba8888 --border $b --synthetic $sz
  done
done; done
unset FWB_EXTRA_BUILD_OPTIONS
stamp checks
wc -l $R/chk/*.txt
record_pack
