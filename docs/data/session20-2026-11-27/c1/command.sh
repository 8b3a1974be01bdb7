#!/bin/bash
# session 20 call 1 (H100): (1) recursive_gaussian blocked_transposed (turned stores staged through local
# memory) beside blocked_seg64 and blocked; (2) nbody split_sum with 8 slices: registers (ptxas -v on the
# program binary) and CL_KERNEL_WORK_GROUP_SIZE with -cl-nv-maxrregcount=128; (3) where a prepare job's
# seconds go on NVIDIA beyond its build: a tiny run's wall against its build_ms, cold and warm, with the
# driver's own cache off and on, with and without PoCL's platform loaded; (4) a device copy's speed at the
# gray8 picture's size (30 MB) against 256 MiB (CuPy, CUDA events).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c1; mkdir -p $R; cp /tmp/c1/* $R/ 2>/dev/null
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned"
for round in 1 2; do
  for f in gray8 rgba8888; do
    for v in blocked_seg64 blocked_transposed blocked; do
      timeout 60 $B run --filter recursive_gaussian --variant $v --format $f $D --check --json > /tmp/rg.json 2> /tmp/rg.err
      python3 - /tmp/rg.json $f $round <<'PY' >> $R/rg.tsv
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    print("\t".join([sys.argv[2], sys.argv[3], r["variant"], "%.4f" % r["kernel_ms"]["median"], str(r.get("matches")),
                     str(r.get("max_abs_diff")), " ".join("%.4f" % x for x in r.get("pass_ms", []))]))
PY
      tail -2 /tmp/rg.err >> $R/rg.err
    done
  done
done
cat $R/rg.tsv
stamp recursive
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 scripts/tools/cl-tune.cpp -lOpenCL -o /tmp/cl-tune 2>/dev/null
NB="-DBODIES=64 -DPER_ITEM=2 -DTILE=64 -DDT=0.01f -DSOFTENING2=0.01f -cl-fast-relaxed-math"
for sl in 4 8; do
  for extra in "" "-cl-nv-maxrregcount=128" "-cl-nv-maxrregcount=96"; do
    CL_TUNE_BINARY=/tmp/nb-$sl-${extra##*=}.ptx timeout 60 /tmp/cl-tune nbody kernels/workloads/nbody.cl nbody_split "$NB -DSLICES=$sl $extra" 100000 $(( (100000 + 127) / 128 * 64 * sl )) $(( 64 * sl )) 5 >> $R/nbody.tsv 2>&1
    /usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/nb-$sl-${extra##*=}.ptx -o /dev/null 2>&1 | grep -E "registers|spill" | sed "s/^/slices=$sl $extra: /" >> $R/nbody-ptxas.txt
  done
done
cat $R/nbody.tsv $R/nbody-ptxas.txt
stamp nbody
# (3) a prepare job's seconds
mkdir -p /tmp/nvonly; cp /etc/OpenCL/vendors/nvidia.icd /tmp/nvonly/
tiny() { # LABEL VARIANT-SPEC... : one run as a prepare child runs it, its wall and its build_ms
  local label=$1; shift
  local t0=$(date +%s.%N)
  $B run "$@" --synthetic 32x24 --repeat 1 --warmup 0 --no-cpu-single --no-baselines --no-copy-probe --device 1:0 --json --cache-dir /tmp/pc > /tmp/tiny.json 2>/tmp/tiny.err
  local t1=$(date +%s.%N)
  python3 - /tmp/tiny.json "$label $*" $t0 $t1 <<'PY' >> $R/prepare-job.tsv
import json, sys
try:
    d = json.load(open(sys.argv[1])); r = d["results"][0]
    b = r.get("build_ms"); o = r.get("build_origin")
except Exception as e:
    b = o = "?"
print("%s\twall %.3f s\tbuild_ms %s\torigin %s" % (sys.argv[2], float(sys.argv[4]) - float(sys.argv[3]), b, o))
PY
}
for spec in "--filter box --variant stream --format gray8 --param radius=1" "--filter median5x5 --variant forgetful_w16 --format rgba8888" "--filter gaussian5x5 --variant stream --format rgba8888"; do
  rm -rf /tmp/pc /tmp/cc; export CUDA_CACHE_PATH=/tmp/cc
  CUDA_CACHE_DISABLE=1 tiny cold-nocudacache $spec
  CUDA_CACHE_DISABLE=1 tiny warm-nocudacache $spec
  CUDA_CACHE_DISABLE=1 OCL_ICD_VENDORS=/tmp/nvonly tiny warm-nocudacache-nvonly $spec
  rm -rf /tmp/pc
  tiny cold-cudacache $spec
  tiny warm-cudacache $spec
  OCL_ICD_VENDORS=/tmp/nvonly tiny warm-cudacache-nvonly $spec
  rm -rf /tmp/pc
  tiny programcold-cudacachewarm $spec
done
for i in 1 2; do t0=$(date +%s.%N); $B devices > /dev/null 2>&1; t1=$(date +%s.%N); echo "devices wall $(python3 -c "print($t1-$t0)")" >> $R/prepare-job.tsv; done
t0=$(date +%s.%N); OCL_ICD_VENDORS=/tmp/nvonly $B devices > /dev/null 2>&1; t1=$(date +%s.%N); echo "devices nvonly wall $(python3 -c "print($t1-$t0)")" >> $R/prepare-job.tsv
cat $R/prepare-job.tsv
stamp prepare-job
# (4) a device copy at the picture's size
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
