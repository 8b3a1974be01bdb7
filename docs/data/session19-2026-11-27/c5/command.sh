#!/bin/bash
# session 19 call 5 (H100): recursive_gaussian blocked_transposed beside blocked_seg64 (6720x4480, both
# layouts, alternated); nbody's split_sum with tiled_local's interaction in the ladder, and which
# reciprocal square root, unrolling and denormal rule tiled_local and split_sum run fastest with
# (scripts/tools/cl-tune.cpp on edited copies of nbody.cl). Results are written as they come.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c5; mkdir -p $R; cp /tmp/c5/* $R/ 2>/dev/null
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 scripts/tools/cl-tune.cpp -lOpenCL -o /tmp/cl-tune 2>/dev/null
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned"
for round in 1 2; do
  for f in gray8 rgba8888; do
    for v in blocked_seg64 blocked_transposed; do
      $B run --filter recursive_gaussian --variant $v --format $f $D --check --json > /tmp/rg.json 2> /tmp/rg.err
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
python3 - <<'PY'
s = open("kernels/workloads/nbody.cl").read()
tl = "        for (int k = 0; k < TILE; ++k)\n            INTERACT(acc, p, tile[k], rsqrt)"
assert s.count(tl) == 1
for u in (4, 16):
    open("/tmp/nb-t-u%d.cl" % u, "w").write(s.replace(tl, "#pragma unroll %d\n" % u + tl))
sp = "INTERACT(acc[q], p[q], body, FAST_RSQRT)"
assert s.count(sp) == 1
open("/tmp/nb-s-rsqrt.cl", "w").write(s.replace(sp, "INTERACT(acc[q], p[q], body, rsqrt)"))
un = "INTERACT(acc[b], p[b], q, FAST_RSQRT)"
assert s.count(un) == 1
open("/tmp/nb-u-rsqrt.cl", "w").write(s.replace(un, "INTERACT(acc[b], p[b], q, rsqrt)"))
PY
ND="-DDT=0.01f -DSOFTENING2=0.01f -cl-fast-relaxed-math"
NB=kernels/workloads/nbody.cl
n=100000
t() { /tmp/cl-tune nbody "$@" | sed "s|^|$1\t|" | tee -a $R/nbody.tsv; }
t $NB nbody_tiled_local "-DTILE=256 $ND" $n 100096 256 5
t $NB nbody_tiled_local "-DTILE=256 $ND -cl-denorms-are-zero" $n 100096 256 5
t /tmp/nb-t-u4.cl nbody_tiled_local "-DTILE=256 $ND" $n 100096 256 5
t /tmp/nb-t-u16.cl nbody_tiled_local "-DTILE=256 $ND" $n 100096 256 5
for cfg in "64 4 2 64" "64 8 2 64" "32 8 2 32" "128 2 2 128" "64 4 4 64"; do
  set -- $cfg
  per=$(( $1 * $3 )); g=$(( (n + per - 1) / per * $1 * $2 ))
  for src in $NB /tmp/nb-s-rsqrt.cl; do
    t $src nbody_split "-DBODIES=$1 -DSLICES=$2 -DPER_ITEM=$3 -DTILE=$4 $ND" $n $g $(( $1 * $2 )) 5
  done
done
for src in $NB /tmp/nb-u-rsqrt.cl; do
  t $src nbody_unrolled "-DTILE=256 -DPER_ITEM=1 $ND" $n 100096 256 5
  t $src nbody_unrolled "-DTILE=128 -DPER_ITEM=2 $ND" $n 50048 128 5
done
stamp nbody-tune
timeout 150 $B nbody --device 1:0 --bodies 100000 --repeat 3 --fast-math 2>&1 | tee $R/nbody-ladder-fast.txt
stamp nbody-ladder
