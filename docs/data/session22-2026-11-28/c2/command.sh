#!/bin/bash
# session 22 call 2 (H100, the machine of c1 still warm): c1 ran past its 600 s (CUDA_CACHE_DISABLE=1 made
# every run JIT its PTX again). The rest of its checks (the forgetful_u16x2_ptx rungs and tiled_half2 with
# the shared 16x2 min/max and ss_h2pack taps, kernels-after/ of c1) against the CPU reference, every border;
# then prepare of the whole catalogue (gray8, rgba8888), 16 jobs, empty program cache, the driver's cache off.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
R=$OUT/c2; mkdir -p $R
KA="$PWD/docs/data/session22-2026-11-28/c1/kernels-after"
chk() { # filter variant format border size [param]
  local pa=(); [ -n "$6" ] && pa=(--param "$6")
  echo "$* $(timeout 60 $B run --device 1:0 --kernel-dir $KA --filter $1 --variant $2 --format $3 --border $4 --synthetic $5 "${pa[@]}" --check --no-cpu-single --no-baselines --repeat 2 --warmup 0 2>&1 | grep -oE 'ok \(max diff [0-9]+\)|MISMATCH.*|rror.*|navailable.*' | head -1)"
}
{
for spec in "median3x3 stream rgba8888" "median3x3 forgetful_u16x2_ptx gray8" "median3x3 forgetful_u16x2_ptx rgba8888" "median5x5 forgetful_u16x2_ptx gray8" \
       "median5x5 forgetful_u16x2_ptx rgba8888" "gaussian tiled_half2 gray8 sigma=2"; do set -- $spec
  for sz in 33x6 203x97 6719x4481; do for b in replicate reflect101 constant; do chk $1 $2 $3 $b $sz $4; done; done
done
} > $R/checks.txt
echo "checks ok: $(grep -c 'ok (max diff' $R/checks.txt) of $(wc -l < $R/checks.txt)"; grep -v 'ok (max diff 0)' $R/checks.txt | head -20
stamp checks
CUDA_CACHE_DISABLE=1 timeout 200 $B prepare --device 1:0 --filter all --format gray8,rgba8888 --jobs 16 --cache-dir /tmp/pc --json > $R/prepare-empty.json 2> $R/prepare-empty.err
tail -3 $R/prepare-empty.err
stamp prepare
