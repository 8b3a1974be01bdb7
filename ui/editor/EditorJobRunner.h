// EditorJobRunner: the kernel editor's Build and Run jobs, each on a thread of its own that waits on
// the helper process (core/WorkerProcess.h), so the window never waits for a kernel. A Run sends the
// unedited variant and then the edited kernel through the same helper (both bars pay the same
// overhead) and computes the edited output's difference from the CPU reference off the GUI thread.
#pragma once

#include "Image.h"
#include "WorkerProcess.h"

#include <QImage>
#include <QObject>

#include <atomic>
#include <memory>
#include <vector>

class QThread;

namespace fwb {

struct EditorJobResult
{
    bool runIt = false;
    WorkerOutcome original; // Run only: the unedited variant, through the same helper
    WorkerOutcome edited;
    QImage output, heatMap; // Run only, on success: the edited output and |output - CPU reference|
    int maxDiff = -1;
    qint64 diffPixels = 0;
};

class EditorJobRunner : public QObject
{
    Q_OBJECT

public:
    explicit EditorJobRunner(QObject *parent = nullptr);
    ~EditorJobRunner() override; // kills any helper still running and waits for its thread

    // job.kernel is the edited kernel; runIt: race it against job without a kernel (the original)
    // on `input`, else build it only. options.cancel is the runner's own. finished() follows on the
    // GUI thread, unless the runner is cancelled or gone by then.
    void start(const WorkerJob &job, WorkerOptions options, std::shared_ptr<const Image> input, bool runIt);
    void cancel();

signals:
    void finished(const fwb::EditorJobResult &result);

private:
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::vector<QThread *> m_threads;
};

// The image as a QImage (gray, RGB or RGBA; a deep copy).
QImage editorImage(const Image &image);

} // namespace fwb
