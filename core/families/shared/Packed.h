// The packed rungs of box and erode/dilate (box.cl's box_packed, morphology.cl's morph_packed): the 3x3
// window on gray8, two pixels per 16-bit half of a 32-bit word, share their launch shape; each family
// names its kernel and says what it computes and measured.
#pragma once

#include "Catalogue.h"

namespace fwb {

inline VariantSpec packedVariant(VariantSpec v)
{
    v.formats = {PixelFormat::Gray8};
    v.blockWidth = 16; // one aligned 16-byte vector across, on every device
    v.blockHeight = 8;
    v.blockBytesGpu = 16;
    v.blockBytesCpu = 16;
    v.maxRadius = 1; // the row pass is written for the 3-wide window
    v.rowAlign = 16; // odd widths: rows padded to 16 bytes on the device keep the aligned vectors (byte_strips.clh)
    v.preferredLocalGpu = {16, 8};
    v.preferredLocalCpu = {16, 4};
    return v;
}

} // namespace fwb
