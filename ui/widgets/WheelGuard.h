// WheelGuard: value widgets inside a scrolled panel (combo boxes, spin boxes, sliders) take the mouse
// wheel only while they have the keyboard focus; otherwise the wheel scrolls the panel. Issue 24: the
// wheel over the Controls panel changed whatever filter output or border rule was under the cursor.
#pragma once

#include <QObject>

class QWidget;

namespace fwb {

class WheelGuard : public QObject
{
    Q_OBJECT

public:
    explicit WheelGuard(QObject *parent = nullptr) : QObject(parent) {}

    // Every combo box, spin box and slider under root: focus by click or Tab only (Qt::StrongFocus, not
    // by the wheel), and a wheel over it while unfocused goes on to the panel. Call again after adding
    // widgets; calling twice for a widget is harmless.
    void protect(QWidget *root);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace fwb
