#!/bin/bash
# session 19 call 3 (H100): the Compute Lab ladders as filter-bench runs them (matmul n = 4096 with
# warp_tiled's BK=8; nbody at 100,000 and 200,000 bodies) beside cuBLAS; tiled_local's interaction and
# unrolling (scripts/tools/cl-tune.cpp on edited copies of nbody.cl); more warp_tiled shapes at BK=8;
# the kept records of the filters with session 18's rungs (scripts/record-measurements.sh).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 scripts/tools/cl-tune.cpp -lOpenCL -o /tmp/cl-tune 2>/dev/null
$B matmul --device 1:0 --n 4096 --variant all --repeat 5 > $R/matmul-ladder.txt 2>&1
stamp ladder
python3 - <<'PY' | tee -a $R/cublas.txt
import torch
torch.backends.cuda.matmul.allow_tf32 = False
n = 4096
a = torch.randn(n, n, device="cuda"); b = torch.randn(n, n, device="cuda")
for _ in range(3): a @ b
ts = []
for _ in range(20):
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    s.record(); a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
ts.sort(); ms = ts[len(ts)//2]
print("cublas fp32 n=%d %.4f ms %.1f GFLOPS (torch %s, tf32 off)" % (n, ms, 2*n**3/ms/1e6, torch.__version__))
PY
M=kernels/workloads/matmul.cl
for cfg in "BM=128 BN=128 BK=8 WM=64 WN=32 TM=8 TN=8 PAD=4" "BM=64 BN=128 BK=8 WM=32 WN=64 TM=8 TN=8 PAD=4" \
           "BM=128 BN=128 BK=8 WM=32 WN=64 TM=8 TN=8 PAD=4" "BM=128 BN=64 BK=8 WM=64 WN=32 TM=8 TN=8 PAD=4" \
           "BM=128 BN=128 BK=8 WM=64 WN=32 TM=8 TN=8 PAD=0"; do
  eval "$cfg"
  defs=$(for x in $cfg; do printf -- "-D%s " $x; done)
  th=$(( (BM / WM) * (BN / WN) * 32 ))
  for n in 4096 8192; do
    /tmp/cl-tune matmul $M matmul_warp_tiled "$defs" $n $((n / BN * th)) $((n / BM)) $th 1 5 | tee -a $R/matmul.tsv
  done
done
stamp matmul
$B nbody --device 1:0 --bodies 100000,200000 --repeat 3 > $R/nbody-ladder.txt 2>&1
$B nbody --device 1:0 --bodies 100000,200000 --repeat 3 --fast-math > $R/nbody-ladder-fast.txt 2>&1
stamp nbody-ladder
python3 - <<'PY'
s = open("kernels/workloads/nbody.cl").read()
old = "        for (int k = 0; k < TILE; ++k)\n            INTERACT(acc, p, tile[k], rsqrt)\n"
assert s.count(old) == 1
for name, pragma in (("a", ""), ("b", "#pragma unroll 8\n"), ("c", "#pragma unroll 32\n"), ("d", "#pragma unroll\n")):
    open("/tmp/nb-%s.cl" % name, "w").write(s.replace(old, pragma + "        for (int k = 0; k < TILE; ++k)\n            INTERACT_FMA(acc, p, tile[k], FAST_RSQRT)\n"))
PY
ND="-DDT=0.01f -DSOFTENING2=0.01f -cl-fast-relaxed-math"
for n in 100000 200000; do
  for t in 128 256; do
    g=$(( (n + t - 1) / t * t ))
    /tmp/cl-tune nbody kernels/workloads/nbody.cl nbody_tiled_local "-DTILE=$t $ND" $n $g $t 5 | sed 's/^/orig\t/' | tee -a $R/nbody.tsv
    for v in a b c d; do
      /tmp/cl-tune nbody /tmp/nb-$v.cl nbody_tiled_local "-DTILE=$t $ND" $n $g $t 5 | sed "s/^/$v\t/" | tee -a $R/nbody.tsv
    done
  done
done
stamp nbody
mkdir -p $R/records
scripts/record-measurements.sh $B $R/records --device 1:0 --filters transpose,box3x3_interior,gaussian5x5 > $R/records.log 2>&1
stamp records
record_pack
