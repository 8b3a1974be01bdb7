#!/bin/bash
# device call 5 (last): stream rungs masked vs byte-by-byte ends, NPP beside; median rgba8888 shapes (short)
cd "$(dirname "$0")/../.."
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda > $OUT/setup.log 2>&1
B=build-dev/filter-bench
ls -la $B || exit 1
git log --oneline -1 > $OUT/commit.txt
scripts/npp-compare.sh $B $OUT/npp --device 1:0 --only 'erode|dilate|box|sobel' > $OUT/npp.log 2>&1
cat $OUT/npp/npp.md
FWB_EXTRA_BUILD_OPTIONS="-DS3_MASKED_EDGES=0" scripts/npp-compare.sh $B $OUT/npp-ends-gathered --device 1:0 --only 'stream' > $OUT/npp2.log 2>&1
cat $OUT/npp-ends-gathered/npp.md
for f in erode sobel box; do for fmt in gray8 rgba8888; do
  p=(); [ $f = sobel ] && p=(--param output=0) || p=(--param radius=1)
  for l in 64x2 16x8; do
    t=$($B run --filter $f --variant stream --format $fmt --border replicate --synthetic 6720x4480 "${p[@]}" --local $l --repeat 20 --no-cpu-single --no-baselines --device 1:0 --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); r=[x for x in d['results'] if x['variant']=='stream'][0]; print(r['kernel_ms']['median'])" 2>&1)
    echo "$f $fmt local $l $t" >> $OUT/shapes.txt
  done; done; done
cat $OUT/shapes.txt
timeout 130 scripts/median-shape-ab.sh $OUT/median $B --device 1:0 --rounds 1 --jobs 8 --size 3360x2240 --variant sorted_columns,forgetful_w16 > $OUT/median.log 2>&1
cat $OUT/median/summary.tsv 2>/dev/null; tail -3 $OUT/median.log
