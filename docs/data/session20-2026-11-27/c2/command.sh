#!/bin/bash
# session 20 call 2 (H100): (1) the whole catalogue prepared (gray8 and rgba8888, --jobs 16) from an empty
# program cache with the driver's own cache empty but on (a new machine), again (warm), and with the
# driver's cache off as session 18 measured it; (2) recursive_gaussian blocked_transposed's work-group
# shapes; (3) nbody split_sum shapes of 256 work-items, and CL_KERNEL_WORK_GROUP_SIZE of tiled_local built
# for 512 and 1024; (4) a device-to-device cudaMemcpy by size.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c2; mkdir -p $R
P="prepare --device 1:0 --jobs 16 --json"
rm -rf /tmp/pc /tmp/cc; mkdir -p /tmp/cc
CUDA_CACHE_PATH=/tmp/cc timeout 200 $B $P --cache-dir /tmp/pc > $R/prepare-cold.json 2> $R/prepare-cold.err
du -sh /tmp/cc > $R/cuda-cache-size.txt
CUDA_CACHE_PATH=/tmp/cc timeout 100 $B $P --cache-dir /tmp/pc > $R/prepare-again.json 2> $R/prepare-again.err
rm -rf /tmp/pc2
CUDA_CACHE_PATH=/tmp/cc timeout 100 $B $P --cache-dir /tmp/pc2 > $R/prepare-programcold-cudawarm.json 2> $R/prepare-pcw.err
rm -rf /tmp/pc3
CUDA_CACHE_DISABLE=1 timeout 200 $B $P --cache-dir /tmp/pc3 > $R/prepare-cold-nocudacache.json 2> $R/prepare-nocc.err
for f in $R/prepare-*.json; do python3 - $f <<'PY' | tee -a $R/prepare.txt
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[1].split("/")[-1], {k: d.get(k) for k in ("jobs", "wall_s", "programs", "built", "already_cached", "failed", "children_started", "child_s_sum", "build_s_sum")})
rows = d.get("builds") or d.get("results") or []
rows = sorted(rows, key=lambda r: -(r.get("build_ms") or 0))
for r in rows[:12]:
    print("   ", r.get("filter"), r.get("variant"), r.get("format"), r.get("build_ms"), r.get("first_run_ms"), r.get("origin"))
print("    over 3 s:", sum(1 for r in rows if (r.get("build_ms") or 0) > 3000))
PY
done
stamp prepare
D="--device 1:0 --synthetic 6720x4480 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --json"
for f in gray8 rgba8888; do
  for l in auto 64x1 128x1 256x1 32x4 16x16 64x4; do
    timeout 40 $B run --filter recursive_gaussian --variant blocked_transposed --format $f --local $l $D > /tmp/rg.json 2>/dev/null
    python3 - /tmp/rg.json $f $l <<'PY' | tee -a $R/rg-shapes.tsv
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    print("\t".join([sys.argv[2], sys.argv[3], str(r["local"]), "%.4f" % r["kernel_ms"]["median"], str(r.get("matches")), " ".join("%.4f" % x for x in r.get("pass_ms", []))]))
except Exception as e:
    print(sys.argv[2], sys.argv[3], "failed", e)
PY
  done
done
stamp recursive
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 scripts/tools/cl-tune.cpp -lOpenCL -o /tmp/cl-tune 2>/dev/null
NB="-DDT=0.01f -DSOFTENING2=0.01f -cl-fast-relaxed-math"
nb() { # BODIES SLICES PER_ITEM TILE
  local items=$(( $1 * $2 )) per=$(( $1 * $3 ))
  timeout 40 /tmp/cl-tune nbody kernels/workloads/nbody.cl nbody_split "$NB -DBODIES=$1 -DSLICES=$2 -DPER_ITEM=$3 -DTILE=$4" 100000 $(( (100000 + per - 1) / per * items )) $items 5 2>&1 | tee -a $R/nbody.tsv
}
nb 64 4 2 64; nb 64 4 1 64; nb 32 8 2 64; nb 32 8 1 32; nb 64 4 2 128; nb 128 2 1 128; nb 32 8 2 32; nb 64 8 2 64
for t in 256 512 1024; do
  timeout 40 /tmp/cl-tune nbody kernels/workloads/nbody.cl nbody_tiled_local "$NB -DTILE=$t" 100000 $(( (100000 + t - 1) / t * t )) $t 3 2>&1 | tee -a $R/nbody.tsv
done
stamp nbody
timeout 60 python3 - <<'PY' > $R/copy-size.txt 2>&1
import cupy as cp
rt = cp.cuda.runtime
for mb in (30.1, 60.2, 120.4, 268.4):
    n = int(mb * 1e6) // 16 * 16
    a = cp.zeros(n, dtype=cp.uint8); b = cp.empty_like(a)
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for i in range(25):
        s.record(); rt.memcpyAsync(b.data.ptr, a.data.ptr, n, rt.memcpyDeviceToDevice, 0); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    ts = sorted(ts[5:]); m = ts[len(ts)//2]
    print("cudaMemcpy D2D %.1f MB: %.4f ms, %.0f GB/s (read + write)" % (n/1e6, m, 2*n/m/1e6))
PY
cat $R/copy-size.txt
stamp copy
tar czf $OUT/c2.tgz -C $OUT c2
