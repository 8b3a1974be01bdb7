#!/bin/bash
# session 19 call 2 (H100): the Compute Lab's new rungs over their tile and slice defines
# (scripts/tools/cl-tune.cpp), with register_blocked, tiled_local and cuBLAS beside them; registers of the
# matmul kernels (ptxas -v on the PTX); the sigma-2 Gaussian strips with its row loop rolled (--kernel-dir).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
export PATH=/usr/local/cuda/bin:$PATH
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 scripts/tools/cl-tune.cpp -lOpenCL -o /tmp/cl-tune 2>/dev/null
M=kernels/workloads/matmul.cl
regs() { ptxas -arch=sm_90 -v "$1" -o /tmp/x.cubin 2>&1 | grep -E "registers|spill" | tr '\n' ' '; }
for round in 1 2; do
  CL_TUNE_BINARY=/tmp/rb.ptx /tmp/cl-tune matmul $M matmul_register_blocked "-DTSM=128 -DTSN=128 -DTSK=16 -DWPTM=8 -DWPTN=8" 4096 512 512 16 16 5 | tee -a $R/matmul.tsv
  for cfg in "BM=128 BN=128 BK=16 WM=64 WN=32 TM=8 TN=8 PAD=4" "BM=128 BN=128 BK=8 WM=64 WN=32 TM=8 TN=8 PAD=4" \
             "BM=128 BN=128 BK=16 WM=32 WN=64 TM=8 TN=8 PAD=4" "BM=128 BN=64 BK=16 WM=64 WN=32 TM=8 TN=8 PAD=4" \
             "BM=64 BN=128 BK=16 WM=32 WN=64 TM=8 TN=8 PAD=4" "BM=128 BN=256 BK=8 WM=64 WN=64 TM=8 TN=16 PAD=4" \
             "BM=128 BN=128 BK=16 WM=32 WN=32 TM=4 TN=8 PAD=4" "BM=128 BN=128 BK=16 WM=64 WN=32 TM=8 TN=8 PAD=0" \
             "BM=256 BN=128 BK=8 WM=64 WN=64 TM=16 TN=8 PAD=4"; do
    eval "$cfg"
    defs=$(for x in $cfg; do printf -- "-D%s " $x; done)
    th=$(( (BM / WM) * (BN / WN) * 32 ))
    CL_TUNE_BINARY=/tmp/wt.ptx /tmp/cl-tune matmul $M matmul_warp_tiled "$defs" 4096 $((4096 / BN * th)) $((4096 / BM)) $th 1 5 | tee -a $R/matmul.tsv
    [ $round = 1 ] && echo "$cfg: $(regs /tmp/wt.ptx)" | tee -a $R/ptxas.txt
  done
done
echo "register_blocked TSK=16: $(regs /tmp/rb.ptx)" | tee -a $R/ptxas.txt
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
stamp matmul
NB=kernels/workloads/nbody.cl
ND="-DDT=0.01f -DSOFTENING2=0.01f"
for n in 100000 200000; do
  /tmp/cl-tune nbody $NB nbody_tiled_local "-DTILE=256 $ND -cl-fast-relaxed-math" $n $(( (n + 255) / 256 * 256 )) 256 5 | tee -a $R/nbody.tsv
  for cfg in "64 4 4 64" "32 8 4 32" "64 4 2 64" "128 2 2 128" "64 4 1 64" "32 8 2 32" "128 2 4 128" "64 2 4 64" "32 4 4 32" "32 8 1 32" "64 8 2 64"; do
    set -- $cfg
    per=$(( $1 * $3 )); g=$(( (n + per - 1) / per * $1 * $2 ))
    /tmp/cl-tune nbody $NB nbody_split "-DBODIES=$1 -DSLICES=$2 -DPER_ITEM=$3 -DTILE=$4 $ND -cl-fast-relaxed-math" $n $g $(( $1 * $2 )) 5 | tee -a $R/nbody.tsv
  done
  /tmp/cl-tune nbody $NB nbody_split "-DBODIES=64 -DSLICES=4 -DPER_ITEM=4 -DTILE=64 $ND" $n $(( (n + 255) / 256 * 256 )) 256 5 | tee -a $R/nbody.tsv
done
stamp nbody
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned"
for u in 0 1 2 4; do
  kd=(); [ $u != 0 ] && { mkdir -p /tmp/kd$u; python3 - $u <<'PY'
import sys
u = sys.argv[1]
s = open("kernels/shared/separable_strips.clh").read()
key = "#pragma unroll\n    for (int i = 0; i < BLOCK_H + 2 * SS_R; ++i) {\n        float b[SS_N];"
assert s.count(key) == 1
open("/tmp/kd%s/separable_strips.clh" % u, "w").write(s.replace(key, key.replace("#pragma unroll", "#pragma unroll " + u)))
PY
  kd=(--kernel-dir /tmp/kd$u); }
  for spec in "gray8 16x64" "gray8 16x32" "gray8 8x64" "gray8 4x64" "rgba8888 4x32" "rgba8888 2x64"; do
    set -- $spec
    echo "== unroll $u $1 block $2: $($B run --filter gaussian --variant strips --format $1 $D --block $2 --check "${kd[@]}" 2>&1 | grep -E ' strips ' | tr -s ' ')" | tee -a $R/gauss-rolled.txt
  done
done
rm -rf /tmp/cc2 && mkdir -p /tmp/cc2
$B run --device 1:0 --filter gaussian --variant strips --format gray8 --synthetic 64x64 --no-cpu-single --no-baselines --cache-dir /tmp/cc2 > /dev/null 2>&1
for e in $(find /tmp/cc2 -type f -size +2k); do
  python3 - "$e" /tmp/x.ptx <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
i = d.find(b"//\n// Generated")
if i < 0:
    i = d.find(b".version")
j = d.find(b"\0", i)
open(sys.argv[2], "wb").write(d[i:j if j > 0 else len(d)])
PY
  echo "== gaussian strips gray8 sigma 2: $(regs /tmp/x.ptx) SASS $(cuobjdump -sass /tmp/x.cubin | grep -cE '^\s+/\*[0-9a-f]+\*/')" | tee -a $R/ptxas.txt
done
stamp gaussian
record_pack
