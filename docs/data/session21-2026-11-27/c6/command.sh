#!/bin/bash
# session 21 call 6 (H100): (1) the cpu_rows rungs' loops kept rolled on NVIDIA (CR_ROLL_LOOPS=1: the rows loop
# and the edge paths' byte loops; their rgba8888 programs took 3.4-10 s to build cold in session 20's c3): cold
# build (fresh driver cache, no program cache) and kernel time, off/on alternated, both layouts, two rounds;
# (2) the Sobel and median stream rungs' cold builds (views by permutes).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c6; mkdir -p $R
row() { # LABEL (reads /tmp/m.json)
  python3 - /tmp/m.json "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([sys.argv[2], r["filter"], r["variant"], r["format"], "build %.0f ms %s" % (r["build_ms"], r["build_origin"]), "%.4f" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
cold() { # ROLL FILTER VARIANT FORMAT [PARAM] : a cold build, then the kernel timed from the same session
  local pa=(); [ -n "$5" ] && pa=(--param "$5")
  rm -rf /tmp/cc; export CUDA_CACHE_PATH=/tmp/cc
  FWB_EXTRA_BUILD_OPTIONS="-DCR_ROLL_LOOPS=$1" timeout 120 $B run --filter $2 --variant $3 --format $4 "${pa[@]}" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --cache-dir - --json > /tmp/m.json 2>/dev/null
  row "roll=$1" | tee -a $R/cpu-rows.tsv
}
for round in 1 2; do
  fs="rgba8888 gray8"; [ $round = 2 ] && fs=rgba8888
  for f in $fs; do
    for fam in "erode radius=1" "dilate radius=1" "box radius=1" "gaussian5x5" "median3x3"; do
      set -- $fam
      cold 0 $1 cpu_rows $f $2; cold 1 $1 cpu_rows $f $2
    done
  done
  stamp "round $round"
done
for f in gray8 rgba8888; do cold 0 sobel stream $f output=0; cold 0 median3x3 stream $f; done
stamp streams
