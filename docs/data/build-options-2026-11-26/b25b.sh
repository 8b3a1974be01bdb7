set -u
. .bench/env.sh
B=$PWD/build-dev/filter-bench
ls /tmp/pc | head -2 || echo NO CACHE
t0=$(date +%s); mkdir -p /tmp/res
for r in 1 2; do for f in rgba8888 gray8; do for k in A B C; do
  $B run --device 1:0 --filter median3x3,median5x5 --variant all --format $f --synthetic 6720x4480 --repeat 20 --warmup 3 \
     --no-cpu-single --no-baselines --no-tuned --check --kernel-dir /tmp/k$k --cache-dir /tmp/pc --json-file /tmp/res/speed-$k-$f-$r.json --overwrite > /tmp/res/speed-$k-$f-$r.txt 2>&1
  echo "$r $f $k $(( $(date +%s) - t0 )) s"
done; done; done
tar czf $OUT/speed.tgz -C /tmp res
