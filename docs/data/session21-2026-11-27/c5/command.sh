#!/bin/bash
# session 21 call 5 (H100): (1) stream3x3.clh's views made by byte permutes (S3_VIEWS_BY_WORDS, 12% on the
# median's gray8 rung in c3) for the other streaming rungs: erode, dilate, box r=1, box3x3_interior, Sobel
# |gx|, both layouts, off/on alternated, two rounds, the L2 flushed; (2) Sobel gray8 beside NPP with each;
# (3) the window's recorded median3x3 runs on this device (scripts/record-measurements.sh, 1920x1080).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c5; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json --flush-cache"
one() { # WORDS FILTER FORMAT [PARAM]
  local pa=(); [ -n "$4" ] && pa=(--param "$4")
  FWB_EXTRA_BUILD_OPTIONS="-DS3_VIEWS_BY_WORDS=$1" timeout 90 $B run --filter $2 --variant stream --format $3 "${pa[@]}" $D > /tmp/m.json 2>/dev/null
  python3 - /tmp/m.json "words=$1" <<'PY' | tee -a $R/views.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([sys.argv[2], r["filter"], r["variant"], r["format"], "%.4f" % r["kernel_ms"]["median"], "%.0f GB/s" % r["gbps"], "matches %s" % r.get("matches"), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for round in 1 2; do
  for f in gray8 rgba8888; do
    for fam in "erode radius=1" "dilate radius=1" "box radius=1" "box3x3_interior" "sobel output=0" "median3x3"; do
      set -- $fam
      one 0 $1 $f $2; one 1 $1 $f $2
    done
  done
  stamp "round $round"
done
for w in 0 1; do
  FWB_EXTRA_BUILD_OPTIONS="-DS3_VIEWS_BY_WORDS=$w" timeout 120 scripts/npp-compare.sh $B /tmp/c5/npp$w --device 1:0 --only 'sobel stream|erode stream|box stream' --flush > /dev/null 2>&1
  echo "S3_VIEWS_BY_WORDS=$w" >> $R/npp.md; cat /tmp/c5/npp$w/npp.md >> $R/npp.md
done
cat $R/npp.md
stamp npp
timeout 200 scripts/record-measurements.sh $B /tmp/c5/rec --device 1:0 --filters median3x3 > $R/record-log.txt 2>&1
tar czf $R/rec.tgz -C /tmp/c5 rec npp0 npp1
stamp record
