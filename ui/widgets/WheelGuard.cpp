// WheelGuard: the wheel changes a value widget only while it has the focus (see WheelGuard.h).
#include "WheelGuard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QCoreApplication>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>
#include <QWidget>

namespace fwb {

void WheelGuard::protect(QWidget *root)
{
    if (!root)
        return;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!qobject_cast<QComboBox *>(w) && !qobject_cast<QAbstractSpinBox *>(w) && !qobject_cast<QAbstractSlider *>(w))
            continue;
        if (qobject_cast<QScrollBar *>(w))
            continue; // a scroll bar: the wheel is its whole point (and where a scroll area sends it)
        w->setFocusPolicy(Qt::StrongFocus);
        w->installEventFilter(this);
    }
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel) {
        auto *w = qobject_cast<QWidget *>(watched);
        if (w && !w->hasFocus()) {
            // Not this widget's: the scroll area around it gets the wheel instead, sent there directly
            // (Qt passes a filtered, ignored wheel on to the parents only in some cases: not for one
            // sent by a program, and in Qt 6.4 not reliably for the platform's either).
            for (QWidget *p = w->parentWidget(); p; p = p->parentWidget())
                if (auto *area = qobject_cast<QAbstractScrollArea *>(p)) {
                    QCoreApplication::sendEvent(area->viewport(), event);
                    event->accept();
                    return true;
                }
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace fwb
