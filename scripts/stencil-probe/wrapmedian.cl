// The catalogue's median rungs (kernels/median) in the harness's signature: median_forgetful, or with
// -DWRAP_STREAM median_stream.
#include "median.cl"
kernel void wrap(global const uchar *restrict src, global uchar *restrict dst, int width, int height, int pitch)
{
#ifdef WRAP_STREAM
    median_stream(src, dst, width, height, 0, 1, (float4)(0), pitch, pitch);
#else
    median_forgetful(src, dst, width, height, 0, 1, (float4)(0), pitch, pitch);
#endif
}
