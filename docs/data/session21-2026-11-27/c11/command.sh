#!/bin/bash
# (c10 stopped at its second shape: the harness needs a work-group no wider than its tile in bytes; here only such shapes.)
# session 21 call 11 (H100): a prototype of the sigma-2 Gaussian (gray8, replicate) with its row results in
# local memory instead of registers (scripts/stencil-probe/gauss_tile.cl, the harness st.cpp, op 4: within
# ±1 of a double-precision reference), tile widths, heights and work-group sizes; beside it, in the same
# call, the catalogue's strips_half2 through filter-bench. 6720x4480; one buffer pair and 8 rotated.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c11 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c11; mkdir -p $R
g++ -O2 -std=c++20 -I$PWD/.devdeps/sys/usr/include -I/usr/local/cuda/include scripts/stencil-probe/st.cpp -o /tmp/st -lOpenCL -L/usr/local/cuda/lib64 2>&1 | tail -3
I="-I$PWD/kernels/shared"
: > /tmp/cfg.txt
for c in "64 64 64" "64 32 64" "64 96 64" "64 128 64" "192 64 96" "192 64 192" "192 96 192" "320 48 160" "448 32 224" "448 32 448"; do
  set -- $c; echo "g_tw$1_th$2_ls$3 wrap \"-DTW=$1 -DTH=$2 -DLS=$3 $I\" $3 1 $2 $(( $1 / $3 )) 4" >> /tmp/cfg.txt
done
mkdir -p /tmp/ptx
DUMP=/tmp/ptx timeout 240 /tmp/st 1 0 scripts/stencil-probe/gauss_tile.cl /tmp/cfg.txt > $R/st.txt 2>&1; cat $R/st.txt
for p in g_tw64_th128_ls64 g_tw192_th64_ls192; do
  tr -d '\0' < /tmp/ptx/$p.ptx > /tmp/$p.ptx
  echo "$p: $(/usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/$p.ptx -o /dev/null 2>&1 | grep -E 'registers' | tail -1)" | tee -a $R/ptxas.txt
done
stamp harness
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check"
for fl in "" --flush-cache; do
  echo "strips_half2 $fl: $(timeout 90 $B run --filter gaussian --param sigma=2 --variant strips_half2 --format gray8 --border replicate $fl $D 2>&1 | grep -E 'strips_half2' | head -1)" | tee -a $R/catalogue.txt
done
stamp catalogue
