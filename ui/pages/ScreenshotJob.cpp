// ScreenshotJob: the animation wait shared by the pages' screenshot jobs (see the header).
#include "ScreenshotJob.h"

#include <QElapsedTimer>
#include <QTimer>

#include <memory>

namespace fwb {

void whenAnimated(QObject *owner, std::function<bool()> hasRates, ScreenshotJob::Done done, const QString &problem)
{
    auto *poll = new QTimer(owner);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    QObject::connect(poll, &QTimer::timeout, owner, [poll, clock, hasRates = std::move(hasRates),
                                                     done = std::move(done), problem] {
        const bool rates = hasRates();
        if ((rates && clock->elapsed() > 5000) || clock->elapsed() > 30000) {
            poll->stop();
            poll->deleteLater();
            done(rates ? QString() : problem);
        }
    });
    poll->start(200);
}

} // namespace fwb
