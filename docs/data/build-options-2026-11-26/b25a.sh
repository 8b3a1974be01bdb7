# issue 25 experiment 1: cold builds of the forgetful medians with the step loop rolled (B) and one rgba copy (C)
set -u
t0=$(date +%s)
bash .bench/setup.sh
echo "setup $(( $(date +%s) - t0 )) s"
. .bench/env.sh
B=$PWD/build-dev/filter-bench
ls -la $B || exit 1
for k in A B C; do rm -rf /tmp/k$k; cp -r kernels /tmp/k$k; done
sed -i 's/^#define MF_ROLL_STEPS 0/#define MF_ROLL_STEPS 1/' /tmp/kB/median.cl /tmp/kC/median.cl
sed -i 's/^#define MF_INSIDE_COPY 1/#define MF_INSIDE_COPY 0/' /tmp/kC/median.cl
grep -c "define MF_ROLL_STEPS 1" /tmp/k*/median.cl
for k in A B C; do
  python3 scripts/cold-build-times.py --bench $B --device 1:0 --format gray8,rgba8888 --filter median3x3,median5x5 \
    --variant forgetful,forgetful_w16,forgetful_u16x2,forgetful_u16x2_ptx --kernel-dir /tmp/k$k --jobs 16 > $OUT/cold-$k.tsv 2>$OUT/cold-$k.err
  echo "cold $k $(( $(date +%s) - t0 )) s"
done
# warm the program cache for the kernel-time runs (discarded round)
for k in A B C; do
  ( for f in rgba8888 gray8; do $B run --device 1:0 --filter median3x3,median5x5 --variant all --format $f --synthetic 256x128 \
      --repeat 1 --warmup 0 --no-cpu-single --no-baselines --no-tuned --kernel-dir /tmp/k$k --cache-dir /tmp/pc > /tmp/warm-$k-$f.txt 2>&1; done ) &
done
wait
echo "warm $(( $(date +%s) - t0 )) s"
tail -3 /tmp/warm-*.txt > $OUT/warm.txt
tar czf $OUT/kdirs.tgz -C /tmp kA kB kC pc 2>/dev/null; ls -la $OUT
