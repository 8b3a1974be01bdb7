// BenchWorker: race, tune and sweep jobs on a thread that owns its own Session (see BenchWorker.h).
#include "BenchWorker.h"

#include <QMutexLocker>

#include <cstdio>

namespace fwb {

std::shared_ptr<TuningDb> workbenchTuningDb()
{
    static const std::shared_ptr<TuningDb> db = [] {
        auto d = std::make_shared<TuningDb>();
        std::string warning;
        if (!d->load(&warning))
            std::fprintf(stderr, "filter-workbench: warning: %s\n", warning.c_str());
        return d;
    }();
    return db;
}

BenchWorker::BenchWorker(QObject *parent) : QThread(parent)
{
    qRegisterMetaType<fwb::RaceEntry>();
    qRegisterMetaType<fwb::RaceResult>();
    qRegisterMetaType<fwb::TuneCell>();
    qRegisterMetaType<fwb::TuneResult>();
    qRegisterMetaType<fwb::SweepResult>();
}

BenchWorker::~BenchWorker()
{
    {
        QMutexLocker lock(&m_mutex);
        m_abort = true;
        m_cancel = true;
        m_condition.wakeOne();
    }
    wait();
}

bool BenchWorker::start(const BenchJob &job)
{
    QMutexLocker lock(&m_mutex);
    if (m_busy || m_hasJob)
        return false;
    m_job = job;
    m_hasJob = true;
    m_cancel = false;
    if (!isRunning())
        QThread::start(LowPriority);
    else
        m_condition.wakeOne();
    return true;
}

void BenchWorker::cancel()
{
    m_cancel = true;
}

bool BenchWorker::isBusy() const
{
    QMutexLocker lock(&m_mutex);
    return m_busy || m_hasJob;
}

void BenchWorker::run()
{
    forever {
        BenchJob job;
        {
            QMutexLocker lock(&m_mutex);
            while (!m_hasJob && !m_abort)
                m_condition.wait(&m_mutex);
            if (m_abort)
                break;
            job = m_job;
            m_hasJob = false;
            m_busy = true;
        }
        try {
            if (!m_session || m_sessionSpec != job.device.spec()) {
                m_session.reset();
                SessionOptions options;
                options.tunedLocal = TuningDb::lookup(workbenchTuningDb());
                m_session = std::make_unique<Session>(job.device, options);
                m_sessionSpec = job.device.spec();
            }
            if (job.kind == BenchJob::Race) {
                const RaceResult race = runRace(*m_session, *job.input, job.run, job.race, &m_cancel,
                                                [this](const RaceEntry &e, int done, int total) {
                                                    emit raceProgress(e, done, total);
                                                });
                emit raceFinished(race);
            } else if (job.kind == BenchJob::Tune) {
                // The default launch is measured untuned, and every shape as asked.
                TuningDb &db = *workbenchTuningDb();
                db.setEnabled(false);
                const TuneResult tune = tuneVariant(*m_session, *job.input, job.run, job.tune, &m_cancel,
                                                    [this](const TuneCell &c, int done, int total) {
                                                        emit tuneProgress(c, done, total);
                                                    });
                db.setEnabled(true);
                emit tuneFinished(tune);
            } else {
                const SweepResult sweep = runSweep(*m_session, *job.input, job.run, job.sweepParam, job.sweepValues, {},
                                                   &m_cancel, [this](int done, int total) { emit sweepProgress(done, total); });
                emit sweepFinished(sweep);
            }
        } catch (const std::exception &e) {
            workbenchTuningDb()->setEnabled(true);
            emit failed(QString::fromStdString(e.what()));
        }
        QMutexLocker lock(&m_mutex);
        m_busy = false;
    }
    m_session.reset(); // OpenCL objects die on the thread that made them
}

} // namespace fwb
