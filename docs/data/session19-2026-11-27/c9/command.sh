#!/bin/bash
# session 19 call 9 (H100): recursive_gaussian blocked_transposed with its turned stores staged through
# local memory, beside blocked_seg64 and blocked (6720x4480, both layouts, alternated twice).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c9 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c9; mkdir -p $R; cp /tmp/c9/* $R/ 2>/dev/null
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned"
for round in 1 2; do
  for f in gray8 rgba8888; do
    for v in blocked_seg64 blocked_transposed blocked; do
      timeout 60 $B run --filter recursive_gaussian --variant $v --format $f $D --check --json > /tmp/rg.json 2> /tmp/rg.err
      python3 - /tmp/rg.json $f $round <<'PY' | tee -a $R/rg.tsv
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    print("\t".join([sys.argv[2], sys.argv[3], r["variant"], "%.4f" % r["kernel_ms"]["median"], str(r.get("matches")),
                     str(r.get("max_abs_diff")), " ".join("%.4f" % x for x in r.get("pass_ms", []))]))
PY
    done
  done
done
stamp recursive
