#!/bin/bash
# session 19 call 7 (H100): why split_sum's 512-item groups ran in cl-tune but not in filter-bench
# (CL_KERNEL_WORK_GROUP_SIZE of both builds); the nbody ladder with split_sum's 256-item default; the
# kept records of call 6 again, as one archive (call 6's were too many files to come back).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c7 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c7; mkdir -p $R; cp /tmp/c7/* $R/ 2>/dev/null
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 scripts/tools/cl-tune.cpp -lOpenCL -o /tmp/cl-tune 2>/dev/null
for sl in 8 4; do
  /tmp/cl-tune nbody kernels/workloads/nbody.cl nbody_split "-DBODIES=64 -DSLICES=$sl -DPER_ITEM=2 -DTILE=64 -DDT=0.01f -DSOFTENING2=0.01f -cl-fast-relaxed-math" 100000 $(( (100000 + 127) / 128 * 64 * sl )) $(( 64 * sl )) 5 2>&1 | tee -a $R/nbody.tsv
  /tmp/cl-tune nbody kernels/workloads/nbody.cl nbody_split "-DBODIES=64 -DSLICES=$sl -DPER_ITEM=2 -DTILE=64 -DDT=0.01f -DSOFTENING2=0.01f" 100000 $(( (100000 + 127) / 128 * 64 * sl )) $(( 64 * sl )) 5 2>&1 | tee -a $R/nbody.tsv
done
timeout 100 $B nbody --device 1:0 --bodies 100000 --repeat 3 --fast-math 2>&1 | tee $R/nbody-ladder-fast.txt
stamp nbody
mkdir -p /tmp/records
timeout 200 scripts/record-measurements.sh $B /tmp/records --device 1:0 --filters transpose,box3x3_interior,gaussian5x5 > $R/records.log 2>&1
tar czf $OUT/records.tgz -C /tmp/records .
stamp records
