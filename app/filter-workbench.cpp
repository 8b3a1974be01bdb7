// filter-workbench: thin main of the GUI; the window lives in the fwb_ui library. Its options and the
// window they set up: ui/shell/WorkbenchCommandLine; --screenshot (run once, wait, save the window as PNG for
// the docs and the tests): ui/shell/ScreenshotDriver.
#include "BuildVersion.h"
#include "MainWindow.h"
#include "PrepareAhead.h"
#include "ScreenshotDriver.h"
#include "WorkbenchCommandLine.h"

#include <QApplication>
#include <QIcon>
#include <QTemporaryDir>

int main(int argc, char *argv[])
{
    QCoreApplication::setOrganizationName(QStringLiteral("OpenCLFilterWorkbench"));
    QCoreApplication::setApplicationName(QStringLiteral("filter-workbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FWB_VERSION_LINE)); // "0.2.0 (commit 1a2b3c4)"

    fwb::WorkbenchCommandLine commandLine;
    if (fwb::WorkbenchCommandLine::wantsTextOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        commandLine.process(core); // prints and exits
        return 0;
    }

    QApplication app(argc, argv);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/filter-workbench.svg")));
    commandLine.process(app);

    const bool shot = commandLine.screenshot();
    QTemporaryDir shotDir; // editor screenshots keep their recovery file to themselves
    if (commandLine.editorScreenshot() && qEnvironmentVariableIsEmpty("FWB_EDITOR_RECOVERY"))
        qputenv("FWB_EDITOR_RECOVERY", shotDir.filePath(QStringLiteral("recovery.json")).toLocal8Bit());
    fwb::MainWindow window(!shot); // screenshots neither read nor write the user's settings
    if (shot)
        window.prepareAhead()->setEnabled(false); // the docs' pictures: no background builds, no progress line
    if (const int code = commandLine.setUp(window))
        return code;
    if (!shot) {
        fwb::installCloseDuringRunHook(window);
        fwb::installMeasurementHooks(window);
        return app.exec();
    }
    fwb::ScreenshotDriver driver(window, commandLine);
    return driver.exec();
}
