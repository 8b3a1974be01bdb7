#!/bin/bash
# session 20 call 3 (H100): prepare's children keeping one OpenCL session for all their jobs: the whole
# catalogue (gray8 and rgba8888, --jobs 16 and 8) from an empty program cache with the driver's cache
# empty but on, with a warm driver cache, and with it off; nbody split_sum at 8 slices through filter-bench.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c3 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c3; mkdir -p $R
P="prepare --device 1:0 --json"
run_prepare() { # NAME JOBS PROGRAM-CACHE ENV...
  local name=$1 jobs=$2 cache=$3; shift 3
  env "$@" timeout 150 $B $P --jobs $jobs --cache-dir $cache > $R/prepare-$name.json 2> $R/prepare-$name.err
}
rm -rf /tmp/pc-* /tmp/cc /tmp/cc8; mkdir -p /tmp/cc /tmp/cc8
run_prepare cold16 16 /tmp/pc-cold16 CUDA_CACHE_PATH=/tmp/cc
run_prepare again16 16 /tmp/pc-cold16 CUDA_CACHE_PATH=/tmp/cc
run_prepare pcw16 16 /tmp/pc-pcw16 CUDA_CACHE_PATH=/tmp/cc
run_prepare cold8 8 /tmp/pc-cold8 CUDA_CACHE_PATH=/tmp/cc8
run_prepare nocc16 16 /tmp/pc-nocc16 CUDA_CACHE_DISABLE=1
for f in $R/prepare-*.json; do python3 - $f <<'PY' | tee -a $R/prepare.txt
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[1].split("/")[-1], {k: d.get(k) for k in ("jobs", "wall_s", "programs", "built", "already_cached", "failed", "children_started", "child_s_sum", "build_s_sum")})
rows = sorted(d.get("results") or [], key=lambda r: -(r.get("build_ms") or 0))
for r in rows[:10]:
    print("   ", r.get("filter"), r.get("variant"), r.get("format"), r.get("build_ms"), r.get("first_run_ms"), r.get("origin"))
print("    builds over 3 s:", sum(1 for r in rows if (r.get("build_ms") or 0) > 3000), " first runs over 3 s:", sum(1 for r in rows if (r.get("first_run_ms") or 0) > 3000))
PY
done
stamp prepare
for v in split_sum tiled_local; do
  timeout 100 $B nbody --device 1:0 --bodies 100000 --repeat 3 --fast-math --variant $v > $R/nbody-$v-fast.txt 2>&1
  cat $R/nbody-$v-fast.txt
done
stamp nbody
tar czf $OUT/c3.tgz -C $OUT c3
