#!/bin/bash
# session 20 call 5 (H100): GPU checks of what changed (gaussian5x5 strips rgba8888 with its row loop
# rolled; recursive_gaussian blocked_transposed at its 64x1 groups; nbody split_sum's 512-item groups at
# odd body counts), then every best rung beside NPP with the cache flushed before every launch.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c5 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c5; mkdir -p $R
D="--device 1:0"
chk() { # filter variant format border size transfer-or-dash [param]
  local xa=(); [ "$6" = "-" ] || xa=("$6"); local pa=(); [ -n "$7" ] && pa=(--param "$7")
  echo "$* $(timeout 60 $B run $D --filter $1 --variant $2 --format $3 --border $4 --synthetic $5 "${xa[@]}" "${pa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)' | head -1)"
}
{
for sz in 1x1 33x6 34x5 35x9 41x7 203x97 6719x4481; do for x in - --transfer=zero_copy --tile=512x256; do
  for b in replicate constant reflect101; do chk gaussian5x5 strips rgba8888 $b $sz $x; done
  for fmt in gray8 rgba8888; do chk recursive_gaussian blocked_transposed $fmt reflect101 $sz $x; done
done; done
for s in 0.5 2 8 30; do chk recursive_gaussian blocked_transposed gray8 replicate 203x97 - sigma=$s; chk recursive_gaussian blocked_transposed rgba8888 constant 6719x4481 - sigma=$s; done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max' $R/checks.txt | head
grep -oE 'max diff [0-9]+' $R/checks.txt | sort | uniq -c
for n in 1 33 1000 4097 100000; do timeout 60 $B nbody $D --bodies $n --steps 4 --repeat 1 --variant split_sum --fast-math 2>&1 | grep -E "^split_sum|worst" | head -2 | tr '\n' ' '; echo; done | tee $R/nbody-checks.txt
stamp checks
timeout 330 bash scripts/npp-compare.sh $B $R/npp-flush $D --flush > $R/npp-flush-log.txt 2>&1
rm -f $R/npp-flush/*.txt
python3 - $R <<'PY' | tee $R/copy-share.tsv
import json, glob, sys
print("filter\tformat\tvariant\tkernel_ms\tpct_of_copy\tcopy_gbps")
for p in sorted(glob.glob(f"{sys.argv[1]}/npp-flush/*.json")):
    d = json.load(open(p))
    b = 2 * d["image"]["width"] * d["image"]["height"] * (4 if d["image"]["format"] == "rgba8888" else 1)
    g = d.get("copy_gbps") or d.get("device", {}).get("copy_gbps") or 0
    for r in d["results"]:
        k = (r.get("kernel_ms") or {}).get("median")
        if k and g:
            print(f"{r['filter']}\t{r['format']}\t{r['variant']}\t{k:.4f}\t{100 * b / (k * 1e6) / g:.1f}\t{g:.0f}")
PY
cat $R/npp-flush/npp.md
stamp npp
tar czf $OUT/c5.tgz -C $OUT c5
