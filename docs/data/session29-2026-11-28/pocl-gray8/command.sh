#!/bin/bash
# Final cold A/B (issue 25, gray8 median5x5 forgetful programs), from the repository root, this 2-core machine (PoCL 3.1).
# before: HEAD's kernels (git archive HEAD kernels | tar -x -C /tmp/before); after: this tree's kernels; both via --kernel-dir.
set -u
D=docs/data/session29-2026-11-28/pocl-gray8
V=forgetful_w16,forgetful_u16x2,forgetful_u16x2_ptx,forgetful
for r in 1 2; do
  for arm in before after; do
    k=$([ $arm = before ] && echo /tmp/before/kernels || echo /work/main/kernels)
    echo "# round $r $arm"
    python3 scripts/cold-build-times.py --device cpu --filter median5x5 --variant $V --format gray8 --kernel-dir "$k" 2>&1
  done
done > $D/cold-ab.txt
