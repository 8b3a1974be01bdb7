#!/bin/bash
# session 22 call 1 (H100): the 16x2 min/max shared (fwb_min_u16x2 / fwb_max_u16x2 in common.clh replace
# mf_min2/mf_max2, mp_op's and md_min1/md_max1's inline PTX) and tiled_half2's run-time taps by ss_h2pack:
# every rung whose source moved, before (this tree's kernels/) and after (kernels-after/, not kept),
# alternated, two rounds; each after-rung checked on the GPU against the CPU reference at odd sizes,
# every border. Then prepare of the whole catalogue (gray8, rgba8888), 16 jobs, empty caches: the cold
# build time of every program.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c1; mkdir -p $R
export CUDA_CACHE_DISABLE=1
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check --json"
row() { # LABEL (reads /tmp/m.json)
  python3 - /tmp/m.json "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([sys.argv[2], r["filter"], r["variant"], r["format"], str(r["local"]), str(r.get("block")), "%.4f" % r["kernel_ms"]["median"], "%.0f GB/s" % r["gbps"], "matches %s" % r.get("matches"), str(r.get("error"))]))
except Exception as e:
    print("failed", sys.argv[2], e)
PY
}
KB="$PWD/kernels"
KA="$PWD/docs/data/session22-2026-11-28/c1/kernels-after"
ab() { # LABEL DIR FILTER VARIANT FORMAT [PARAM]
  local pa=(); [ -n "$6" ] && pa=(--param "$6")
  timeout 120 $B run --filter $3 --variant $4 --format $5 "${pa[@]}" --kernel-dir $2 $D > /tmp/m.json 2>/dev/null
  row "$1" | tee -a $R/before-after.tsv
}
SPECS=("erode packed gray8 radius=1" "dilate packed gray8 radius=1" "median3x3 stream gray8" "median3x3 stream rgba8888"
       "median3x3 forgetful_u16x2_ptx gray8" "median3x3 forgetful_u16x2_ptx rgba8888" "median5x5 forgetful_u16x2_ptx gray8"
       "median5x5 forgetful_u16x2_ptx rgba8888" "gaussian tiled_half2 gray8 sigma=2")
for round in 1 2; do
  for spec in "${SPECS[@]}"; do
    set -- $spec
    ab before $KB $1 $2 $3 $4
    ab after $KA $1 $2 $3 $4
  done
  stamp "round $round"
done
chk() { # filter variant format border size [param]
  local pa=(); [ -n "$6" ] && pa=(--param "$6")
  echo "$* $(timeout 60 $B run --device 1:0 --kernel-dir $KA --filter $1 --variant $2 --format $3 --border $4 --synthetic $5 "${pa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"
}
{
for spec in "${SPECS[@]}"; do set -- $spec
  for sz in 1x1 33x6 203x97 6719x4481; do for b in replicate reflect101 constant; do chk $1 $2 $3 $b $sz $4; done; done
done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff 0)' $R/checks.txt | head -20
stamp checks
$B prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --cache-dir /tmp/pc --json > $R/prepare-empty.json 2> $R/prepare-empty.err
tail -3 $R/prepare-empty.err
stamp prepare
