// JPEG marker walking: end-of-image check, EXIF orientation, frame type (see JpegMarkers.h).
#include "JpegMarkers.h"

#include <string>

namespace fwb {

bool jpegHasEnd(const std::uint8_t *data, std::size_t size)
{
    std::size_t i = 2; // after SOI
    while (i + 1 < size) {
        if (data[i] != 0xff) {
            ++i; // entropy-coded data (or padding) between markers
            continue;
        }
        const std::uint8_t marker = data[i + 1];
        if (marker == 0xd9)
            return true; // EOI
        if (marker == 0xff || marker == 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01) {
            i += marker == 0xff ? 1 : 2; // fill byte, stuffed 0xff, restart marker, TEM
            continue;
        }
        if (i + 3 >= size)
            return false;
        const std::size_t length = (std::size_t(data[i + 2]) << 8) | data[i + 3];
        if (length < 2)
            return false;
        i += 2 + length; // the segment; after SOS, the scan's data follows
    }
    return false;
}

JpegLayout jpegLayout(const std::uint8_t *data, std::size_t size)
{
    JpegLayout layout;
    std::string exif; // every APP1 payload in file order, as libjpeg hands them to Qt's reader
    std::size_t i = 2;
    while (i + 3 < size) {
        if (data[i] != 0xff)
            break;
        const std::uint8_t marker = data[i + 1];
        if (marker == 0xff) { // fill byte
            ++i;
            continue;
        }
        if (marker == 0xda) {
            layout.scanStart = i;
            break;
        }
        if (marker == 0xd8 || marker == 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01) {
            i += 2;
            continue;
        }
        const std::size_t length = (std::size_t(data[i + 2]) << 8) | data[i + 3];
        if (length < 2 || i + 2 + length > size)
            break;
        if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc && !layout.frameMarker)
            layout.frameMarker = marker;
        if (marker == 0xe1)
            exif.append(reinterpret_cast<const char *>(data + i + 4), length - 2);
        i += 2 + length;
    }
    if (!exif.empty())
        layout.orientation = exifOrientation(reinterpret_cast<const std::uint8_t *>(exif.data()), exif.size());
    return layout;
}

int exifOrientation(const std::uint8_t *exif, std::size_t size)
{
    static const std::uint8_t magic[6] = {'E', 'x', 'i', 'f', 0, 0};
    const std::size_t header = 6;
    if (size < header + 8)
        return 0;
    for (std::size_t k = 0; k < header; ++k)
        if (exif[k] != magic[k])
            return 0;
    bool little = false;
    if (exif[header] == 'I' && exif[header + 1] == 'I')
        little = true;
    else if (!(exif[header] == 'M' && exif[header + 1] == 'M'))
        return 0;
    std::size_t pos = header + 2;
    auto read16 = [&](std::uint32_t &v) {
        if (pos + 2 > size)
            return false;
        v = little ? exif[pos] | (exif[pos + 1] << 8) : (exif[pos] << 8) | exif[pos + 1];
        pos += 2;
        return true;
    };
    auto read32 = [&](std::uint32_t &v) {
        std::uint32_t a = 0, b = 0;
        if (pos + 4 > size || !read16(a) || !read16(b))
            return false;
        v = little ? a | (b << 16) : (a << 16) | b;
        return true;
    };
    std::uint32_t value = 0, offset = 0;
    if (!read16(value) || value != 0x2a || !read32(offset))
        return 0;
    // At most 10 IFDs (EXIF 2.3 has 5), never backwards: as Qt reads them.
    for (int n = 0; n < 10; ++n) {
        if (std::uint64_t(offset) + header < pos || std::uint64_t(offset) + header >= size)
            return 0;
        pos = header + offset;
        std::uint32_t entries = 0;
        if (!read16(entries))
            return 0;
        for (; entries > 0; --entries) {
            std::uint32_t tag = 0, type = 0, components = 0, shortValue = 0, dummy = 0;
            if (!read16(tag) || !read16(type) || !read32(components) || !read16(shortValue))
                return 0;
            if (tag == 0x0112) // Orientation: one SHORT, 1..8; the first one counts
                return components == 1 && type == 3 && shortValue >= 1 && shortValue <= 8 ? int(shortValue) : 0;
            if (!read16(dummy))
                return 0;
        }
        if (!read32(offset) || offset == 0)
            return 0;
    }
    return 0;
}

} // namespace fwb
