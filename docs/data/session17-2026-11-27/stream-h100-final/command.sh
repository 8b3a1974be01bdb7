#!/bin/bash
# session 17 last call (H100): every 3x3 rung beside NPP after the stream fix and Sobel per output; GPU checks of Sobel outputs
cd "$(dirname "$0")/.."
t0=$(date +%s)
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda
echo "setup $(( $(date +%s) - t0 )) s"
B=$PWD/build-dev/filter-bench
nvidia-smi --query-gpu=name --format=csv,noheader
for o in 0 1 2; do for fmt in gray8 rgba8888; do for b in replicate constant reflect101; do for sz in 33x6 203x97 6719x4481; do
  r=$($B run --device 1:0 --filter sobel --variant stream --param output=$o --format $fmt --border $b --synthetic $sz --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE "ok \(max diff 0\)" | head -1)
  [ -n "$r" ] && echo OK || echo "FAIL $o $fmt $b $sz"; done; done; done; done > /tmp/chk.txt
echo "sobel checks: $(grep -c OK /tmp/chk.txt) of $(wc -l < /tmp/chk.txt)"; grep FAIL /tmp/chk.txt
bash scripts/npp-compare.sh $B /tmp/npp --device 1:0 --only 'box|erode|dilate|sobel' > /tmp/npp-log.txt 2>&1
cat /tmp/npp/npp.md
(cd /tmp/npp && tar czf $OUT/npp.tgz *.json npp.md)

echo "all $(( $(date +%s) - t0 )) s"
