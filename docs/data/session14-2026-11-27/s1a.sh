# session 14, call A: build, NPP rows for box/erode/dilate/sobel (packed rungs timed), packed checks on odd sizes, heavy filters for issue 28
set -u
t0=$(date +%s)
mv .devdeps/window.tar.xz /tmp/ 2>/dev/null
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda
. .bench/env.sh
B=$PWD/build-dev/filter-bench
R=/tmp/rA; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1; git log -1 --format=%H > $R/commit.txt 2>/dev/null
echo "setup $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
bash scripts/npp-compare.sh $B $R/npp --device 1:0 --only 'box|erode|dilate|sobel' > $R/npp-log.txt 2>&1
cat $R/npp/npp.md
echo "npp $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
for f in box erode dilate; do for s in 1x1 5x3 17x9 67x45 203x97 1921x1081 6719x4481; do for bd in reflect101 replicate constant; do
  $B run --filter $f --variant packed --format gray8 --synthetic $s --param radius=1 --border $bd --repeat 1 --warmup 0 --no-cpu-single --check --device 1:0 > /tmp/m.txt 2>&1 || { echo "FAIL $f $s $bd"; tail -3 /tmp/m.txt; }
done; done; done 2>&1 | tee $R/packed-checks.txt
echo "checks $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
for spec in "box naive radius=50" "box naive radius=20" "gaussian separable sigma=50" "median5x5 forgetful_w16 -" "recursive_gaussian blocked sigma=8" "median5x5 naive_sort -"; do
  read -r f v p <<<"$spec"; args=(run --filter $f --variant $v --format rgba8888 --synthetic 4000x3000 --repeat 3 --no-cpu-single --device 1:0)
  [ "$p" != - ] && args+=(--param $p)
  $B "${args[@]}" --json-file $R/heavy-$f-$v-${p//=/}.json --overwrite > /dev/null 2>&1
  python3 -c "import json,sys;d=json.load(open(sys.argv[1]));r=d['results'][0];print(sys.argv[2], r.get('kernel_ms',{}).get('median'), r.get('error',''))" $R/heavy-$f-$v-${p//=/}.json "$spec" | tee -a $R/heavy.txt
done
echo "done $(( $(date +%s) - t0 )) s" | tee -a $R/times.txt
tar czf $OUT/rA.tgz -C /tmp rA
