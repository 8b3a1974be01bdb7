// The bandwidth probe's zero-copy reader (core/runtime/BandwidthProbe.cpp): streams a buffer through
// the device so that reading host-visible memory in place is timed like a copy.
__kernel void fwb_probe_read(__global const uint4 *src, __global uint *sink, uint n)
{
    uint4 acc = (uint4)(0);
    for (uint k = get_global_id(0); k < n; k += get_global_size(0))
        acc += src[k];
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u)
        sink[0] = 1;
}
