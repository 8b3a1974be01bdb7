#!/bin/bash
# session 17 call 1: the probe with the catalogue kernel (PTX, registers, SASS counts); then setup and the median A/B
cd "$(dirname "$0")/.."
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash .bench/st/run6.sh 2>&1 | tee $OUT/probe.txt | cut -c1-160
(cd $OUT && tar czf ptx.tgz ptx && rm -rf ptx)
t0=$(date +%s)
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda
echo "setup $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
bash scripts/median-shape-ab.sh /tmp/ab build-dev/filter-bench --device 1:0 --jobs 8 --rounds 2 > $OUT/ab-log.txt 2>&1
echo "ab $(( $(date +%s) - t0 )) s"
(cd /tmp/ab && tar czf $OUT/ab.tgz *.tsv *.err *.txt 2>/dev/null)
cat /tmp/ab/summary.tsv; for w in old step strip; do echo "== cold $w"; cat /tmp/ab/cold-$w.tsv; done
tail -5 $OUT/ab-log.txt
