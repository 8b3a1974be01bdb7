// Image files written byte by byte for the image I/O suites (tst_bad_input, tst_image_readers): PNGs
// of any depth and colour type, a CMYK JPEG, an EXIF orientation, and Qt's own encoding of a QImage.
#pragma once

#include <QBuffer>
#include <QByteArray>
#include <QImage>
#include <QImageWriter>

#include <initializer_list>

namespace fwb::test {

inline QByteArray bytes(std::initializer_list<int> values)
{
    QByteArray b;
    for (int v : values)
        b += char(v);
    return b;
}

inline QByteArray be32(quint32 v)
{
    QByteArray b(4, 0);
    for (int i = 0; i < 4; ++i)
        b[i] = char(v >> (24 - 8 * i));
    return b;
}
inline QByteArray le16(quint32 v) { return bytes({int(v & 0xff), int((v >> 8) & 0xff)}); }
inline QByteArray le32(quint32 v) { return le16(v) + le16(v >> 16); }

inline quint32 crc32(const QByteArray &data)
{
    quint32 crc = 0xffffffffu;
    for (char c : data) {
        crc ^= quint8(c);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

inline QByteArray pngChunk(const char *type, const QByteArray &data)
{
    const QByteArray body = QByteArray(type) + data;
    return be32(quint32(data.size())) + body + be32(crc32(body));
}

// A PNG from raw scanlines (each starting with filter byte 0), any bit depth and colour type, `extra`
// chunks before IDAT.
inline QByteArray png(quint32 width, quint32 height, int depth, int colourType, const QByteArray &rows,
                      const QByteArray &extra = {})
{
    QByteArray ihdr = be32(width) + be32(height);
    ihdr += char(depth);
    ihdr += char(colourType);
    ihdr += QByteArray(3, 0);
    const QByteArray zlib = qCompress(rows).mid(4); // qCompress prefixes the length
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", ihdr) + extra + pngChunk("IDAT", zlib)
           + pngChunk("IEND", {});
}

// Baseline JPEG, 8x8, four components with an Adobe marker (transform 0: CMYK, as Photoshop writes
// it). Every coefficient is zero, so each channel decodes to 128; one-code Huffman tables keep the
// entropy-coded data to one byte.
inline QByteArray cmykJpeg()
{
    QByteArray j("\xff\xd8", 2);
    j += QByteArray("\xff\xee\x00\x0e" "Adobe" "\x00\x64\x00\x00\x00\x00\x00", 16);
    j += QByteArray("\xff\xdb\x00\x43\x00", 5) + QByteArray(64, 1);
    j += QByteArray("\xff\xc0\x00\x14\x08\x00\x08\x00\x08\x04", 10);
    for (int id = 1; id <= 4; ++id)
        j += bytes({id, 0x11, 0x00});
    QByteArray table(17, 0);
    table[1] = 1; // one code of length 1, symbol 0 (DC: no difference; AC: end of block)
    j += QByteArray("\xff\xc4\x00\x26", 4) + char(0x00) + table.mid(1) + char(0) + char(0x10) + table.mid(1) + char(0);
    j += QByteArray("\xff\xda\x00\x0e\x04", 5);
    for (int id = 1; id <= 4; ++id)
        j += bytes({id, 0x00});
    j += QByteArray("\x00\x3f\x00", 3);
    j += char(0x00); // four blocks of "0" (DC) "0" (EOB)
    j += QByteArray("\xff\xd9", 2);
    return j;
}

// The JPEG with an EXIF APP1 segment giving `orientation` (6: the camera was turned, rotate 90°
// clockwise to view).
inline QByteArray withExifOrientation(const QByteArray &jpeg, int orientation)
{
    const QByteArray tiff = QByteArray("MM\0*\0\0\0\x08", 8) + QByteArray("\x00\x01", 2)
                            + QByteArray("\x01\x12\x00\x03\x00\x00\x00\x01\x00", 9) + char(orientation)
                            + QByteArray(2, 0) + QByteArray(4, 0);
    const QByteArray payload = QByteArray("Exif\0\0", 6) + tiff;
    QByteArray app1("\xff\xe1", 2);
    app1 += char((payload.size() + 2) >> 8);
    app1 += char((payload.size() + 2) & 0xff);
    return jpeg.left(2) + app1 + payload + jpeg.mid(2);
}

// The image as Qt writes it in `format` ("png", "jpg", ...), at `quality` where >= 0.
inline QByteArray encoded(const QImage &image, const char *format, int quality = -1)
{
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    if (quality >= 0)
        writer.setQuality(quality);
    writer.write(image);
    return out;
}

} // namespace fwb::test
