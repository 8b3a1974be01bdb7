#!/bin/bash
# session 20 call 7 (H100): the sigma-2 Gaussian's strips with the row loop unrolled 1, 2, 4 times or
# fully (today), gray8 and rgba8888, with and without the cache flushed before every launch; its other
# rungs for the record. 6720x4480, median of 20, checked.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c7 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c7; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
one() { # UNROLL VARIANT FORMAT FLUSH
  local opt=""; [ "$1" != full ] && opt="-DSS_ROW_UNROLL=$1"
  FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 60 $B run --filter gaussian --param sigma=2 --variant $2 --format $3 $4 $D > /tmp/g.json 2>/dev/null
  python3 - /tmp/g.json "$1" "$4" <<'PY' | tee -a $R/sigma2.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([r["variant"], r["format"], "unroll " + sys.argv[2], sys.argv[3] or "-", str(r["local"]), "%.4f" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("max_abs_diff"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for fl in "" --flush-cache; do
  for f in gray8 rgba8888; do
    for u in full 1 2 4; do one $u strips $f $fl; done
    one full separable_local $f $fl
  done
done
stamp sigma2
