#!/bin/bash
# The final A/B of session 29's PoCL change (issue 25: no program over 5 s cold), from the repository root, on
# the local 2-core machine (PoCL 3.1). The kernels before the change: HEAD's (git archive HEAD kernels), through
# --kernel-dir; after: this tree's kernels/, the same way (the other families' kernels are not in these programs).
set -u
OUT=docs/data/session29-2026-11-28/pocl
H=$(mktemp -d); git archive HEAD kernels | tar -x -C "$H"
MEDIAN=forgetful,forgetful_w16,forgetful_u16x2,forgetful_u16x2_ptx
# 1. Cold builds, one process each (scripts/cold-build-times.py: empty PoCL and program caches), two rounds, interleaved.
for r in 1 2; do
  for arm in before after; do
    k=$([ $arm = before ] && echo "$H/kernels" || echo kernels)
    echo "# round $r $arm"
    python3 scripts/cold-build-times.py --device cpu --filter median3x3,median5x5 --variant $MEDIAN --format rgba8888 --kernel-dir "$k" 2>&1
    python3 scripts/cold-build-times.py --device cpu --filter recursive_gaussian --variant batched_columns --format gray8,rgba8888 --kernel-dir "$k" 2>&1
  done
done > $OUT/cold-ab.txt
# 2. PoCL kernel times at 1920x1080 (kernel-times.py: --repeat 5, a warm cache), two rounds, interleaved.
for v in forgetful_u16x2 forgetful_u16x2_ptx forgetful_w16 forgetful; do
  python3 $OUT/kernel-times.py median5x5 $v rgba8888 2 before=kdir:$H/kernels after=kdir:kernels
done > $OUT/median-kernel-ab.txt 2>&1
for v in forgetful_u16x2 forgetful_u16x2_ptx forgetful_w16 forgetful; do
  python3 $OUT/kernel-times.py median3x3 $v rgba8888 1 before=kdir:$H/kernels after=kdir:kernels
done >> $OUT/median-kernel-ab.txt 2>&1
rm -rf "$H"
