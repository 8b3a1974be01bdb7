#!/bin/bash
# session 28 call 1 (issue 27, gray8's share of copy at 6720x4480): what a kernel that only copies reaches at the
# picture's size, timed by filter-bench exactly as the rungs are. box `stream`'s kernel is replaced (through
# --kernel-dir) by a copy with the same launch (16 bytes across x BLOCK_H rows a work-item, every row's load
# issued before the first store), run at 1, 2, 4, 8 and 16 rows a work-item and three work-group shapes, beside
# the real box stream, at 6720x4480 and 13440x8960, usual and L2-flushed; the share divides by the 256 MiB device
# copy each run measures (copy_gbps). The check of the copy rows fails by design (it is not a box filter).
# Plus cupy's device copies at each size (record_copy_sizes).
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c1 -DCUDAToolkit_ROOT=/usr/local/cuda
rm -rf /tmp/copyk && cp -r kernels /tmp/copyk
python3 - /tmp/copyk/box/box.cl <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
old = """kernel void box_stream(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                       constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    s3_strip(src, dst, width, height, srcPitch, dstPitch, params);
}"""
new = """kernel void box_stream(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                       constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    const int x0 = (int)get_global_id(0) * 16, y0 = (int)get_global_id(1) * BLOCK_H;
    if (x0 >= width * CHANNELS || y0 >= height)
        return;
    uint4 v[BLOCK_H];
#pragma unroll
    for (int k = 0; k < BLOCK_H; ++k)
        if (y0 + k < height)
            v[k] = *(global const uint4 *)(src + (size_t)(y0 + k) * (size_t)srcPitch + x0);
#pragma unroll
    for (int k = 0; k < BLOCK_H; ++k)
        if (y0 + k < height)
            *(global uint4 *)(dst + (size_t)(y0 + k) * (size_t)dstPitch + x0) = v[k];
}"""
assert s.count(old) == 1
open(p, 'w').write(s.replace(old, new))
PY
export FWB_CACHE_DIR=/tmp/c1-cache
mkdir -p $R/json
common=(--device 1:0 --filter box --variant stream --param radius=1 --format gray8 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate)
for size in 6720x4480 13440x8960; do
  for flush in "" --flush-cache; do
    tag=$size${flush:+-flushed}
    timeout 120 $B run "${common[@]}" --synthetic $size $flush --json > $R/json/$tag-box-stream.json 2>/dev/null
    for h in 1 2 4 8 16; do
      timeout 120 $B run "${common[@]}" --synthetic $size $flush --kernel-dir /tmp/copyk --block 16x$h --json > $R/json/$tag-copy-16x$h-local16x8.json 2>/dev/null
    done
    for l in 64x2 128x1 256x1; do
      for h in 1 4; do
        timeout 120 $B run "${common[@]}" --synthetic $size $flush --kernel-dir /tmp/copyk --block 16x$h --local $l --json > $R/json/$tag-copy-16x$h-local$l.json 2>/dev/null
      done
    done
  done
done
record_copy_share $R/json | tee $R/copy-share.txt
stamp runs
record_copy_sizes 30.1 60.2 120.4 240.8 268.4
stamp done
record_pack
