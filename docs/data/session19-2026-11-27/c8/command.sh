#!/bin/bash
# session 19 call 8 (H100): the nbody rungs as filter-bench runs them with the final defines (call 7's
# ladder did not finish within its time limit), one variant per command.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c8 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c8; mkdir -p $R; cp /tmp/c8/* $R/ 2>/dev/null
for v in split_sum tiled_local; do
  timeout 150 $B nbody --device 1:0 --bodies 100000 --repeat 3 --fast-math --variant $v > $R/nbody-$v-fast.txt 2>&1
  cat $R/nbody-$v-fast.txt
done
stamp nbody
