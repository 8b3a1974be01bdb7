// The streaming 3x3 rungs of box, erode/dilate and Sobel (box.cl's box_stream, morphology.cl's
// morph_stream, sobel.cl's sobel_stream; kernels/shared/stream3x3.clh) share their launch shape; each
// family names its kernel and says what it computes.
#pragma once

#include "Catalogue.h"

namespace fwb {

inline VariantSpec stream3x3Variant(VariantSpec v)
{
    v.formats = {PixelFormat::Gray8, PixelFormat::Rgba8888};
    v.blockWidth = 16; // one aligned 16-byte vector across (16 gray8 or 4 rgba8888 pixels), on every device
    v.blockHeight = 4;
    v.blockBytesGpu = 16;
    v.blockBytesCpu = 16;
    v.rowAlign = 16;  // odd widths: rows padded to 16 bytes on the device keep the aligned loads
    v.preferredLocalGpu = {16, 8}; // H100: faster than 64x2 for every filter and layout measured
    v.preferredLocalCpu = {16, 4};
    return v;
}

} // namespace fwb
