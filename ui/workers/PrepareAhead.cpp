// PrepareAhead: the window's background builder (see PrepareAhead.h).
#include "PrepareAhead.h"
#include "UiText.h"

#include "Catalogue.h"
#include "ProcessPriority.h"
#include "ProgramCache.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileInfo>
#include <QLabel>
#include <QLoggingCategory>
#include <QMenu>
#include <QProcess>
#include <QStatusBar>

#include <algorithm>
#include <mutex>
#include <thread>

#include <signal.h>
#include <sys/prctl.h>

Q_LOGGING_CATEGORY(lcPrepare, "fwb.prepare", QtInfoMsg) // each build's line: QT_LOGGING_RULES=fwb.prepare.debug=true

namespace fwb {

namespace {

constexpr int kStartDelayMs = 400; // the window's own first run claims its program before a child takes it
constexpr int kSkipsPerTurn = 8;   // prepared programs checked per event-loop turn (each reads a cache entry)
constexpr int kPollMs = 250;       // how soon a job a race jumped to the front gets its child
constexpr int kMaxHoldMs = 15000;  // the longest the start waits for the window's first run

struct ActiveQueue
{
    std::mutex mutex;
    std::string spec;
    std::weak_ptr<PrepareQueue> queue;
};

ActiveQueue &active()
{
    static ActiveQueue a;
    return a;
}


} // namespace

PrepareAhead::PrepareAhead(QObject *parent)
    : QObject(parent), m_formats{"gray8", "rgba8888", "rgb888"}
{
    m_jobs = int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
    if (const QByteArray jobs = qgetenv("FWB_PREPARE_JOBS"); jobs.toInt() > 0)
        m_jobs = std::min(jobs.toInt(), 64);
    m_startTimer.setSingleShot(true);
    m_startTimer.setInterval(kStartDelayMs);
    connect(&m_startTimer, &QTimer::timeout, this, &PrepareAhead::start);
    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (!m_pumping)
            pump();
    });
}

PrepareAhead::~PrepareAhead()
{
    stop();
}

bool PrepareAhead::allowedByEnvironment()
{
    const QByteArray value = qgetenv("FWB_PREPARE_AHEAD").trimmed().toLower();
    return !(value == "0" || value == "off" || value == "no" || value == "false");
}

QString PrepareAhead::filterBenchPath()
{
    const QString env = qEnvironmentVariable("FWB_FILTER_BENCH");
    if (!env.isEmpty())
        return env;
    return QCoreApplication::applicationDirPath() + QStringLiteral("/filter-bench");
}

std::shared_ptr<PrepareQueue> PrepareAhead::queueFor(const DeviceInfo &device)
{
    ActiveQueue &a = active();
    std::lock_guard lock(a.mutex);
    return a.spec == device.spec() + '|' + device.name ? a.queue.lock() : nullptr;
}

void PrepareAhead::attach(QStatusBar *statusBar, QMenu *viewMenu)
{
    auto *label = new QLabel(statusBar);
    label->setObjectName("prepareStatus");
    label->setVisible(false);
    statusBar->addPermanentWidget(label);
    connect(this, &PrepareAhead::statusChanged, label, [label](const QString &text) {
        label->setText(text);
        label->setVisible(!text.isEmpty());
    });
    viewMenu->addSeparator();
    QAction *toggle = viewMenu->addAction(tr("Prepare &Kernels Ahead"));
    toggle->setObjectName("prepareAheadAction");
    toggle->setCheckable(true);
    toggle->setChecked(m_enabled);
    toggle->setToolTip(tr("Build every kernel this device can need in the background, at the lowest priority, so "
                          "that no first run waits for its compiler"));
    connect(toggle, &QAction::toggled, this, &PrepareAhead::setEnabled);
    connect(this, &PrepareAhead::enabledChanged, toggle, &QAction::setChecked);
}

void PrepareAhead::setEnabled(bool on)
{
    if (on == m_enabled)
        return;
    m_enabled = on;
    emit enabledChanged(on);
    if (!on) {
        stop();
        setStatus(QString());
    } else if (m_device) {
        m_startTimer.start();
    }
}

void PrepareAhead::setScope(const std::vector<std::string> &filters, const std::vector<std::string> &formats)
{
    m_filters = filters;
    if (!formats.empty())
        m_formats = formats;
}

void PrepareAhead::setJobs(int jobs)
{
    m_jobs = std::max(1, jobs);
}

void PrepareAhead::setDevice(const std::optional<DeviceInfo> &device)
{
    const auto id = [](const std::optional<DeviceInfo> &d) { return d ? d->spec() + '|' + d->name : std::string(); };
    if (id(device) == id(m_device) && (m_queue || m_startTimer.isActive() || !m_enabled || !m_missing.isEmpty()))
        return;
    stop();
    m_device = device;
    m_missing.clear();
    m_claimedEarly.clear();
    if (!m_device) {
        setStatus(QString());
        return;
    }
    m_held.start();
    if (m_enabled)
        m_startTimer.start();
}

void PrepareAhead::setFocus(const std::string &filter, const std::string &variant, const std::string &format)
{
    m_focusFilter = filter;
    m_focusVariant = variant;
    m_focusFormat = format;
    if (m_queue) {
        m_queue->setFocus(filter, variant, format);
        pump();
    }
}

void PrepareAhead::claim(const PrepareJob &job)
{
    if (!m_queue) {
        if (m_device)
            m_claimedEarly.push_back(job); // the builder starts a moment later: no child for it then either
        return;
    }
    if (m_queue->claim(job) == PrepareQueue::State::Pending)
        updateProgress();
}

void PrepareAhead::setWindowBusy(bool busy)
{
    m_windowBusy = busy;
    if (!busy && !m_queue && m_startTimer.isActive()) { // waiting for the window: no need to wait on
        m_startTimer.stop();
        start();
    }
}

void PrepareAhead::stop()
{
    m_startTimer.stop();
    m_poll.stop();
    if (m_queue) {
        m_queue->stop(); // a race waiting on one of ours goes on by itself
        ActiveQueue &a = active();
        std::lock_guard lock(a.mutex);
        if (a.queue.lock() == m_queue) {
            a.spec.clear();
            a.queue.reset();
        }
    }
    const QList<QProcess *> children = m_children.keys();
    m_children.clear();
    for (QProcess *child : children) {
        child->disconnect(this);
        child->kill();
        child->waitForFinished(5000); // reaped: no zombie, no child left building
        delete child;
    }
    m_queue.reset();
    m_pumping = false;
}

void PrepareAhead::start()
{
    if (!m_enabled || !m_device)
        return;
    // On a CPU device every child runs at idle priority (setWantedBuilds, below): it takes nothing from the
    // window's first run, and the run's compile leaves a core idle that a child can use, so it starts at
    // once (PoCL, 2 cores: 6-7 of the selected filter's 11 jobs were done when a race started at 10 s, the
    // children starting at the first picture).
    if (m_windowBusy && m_device->kind != DeviceKind::Cpu && m_held.isValid() && m_held.elapsed() < kMaxHoldMs) {
        m_startTimer.start(); // once the window's own run is done
        return;
    }
    const QString exe = filterBenchPath();
    if (!QFileInfo(exe).isExecutable()) {
        m_missing = exe;
        qCWarning(lcPrepare, "not preparing kernels ahead: %s is missing", qPrintable(exe));
        setStatus(tr("Kernels are not prepared ahead: %1 is missing").arg(exe));
        return;
    }
    std::vector<const FilterSpec *> filters;
    for (const FilterSpec &f : catalogue())
        if (m_filters.empty() || std::find(m_filters.begin(), m_filters.end(), f.name) != m_filters.end())
            filters.push_back(&f);
    std::vector<PixelFormat> formats;
    for (const std::string &name : m_formats)
        if (const auto format = parsePixelFormat(name))
            formats.push_back(*format);
    // With OpenCV's row before each filter's variants (a race's last bar, which the race cannot build
    // itself beside the others: PrepareJob::isOpenCv).
    m_queue = std::make_shared<PrepareQueue>(prepareJobs(filters, formats, *m_device, nullptr, true));
    m_queue->setFocus(m_focusFilter, m_focusVariant, m_focusFormat);
    // On a CPU device (PoCL) a race's kernels share the cores with the builds: a build at more than idle
    // priority would slow the very kernels the race times. There every build is idle, and the race compiles
    // what no child has finished itself.
    m_queue->setWantedBuilds(m_device->kind != DeviceKind::Cpu);
    for (const PrepareJob &job : m_claimedEarly)
        m_queue->claim(job);
    m_claimedEarly.clear();
    m_cacheDir = ProgramCache::defaultDiskDir();
    makeOpenCvCacheRoot(); // before any child's OpenCV job: where the window's own OpenCV row will look
    m_record = readPreparedDevices(m_cacheDir);
    m_started = m_sent = m_failed = 0;
    m_clock.start();
    {
        ActiveQueue &a = active();
        std::lock_guard lock(a.mutex);
        a.spec = m_device->spec() + '|' + m_device->name;
        a.queue = m_queue;
    }
    m_poll.start();
    pump();
}

void PrepareAhead::pump()
{
    if (!m_queue || !m_device)
        return;
    const PreparedDevice *record = findPrepared(m_record, *m_device);
    int checked = 0;
    for (;;) {
        int busyWanted = 0, busyIdle = 0;
        for (const Child &c : std::as_const(m_children))
            if (c.job)
                ++(c.wanted ? busyWanted : busyIdle);
        const bool idleSlot = busyIdle < m_jobs, wantedSlot = busyWanted < m_jobs;
        if (!idleSlot && !wantedSlot)
            break;
        if (checked == kSkipsPerTurn) { // the rest on the next turn: the window stays responsive
            m_pumping = true;
            QTimer::singleShot(0, this, [this] {
                m_pumping = false;
                pump();
            });
            break;
        }
        bool wanted = false;
        const std::optional<PrepareJob> job = m_queue->take(&wanted, !idleSlot);
        if (!job)
            break;
        ++checked;
        if (alreadyPrepared(*job, record, *m_device, m_cacheDir)) {
            m_queue->finish(*job);
            continue;
        }
        // A child of the job's kind that has none, else a new one.
        QProcess *child = nullptr;
        for (auto it = m_children.begin(); it != m_children.end() && !child; ++it)
            if (!it->job && !it->closing && it->wanted == wanted)
                child = it.key();
        if (!child)
            child = startChild(wanted);
        if (child)
            send(child, *job);
        else // it could not start (errorOccurred has removed it): the job fails as a child `run` that did not start
            jobEnded(*job, preparedBuildFromRun(*job, {}, -1, *m_device));
    }
    if (!m_pumping)
        closeIdleChildren();
    updateProgress();
}

QProcess *PrepareAhead::startChild(bool wanted)
{
    auto *child = new QProcess(this);
    child->setProgram(filterBenchPath());
    child->setArguments({QStringLiteral("prepare"), QStringLiteral("--serve")});
    child->setStandardErrorFile(QProcess::nullDevice());
    child->setChildProcessModifier([wanted] {
        // In the child before exec: gone with the window. A build only ahead of time gets only the idle
        // time of the cores: SCHED_IDLE, which alone leaves a race's timings as they were (PoCL, 2 cores,
        // a gaussian5x5 race with `filter-bench prepare --jobs 2` building beside it, 6 rounds: its kernel
        // times 0.90-1.17x those of the race alone, median 1.02; at SCHED_OTHER nice 19 0.53-2.02x, median
        // 1.30; at nice 5 0.66-2.88x, median 1.37). One a race waits for (jumped, on a GPU: see start())
        // nearly the window's priority (nice 5), since an idle-priority child would starve behind any other
        // work while the race waits on it. An idle child whose build a race meets is raised to the race's
        // priority for that job where this user may (PrepareQueue::raise; ProcessPriority.h says who may),
        // and lowered after it.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (wanted)
            becomeWanted();
        else
            becomeIdle();
    });
    connect(child, &QProcess::readyReadStandardOutput, this, [this, child] { childAnswered(child); });
    connect(child, &QProcess::finished, this, [this, child](int code, QProcess::ExitStatus status) {
        childEnded(child, status == QProcess::NormalExit ? code : 128 + SIGKILL);
    });
    connect(child, &QProcess::errorOccurred, this, [this, child](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            childEnded(child, -1);
    });
    m_children.insert(child, Child{std::nullopt, wanted, {}, false});
    ++m_started;
    child->start(); // what send() writes now waits in QProcess's buffer until the child runs
    return m_children.contains(child) ? child : nullptr;
}

void PrepareAhead::send(QProcess *child, const PrepareJob &job)
{
    m_children[child].job = job;
    ++m_sent;
    child->write(QByteArray::fromStdString(prepareServeLine(job, m_device->spec(), {})) + '\n');
    m_queue->setBuilder(job, child->processId()); // the one a race waiting for this job raises
}

void PrepareAhead::childAnswered(QProcess *child)
{
    const auto it = m_children.find(child);
    if (it == m_children.end())
        return;
    it->pending += child->readAllStandardOutput();
    const qsizetype end = it->pending.indexOf('\n');
    if (end < 0 || !it->job)
        return; // the rest of the line later (a child answers only the job it was sent)
    const std::string line = it->pending.left(end).toStdString();
    it->pending.remove(0, end + 1);
    const PrepareJob job = *it->job;
    it->job.reset();
    if (!m_queue || !m_device)
        return;
    const std::optional<PreparedBuild> build = preparedBuildFromAnswer(job, line, *m_device);
    // What is no answer: the child is not to be trusted with another job (it ends; the job failed).
    if (!build) {
        child->kill();
        jobEnded(job, preparedBuildFromRun(job, {}, 128 + SIGKILL, *m_device));
    } else {
        jobEnded(job, *build);
    }
    pump();
}

void PrepareAhead::childEnded(QProcess *child, int exitStatus)
{
    const auto it = m_children.find(child);
    if (it == m_children.end())
        return;
    const std::optional<PrepareJob> job = it->job;
    m_children.erase(it);
    child->deleteLater();
    if (!m_queue || !m_device)
        return;
    if (job) // it died during a build (a driver that crashed on this program): this job only fails
        jobEnded(*job, preparedBuildFromRun(*job, {}, exitStatus, *m_device));
    pump();
}

void PrepareAhead::jobEnded(const PrepareJob &job, const PreparedBuild &build)
{
    qCDebug(lcPrepare, "%.0f ms: %s/%s %s built in %.0f ms", double(m_clock.elapsed()), job.filter.c_str(),
            job.variant.c_str(), job.format.c_str(), build.buildMs);
    if (!build.error.empty()) {
        ++m_failed;
        qCWarning(lcPrepare, "%s/%s %s: %s", job.filter.c_str(), job.variant.c_str(), job.format.c_str(),
                  build.error.c_str());
    }
    // Recorded as each build ends: a window closed halfway keeps what it prepared.
    std::string error;
    if (!recordPrepared(m_cacheDir, *m_device, !ProgramCache::keepsBinaries(*m_device), {build},
                        m_clock.elapsed() / 1000.0, m_jobs, &error) && !error.empty())
        qCWarning(lcPrepare, "the prepared record was not written: %s", error.c_str());
    m_queue->finish(job);
}

void PrepareAhead::closeIdleChildren()
{
    for (auto it = m_children.begin(); it != m_children.end(); ++it)
        if (!it->job && !it->closing) {
            it->closing = true;
            it.key()->closeWriteChannel(); // it exits at the end of its input; childEnded reaps it
        }
}

bool PrepareAhead::isBuilding() const
{
    return m_pumping || std::any_of(m_children.cbegin(), m_children.cend(), [](const Child &c) { return c.job.has_value(); });
}

bool PrepareAhead::isFinished() const
{
    return m_queue && m_queue->done() == m_queue->size();
}

std::size_t PrepareAhead::total() const
{
    return m_queue ? m_queue->size() : 0;
}

std::size_t PrepareAhead::done() const
{
    return m_queue ? m_queue->done() : 0;
}

QList<qint64> PrepareAhead::childPids() const
{
    QList<qint64> pids;
    for (QProcess *child : m_children.keys())
        if (child->processId() > 0)
            pids << child->processId();
    return pids;
}

qint64 PrepareAhead::childBuilding(const PrepareJob &job) const
{
    for (auto it = m_children.cbegin(); it != m_children.cend(); ++it)
        if (it->job && it->job->sameProgram(job))
            return it.key()->processId();
    return 0;
}

void PrepareAhead::updateProgress()
{
    if (!m_queue || !m_device)
        return;
    const QString device = q(m_device->name);
    if (!isFinished()) {
        setStatus(tr("Preparing kernels for %1: %2 of %3").arg(device).arg(done()).arg(total()));
        return;
    }
    if (isBuilding())
        return;
    m_poll.stop();
    const QString ready = m_failed ? tr("Kernels ready for %1 (%2 could not be built)").arg(device).arg(m_failed)
                                   : tr("Kernels ready for %1").arg(device);
    if (ready == m_status)
        return;
    setStatus(ready);
    emit finished();
}

void PrepareAhead::setStatus(const QString &text)
{
    if (text == m_status)
        return;
    m_status = text;
    emit statusChanged(text);
}

} // namespace fwb
