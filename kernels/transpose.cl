// transpose.cl: transpose as an operation on 8-bit pixels (gray8, rgb888 via vload3, rgba8888): the
// output is height x width. Entries transpose_{naive,local,local_diagonal,local_padded}_u8 come from
// transpose.clh (seed 000's ladder plus seed 002's padded tile).
#include "common.clh"
#include "pixels8.clh"

#define TRANSPOSE_SUFFIX u8
#define TRANSPOSE_IN_T uchar
#define TRANSPOSE_OUT_T uchar
#define TRANSPOSE_ELEM_T upix_t
#define TRANSPOSE_LOAD(buf, index) fwb_load8(buf, index)
#define TRANSPOSE_STORE(buf, index, value) fwb_store8(buf, index, value)
#include "transpose.clh"
