// JPEG marker walking without a decoder: the end-of-image check, the EXIF orientation, the coding.
// Qt-free and shared by the headless reader and the Qt reader (ui/ImageFileIo).
#pragma once

#include <cstddef>
#include <cstdint>

namespace fwb {

// libjpeg decodes a JPEG whose data stops early with a warning only ("premature end of data
// segment") and fills the rest with grey, so a decoder hands back a whole-looking image of a cut-short
// file. This walks the markers the way a decoder does (segment lengths, so an EXIF thumbnail's own
// end marker is skipped; entropy-coded data up to the next real marker) and says whether the
// image's end-of-image marker is there.
bool jpegHasEnd(const std::uint8_t *data, std::size_t size);

// What the segments before the first scan say.
struct JpegLayout
{
    int frameMarker = 0;        // SOFn (0xc0..0xcf but not c4/c8/cc); 0 when none was found
    std::size_t scanStart = 0;  // offset of the first SOS marker; 0 when none was found
    int orientation = 0;        // EXIF orientation 1..8; 0 when absent or invalid (then none is applied)
};
// Bounds-checked; a malformed header gives what was found before it (the decoder reports the damage).
JpegLayout jpegLayout(const std::uint8_t *data, std::size_t size);

// The EXIF orientation in `exif` (the APP1 payloads, concatenated, from "Exif\0\0" on) read as Qt's
// JPEG reader reads it (the first Orientation tag of IFD0 or a following IFD, SHORT with one value):
// 1..8, or 0 when there is none or it is malformed.
int exifOrientation(const std::uint8_t *exif, std::size_t size);

} // namespace fwb
