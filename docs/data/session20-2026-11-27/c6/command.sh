#!/bin/bash
# session 20 call 6 (H100): the recursive Gaussian's carry scans load IIR_SCAN_BATCH boundaries' carries
# before running through them (8 today): 16 and 32 (through FWB_EXTRA_BUILD_OPTIONS; same arithmetic,
# same bytes), at 64x1 and 32x1 work-groups; blocked_transposed and blocked_seg64, 6720x4480, median of 20.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c6; mkdir -p $R
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --json"
one() { # VARIANT FORMAT BATCH LOCAL
  FWB_EXTRA_BUILD_OPTIONS="-DIIR_SCAN_BATCH=$3" timeout 60 $B run --filter recursive_gaussian --variant $1 --format $2 --local $4 $D > /tmp/rg.json 2>/dev/null
  python3 - /tmp/rg.json "$3" <<'PY' | tee -a $R/scan-batch.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([r["variant"], r["format"], "batch " + sys.argv[2], str(r["local"]), "%.4f" % r["kernel_ms"]["median"], str(r.get("matches")), " ".join("%.4f" % x for x in r.get("pass_ms", []))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
for round in 1 2; do
  for f in gray8 rgba8888; do
    for b in 8 16 32; do
      one blocked_transposed $f $b 64x1
      one blocked_transposed $f $b 32x1
    done
    for b in 8 32; do one blocked_seg64 $f $b auto; done
  done
  stamp "round $round"
done
