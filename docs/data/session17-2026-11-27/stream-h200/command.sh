# device: NVIDIA H200 (the session was lent an H200 for this call), driver as the H100 host image; sobel checks 54 of 54 exact
#!/bin/bash
# session 17: Sobel's stream rung built per output (FWB_PARAM_OUTPUT), beside NPP; GPU checks of its outputs
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
bash scripts/npp-compare.sh $B /tmp/npp --device 1:0 --only 'sobel|erode stream|box stream' > /tmp/npp-log.txt 2>&1
cat /tmp/npp/npp.md
(cd /tmp/npp && tar czf $OUT/npp.tgz *.json npp.md)
$B run --device 1:0 --filter sobel --variant stream,strips --param output=2 --format gray8,rgba8888 --synthetic 6720x4480 --border replicate --repeat 20 --no-cpu-single --no-baselines 2>&1 | grep -E "^sobel" | cut -c1-120
echo "all $(( $(date +%s) - t0 )) s"
