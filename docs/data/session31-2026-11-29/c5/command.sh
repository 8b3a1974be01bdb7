#!/bin/bash
# session 31 call 5 (issue 25): cpu_rows.cl's rgba8888 border path by whole pixels (CR_PIXEL_GATHER, the default in
# rgba8888 now; c4 found the byte gather's unrolled copies were most of the PTX: CR_ROLL_GATHER cut it 18,347 ->
# 6,617 lines and the build 2.6 -> 0.9 s but cost 15% of the kernel): the five cpu_rows rgba8888 programs with and
# without it, cold build (no program cache, CUDA's cache off), kernel at 6720x4480 (reflect101, pinned, median of
# 20, checked), PTX lines, two rounds. Then GPU checks (chk/) of every form landed today: cpu_rows rgba8888 by
# pixels, Sobel strips per output, median3x3 stream rgba8888 with its row ends rolled, median5x5 forgetful gray8
# with rolled row loops: every border, odd sizes.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
export CUDA_CACHE_DISABLE=1
ptx_lines() { # the PTX of the one program in cache folder $1: its line count
  python3 - "$1" <<'PY'
import glob, sys
for e in glob.glob(sys.argv[1] + '/**/*', recursive=True):
    try:
        b = open(e, 'rb').read()
    except Exception:
        continue
    i = b.find(b'.version')
    if i < 0:
        continue
    j = b.find(b'\0', i)
    print(b[i:j if j > 0 else len(b)].count(b'\n'))
    break
else:
    print('no-ptx')
PY
}
n=0
for round in 1 2; do for row in "erode -" "dilate -" "gaussian5x5 -" "box radius=1" "median3x3 -"; do
  read -r f p <<<"$row"; pa=(); [ $p != - ] && pa=(--param $p)
  for opt in "-DCR_PIXEL_GATHER=0" ""; do
    n=$((n + 1)); rm -rf /tmp/cc$n
    FWB_EXTRA_BUILD_OPTIONS="$opt" record_time_row "r$round $f cpu_rows rgba8888" --device 1:0 --filter $f "${pa[@]}" --variant cpu_rows --format rgba8888 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border reflect101 --check --cache-dir /tmp/cc$n
    echo -e "r$round\t$f\trgba8888\t[$opt]\t$(ptx_lines /tmp/cc$n)" | tee -a $R/ptx-lines.tsv
  done
done; done
stamp ab
unset CUDA_CACHE_DISABLE
for b in reflect101 replicate constant; do
  for sz in 67x45 1x1 6719x45 5x3; do
    for row in "erode -" "dilate -" "gaussian5x5 -" "box radius=1" "box radius=2" "median3x3 -"; do
      read -r f p <<<"$row"; pa=(); [ $p != - ] && pa=(--param $p)
      record_gpu_check --filter $f "${pa[@]}" --variant cpu_rows --format rgba8888 --border $b --synthetic $sz
    done
    record_gpu_check --filter median3x3 --variant stream --format rgba8888 --border $b --synthetic $sz
    record_gpu_check --filter median5x5 --variant forgetful --format gray8 --border $b --synthetic $sz
  done
  for sz in 67x45 6719x45; do
    for o in 0 1 2 3 4; do record_gpu_check --filter sobel --variant strips --param output=$o --format gray8 --border $b --synthetic $sz; done
    for o in 0 1 2; do record_gpu_check --filter sobel --variant strips --param output=$o --format rgba8888 --border $b --synthetic $sz; done
  done
done
stamp checks
wc -l $R/chk/*.txt
record_pack
