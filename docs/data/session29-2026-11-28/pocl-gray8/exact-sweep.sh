#!/bin/bash
# Bit-exact sweep of median5x5's gray8 forgetful programs (this tree's built-in kernels after ninja -C build filter-bench):
# widths 1..40 (height cycling 1, 9, 17, 3: partial strips of BLOCK_H 8) and odd sizes, every border (each run ~1 s here;
# tst_median's block-edge rows add every width 1..40 at heights 1, 3, 9 and 17). Prints one line per failure and a count.
n=0; bad=0
for v in forgetful forgetful_w16 forgetful_u16x2 forgetful_u16x2_ptx; do
  for b in reflect101 replicate constant; do
    for s in $(for w in $(seq 1 40); do hs=(1 9 17 3); echo ${w}x${hs[$((w % 4))]}; done) 67x45 259x194 641x479 33x17; do
      n=$((n+1))
      ./build/filter-bench run --device cpu --filter median5x5 --variant $v --format gray8 --border $b --synthetic $s --check --repeat 1 --no-cpu-single --no-baselines > /dev/null 2>&1 || { bad=$((bad+1)); echo "FAIL $v $b $s"; }
    done
  done
done
echo "$n runs, $bad failures"
