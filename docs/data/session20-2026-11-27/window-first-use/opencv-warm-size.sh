#!/bin/bash
# ocv.sh HOME SIZE: one run with OpenCV rows, prints opencv_tapi's first-call ms (warmup 0, repeat 1)
H=$1; S=$2; shift 2
mkdir -p $H/pocl $H/.cache
env HOME=$H XDG_CACHE_HOME=$H/.cache XDG_CONFIG_HOME=$H/.config POCL_CACHE_DIR=$H/pocl /work/wt-first/build/filter-bench run --filter gaussian5x5 --variant strips --format rgba8888 --synthetic $S --baselines --repeat 1 --warmup 0 --no-cpu-single --no-copy-probe --json "$@" 2>/dev/null | python3 -c "
import json,sys;j=json.load(sys.stdin)
print(' '.join('%s=%.0f'%(r['variant'],r['kernel_ms']['median']) for r in j['results'] if r['variant'].startswith('opencv')))"
