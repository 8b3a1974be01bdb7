// EditorJobRunner: one QThread per job; the result comes back to the GUI thread through a queued call.
#include "EditorJobRunner.h"

#include "Catalogue.h"
#include "ComputeWorker.h" // differenceHeatMap
#include "WorkerWait.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>

#include <memory>

namespace fwb {

QImage editorImage(const Image &image)
{
    if (image.isNull())
        return {};
    const QImage::Format format = image.format() == PixelFormat::Gray8  ? QImage::Format_Grayscale8
                                  : image.format() == PixelFormat::Rgb888 ? QImage::Format_RGB888
                                                                          : QImage::Format_RGBA8888;
    return QImage(image.data(), image.width(), image.height(), qsizetype(image.stride()), format).copy();
}

EditorJobRunner::EditorJobRunner(QObject *parent)
    : QObject(parent), m_cancel(std::make_shared<std::atomic<bool>>(false))
{
}

EditorJobRunner::~EditorJobRunner()
{
    // Kill any helper still running and wait for the threads that watch them (they poll the flag).
    m_cancel->store(true);
    for (QThread *thread : m_threads) {
        thread->wait();
        delete thread;
    }
}

void EditorJobRunner::cancel()
{
    m_cancel->store(true);
}

void EditorJobRunner::start(const WorkerJob &job, WorkerOptions options, std::shared_ptr<const Image> input, bool runIt)
{
    m_cancel->store(false);
    options.cancel = m_cancel.get();
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel; // outlives the runner's member if need be
    QPointer<EditorJobRunner> self(this);

    QThread *thread = QThread::create([self, job, options, cancel, runIt, input]() mutable {
        EditorJobResult result;
        result.runIt = runIt;
        const RunRequest &request = job.request;
        if (runIt) {
            // The unedited variant first, through the same helper: both bars pay the same overhead.
            WorkerJob original = job;
            original.kernel.reset();
            result.original = runInWorker(original, options);
        }
        result.edited = runInWorker(job, options);
        if (runIt && result.edited.result.ok() && !result.edited.result.output.isNull()) {
            const FilterSpec *filter = findFilter(request.filter);
            const Image src = input->format() == request.params.format ? *input
                                                                       : input->convertedTo(request.params.format);
            Image reference(result.edited.result.output.width(), result.edited.result.output.height(),
                            request.params.format);
            if (filter && filter->cpuReference)
                filter->cpuReference(src, reference, request.params, 0);
            double mean = 0;
            result.heatMap = differenceHeatMap(result.edited.result.output, reference, &result.maxDiff, &mean,
                                               &result.diffPixels);
            result.output = editorImage(result.edited.result.output);
        }
        if (!cancel->load()) {
            // The result in one shared block, complete before the release that tells ThreadSanitizer
            // the GUI thread's call comes after it (ui/workers/WorkerWait.h); the call carries only the pointer.
            auto done = std::make_shared<const EditorJobResult>(std::move(result));
            releaseForQueuedCall();
            QMetaObject::invokeMethod(
                qApp, [self, done] {
                    if (self)
                        emit self->finished(*done);
                },
                Qt::QueuedConnection);
        }
    });
    m_threads.push_back(thread);
    connect(thread, &QThread::finished, this, [this, thread] {
        std::erase(m_threads, thread);
        thread->deleteLater();
    });
    thread->start();
}

} // namespace fwb
