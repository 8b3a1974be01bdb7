#!/bin/bash
# session 31 call 4 (issue 25): why erode/dilate cpu_rows rgba8888 take 11-13 s to build on NVIDIA (c3; gray8 4 s).
# kernels/shared/cpu_rows.cl's measurement switches: CR_ROLL_GATHER (the border path's byte gathers and stores in
# rolled loops), CR_ROW_ROLLED (the row loop kept rolled), both; cold build (no program cache, CUDA's cache off) and
# kernel at 6720x4480 (reflect101: the border prepare builds; pinned, median of 20, checked), two rounds, and
# the PTX's lines of each program (ptx-lines.tsv).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
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
for round in 1 2; do for row in "erode rgba8888" "dilate rgba8888" "erode gray8" "gaussian5x5 rgba8888"; do
  read -r f fmt <<<"$row"
  for opt in "" "-DCR_ROLL_GATHER=1" "-DCR_ROW_ROLLED=1" "-DCR_ROLL_GATHER=1 -DCR_ROW_ROLLED=1"; do
    n=$((n + 1)); rm -rf /tmp/cc$n
    FWB_EXTRA_BUILD_OPTIONS="$opt" record_time_row "r$round $f cpu_rows $fmt" --device 1:0 --filter $f --variant cpu_rows --format $fmt --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border reflect101 --check --cache-dir /tmp/cc$n
    echo -e "r$round\t$f\t$fmt\t[$opt]\t$(ptx_lines /tmp/cc$n)" | tee -a $R/ptx-lines.tsv
  done
done; done
stamp done
record_pack
