#!/bin/bash
# session 20 call 10 (H100): the stream rungs before and after kernels/shared/stream3x3.clh's rolled form
# for CPUs (S3_UNROLL_ROWS, on where FWB_PTX: the NVIDIA path keeps its unrolled loops, its stores and
# window shift moved into s3_put / S3_SHIFT). "before" is the merge's first parent's kernels/ through
# --kernel-dir (kernels-before/, not kept in the repository); both run in filter-bench's helper process,
# alternated, two rounds; 6720x4480, pinned, median of 20, checked.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c10 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c10; mkdir -p $R
KB="$PWD/docs/data/session20-2026-11-27/c10/kernels-before"
KA="$PWD/kernels"
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
one() { # LABEL DIR FILTER FORMAT [PARAM]
  local pa=(); [ -n "$5" ] && pa=(--param "$5")
  timeout 60 $B run --filter $3 --variant stream --format $4 "${pa[@]}" --kernel-dir $2 $D > /tmp/s.json 2>/dev/null
  python3 - /tmp/s.json "$1" <<'PY' | tee -a $R/stream.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([sys.argv[2], r["filter"], r["format"], "%.4f" % r["kernel_ms"]["median"], "matches %s" % r.get("matches"), str(r.get("max_abs_diff")), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for round in 1 2; do
  for f in gray8 rgba8888; do
    for fam in "erode radius=1" "dilate radius=1" "box radius=1" "box3x3_interior" "sobel output=0" "gaussian5x5"; do
      set -- $fam
      one before $KB $1 $f $2
      one after $KA $1 $f $2
    done
  done
  stamp "round $round"
done
