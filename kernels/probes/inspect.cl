// inspect.cl: the work-group inspector of seed 001. The four corner work-items of the NDRange
// record get_global_id, get_local_size, get_enqueued_local_size (OpenCL C 2.0 only), get_group_id
// and get_num_groups, so the host can show how the runtime split the launch into work-groups.
// Built plainly (OpenCL C 1.2 rules) or with -cl-std=CL2.0 (non-uniform work-groups allowed).

#define FWB_INSPECT_FIELDS 11 // recorded flag + 5 pairs

inline void fwb_record_corner(global uint *out, int corner)
{
    global uint *r = out + corner * FWB_INSPECT_FIELDS;
    r[0] = 1;
    r[1] = (uint)get_global_id(0);
    r[2] = (uint)get_global_id(1);
    r[3] = (uint)get_local_size(0);
    r[4] = (uint)get_local_size(1);
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200
    r[5] = (uint)get_enqueued_local_size(0);
    r[6] = (uint)get_enqueued_local_size(1);
#else
    // OpenCL C 1.2 has no get_enqueued_local_size; every group has the enqueued size there.
    r[5] = (uint)get_local_size(0);
    r[6] = (uint)get_local_size(1);
#endif
    r[7] = (uint)get_group_id(0);
    r[8] = (uint)get_group_id(1);
    r[9] = (uint)get_num_groups(0);
    r[10] = (uint)get_num_groups(1);
}

// Corners: 0 top left, 1 top right, 2 bottom left, 3 bottom right (one work-item may be several).
kernel void inspect_corners(global uint *out)
{
    const size_t x = get_global_id(0), y = get_global_id(1);
    const size_t lastX = get_global_size(0) - 1, lastY = get_global_size(1) - 1;
    if (x == 0 && y == 0)
        fwb_record_corner(out, 0);
    if (x == lastX && y == 0)
        fwb_record_corner(out, 1);
    if (x == 0 && y == lastY)
        fwb_record_corner(out, 2);
    if (x == lastX && y == lastY)
        fwb_record_corner(out, 3);
}
