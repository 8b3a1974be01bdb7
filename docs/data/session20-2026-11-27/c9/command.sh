#!/bin/bash
# session 20 call 9 (H100): gaussian strips_half2 gray8 at its 64-row strips: row loop fully unrolled
# (as it lands), twice and four times: cold build alone (empty driver cache, no program cache) and kernel
# time, with and without the cache flushed; sigma 2, 6720x4480, median of 20, checked.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c9 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c9; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --cache-dir - --json"
one() { # UNROLL FORMAT FLUSH
  local opt=""; [ "$1" != full ] && opt="-DSS_ROW_UNROLL=$1"
  rm -rf /tmp/cc; mkdir -p /tmp/cc
  CUDA_CACHE_PATH=/tmp/cc FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 90 $B run --filter gaussian --param sigma=2 --variant strips_half2 --format $2 $3 $D > /tmp/g.json 2>/dev/null
  python3 - /tmp/g.json "$1" "$3" <<'PY' | tee -a $R/sigma2.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([r["variant"], r["format"], "unroll " + sys.argv[2], sys.argv[3] or "-", str(r["block"]), "build %.0f ms" % r["build_ms"], "%.4f" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("max_abs_diff"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for fl in "" --flush-cache; do for u in full 2 4; do one $u gray8 $fl; done; done
one full rgba8888
stamp sigma2
