// Shared by the window suites (tst_gui_race, _race_present, _tuner, _sweep, _duel, _lab, _mainwindow, _results,
// _transfers): finding a page in the real window, preparing the window for a page's job, running the controls
// once; the fixtures of the main-window suites and of the race suites.
#pragma once

#include "ComputeWorker.h"
#include "ControlPanel.h"
#include "Devices.h"
#include "MainWindow.h"
#include "WorkbenchPage.h"

#include <QAction>
#include <QDeadlineTimer>
#include <QMenu>
#include <QMenuBar>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QString>
#include <QTest>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

#include <optional>
#include <type_traits>

namespace fwb::test {

// The window's page of type Page, or nullptr.
template <class Page>
Page *findPage(MainWindow &window)
{
    for (WorkbenchPage *page : window.pages())
        if (auto *found = qobject_cast<Page *>(page))
            return found;
    return nullptr;
}

// Whether the window's Run menu holds `action` (a page's entry point).
inline bool inRunMenu(MainWindow &window, const QAction *action)
{
    for (QAction *menu : window.menuBar()->actions())
        if (menu->menu() && menu->text() == QLatin1String("&Run"))
            return menu->menu()->actions().contains(action);
    return false;
}

struct PageWindowSetup
{
    QString filter = QStringLiteral("sobel");
    QString variant;                                                   // empty: leave the selection
    std::optional<PixelFormat> format = PixelFormat::Gray8; // nullopt: follow the image
    bool autoLocal = false;                                            // also choose the auto shape
    int repeat = 2;
};

// No automatic runs, the repeats, the test device, the filter (variant, format and shape when asked),
// then the test card at w x h. False when a control refused its value.
inline bool setUpPageWindow(MainWindow &window, const DeviceInfo &device, int w, int h,
                            const PageWindowSetup &setup = {})
{
    ControlPanel *c = window.controls();
    c->setAutoRun(false);
    c->setRepeat(setup.repeat);
    if (!c->setDeviceSpec(QString::fromStdString(device.spec())) || !c->setFilterName(setup.filter))
        return false;
    if (!setup.variant.isEmpty() && !c->setVariantName(setup.variant))
        return false;
    if (setup.format && !c->setPixelFormat(*setup.format))
        return false;
    if (setup.autoLocal && !c->setLocalSizeText("auto"))
        return false;
    window.openTestCard(w, h);
    return true;
}

// Runs the window's current controls once and waits for the result shown or the failure reported;
// false when the run did not start or nothing came within timeoutMs.
inline bool runInWindow(MainWindow &window, ComputeResult *out, int timeoutMs = 120000)
{
    QSignalSpy shown(&window, &MainWindow::resultShown);
    QSignalSpy failed(&window, &MainWindow::runFailed);
    if (!window.startRun())
        return false;
    QElapsedTimer timer;
    timer.start();
    while (shown.isEmpty() && failed.isEmpty() && timer.elapsed() < timeoutMs)
        QTest::qWait(20);
    if (shown.isEmpty() && failed.isEmpty())
        return false;
    *out = (shown.isEmpty() ? failed : shown).last().at(0).value<ComputeResult>();
    return true;
}

// Holds a worker's thread after one of its signals has reached the GUI thread: at the worker's next hand-over
// of a result (SessionWorker::setHandOverHook) it waits until release() (or 60 s), so that a test can cancel
// the page's job before the job's next step, however fast the device is. With a warm program cache a small job
// can end between two polls of the event loop, and then there is nothing left to cancel. The worker's signals
// are emitted on the GUI thread (SessionWorker::onGuiThread); what it handed over before it waits still arrives.
class WorkerGate
{
public:
    WorkerGate() = default;
    ~WorkerGate()
    {
        release();
        QObject::disconnect(m_connection);
        if (m_worker)
            m_worker->setHandOverHook({});
    }
    WorkerGate(const WorkerGate &) = delete;
    WorkerGate &operator=(const WorkerGate &) = delete;

    // Connect after the test's own slots on that signal. False when the connection failed.
    template <class Sender, class Signal>
    bool attach(Sender *sender, Signal signal)
    {
        hook(sender);
        m_connection = QObject::connect(sender, signal, sender, [this] { ++m_seen; });
        return bool(m_connection);
    }
    // Only after the emissions whose argument `when` accepts (a race's finished runs, not its next steps).
    template <class Sender, class Arg>
    bool attach(Sender *sender, void (Sender::*signal)(const Arg &), std::type_identity_t<std::function<bool(const Arg &)>> when)
    {
        hook(sender);
        m_connection = QObject::connect(sender, signal, sender, [this, when = std::move(when)](const Arg &arg) {
            if (when(arg))
                ++m_seen;
        });
        return bool(m_connection);
    }
    // The signal has reached the GUI thread and the gate is not released (the worker waits, or will at its
    // next hand-over).
    bool holding() const { return m_seen.load() > 0 && !m_open.load(); }
    void release() { m_open = true; }

private:
    void hook(SessionWorker *worker)
    {
        m_worker = worker;
        worker->setHandOverHook([this] { hold(); });
    }
    void hold() // the worker thread
    {
        if (m_seen.load() == 0 || m_held.exchange(true))
            return;
        const QDeadlineTimer deadline(60000);
        while (!m_open.load() && !deadline.hasExpired())
            QThread::msleep(2);
    }

    std::atomic<bool> m_open{false}, m_held{false};
    std::atomic<int> m_seen{0};
    QPointer<SessionWorker> m_worker;
    QMetaObject::Connection m_connection;
};

// The fixture of the main-window suites (tst_gui_mainwindow, tst_gui_results): a private folder (the
// settings and the files the tests write), the suite's one window, and the controls run once.
class WindowSuite : public QObject
{
protected:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    // initTestCase's: the settings in the folder under the suite's name, then the window with no automatic
    // runs, 2 repeats, 1400x900, shown.
    void openSuiteWindow(const char *suite)
    {
        QVERIFY(m_dir.isValid());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath("settings"));
        QCoreApplication::setOrganizationName("fwb-gui-test");
        QCoreApplication::setApplicationName(suite);
        m_window = std::make_unique<MainWindow>(false);
        m_window->controls()->setAutoRun(false);
        m_window->controls()->setRepeat(2);
        m_window->resize(1400, 900);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    // Runs the current controls once; returns the result (ok, expected failure or error).
    static bool runOnce(MainWindow &window, ComputeResult *out, int timeoutMs = 120000)
    {
        return runInWindow(window, out, timeoutMs);
    }

    // Points the controls at a device, filter and variant (false if any of them cannot be chosen).
    static bool selectVariant(ControlPanel *c, const DeviceInfo &device, const QString &filter,
                              const QString &variant)
    {
        return c->setDeviceSpec(QString::fromStdString(device.spec())) && c->setFilterName(filter)
               && c->setVariantName(variant);
    }
};

// The fixture of a suite over one page (tst_gui_race and tst_gui_race_present over RacePage): one window
// for the suite, as in the app (PoCL aborts when contexts are made again after OpenCV's T-API has used one),
// its page, and the window set up for the page's job.
template <class Page>
class PageWindowSuite : public QObject
{
protected:
    std::unique_ptr<MainWindow> m_window;

    void openSuiteWindow() // initTestCase's
    {
        m_window = std::make_unique<MainWindow>(false);
        m_window->show();
    }

    static Page *page(MainWindow &window) { return findPage<Page>(window); }

    static bool setUp(MainWindow &window, const DeviceInfo &device, int w, int h)
    {
        return setUpPageWindow(window, device, w, h);
    }
};

} // namespace fwb::test
