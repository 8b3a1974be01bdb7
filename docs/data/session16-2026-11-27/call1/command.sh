#!/bin/bash
# device call 1: stencil shape sweep + catalogue rungs and NPP in the same session
cd "$(dirname "$0")/../.."
source .bench/setup.sh -DCUDAToolkit_ROOT=/usr/local/cuda > $OUT/setup.log 2>&1 &
bp=$!
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
g++ -O2 -std=c++20 .bench/st/st.cpp -o /tmp/st -I/usr/local/cuda/include -lOpenCL || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
/tmp/st 1 0 .bench/st/st.cl .bench/st/cfg2.txt > $OUT/sweep.txt 2>&1
wait $bp
ls build-dev/filter-bench && scripts/npp-compare.sh build-dev/filter-bench $OUT/npp --device 1:0 --only 'erode|dilate|box|sobel' > $OUT/npp.log 2>&1
cat $OUT/npp/npp.md
sort -t'(' -k2 -n $OUT/sweep.txt | head -5
