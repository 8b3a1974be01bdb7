// QtImageIo: image files through QImageReader (auto-transform, size limits) and QSaveFile (atomic);
// PNG and JPEG through the headless reader and writer (imageio/HeadlessImageIo), same pixels.
#pragma once

#include "ImageIo.h"

#include <QImage>
#include <QString>

namespace fwb {

class QtImageIo : public ImageIo
{
public:
    bool load(const std::string &path, Image &image, std::string &error) override;
    bool loadInto(const std::string &path, const Allocate &allocate, Image &image, std::string &error) override;
    bool save(const std::string &path, const Image &image, std::string &error) override;
    // Names go through QString and back (QFile::decodeName / encodeName): a byte string that does not
    // survive the round trip (invalid UTF-8) would be opened or written under another name.
    std::string pathProblem(const std::string &path) const override;
    std::string saveProblem(const std::string &path) const override; // also the format, by suffix
};

// Conversions between QImage and fwb::Image (gray8 stays gray8, everything else becomes rgba8888).
Image imageFromQImage(const QImage &qimage);
QImage qimageFromImage(const Image &image);

// Reads a file into a QImage with auto-transform and our size limits; false + reason on failure.
// PNG and JPEG go through the headless reader (a Grayscale8 or RGBA8888 QImage).
bool readImageFile(const QString &path, QImage &out, QString &error);
// The same through QImageReader for every format (the test that the two readers agree uses it).
bool readImageFileWithQt(const QString &path, QImage &out, QString &error);
// Writes atomically; false + reason, leaving any existing file untouched.
bool writeImageFile(const QString &path, const QImage &image, QString &error);

} // namespace fwb
