// LessonScreenshot: the lesson's --screenshot job (see the header).
#include "lesson/LessonScreenshot.h"

#include "lesson/LessonWindow.h"

#include <QTimer>

#include <cstdio>

namespace fwb {

namespace {

// The step, and for the live one the wait for both sides' rates; then one line on stderr says which step
// the picture shows (as the editor's screenshots say the dock's status), and done.
void goToStep(LessonWindow *lesson, int step, const ScreenshotJob::Done &done)
{
    lesson->setStep(step - 1);
    auto shown = [lesson, done](const QString &problem) {
        std::fprintf(stderr, "filter-workbench: lesson: step %d of %d: %s\n", lesson->step() + 1,
                     lesson->stepCount(), qPrintable(lesson->stepTitle()));
        done(problem);
    };
    if (LessonStep(step - 1) != LessonStep::Live) {
        shown({});
        return;
    }
    whenAnimated(
        lesson,
        [lesson] { return lesson->cpuFps() > 0 && (!lesson->hasDevice() || lesson->deviceFps() > 0); }, shown,
        QStringLiteral("the lesson's live step had no rate on both sides after 30 s"));
}

} // namespace

ScreenshotJob lessonScreenshotJob(LessonWindow &lesson, int step)
{
    ScreenshotJob job;
    job.afterRun = false;
    job.waitingFor = QStringLiteral("the lesson");
    job.timeoutMs = 600000;
    job.shown = &lesson;
    job.start = [lesson = &lesson, step](ScreenshotJob::Done done) {
        if (lesson->hasDevice()) {
            // The lesson starts measuring when shown (the event loop's first turn); its figures, then the step.
            QObject::connect(
                lesson, &LessonWindow::measured, lesson,
                [lesson, step, done] {
                    if (lesson->liveFigures().empty())
                        done(QStringLiteral("the lesson measured nothing: %1").arg(lesson->statusText()));
                    else
                        goToStep(lesson, step, done);
                },
                Qt::SingleShotConnection);
            QTimer::singleShot(0, lesson, [lesson, done] {
                if (!lesson->isMeasuring())
                    done(QStringLiteral("the lesson could not start measuring: %1").arg(lesson->statusText()));
            });
            return true;
        }
        // No OpenCL device: the lesson times this computer's best CPU code alone, beside the record.
        auto *poll = new QTimer(lesson);
        QObject::connect(poll, &QTimer::timeout, lesson, [lesson, poll, step, done] {
            if (lesson->cpuAloneMs() > 0) {
                poll->stop();
                poll->deleteLater();
                goToStep(lesson, step, done);
            }
        });
        poll->start(100);
        return true;
    };
    return job;
}

} // namespace fwb
