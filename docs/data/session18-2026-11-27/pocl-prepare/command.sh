#!/bin/bash
# session 18, this 2-core development machine (PoCL 3.1, machine otherwise idle): prepare of one layout
# with empty caches (PoCL's own and ours), children that stay.
for f in gray8 rgba8888; do
  rm -rf /tmp/pp-$f /tmp/pocl-$f && mkdir -p /tmp/pp-$f /tmp/pocl-$f
  POCL_CACHE_DIR=/tmp/pocl-$f ./build/filter-bench prepare --device 0:0 --format $f --jobs 2 --json --cache-dir /tmp/pp-$f > pocl-2core-$f.json
done
