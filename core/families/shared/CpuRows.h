// cpu_rows (kernels/shared/cpu_rows.cl): the PoCL-shaped rungs of gaussian5x5, box, erode/dilate and median3x3
// share their shape (64 bytes x 32 rows per work-item, 4x1 work-groups on CPUs) and the first part of
// their description; each family adds what its kernel computes and what it measured.
#pragma once

#include "Catalogue.h"

#include <string>

namespace fwb {

inline VariantSpec cpuRowsVariant(const std::string &entry, const std::string &plainWords, const std::string &title,
                                  int maxRadius, const std::string &familyPart, const std::string &seedNote)
{
    VariantSpec v;
    v.kernelFile = "cpu_rows.cl";
    v.name = "cpu_rows";
    v.plainWords = plainWords;
    v.title = title;
    v.passes = {{entry, Slot::Src, Slot::Dst, Geometry::Blocks}};
    v.maxRadius = maxRadius; // 0: any (the kernels unroll 2r+1 loads per row)
    v.blockWidth = 16;       // rgb888: 16 pixels = 48 bytes, three vectors
    v.blockBytesCpu = 64;    // gray8 64 pixels, rgba8888 16 pixels: four 16-byte chunks per work-item
    v.blockBytesGpu = 16;
    v.blockHeight = 32;
    v.preferredLocalCpu = LocalSize{4, 1};
    v.description =
        "PoCL-shaped (for the CPU OpenCL device). PoCL turns a work-group into a loop over its work-items and "
        "vectorises that loop only when the kernel is simple enough; the roofline rungs are not: on this machine "
        "they ran 4-9x slower than these kernels. Here each work-item does the vectorising itself: its strip is "
        "16-byte chunks (64 bytes across: 64 gray8 or 16 rgba8888 pixels; 16 rgb888 pixels), each loaded as one "
        "unaligned uchar16 at every horizontal offset of the stencil (shifted loads from L1 cost no more than "
        "aligned ones), and walks 32 rows down it with the last rows' results in registers, so every input row is "
        "read and filtered along x once. Loads and stores go through a uchar16 type with alignment 1, one vmovdqu "
        "each: PoCL's vload16 on bytes moved them one at a time (a copy kernel ran 8x slower). Edge chunks gather "
        "their window through the border rule into a private array and run the same vector code; the others take "
        "their four chunks down the rows together, so the per-row work (row index, border rule, address) is "
        "shared by 64 bytes. What PoCL needed: explicit 16-byte vectors (not left to its loop vectoriser), "
        "unaligned vector loads and stores instead of vload16, 64 bytes x 32 rows per work-item, and small "
        "work-groups (4x1; 1x1 to 16x1 measured the same within the noise of a shared machine). "
        + familyPart;
    v.seedNote = seedNote;
    return v;
}

} // namespace fwb
