// ReportExport: the window's session as core's self-contained HTML report (see ReportExport.h).
#include "ReportExport.h"

#include "AtomicFile.h"
#include "Catalogue.h"
#include "ControlPanel.h"
#include "ImageFileIo.h"
#include "MainWindow.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace fwb {

namespace {

std::string s(const QString &text) { return text.toStdString(); }

std::string number(double value)
{
    return QString::number(value, 'g', 6).toStdString();
}

// The filter-bench command that repeats the current run (the window's image as --input, the test
// card as --synthetic).
std::string reproduceCommand(const MainWindow &window)
{
    const ControlPanel *c = window.controls();
    const RunRequest run = c->runRequest();
    QStringList args{QStringLiteral("filter-bench"), QStringLiteral("run"), QStringLiteral("--filter"),
                     c->filterName(), QStringLiteral("--variant"), c->variantName()};
    if (window.currentFile().isEmpty() && window.hasImage())
        args << QStringLiteral("--synthetic")
             << QStringLiteral("%1x%2").arg(window.inputImage()->width()).arg(window.inputImage()->height());
    else if (!window.currentFile().isEmpty())
        args << QStringLiteral("--input") << window.currentFile();
    args << QStringLiteral("--format") << QString::fromLatin1(formatName(run.params.format));
    if (const FilterSpec *f = c->filter()) {
        if (f->hasBorder)
            args << QStringLiteral("--border") << QString::fromLatin1(borderModeName(run.params.border));
        for (const ParamSpec &p : f->params)
            args << QStringLiteral("--param")
                 << QStringLiteral("%1=%2").arg(QString::fromStdString(p.key),
                                                QString::number(f->param(run.params, p.key), 'g', 6));
    }
    args << QStringLiteral("--local") << c->localSizeText() << QStringLiteral("--repeat")
         << QString::number(run.repeat);
    if (!c->engine().isCpu())
        args << QStringLiteral("--device") << c->deviceSpec();
    for (QString &a : args)
        if (a.contains(QLatin1Char(' ')) || a.contains(QLatin1Char('\'')))
            a = QLatin1Char('\'') + QString(a).replace(QLatin1String("'"), QLatin1String("'\\''")) + QLatin1Char('\'');
    return s(args.join(QLatin1Char(' ')));
}

} // namespace

ReportData workbenchReport(const MainWindow &window)
{
    const ControlPanel *c = window.controls();
    const RunRequest run = c->runRequest();
    const FilterSpec *filter = c->filter();
    ReportData data;
    data.title = "OpenCL Filter Workbench report: " + (filter ? filter->title : s(c->filterName()));
    data.device = c->engine().device;
    if (c->engine().isCpu())
        data.device.name = s(c->engine().label());
    // The app sets its version ("0.2.0 (commit 1a2b3c4)"); a test harness may not.
    const QString version = QCoreApplication::applicationVersion();
    data.toolVersion = "filter-workbench" + (version.isEmpty() ? std::string() : " " + s(version));
    data.commandLine = reproduceCommand(window);
    data.generatedAt = s(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));

    const QString image = !window.hasImage() ? QStringLiteral("none")
                          : QStringLiteral("%1x%2 %3")
                                .arg(window.inputImage()->width())
                                .arg(window.inputImage()->height())
                                .arg(window.currentFile().isEmpty() ? QStringLiteral("test card")
                                                                    : QDir::toNativeSeparators(window.currentFile()));
    data.settings = {{"Filter", s(c->filterName()) + (filter ? " (" + filter->title + ")" : "")},
                     {"Variant", s(c->variantName())},
                     {"Device", s(c->engine().label())},
                     {"Image", s(image)},
                     {"Pixel format", formatName(run.params.format)},
                     {"Border", borderModeName(run.params.border)},
                     {"Work-group", s(c->localSizeText())},
                     {"Repeats", std::to_string(run.repeat) + " timed, " + std::to_string(run.warmup) + " warm-up"},
                     {"Transfers", transferModeName(run.transfer)}};
    if (filter)
        for (const ParamSpec &p : filter->params)
            data.settings.emplace_back(p.label, number(filter->param(run.params, p.key)));

    for (const ComputeResult &r : window.runLog().runs()) {
        data.runs.push_back(ReportRun{s(r.engine.label()), r.run});
        refreshCpuFigures(data.runs.back().result); // the CPU times as the race section and the panel say them
    }

    auto addImage = [&](const std::string &caption, const QImage &picture) {
        WorkbenchPage::addReportImage(data, caption, picture);
    };
    if (window.hasImage())
        addImage("Input (" + s(image) + ", as " + formatName(run.params.format) + ")",
                 qimageFromImage(window.inputImage()->convertedTo(run.params.format)));
    if (window.hasResult()) {
        const ComputeResult &r = window.lastResult();
        addImage("Output of " + r.run.filter + " / " + r.run.variant + " on " + s(r.engine.label()), r.output);
        if (!r.heatMap.isNull())
            addImage("Difference from the CPU reference (max " + std::to_string(r.maxDiff) + ")", r.heatMap);
    }
    // Each page's own section (the race, the heat map, the sweep, the duel), in tab order.
    for (const WorkbenchPage *page : window.pages())
        page->addToReport(data);
    if (data.images.empty())
        data.imagesNote = "No images: open an image or the test card first.";
    return data;
}

bool writeWorkbenchReport(const MainWindow &window, const QString &path, bool overwriteConfirmed, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (QFileInfo::exists(path) && !overwriteConfirmed)
        return fail(QObject::tr("%1 already exists; not overwritten.").arg(QDir::toNativeSeparators(path)));
    const std::string html = reportHtml(workbenchReport(window));
    std::string why;
    if (!writeFileAtomically(path.toStdString(), html.data(), html.size(), &why))
        return fail(QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), QString::fromStdString(why)));
    return true;
}

void exportReportInteractively(MainWindow *window)
{
    const QString suggestion = QStringLiteral("%1-report.html").arg(window->controls()->filterName());
    // The dialog asks before replacing a file (QFileDialog's own confirmation): never silently.
    const QString path = QFileDialog::getSaveFileName(window, QObject::tr("Export Report"), suggestion,
                                                      QObject::tr("HTML report (*.html)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportWorkbenchReport(*window, path, true, &error)) {
        QMessageBox::warning(window, QObject::tr("Export Report"), error);
        return;
    }
    QMessageBox::information(window, QObject::tr("Export Report"),
                             QObject::tr("The report is in %1.\n\nOpen it in any web browser: it holds its charts and "
                                         "pictures and needs no network.")
                                 .arg(QDir::toNativeSeparators(path)));
}

bool exportWorkbenchReport(MainWindow &window, const QString &path, bool overwriteConfirmed, QString *error)
{
    if (!writeWorkbenchReport(window, path, overwriteConfirmed, error))
        return false;
    window.setStatus(QObject::tr("Report written to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

} // namespace fwb
