#!/bin/bash
# session 20 call 4 (H100): the separable strips' row loop fully unrolled (today) against unrolled 1, 2
# and 4 times (-DSS_ROW_UNROLL=N through FWB_EXTRA_BUILD_OPTIONS): each program's cold build alone (an
# empty driver cache per run, no program cache) and its kernel time, 6720x4480, median of 20, checked.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c4 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c4; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --cache-dir - --json"
one() { # UNROLL FILTER VARIANT FORMAT [PARAM]
  local u=$1 f=$2 v=$3 fmt=$4 extra=""; [ -n "$5" ] && extra="--param $5"
  rm -rf /tmp/cc; mkdir -p /tmp/cc
  local opt=""; [ "$u" != full ] && opt="-DSS_ROW_UNROLL=$u"
  CUDA_CACHE_PATH=/tmp/cc FWB_EXTRA_BUILD_OPTIONS="$opt" timeout 60 $B run --filter $f --variant $v --format $fmt $extra $D > /tmp/one.json 2>/tmp/one.err
  python3 - /tmp/one.json "$u" <<'PY' | tee -a $R/unroll.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([r["filter"], r["variant"], r["format"], sys.argv[2], "build %.0f ms" % r["build_ms"], "%.4f ms" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("max_abs_diff")), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for u in full 1 2 4; do
  one $u gaussian5x5 strips_half2 rgba8888
  one $u gaussian5x5 strips_half2 gray8
  one $u gaussian5x5 strips rgba8888
  one $u gaussian5x5 strips gray8
  one $u box strips rgba8888 radius=1
  one $u box3x3_interior strips rgba8888
  one $u gaussian strips rgba8888
  stamp "unroll $u"
done
tar czf $OUT/c4.tgz -C $OUT c4
