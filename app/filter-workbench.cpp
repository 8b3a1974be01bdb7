// filter-workbench: thin main of the GUI; the window lives in the fwb_ui library. Also takes
// screenshots (--screenshot) for the docs: run once, wait for the result, save the window as PNG.
#include "ControlPanel.h"
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

#include <cstdio>

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "filter-workbench: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OpenCLFilterWorkbench"));
    QApplication::setApplicationName(QStringLiteral("filter-workbench"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/filter-workbench.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Compare OpenCL image-filter kernel variants."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("image"), QStringLiteral("Image to open (default: test card)."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Run once, save the window to FILE (PNG), exit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption image(QStringLiteral("image"), QStringLiteral("Image to open."), QStringLiteral("PATH"));
    const QCommandLineOption filter(QStringLiteral("filter"), QStringLiteral("Filter name."), QStringLiteral("F"));
    const QCommandLineOption variant(QStringLiteral("variant"), QStringLiteral("Variant name."), QStringLiteral("V"));
    const QCommandLineOption view(QStringLiteral("view"), QStringLiteral("side, split or diff."), QStringLiteral("MODE"));
    const QCommandLineOption device(QStringLiteral("device"),
                                    QStringLiteral("P:D, cpu-single or cpu-multi."), QStringLiteral("SPEC"));
    const QCommandLineOption shape(QStringLiteral("work-group"), QStringLiteral("auto or WxH."), QStringLiteral("WxH"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("gray8, rgb888 or rgba8888."),
                                    QStringLiteral("FORMAT"));
    const QCommandLineOption allVariants(QStringLiteral("all-variants"),
                                         QStringLiteral("With --screenshot: run every available variant "
                                                        "first, so the history chart is filled."));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for screenshots."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    parser.addOptions({screenshot, image, filter, variant, view, device, shape, format, allVariants, size});
    parser.process(app);

    const bool shot = parser.isSet(screenshot);
    fwb::MainWindow window(!shot); // screenshots neither read nor write the user's settings
    fwb::ControlPanel *controls = window.controls();
    if (shot) {
        controls->setAutoRun(false); // the screenshot sequence below decides what runs
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        if (wh.size() == 2)
            window.resize(wh[0].toInt(), wh[1].toInt());
    }
    QString imagePath = parser.value(image);
    if (imagePath.isEmpty() && !parser.positionalArguments().isEmpty())
        imagePath = parser.positionalArguments().front();
    if (parser.isSet(device) && !controls->setDeviceSpec(parser.value(device)))
        return fail(QStringLiteral("unknown device '%1' (use P:D, cpu-single or cpu-multi)").arg(parser.value(device)));
    if (parser.isSet(format)) {
        const auto parsed = fwb::parsePixelFormat(parser.value(format).toStdString());
        if (!parsed || !controls->setPixelFormat(*parsed))
            return fail(QStringLiteral("unknown pixel format '%1'").arg(parser.value(format)));
    }
    if (parser.isSet(filter) && !controls->setFilterName(parser.value(filter)))
        return fail(QStringLiteral("unknown filter '%1'").arg(parser.value(filter)));
    if (parser.isSet(variant) && !controls->setVariantName(parser.value(variant)))
        return fail(QStringLiteral("variant '%1' is unknown or unavailable here").arg(parser.value(variant)));
    if (parser.isSet(shape) && !controls->setLocalSizeText(parser.value(shape)))
        return fail(QStringLiteral("bad work-group shape '%1'").arg(parser.value(shape)));
    if (parser.isSet(view)) {
        fwb::MainWindow::ViewMode mode;
        if (!fwb::MainWindow::parseViewMode(parser.value(view), &mode))
            return fail(QStringLiteral("unknown view '%1' (side, split or diff)").arg(parser.value(view)));
        window.setViewMode(mode);
    }
    window.show();
    if (imagePath.isEmpty())
        window.openTestCard(); // first start and the README's main job: the built-in test card
    else if (!window.loadFile(imagePath) && shot)
        return fail(QStringLiteral("cannot load %1").arg(imagePath));

    if (!shot)
        return app.exec();

    // Screenshot sequence: optionally every available variant (history), then the chosen one.
    const QString chosen = controls->variantName();
    QStringList queue;
    if (parser.isSet(allVariants))
        for (const QString &name : controls->availableVariants())
            if (name != chosen)
                queue << name;
    queue << chosen;
    const QString file = parser.value(screenshot);
    int exitCode = 0;
    auto next = [&] {
        controls->setVariantName(queue.takeFirst());
        if (!window.startRun()) {
            exitCode = fail(QStringLiteral("cannot run: %1").arg(window.statusText()));
            app.exit(exitCode);
        }
    };
    auto finishOne = [&](bool ok, const QString &error) {
        if (!queue.isEmpty()) {
            next();
            return;
        }
        if (!ok)
            std::fprintf(stderr, "filter-workbench: last run failed: %s\n", qPrintable(error));
        // Let layouts and the chart settle before grabbing.
        QTimer::singleShot(400, &app, [&, ok] {
            if (!window.grab().save(file, "PNG")) {
                exitCode = fail(QStringLiteral("cannot write %1").arg(file));
            } else {
                std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
                exitCode = ok ? 0 : 1;
            }
            app.exit(exitCode);
        });
    };
    QObject::connect(&window, &fwb::MainWindow::resultShown, &app, [&] { finishOne(true, {}); });
    QObject::connect(&window, &fwb::MainWindow::runFailed, &app, [&](const fwb::ComputeResult &r) {
        finishOne(false, QString::fromStdString(r.run.error));
    });
    QTimer::singleShot(300000, &app, [&] { app.exit(fail(QStringLiteral("timed out waiting for the run"))); });
    QTimer::singleShot(0, &app, next);
    const int rc = app.exec();
    return rc != 0 ? rc : exitCode;
}
