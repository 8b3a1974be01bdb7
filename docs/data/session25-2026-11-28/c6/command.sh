#!/bin/bash
# session 25 call 6 (H200): issue 27's other targets on this device, on the landed tree: the sigma-2 Gaussian
# against the best 5x5 (which this session made 20-26% faster), the recursive Gaussian, the Compute Lab's matmul
# against cuBLAS and N-body against the FP32 peak; a device copy at the picture's sizes (the gray8 bound).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c6 -DCUDAToolkit_ROOT=/usr/local/cuda
row() { record_time_row "$@" --device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --check; }
for round in 1 2; do
  for f in gray8 rgba8888; do for fl in "" --flush-cache; do
    row "sigma2-tiled_half2-$f$fl" --filter gaussian --param sigma=2 --variant tiled_half2 --format $f $fl
    row "g5-stream-$f$fl" --filter gaussian5x5 --variant stream --format $f $fl
  done; done
done
for f in gray8 rgba8888; do for v in blocked_transposed blocked_seg64; do
  row "recursive-$v-$f" --filter recursive_gaussian --variant $v --format $f
done; done
stamp gaussians
timeout 60 python3 - <<'PY' > $R/copy-size.txt 2>&1
import cupy as cp
for mb in (30.1, 60.2, 120.4, 268.4):
    n = int(mb * 1e6) // 16 * 16
    a = cp.zeros(n, dtype=cp.uint8); b = cp.empty_like(a)
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for i in range(25):
        s.record(); cp.copyto(b, a); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    ts = sorted(ts[5:]); m = ts[len(ts)//2]
    print("copy %.1f MB: %.4f ms, %.0f GB/s (read + write)" % (n/1e6, m, 2*n/m/1e6))
PY
cat $R/copy-size.txt
stamp copy
for v in warp_tiled register_blocked_padded; do
  timeout 100 $B matmul --device 1:0 --n 4096 --variant $v --repeat 5 2>&1 | tee -a $R/matmul.txt
done
timeout 60 python3 - <<'PY' 2>&1 | tee -a $R/cublas.txt
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
timeout 120 $B nbody --device 1:0 --bodies 100000 --repeat 3 --fast-math --variant split_sum 2>&1 | tee $R/nbody.txt
stamp nbody
record_pack
