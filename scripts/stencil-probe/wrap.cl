#include "morphology.cl"
kernel void wrap(global const uchar *restrict src, global uchar *restrict dst, int width, int height, int pitch)
{
    s3_strip(src, dst, width, height, pitch, pitch, (float4)(0));
}
