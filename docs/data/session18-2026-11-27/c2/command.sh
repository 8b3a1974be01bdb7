#!/bin/bash
# session 18 call 2 (H100): gaussian5x5's stream rung (new) checked on the GPU and its block and
# work-group shapes timed beside strips_half2; box3x3_interior stream (frame rows not stored) checked;
# every best rung beside NPP in one command.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
D="--device 1:0"
chk() { # filter variant format border size transfer-or-dash [param]
  local xa=(); [ "$6" = "-" ] || xa=("$6"); local pa=(); [ -n "$7" ] && pa=(--param "$7")
  echo "$* $($B run $D --filter $1 --variant $2 --format $3 --border $4 --synthetic $5 "${xa[@]}" "${pa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)' | head -1)"
}
{
for sz in 1x1 7x5 33x6 203x97 6719x4481; do for x in - --transfer=zero_copy --tile=512x256; do
  for fmt in gray8 rgba8888; do for b in replicate constant reflect101; do
    chk gaussian5x5 stream $fmt $b $sz $x
  done; chk box3x3_interior stream $fmt replicate $sz $x; done
done; done
for f in "box stream radius=1" "erode stream radius=1" "sobel stream output=0" "sobel stream output=2"; do set -- $f
  for fmt in gray8 rgba8888; do for sz in 33x6 6719x4481; do chk $1 $2 $fmt reflect101 $sz - $3; done; done; done
chk gaussian5x5 stream gray8 reflect101 203x97 - sigma=2.5
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max' $R/checks.txt | head
grep -oE 'max diff [0-9]+' $R/checks.txt | sort | uniq -c
stamp checks
# gaussian5x5 stream: blocks (pixels) and work-groups, beside strips_half2
for fmt in gray8 rgba8888; do
  if [ $fmt = gray8 ]; then blocks="16x4 16x8 16x2"; else blocks="4x4 4x8 4x2"; fi
  for bl in $blocks; do for l in 16x8 32x4 64x2 16x16; do
    $B run $D --filter gaussian5x5 --variant stream --format $fmt --border replicate --synthetic 6720x4480 --block $bl --local $l --repeat 20 --no-cpu-single --no-baselines --json > $R/g-$fmt-$bl-$l.json 2>&1
  done; done
  $B run $D --filter gaussian5x5 --variant strips_half2 --format $fmt --border replicate --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --json > $R/g-$fmt-half2.json 2>&1
done
python3 - $R <<'PY' | tee $R/shapes.txt
import json, glob, sys, os
for p in sorted(glob.glob(sys.argv[1] + "/g-*.json")):
    try:
        d = json.load(open(p))
    except Exception as e:
        print(os.path.basename(p), "no json", open(p).read()[:200].replace("\n", " ")); continue
    for r in d["results"]:
        k = r.get("kernel_ms") or {}
        b = 2 * d["image"]["width"] * d["image"]["height"] * (4 if d["image"]["format"] == "rgba8888" else 1)
        ms = k.get("median")
        print(f'{os.path.basename(p):34s} {r["variant"]:14s} {ms} ms  {100 * b / ms / 1e6 / d["copy_gbps"] if ms else 0:.1f}% of copy ({d["copy_gbps"]:.0f})  build {r.get("build_ms")} ms  {r.get("error") or ""}')
PY
stamp shapes
bash scripts/npp-compare.sh $B $R/npp $D > $R/npp-log.txt 2>&1
rm -f $R/npp/*.txt
python3 - $R <<'PY' | tee $R/copy-share.tsv
import json, glob, sys, os
print("run\tfilter\tformat\tvariant\tkernel_ms\tpct_of_copy\tcopy_gbps")
for run in ("npp",):
    for p in sorted(glob.glob(f"{sys.argv[1]}/{run}/*.json")):
        d = json.load(open(p))
        b = 2 * d["image"]["width"] * d["image"]["height"] * (4 if d["image"]["format"] == "rgba8888" else 1)
        for r in d["results"]:
            ms = (r.get("kernel_ms") or {}).get("median")
            if ms and r["variant"] not in ("opencv_cpu", "opencv_tapi"):
                print(f'{run}\t{r["filter"]}\t{d["image"]["format"]}\t{r["variant"]}\t{ms:.4f}\t{100 * b / ms / 1e6 / d["copy_gbps"]:.1f}\t{d["copy_gbps"]:.0f}')
PY
cat $R/npp/npp.md
stamp npp
record_pack
