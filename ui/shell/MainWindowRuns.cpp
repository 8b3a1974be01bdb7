// MainWindow's runs (see MainWindow.h): the request from the controls, the work-group check, starting and
// cancelling a run, and the worker's answers: the first picture (shown before the timings end), the whole
// result handed to the pages, the timing panel and the run log. A part of the shell's own class.
#include "MainWindow.h"
#include "UiText.h"

#include "Catalogue.h"
#include "ComparePage.h"
#include "ControlPanel.h"
#include "ErrorBanner.h"
#include "PrepareAhead.h"
#include "StartupTrace.h"
#include "TimingPanel.h"
#include "WorkbenchPage.h"

#include <QAction>

#include <algorithm>

namespace fwb {

// ---- Running -------------------------------------------------------------------------------

ComputeRequest MainWindow::makeRequest() const
{
    ComputeRequest request;
    request.engine = m_controls->engine();
    request.input = m_input;
    request.run = m_controls->runRequest();
    return request;
}

void MainWindow::sendRequestToPages()
{
    const ComputeRequest request = makeRequest();
    for (WorkbenchPage *page : std::as_const(m_pages))
        page->setRequest(request);
}

void MainWindow::syncPrepareAhead()
{
    const ComputeEngine engine = m_controls->engine();
    m_prepare->setFocus(m_controls->filterName().toStdString(), m_controls->variantName().toStdString(),
                        formatName(m_controls->runRequest().params.format));
    m_prepare->setDevice(engine.isCpu() ? std::nullopt : std::optional<DeviceInfo>(engine.device));
}

void MainWindow::scheduleRun()
{
    if (m_controls->autoRun() && m_input)
        m_debounce.start();
}

void MainWindow::validateShape()
{
    const ComputeEngine engine = m_controls->engine();
    if (engine.isCpu()) {
        m_controls->setShapeStatus(QString());
        return;
    }
    // Device limits first, right here: instant feedback while typing, no worker round trip.
    const std::string deviceProblem = localSizeProblem(engine.device, m_controls->localSize(), {});
    if (!deviceProblem.empty()) {
        ++m_latestCheckId; // an answer still on its way is now stale
        m_controls->setShapeStatus(q(deviceProblem));
        return;
    }
    if (!m_controls->variant() || !m_input) {
        m_controls->setShapeStatus(QString());
        return;
    }
    // Kernel limits (work-group size, local memory) need the built program: ask the worker.
    ComputeRequest request = makeRequest();
    request.id = m_latestCheckId = ++m_nextId;
    m_controls->setShapeStatus(QString(), true);
    m_worker->checkLaunch(request);
}

void MainWindow::onLaunchChecked(quint64 id, const QString &problem, double checkMs)
{
    if (id == m_latestCheckId)
        m_controls->setShapeStatus(problem, false, checkMs);
}

bool MainWindow::startRun()
{
    m_debounce.stop();
    if (!m_input) {
        setStatus(tr("Open an image or the test card first."));
        return false;
    }
    if (!m_controls->variant()) {
        setStatus(tr("No variant of this filter can run on this device and pixel format."));
        return false;
    }
    const ComputeEngine engine = m_controls->engine();
    if (!engine.isCpu()) {
        QString problem = m_controls->shapeProblem();
        if (problem.isEmpty())
            problem = q(localSizeProblem(engine.device, m_controls->localSize(), {}));
        if (!problem.isEmpty()) {
            // Most reasons already start with "work-group WxH"; do not say it twice.
            const QString shape = m_controls->localSizeText();
            setStatus(problem.contains(shape) ? tr("Not launched: %1").arg(problem)
                                              : tr("Not launched: work-group %1 — %2").arg(shape, problem));
            return false;
        }
    }
    ComputeRequest request = makeRequest();
    request.id = m_latestRunId = ++m_nextId;
    request.earlyPicture = true; // the picture before the timings: the first result after launch waited for them
    if (const FilterSpec *filter = findFilter(request.run.filter); filter && !engine.isCpu()
        && usesPreparedProgram(*filter, request.run.params)) // this run builds it: no child for it
        m_prepare->claim({request.run.filter, request.run.variant, formatName(request.run.params.format), {}});
    m_prepare->setWindowBusy(true);
    m_running = true;
    setStatus(tr("Queued %1 / %2 on %3…")
                  .arg(m_controls->filterName(), m_controls->variantName(), engine.label()));
    m_worker->submit(request);
    updateActions();
    return true;
}

void MainWindow::cancelRun()
{
    m_debounce.stop();
    if (!m_running)
        return;
    m_worker->cancel();
    setStatus(tr("Cancelling…"));
}

void MainWindow::onRunStarted(quint64 id)
{
    if (id == m_latestRunId)
        setStatus(tr("Running %1 / %2…").arg(m_controls->filterName(), m_controls->variantName()));
}

void MainWindow::onRunFinished(const ComputeResult &result)
{
    if (result.superseded || result.id != m_latestRunId)
        return; // a newer request is already queued; its result is the one that matters
    m_running = false;
    m_prepare->setWindowBusy(false);
    m_firstPictureHold.stop(); // the whole result is here: a held first picture would only flash
    m_heldPicture = ComputeResult();
    const RunResult &r = result.run;

    if (r.cancelled) {
        if (m_firstPictureOnScreen) { // not the previous result: this run's first launch, without timings
            setStatus(tr("Cancelled while timing: the picture is the run's first launch, without timings."));
            m_timing->setFailedRun(tr("cancelled before its timings"));
        } else {
            setStatus(tr("Cancelled. The previous result stays on screen."));
            m_timing->setNote(tr("<i>The last run was cancelled.</i>"));
        }
        updateActions();
        emit runFailed(result);
        return;
    }
    m_runLog.add(result);
    if (!r.ok()) {
        m_banner->showRunFailure(result);
        m_timing->setFailedRun(q(r.error));
        setStatus(tr("%1 / %2 on %3: %4")
                      .arg(q(r.filter), q(r.variant), result.engine.label(), q(r.error)));
        updateActions();
        emit runFailed(result);
        return;
    }

    m_banner->dismiss();
    m_result = result;
    m_hasResult = true;
    m_firstPictureOnScreen = false;
    for (WorkbenchPage *page : std::as_const(m_pages))
        page->showResult(result);
    traceStartup("picture: shown");
    m_timing->setResult(result);
    setStatus(TimingPanel::summaryLine(result));
    traceStartup("result: complete (timings shown)");
    // Runs on every change only while they feel instant; the user's own choice always wins.
    // What every later change will cost: the repeats and the CPU timings, not the one-time compile
    // or the session's start-up.
    const double oneRepeatMs = std::max({r.endToEndMs, r.totalMs, r.kernelMs.median});
    const double waitedMs = (result.request.repeat + result.request.warmup) * oneRepeatMs
                            + std::max(0.0, r.cpuSingleMs) + std::max(0.0, r.cpuMultiMs)
                            + std::max(0.0, r.openCvCpuMs);
    if (m_autoRunChoice < 0 && m_controls->autoRun() && waitedMs > m_autoRunLimitMs) {
        m_controls->setAutoRun(false);
        m_autoRunPaused = true;
        // First, so that a narrow status line keeps it in view: the run's summary is in the timing panel too.
        setStatus(tr("Automatic runs paused: one run takes %1 s on this picture (tick \"Run automatically\" to keep "
                     "them) — %2")
                      .arg(waitedMs / 1000.0, 0, 'f', 1)
                      .arg(statusText()));
    }
    updateActions();
    emit resultShown(result);
}

// The run's first launch, checked, while its repeats and CPU timings go on: on screen at once when there is
// no picture yet (the first result after launch), else after a short hold that most runs' whole results beat.
void MainWindow::onFirstPicture(const ComputeResult &preview)
{
    if (preview.id != m_latestRunId || !m_running)
        return;
    if (m_hasResult || m_firstPictureOnScreen) {
        m_heldPicture = preview;
        m_firstPictureHold.start();
        return;
    }
    showFirstPicture(preview);
}

void MainWindow::showFirstPicture(const ComputeResult &preview)
{
    if (preview.id != m_latestRunId || !m_running)
        return;
    m_heldPicture = ComputeResult();
    m_comparePage->showResult(preview); // the other pages hear of whole results only
    traceStartup("picture: shown");
    // The first result is on screen: the background builds may start (at idle priority) while the repeats
    // and CPU timings go on; on two cores they had waited 2 s more for the whole result.
    m_prepare->setWindowBusy(false);
    m_timing->setTimingPending(preview); // no earlier run's numbers beside the new picture
    m_firstPictureOnScreen = true;
    const RunResult &r = preview.run;
    setStatus(tr("%1 / %2 on %3: first launch shown (%4); timing the repeats…")
                  .arg(q(r.filter), q(r.variant), preview.engine.label(),
                       !r.checked ? tr("not checked")
                       : r.matches ? tr("matches the CPU reference")
                                   : tr("DIFFERS from the CPU reference (max diff %1 > %2)")
                                         .arg(r.maxAbsDiff)
                                         .arg(r.tolerance)));
    updateActions();
    emit firstPictureShown(preview);
}

} // namespace fwb
