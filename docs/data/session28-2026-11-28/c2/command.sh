#!/bin/bash
# session 28 call 2 (issue 27): what keeps the gray8 box `stream` (60% of copy at 6720x4480) from the copy kernel with
# its launch (c1: 86-88%). box_stream replaced (--kernel-dir) by copies that add one of the stream's costs each,
# -DPROBE= through FWB_EXTRA_BUILD_OPTIONS: 0 the plain copy; 1 three aligned 16-byte loads a row (the strip and its
# neighbours' vectors, as s3_load's aligned path) for one store; 2 the halo rows (BLOCK_H + 2 rows loaded for BLOCK_H
# stored); 3 both. Two bitwise operations a word keep every load live. Blocks 16x4 (the stream's own), 16x8, 16x16;
# 6720x4480 and 13440x8960; the default block also L2-flushed.
cd "$(dirname "$0")/../../../.."
. scripts/lib/device-record.sh
record_start c2 -DCUDAToolkit_ROOT=/usr/local/cuda
rm -rf /tmp/copyk && cp -r kernels /tmp/copyk
python3 - /tmp/copyk/box/box.cl <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
old = """kernel void box_stream(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                       constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    s3_strip(src, dst, width, height, srcPitch, dstPitch, params);
}"""
new = """#ifndef PROBE
#define PROBE 0
#endif
#define PROBE_VIEWS (PROBE & 1)
#define PROBE_HALO ((PROBE & 2) ? 1 : 0)
inline uint4 probe_row(global const uchar *restrict src, int pitch, int height, int y, int x0)
{
    global const uchar *row = src + (size_t)clamp(y, 0, height - 1) * (size_t)pitch;
    uint4 b = *(global const uint4 *)(row + x0);
#if PROBE_VIEWS
    const uint4 a = *(global const uint4 *)(row + max(x0 - 16, 0));
    const uint4 c = *(global const uint4 *)(row + min(x0 + 16, pitch - 16));
    b ^= (a ^ c) & (uint4)(0x01010101u);
#endif
    return b;
}
kernel void box_stream(global const uchar *restrict src, global uchar *restrict dst, int width, int height,
                       constant float *coeffs, int radius, float4 params, int srcPitch, int dstPitch)
{
    const int x0 = (int)get_global_id(0) * 16, y0 = (int)get_global_id(1) * BLOCK_H;
    if (x0 >= width * CHANNELS || y0 >= height)
        return;
    uint4 v[BLOCK_H + 2 * PROBE_HALO];
#pragma unroll
    for (int k = 0; k < BLOCK_H + 2 * PROBE_HALO; ++k)
        v[k] = probe_row(src, srcPitch, height, y0 + k - PROBE_HALO, x0);
#pragma unroll
    for (int k = 0; k < BLOCK_H; ++k)
        if (y0 + k < height)
#if PROBE_HALO
            *(global uint4 *)(dst + (size_t)(y0 + k) * (size_t)dstPitch + x0) = v[k + 1] ^ ((v[k] ^ v[k + 2]) & (uint4)(0x01010101u));
#else
            *(global uint4 *)(dst + (size_t)(y0 + k) * (size_t)dstPitch + x0) = v[k];
#endif
}"""
assert s.count(old) == 1
open(p, 'w').write(s.replace(old, new))
PY
export FWB_CACHE_DIR=/tmp/c2-cache
mkdir -p $R/json
common=(--device 1:0 --filter box --variant stream --param radius=1 --format gray8 --repeat 20 --no-cpu-single --no-baselines --transfer pinned --border replicate)
for size in 6720x4480 13440x8960; do
  timeout 120 $B run "${common[@]}" --synthetic $size --json > $R/json/$size-box-stream.json 2>/dev/null
  timeout 120 $B run "${common[@]}" --synthetic $size --flush-cache --json > $R/json/$size-flushed-box-stream.json 2>/dev/null
  for p in 0 1 2 3; do
    for h in 4 8 16; do
      FWB_EXTRA_BUILD_OPTIONS=-DPROBE=$p timeout 120 $B run "${common[@]}" --synthetic $size --kernel-dir /tmp/copyk --block 16x$h --json > $R/json/$size-probe$p-16x$h.json 2>/dev/null
    done
    FWB_EXTRA_BUILD_OPTIONS=-DPROBE=$p timeout 120 $B run "${common[@]}" --synthetic $size --flush-cache --kernel-dir /tmp/copyk --block 16x4 --json > $R/json/$size-flushed-probe$p-16x4.json 2>/dev/null
  done
done
record_copy_share $R/json | tee $R/probe-share.txt
stamp done
record_pack
