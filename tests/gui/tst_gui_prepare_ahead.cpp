// The window's background builder (ui/workers/PrepareAhead, issue 25): it fills an empty program cache through
// children that stay (at most one per job slot, not one per program) and a second start builds nothing (no
// child at all); a corrupt entry is rebuilt; a child that dies mid-build costs that program only; a race
// started on an empty cache while it builds says "Compiling" before every bar it waits for, and raises the child it
// waits for to its own priority (lowered again when it gives up on it); the window says "Preparing kernels for
// <device>: N of M" from its start with an empty cache and "Kernels ready" when done; closing the window
// mid-build kills and reaps every child (their pids are gone) and leaves no entry half written; another
// device (the CPU engine) and the View menu's toggle stop it; a race after it prepared compiles nothing. The other suites run with FWB_PREPARE_AHEAD=0 (tests/CMakeLists.txt); this one
// turns it on. One cheap family (box3x3_interior, gray8: three or four programs) keeps the builds short;
// binaries are kept on every device (FWB_CACHE_BINARIES=always) so that the cache's entries can be checked.
#include "BenchWorker.h"
#include "GuiTestSupport.h"
#include "MainWindow.h"
#include "PrepareAhead.h"
#include "PreparedRecord.h"
#include "ProcessPriority.h"
#include "RaceChart.h"
#include "RacePage.h"
#include "TimingPanel.h"
#include "ProgramCache.h"
#include "TestSupport.h"

#include <QAction>
#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sched.h>
#include <signal.h>

using namespace fwb;

class TestPrepareAhead : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fillsThenStartsNoChild();
    void rebuildsCorruptEntry();
    void childThatDiesCostsItsJobOnly();
    void raceAfterPrepareCompilesNothing();
    void coldRaceSaysWhatItBuilds();
    void windowShowsProgressAndStopsOnClose();
    void toggleStopsIt();
    void timingSaysWhereItCompiled();
    void startsBesideTheFirstRunOnCpu();

private:
    // A builder for one family on the test device, into `cacheDir`; waits until it finished.
    struct Pass
    {
        bool finished = false;
        int children = 0, builds = 0; // processes started, jobs sent to them
        bool childrenExited = false;
        std::size_t total = 0, done = 0;
        QString status;
    };
    Pass prepareOnce(const QString &cacheDir);
    std::size_t validEntries(const QString &cacheDir) const;

    QTemporaryDir m_dir;
    DeviceInfo m_device;
    QString m_variant; // the focus: the family's first variant
};

void TestPrepareAhead::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (!test::testDevice(m_device))
        QSKIP("no OpenCL device");
    qputenv("FWB_PREPARE_AHEAD", "1");
    qputenv("FWB_CACHE_BINARIES", "always");
    qputenv("FWB_FILTER_BENCH", FWB_FILTER_BENCH);
    m_variant = QString::fromStdString(findFilter("box3x3_interior")->variants.front().name);
}

TestPrepareAhead::Pass TestPrepareAhead::prepareOnce(const QString &cacheDir)
{
    qputenv("FWB_CACHE_DIR", cacheDir.toLocal8Bit());
    PrepareAhead ahead;
    ahead.setScope({"box3x3_interior"}, {"gray8"});
    ahead.setJobs(2);
    ahead.setFocus("box3x3_interior", m_variant.toStdString(), "gray8");
    QSignalSpy finished(&ahead, &PrepareAhead::finished);
    ahead.setDevice(m_device);
    Pass pass;
    pass.finished = finished.wait(600000) || finished.count() > 0;
    pass.children = ahead.childrenStarted();
    pass.builds = ahead.buildsSent();
    // With nothing left to build the children that stay are sent the end of their input, and exit.
    pass.childrenExited = QTest::qWaitFor([&ahead] { return ahead.childPids().isEmpty(); }, 10000);
    pass.total = ahead.total();
    pass.done = ahead.done();
    pass.status = ahead.statusText();
    return pass;
}

std::size_t TestPrepareAhead::validEntries(const QString &cacheDir) const
{
    std::size_t valid = 0;
    for (const CacheEntryInfo &e : ProgramCache::listEntries(cacheDir.toStdString()))
        valid += e.valid ? 1 : 0;
    return valid;
}

void TestPrepareAhead::fillsThenStartsNoChild()
{
    const QString cache = m_dir.filePath("fill");
    const Pass first = prepareOnce(cache);
    QVERIFY(first.finished);
    QVERIFY2(first.total >= 3, qPrintable(QString::number(first.total)));
    QCOMPARE(first.done, first.total);
    QCOMPARE(std::size_t(first.builds), first.total); // an empty cache: every program built
    // ...by children that stay, not one process per program: 2 jobs, at most 2 processes at idle priority
    // (and on a GPU 2 more for the builds someone waits for: the selected variant).
    const int most = m_device.kind == DeviceKind::Cpu ? 2 : 4;
    QVERIFY2(first.children >= 1 && first.children <= most, qPrintable(QString::number(first.children)));
    QVERIFY(first.childrenExited);
    QVERIFY2(first.status.startsWith("Kernels ready for "), qPrintable(first.status));
    QCOMPARE(validEntries(cache), first.total);
    // Each build is in the record, with the key its entry has.
    const std::vector<PreparedDevice> record = readPreparedDevices(cache.toStdString());
    const PreparedDevice *device = findPrepared(record, m_device);
    QVERIFY(device);
    QCOMPARE(device->builds.size(), first.total);
    for (const PreparedBuild &b : device->builds) {
        QVERIFY2(b.error.empty(), b.error.c_str());
        QVERIFY(ProgramCache::hasValidEntry(cache.toStdString(), b.key));
    }

    const Pass second = prepareOnce(cache);
    QVERIFY(second.finished);
    QCOMPARE(second.done, first.total);
    QCOMPARE(second.children, 0); // everything was prepared: not one child started
    QVERIFY2(second.status.startsWith("Kernels ready for "), qPrintable(second.status));
}

void TestPrepareAhead::rebuildsCorruptEntry()
{
    const QString cache = m_dir.filePath("fill"); // filled above (or now)
    QVERIFY(prepareOnce(cache).finished);
    const std::vector<CacheEntryInfo> entries = ProgramCache::listEntries(cache.toStdString());
    QVERIFY(!entries.empty());
    std::ofstream(entries.front().file, std::ios::binary | std::ios::trunc) << "not a program binary";
    QCOMPARE(validEntries(cache), entries.size() - 1);
    const Pass again = prepareOnce(cache);
    QVERIFY(again.finished);
    QCOMPARE(again.builds, 1); // only the corrupt one
    QCOMPARE(again.children, 1);
    QCOMPARE(validEntries(cache), entries.size());
}

// A child that stays and dies during a build (a driver crash: FWB_PREPARE_CHILD_FAULT, cli/PrepareChild.h)
// fails that job only, recorded as failed; the next job gets a new child and every other program is built.
void TestPrepareAhead::childThatDiesCostsItsJobOnly()
{
    const FilterSpec *family = findFilter("box3x3_interior");
    QVERIFY(family->variants.size() >= 3);
    const std::string victim = family->variants[1].name;
    qputenv("FWB_PREPARE_CHILD_FAULT", ("die:box3x3_interior/" + victim + "/gray8").c_str());
    const QString cache = m_dir.filePath("dies");
    const Pass pass = prepareOnce(cache);
    qunsetenv("FWB_PREPARE_CHILD_FAULT");
    QVERIFY(pass.finished);
    QCOMPARE(pass.done, pass.total);
    QCOMPARE(std::size_t(pass.builds), pass.total);
    QVERIFY2(pass.status.endsWith("(1 could not be built)"), qPrintable(pass.status));
    QVERIFY2(pass.children >= 2, qPrintable(QString::number(pass.children))); // the one that died, then another
    QCOMPARE(validEntries(cache), pass.total - 1);
    const std::vector<PreparedDevice> record = readPreparedDevices(cache.toStdString());
    const PreparedDevice *device = findPrepared(record, m_device);
    QVERIFY(device);
    for (const PreparedBuild &b : device->builds)
        QVERIFY2(b.error.empty() == (b.variant != victim), (b.variant + ": " + b.error).c_str());
}

// With the family prepared, a race in a fresh window (a session that built nothing yet) says "Running", never
// "Compiling and running": every version is built ahead, and the race loads it (before the builder it
// compiled each first use in its session).
void TestPrepareAhead::raceAfterPrepareCompilesNothing()
{
    const QString cache = m_dir.filePath("fill");
    QVERIFY(prepareOnce(cache).finished); // filled above (or now); FWB_CACHE_DIR names it
    MainWindow window(false);
    window.prepareAhead()->setScope({"box3x3_interior"}, {"gray8"}); // before its start
    test::PageWindowSetup setup;
    setup.filter = QStringLiteral("box3x3_interior");
    QVERIFY(test::setUpPageWindow(window, m_device, 64, 48, setup));
    QSignalSpy ready(window.prepareAhead(), &PrepareAhead::finished);
    QVERIFY(ready.wait(60000) || ready.count() > 0);
    QCOMPARE(window.prepareAhead()->childrenStarted(), 0);
    RacePage *race = test::findPage<RacePage>(window);
    QVERIFY(race);
    QStringList said;
    connect(race, &WorkbenchPage::statusMessage, this, [&said](const QString &text) { said << text; });
    QSignalSpy finished(race, &JobPage::jobFinished);
    QVERIFY(race->startJob());
    QVERIFY(finished.wait(300000));
    QVERIFY2(said.filter("Running ").size() >= 3, qPrintable(said.join('\n')));
    QVERIFY2(said.filter("Compiling").isEmpty(), qPrintable(said.join('\n')));
}

// Issue 25's GUI test: a race started on an empty cache while the builder is at work shows what it waits
// for. Every version whose program the race's own session had to compile (in neither cache when its turn
// came: origin "compiled") said so at each of its steps until its bar: "Compiling and running ..." in the
// status line and "compiling…" in its chart row, never a silent "Running". One version's child never answers
// (FWB_PREPARE_CHILD_FAULT=hang): the race meets it being built and waits for it, saying so. That child
// builds ahead of time, at idle priority: while the race waits it is raised to the race's priority
// (SCHED_OTHER at the window's nice value, every thread of it) where this user may (ProcessPriority.h:
// root, CAP_SYS_NICE or RLIMIT_NICE room; else it stays idle); it gets no CPU time (it hangs), so the race
// gives up on it after about a second (BenchWorker::kProgressWindowS), lowers it back to idle priority and
// compiles the program itself.
void TestPrepareAhead::coldRaceSaysWhatItBuilds()
{
    const FilterSpec *family = findFilter("box3x3_interior");
    const std::string stuck = family->variants.back().name; // not the selected one: a build ahead of time
    QVERIFY(stuck != m_variant.toStdString());
    qputenv("FWB_CACHE_DIR", m_dir.filePath("cold-race").toLocal8Bit());
    qputenv("FWB_PREPARE_CHILD_FAULT", ("hang:box3x3_interior/" + stuck + "/gray8").c_str());
    MainWindow window(false);
    window.prepareAhead()->setScope({"box3x3_interior"}, {"gray8"}); // before its start
    test::PageWindowSetup setup;
    setup.filter = QStringLiteral("box3x3_interior");
    QVERIFY(test::setUpPageWindow(window, m_device, 64, 48, setup));
    const PrepareJob stuckJob{"box3x3_interior", stuck, "gray8", {}};
    QTRY_VERIFY_WITH_TIMEOUT(PrepareAhead::queueFor(m_device)
                                 && PrepareAhead::queueFor(m_device)->state(stuckJob) == PrepareQueue::State::Building,
                             20000);
    qunsetenv("FWB_PREPARE_CHILD_FAULT");
    const qint64 stuckChild = window.prepareAhead()->childBuilding(stuckJob);
    QVERIFY(stuckChild > 0);
    auto every = [stuckChild](int policy, int nice) {
        const std::vector<ThreadPriority> threads = threadPriorities(stuckChild);
        return !threads.empty() && std::all_of(threads.begin(), threads.end(), [&](const ThreadPriority &t) {
            return t.policy == policy && t.nice == nice;
        });
    };
    QVERIFY(every(SCHED_IDLE, kIdleNice));
    bool seenRaised = false;
    QTimer poll; // the GUI thread is free while the race's worker waits
    const int raceNice = currentNice(); // the race's thread has the window's
    connect(&poll, &QTimer::timeout, this, [&] { seenRaised = seenRaised || every(SCHED_OTHER, raceNice); });
    poll.start(10);
    RacePage *race = test::findPage<RacePage>(window);
    QVERIFY(race);
    QString status;
    connect(race, &WorkbenchPage::statusMessage, this, [&status](const QString &text) { status = text; });
    // Connected after the page's own slot: what the page shows once it has heard of each step.
    QHash<QString, QStringList> said; // version: the status line and the chart's row at each of its steps
    QElapsedTimer clock;
    qint64 stuckStepMs = -1, stuckBarMs = -1; // its first step and its bar
    connect(race->findChild<BenchWorker *>(), &BenchWorker::progress, this, [&](const BenchProgress &p) {
        if (const auto *step = std::get_if<BenchProgress::RaceStep>(&p.what)) {
            said[QString::fromStdString(step->upcoming.name)] << status + " / " + race->chart()->pendingText();
            if (step->upcoming.name == stuck && stuckStepMs < 0)
                stuckStepMs = clock.elapsed();
        } else if (const auto *entry = std::get_if<RaceEntry>(&p.what)) {
            if (entry->name == stuck && stuckBarMs < 0)
                stuckBarMs = clock.elapsed();
        }
    });
    QSignalSpy finished(race, &JobPage::jobFinished);
    clock.start();
    QVERIFY(race->startJob());
    QVERIFY(finished.wait(300000));
    poll.stop();
    QVERIFY(!race->race().cancelled);
    QCOMPARE(seenRaised, mayRaiseTo(raceNice)); // raised while the race waited for it
    QVERIFY(every(SCHED_IDLE, kIdleNice));      // and back at idle once the race gave up on it (it still hangs)
    qInfo("the stuck version: %lld ms from its step to its bar", stuckBarMs - stuckStepMs);
    int compiledInRace = 0, versions = 0;
    bool stuckRan = false;
    for (const RaceEntry &e : race->race().entries) {
        if (e.baseline || !e.onDevice() || e.result.unavailable || !findFilter("box3x3_interior")->variant(e.name))
            continue; // the CPU and OpenCV rows, what this device cannot run, the pinned rerun
        ++versions;
        QVERIFY2(e.result.ok(), e.result.error.c_str());
        const QStringList seen = said.value(QString::fromStdString(e.name));
        QVERIFY2(!seen.isEmpty(), e.name.c_str()); // every bar had its step first
        stuckRan = stuckRan || e.name == stuck;
        if (e.result.buildOrigin != "compiled")
            continue; // built ahead: loaded from the disk cache
        ++compiledInRace;
        for (const QString &shown : seen) // each step until its bar: the wait for a child, then its own build
            QVERIFY2(shown.startsWith("Compiling and running ") && shown.endsWith(QString::fromUtf8(" / compiling…")),
                     qPrintable(QString::fromStdString(e.name) + ": " + seen.join(" | ")));
    }
    QVERIFY(versions >= 3);
    QVERIFY(stuckRan);
    QVERIFY(compiledInRace >= 1); // the stuck one at least
    qInfo("%d of %d versions compiled in the race, the others built ahead", compiledInRace, versions);
}

void TestPrepareAhead::windowShowsProgressAndStopsOnClose()
{
    const QString cache = m_dir.filePath("window");
    qputenv("FWB_CACHE_DIR", cache.toLocal8Bit());
    qputenv("FWB_PREPARE_JOBS", "2");
    QList<qint64> pids;
    QString seen;
    {
        MainWindow window(false);
        window.controls()->setAutoRun(false);
        QVERIFY(window.controls()->setDeviceSpec(QString::fromStdString(m_device.spec())));
        PrepareAhead *ahead = window.prepareAhead();
        QVERIFY(ahead && ahead->isEnabled());
        ahead->setScope({"box3x3_interior"}, {"gray8"}); // before its start (it waits for the first run)
        window.show();
        auto *label = window.findChild<QLabel *>("prepareStatus");
        QVERIFY(label);
        // From the start with an empty cache: what it does, on which device, how far.
        QTRY_VERIFY_WITH_TIMEOUT(label->isVisible() && label->text().startsWith("Preparing kernels for "), 20000);
        seen = label->text();
        QVERIFY2(seen.contains(QString::fromStdString(m_device.name)) && seen.contains(" of "), qPrintable(seen));
        QTRY_VERIFY_WITH_TIMEOUT(!(pids = ahead->childPids()).isEmpty() && pids.front() > 0, 20000);
        window.close(); // mid-build
        QVERIFY(ahead->childPids().isEmpty());
        QVERIFY(!ahead->isBuilding());
    }
    for (qint64 pid : std::as_const(pids)) // killed and reaped: no such process any more, not even a zombie
        QVERIFY2(::kill(pid_t(pid), 0) != 0 && errno == ESRCH, qPrintable(QString::number(pid)));
    for (const CacheEntryInfo &e : ProgramCache::listEntries(cache.toStdString())) // no half-written entry
        QVERIFY2(e.valid, e.problem.c_str());
    qunsetenv("FWB_PREPARE_JOBS");
}

void TestPrepareAhead::toggleStopsIt()
{
    const QString cache = m_dir.filePath("toggle");
    qputenv("FWB_CACHE_DIR", cache.toLocal8Bit());
    MainWindow window(false);
    QVERIFY(window.controls()->setDeviceSpec(QString::fromStdString(m_device.spec())));
    PrepareAhead *ahead = window.prepareAhead();
    ahead->setScope({"box3x3_interior"}, {"gray8"});
    auto *toggle = window.findChild<QAction *>("prepareAheadAction");
    QVERIFY(toggle && toggle->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(ahead->isBuilding(), 20000);
    // Another engine (here the CPU: no device to prepare for) stops the builds, children reaped.
    QList<qint64> pids = ahead->childPids();
    QVERIFY(window.controls()->setDeviceSpec(QStringLiteral("cpu-multi")));
    QVERIFY(!ahead->isBuilding());
    QVERIFY(ahead->statusText().isEmpty());
    for (qint64 pid : std::as_const(pids))
        QVERIFY(::kill(pid_t(pid), 0) != 0 && errno == ESRCH);
    QVERIFY(window.controls()->setDeviceSpec(QString::fromStdString(m_device.spec()))); // and back: again
    QTRY_VERIFY_WITH_TIMEOUT(ahead->isBuilding(), 20000);
    pids = ahead->childPids();
    toggle->trigger(); // View ▸ Prepare Kernels Ahead, unticked
    QVERIFY(!ahead->isEnabled());
    QVERIFY(!ahead->isBuilding());
    QVERIFY(ahead->statusText().isEmpty());
    for (qint64 pid : pids)
        QVERIFY(::kill(pid_t(pid), 0) != 0 && errno == ESRCH);
    // FWB_PREPARE_AHEAD=0 starts a window with it off.
    qputenv("FWB_PREPARE_AHEAD", "0");
    MainWindow off(false);
    QVERIFY(!off.prepareAhead()->isEnabled());
    QVERIFY(!off.findChild<QAction *>("prepareAheadAction")->isChecked());
    qputenv("FWB_PREPARE_AHEAD", "1");
}

// The timing panel's line for a run that built its program: "compiled in 812 ms (first use on this device)"
// (binaries kept: the disk cache did not hold it), and the next run's "from memory cache".
void TestPrepareAhead::timingSaysWhereItCompiled()
{
    qputenv("FWB_CACHE_DIR", m_dir.filePath("timing").toLocal8Bit());
    MainWindow window(false);
    window.prepareAhead()->setEnabled(false); // no child builds it first
    test::PageWindowSetup setup;
    setup.filter = QStringLiteral("box3x3_interior");
    QVERIFY(test::setUpPageWindow(window, m_device, 64, 48, setup));
    ComputeResult first, second;
    QVERIFY(test::runInWindow(window, &first));
    QVERIFY2(first.run.ok(), first.run.error.c_str());
    QCOMPARE(QString::fromStdString(first.run.buildOrigin), QString("compiled"));
    const QString built = TimingPanel::summaryLine(first);
    QVERIFY2(built.contains(QRegularExpression("compiled in [0-9.]+ (ms|s) \\(first use on this device\\)")), qPrintable(built));
    QVERIFY(test::runInWindow(window, &second));
    const QString again = TimingPanel::summaryLine(second);
    QVERIFY2(again.contains("program from memory cache") && !again.contains("compiled"), qPrintable(again));
}

// While the window's first run is in flight the builder waits for its first picture (setWindowBusy), but
// not on a CPU device, whose children all run at idle priority: there it starts at once, so that more is
// built before a race comes (PoCL, 2 cores: 6-7 of the filter's 11 jobs by 10 s when it waited).
void TestPrepareAhead::startsBesideTheFirstRunOnCpu()
{
    qputenv("FWB_CACHE_DIR", m_dir.filePath("busy").toLocal8Bit());
    PrepareAhead ahead;
    ahead.setScope({"box3x3_interior"}, {"gray8"});
    ahead.setJobs(1);
    ahead.setWindowBusy(true); // the window's first run, never over here
    ahead.setDevice(m_device);
    const bool started = QTest::qWaitFor([&ahead] { return ahead.buildsSent() > 0; }, 3000);
    QCOMPARE(started, m_device.kind == DeviceKind::Cpu);
    ahead.setWindowBusy(false); // the first picture: now on any device
    QTRY_VERIFY_WITH_TIMEOUT(ahead.buildsSent() > 0, 10000);
    ahead.stop();
}

QTEST_MAIN(TestPrepareAhead)
#include "tst_gui_prepare_ahead.moc"
