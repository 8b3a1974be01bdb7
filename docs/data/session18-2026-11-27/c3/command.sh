#!/bin/bash
# session 18 call 3 (H100): gaussian5x5 stream after the moved strip's fix and with 8 rows in rgba8888,
# checked and timed; prepare with children that stay (empty cache, then again); every best rung beside
# NPP with the L2 overwritten before every launch (--flush: DRAM-bound figures).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
D="--device 1:0"
chk() { # filter variant format border size transfer-or-dash [param]
  local xa=(); [ "$6" = "-" ] || xa=("$6"); local pa=(); [ -n "$7" ] && pa=(--param "$7")
  echo "$* $($B run $D --filter $1 --variant $2 --format $3 --border $4 --synthetic $5 "${xa[@]}" "${pa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)' | head -1)"
}
{
for sz in 1x1 33x6 34x5 35x9 41x7 203x97 6719x4481; do for x in - --transfer=zero_copy --tile=512x256; do
  for fmt in gray8 rgba8888; do for b in replicate constant reflect101; do chk gaussian5x5 stream $fmt $b $sz $x; done; done
done; done
for s in 0.45 2.5 10; do chk gaussian5x5 stream rgba8888 reflect101 203x97 - sigma=$s; chk gaussian5x5 stream gray8 replicate 35x9 - sigma=$s; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max' $R/checks.txt | head
grep -oE 'max diff [0-9]+' $R/checks.txt | sort | uniq -c
stamp checks
# prepare: the whole catalogue, gray8 and rgba8888, 16 jobs, empty cache; then again
mkdir -p /tmp/pc && export CUDA_CACHE_DISABLE=1
$B prepare $D --jobs 16 --cache-dir /tmp/pc --json > $R/prepare-empty.json 2> $R/prepare-empty.err
$B prepare $D --jobs 16 --cache-dir /tmp/pc --json > $R/prepare-again.json 2> $R/prepare-again.err
python3 - $R <<'PY' | tee $R/prepare.txt
import json, sys
for name in ("prepare-empty", "prepare-again"):
    try:
        d = json.load(open(f"{sys.argv[1]}/{name}.json"))
    except Exception as e:
        print(name, "no json", e); continue
    keys = ["jobs", "wall_s", "programs", "built", "already_cached", "failed", "children_started", "child_s_sum", "build_s_sum"]
    print(name, {k: d.get(k) for k in keys})
    rows = sorted(d["results"], key=lambda r: -(r.get("build_ms") or 0))
    for r in rows[:8]:
        print("   ", r["filter"], r["variant"], r["format"], r.get("build_ms"), r.get("origin"), r.get("error") or "")
PY
stamp prepare
bash scripts/npp-compare.sh $B $R/npp $D --only gaussian5x5 > $R/npp-log.txt 2>&1
bash scripts/npp-compare.sh $B $R/npp-flush $D --flush > $R/npp-flush-log.txt 2>&1
rm -f $R/npp/*.txt $R/npp-flush/*.txt
python3 - $R <<'PY' | tee $R/copy-share.tsv
import json, glob, sys, os
print("run\tfilter\tformat\tvariant\tkernel_ms\tpct_of_copy\tcopy_gbps")
for run in ("npp", "npp-flush"):
    for p in sorted(glob.glob(f"{sys.argv[1]}/{run}/*.json")):
        d = json.load(open(p))
        b = 2 * d["image"]["width"] * d["image"]["height"] * (4 if d["image"]["format"] == "rgba8888" else 1)
        for r in d["results"]:
            ms = (r.get("kernel_ms") or {}).get("median")
            if ms and r["variant"] not in ("opencv_cpu", "opencv_tapi"):
                print(f'{run}\t{r["filter"]}\t{d["image"]["format"]}\t{r["variant"]}\t{ms:.4f}\t{100 * b / ms / 1e6 / d["copy_gbps"]:.1f}\t{d["copy_gbps"]:.0f}')
PY
cat $R/npp/npp.md; echo; cat $R/npp-flush/npp.md
stamp npp
record_pack
