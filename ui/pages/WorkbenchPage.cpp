// WorkbenchPage: raising a page's tab, and the report pictures every page adds the same way (see
// WorkbenchPage.h).
#include "WorkbenchPage.h"

#include "Report.h"

#include <QBuffer>
#include <QImage>
#include <QTabWidget>

namespace fwb {

std::string thumbnailPng(const QImage &image, int side)
{
    if (image.isNull())
        return {};
    const QImage small = image.width() > side || image.height() > side
                             ? image.scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation)
                             : image;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!small.save(&buffer, "PNG"))
        return {};
    return bytes.toStdString();
}

void WorkbenchPage::raiseTab()
{
    for (QWidget *w = parentWidget(); w; w = w->parentWidget())
        if (auto *tabs = qobject_cast<QTabWidget *>(w)) {
            tabs->setCurrentWidget(this);
            return;
        }
}

void WorkbenchPage::addReportImage(ReportData &data, const std::string &caption, const QImage &picture)
{
    std::string png = thumbnailPng(picture);
    if (!png.empty())
        data.images.push_back(ReportImage{caption, std::move(png)});
}

} // namespace fwb
