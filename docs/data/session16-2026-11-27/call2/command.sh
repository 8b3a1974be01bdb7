#!/bin/bash
# device call 2: the stream rungs in the catalogue: correctness on the GPU, NPP beside them, shapes
cd "$(dirname "$0")/../.."
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda > $OUT/setup.log 2>&1
B=build-dev/filter-bench
ls -la $B || exit 1
git log --oneline -1 > $OUT/commit.txt; git status --short >> $OUT/commit.txt
# 1. correctness on the GPU
: > $OUT/checks.txt
for f in erode dilate box sobel; do for b in reflect101 replicate constant; do for fmt in gray8 rgba8888; do
  for sz in 1x1 5x3 16x4 17x9 33x17 67x45 203x97 1921x1081 6719x4481; do
    p=(); [ $f = sobel ] || p=(--param radius=1)
    out=$($B run --filter $f --variant stream --format $fmt --border $b --synthetic $sz "${p[@]}" --check --repeat 1 --no-cpu-single --device 1:0 2>&1)
    r=$(echo "$out" | grep -E "^$f +stream" | grep -o "ok (max diff [0-9]*)\|MISMATCH.*\|unavailable.*" | head -1)
    echo "$f $b $fmt $sz: ${r:-NO RESULT $(echo "$out" | tail -2)}" >> $OUT/checks.txt
  done; done; done; done
for o in 1 2; do for fmt in gray8 rgba8888; do for sz in 67x45 6719x4481; do
  out=$($B run --filter sobel --variant stream --format $fmt --param output=$o --synthetic $sz --check --repeat 1 --no-cpu-single --device 1:0 2>&1)
  echo "sobel output=$o $fmt $sz: $(echo "$out" | grep -E "^sobel +stream" | grep -o "ok (max diff [0-9]*)\|MISMATCH.*")" >> $OUT/checks.txt
done; done; done
grep -c ": ok" $OUT/checks.txt; grep -v ": ok" $OUT/checks.txt | head -20
# 2. NPP beside every rung, same command
scripts/npp-compare.sh $B $OUT/npp --device 1:0 --only 'erode|dilate|box|sobel' > $OUT/npp.log 2>&1
cat $OUT/npp/npp.md
# 3. shapes
for f in erode sobel; do for fmt in gray8 rgba8888; do
  p=(); [ $f = sobel ] && p=(--param output=0) || p=(--param radius=1)
  for blk in 16x2 16x4 16x8; do for l in 64x2 32x4 32x8 128x1 16x8 64x4; do
    [ $fmt = rgba8888 ] && bb=4x${blk#16x} || bb=$blk
    t=$($B run --filter $f --variant stream --format $fmt --border replicate --synthetic 6720x4480 "${p[@]}" --block $bb --local $l --repeat 20 --no-cpu-single --device 1:0 --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); r=[x for x in d['results'] if x['variant']=='stream'][0]; print(r['kernel_ms']['median'])" 2>&1)
    echo "$f $fmt block $bb local $l $t" >> $OUT/shapes.txt
  done; done; done; done
sort -k7 -n $OUT/shapes.txt | head -12
