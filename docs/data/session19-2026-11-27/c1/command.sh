#!/bin/bash
# session 19 call 1 (H100): the recursive Gaussian's blocked rungs with the fused, reordered step (old
# kernel file through --kernel-dir, alternated), the sigma-2 Gaussian's strips over block shapes, and the
# Compute Lab's tile and slice sweeps with scripts/tools/cl-tune.cpp; cuBLAS FP32 beside them.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned"
mkdir -p /tmp/old && git show c7d62dc:kernels/recursive_gaussian/recursive_gaussian_blocked.cl > /tmp/old/recursive_gaussian_blocked.cl
for round in 1 2; do
  for f in gray8 rgba8888; do
    for side in old new; do
      kd=(); [ $side = old ] && kd=(--kernel-dir /tmp/old)
      $B run --filter recursive_gaussian --variant all --format $f $D --check "${kd[@]}" --json > $R/rg-$f-$side-$round.json 2> $R/rg-$f-$side-$round.err
      python3 - $R/rg-$f-$side-$round.json $f $side $round <<'PY' | tee -a $R/rg.tsv
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["variant"].startswith("blocked"):
        print("\t".join([sys.argv[2], sys.argv[3], sys.argv[4], r["variant"], "%.4f" % r["kernel_ms"]["median"], str(r.get("matches")), str(r.get("max_abs_diff"))]))
PY
    done
  done
done
stamp recursive
for f in gray8 rgba8888; do
  $B run --filter gaussian --variant all --format $f $D --check > $R/gauss-$f-all.txt 2>&1
  if [ $f = gray8 ]; then blocks="16x32 8x32 8x64 4x64 16x16 8x16 4x32 16x64"; else blocks="4x32 2x32 2x64 1x64 4x16 2x16 1x32"; fi
  for bl in $blocks; do
    for loc in auto 32x4 64x2 32x8; do
      echo "== $f block $bl local $loc: $($B run --filter gaussian --variant strips --format $f $D --block $bl --local $loc --check 2>&1 | grep -E ' strips ' | tr -s ' ')" | tee -a $R/gauss-blocks.txt
    done
  done
done
stamp gaussian
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 scripts/tools/cl-tune.cpp -lOpenCL -o /tmp/cl-tune 2>/dev/null
M=kernels/workloads/matmul.cl
for cfg in "TSM=128 TSN=128 TSK=8 WPTM=8 WPTN=8" "TSM=128 TSN=128 TSK=16 WPTM=8 WPTN=8" "TSM=64 TSN=128 TSK=8 WPTM=8 WPTN=8" \
           "TSM=128 TSN=64 TSK=16 WPTM=8 WPTN=8" "TSM=128 TSN=128 TSK=8 WPTM=8 WPTN=4" "TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=8"; do
  set -- $cfg; eval "$*"
  defs=$(for x in $cfg; do printf -- "-D%s " $x; done)
  gx=$((4096 / TSN * TSN / WPTN)); gy=$((4096 / TSM * TSM / WPTM)); lx=$((TSN / WPTN)); ly=$((TSM / WPTM))
  for k in matmul_register_blocked matmul_register_blocked_prefetch; do
    /tmp/cl-tune matmul $M $k "$defs -DPAD=4" 4096 $gx $gy $lx $ly 5 | tee -a $R/matmul.tsv
  done
done
python3 - <<'PY' | tee -a $R/cublas.txt
import torch, time
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
for n in (2048, 4096, 8192):
    a = torch.randn(n, n, device="cuda"); b = torch.randn(n, n, device="cuda")
    for _ in range(3): a @ b
    torch.cuda.synchronize()
    ts = []
    for _ in range(10):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); ms = ts[len(ts)//2]
    print("cublas fp32 n=%d %.4f ms %.1f GFLOPS (torch %s, tf32 off)" % (n, ms, 2*n**3/ms/1e6, torch.__version__))
PY
$B matmul --device 1:0 --n 4096 --variant register_blocked > $R/matmul-bench.txt 2>&1
stamp matmul
NB=kernels/workloads/nbody.cl
ND="-DDT=0.01f -DSOFTENING2=0.01f"
for n in 100000 200000; do
  for t in 128 256 512; do
    /tmp/cl-tune nbody $NB nbody_tiled_local "-DTILE=$t $ND" $n $(( (n + t - 1) / t * t )) $t 5 | tee -a $R/nbody.tsv
    /tmp/cl-tune nbody $NB nbody_tiled_local "-DTILE=$t $ND -cl-fast-relaxed-math" $n $(( (n + t - 1) / t * t )) $t 5 | tee -a $R/nbody.tsv
    for p in 1 2; do
      /tmp/cl-tune nbody $NB nbody_unrolled "-DTILE=$t -DPER_ITEM=$p $ND -cl-fast-relaxed-math" $n $(( (n + t*p - 1) / (t*p) * t )) $t 5 | tee -a $R/nbody.tsv
    done
  done
done
$B nbody --device 1:0 --bodies 100000 > $R/nbody-bench.txt 2>&1
stamp nbody
record_pack
