#!/bin/bash
# session 19 call 6 (H100): the nbody ladder as filter-bench runs it with split_sum's new defines and
# rsqrt (100,000 and 200,000 bodies, fast math and not); the kept records of the filters with session
# 18's rungs (scripts/record-measurements.sh), written as they come.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c6; mkdir -p $R; cp /tmp/c6/* $R/ 2>/dev/null
timeout 120 $B nbody --device 1:0 --bodies 100000,200000 --repeat 3 --fast-math 2>&1 | tee $R/nbody-ladder-fast.txt
timeout 90 $B nbody --device 1:0 --bodies 100000 --repeat 3 --variant split_sum 2>&1 | tee $R/nbody-split-exact.txt
stamp nbody
mkdir -p $OUT/records
timeout 300 scripts/record-measurements.sh $B $OUT/records --device 1:0 --filters transpose,box3x3_interior,gaussian5x5 > $R/records.log 2>&1
stamp records
