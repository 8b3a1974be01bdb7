// The Controls panel under the mouse wheel (issue 24, defect 2): a wheel turned over a combo box, spin
// box or slider that does not have the focus scrolls the panel and changes nothing; once the widget has
// the focus (a click or Tab), the wheel changes it as usual. And the default transfer of each device.
#include "TestSupport.h"

#include "ControlPanel.h"
#include "Devices.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QWheelEvent>

using namespace fwb;

class TestGuiControls : public QObject
{
    Q_OBJECT

private:
    // One notch of the wheel (down) over the middle of `target`, delivered like a real one.
    static void wheelOver(QWidget *target)
    {
        const QPoint local = target->rect().center();
        QWheelEvent wheel(QPointF(local), QPointF(target->mapToGlobal(local)), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(target, &wheel);
        QCoreApplication::processEvents();
    }

    // Scrolls the panel so that `w` is in view, near the middle.
    static void bringIntoView(QScrollArea *scroll, QWidget *w)
    {
        scroll->ensureWidgetVisible(w, 10, scroll->viewport()->height() / 3);
        QCoreApplication::processEvents();
    }

private slots:
    void wheelScrollsThePanelNotTheValues()
    {
        ControlPanel panel(listDevices());
        panel.setAutoRun(false);
        panel.resize(300, 360); // short: the panel must scroll
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.setFilterName("sobel"));
        auto *scroll = panel.findChild<QScrollArea *>("controlsScroll");
        QVERIFY(scroll);
        QScrollBar *bar = scroll->verticalScrollBar();
        QVERIFY2(bar->maximum() > 0, "the panel should scroll at this height");

        auto *border = panel.findChild<QComboBox *>("borderCombo");
        auto *output = panel.findChild<QDoubleSpinBox *>("param_output");
        auto *slider = panel.findChild<QSlider *>("param_output_slider");
        QVERIFY(border && output && slider);
        // Focused, the combo box takes the wheel as usual.
        bringIntoView(scroll, border);
        border->setCurrentIndex(0);
        border->setFocus();
        QTRY_VERIFY(border->hasFocus());
        wheelOver(border);
        QCOMPARE(border->currentIndex(), 1);
        border->setCurrentIndex(0);

        panel.setFocus();
        for (QWidget *w : {static_cast<QWidget *>(border), static_cast<QWidget *>(output), static_cast<QWidget *>(slider)}) {
            QCOMPARE(w->focusPolicy(), Qt::StrongFocus); // not Qt::WheelFocus: the wheel does not focus it
            bringIntoView(scroll, w);
            const int borderBefore = border->currentIndex();
            const double outputBefore = output->value();
            const int scrolledBefore = bar->value();
            wheelOver(w);
            QCOMPARE(border->currentIndex(), borderBefore);
            QCOMPARE(output->value(), outputBefore);
            QVERIFY2(bar->value() != scrolledBefore || scrolledBefore == bar->maximum(),
                     qPrintable(w->objectName() + ": the panel did not scroll"));
        }

    }

    // Issue 27: the window moves the image the fastest way for the device until the user picks a way:
    // page-locked on a graphics card with its own memory, ordinary copies on a CPU or integrated device.
    void defaultTransferIsTheFastestForTheDevice()
    {
        DeviceInfo discrete, cpu;
        discrete.name = "Test discrete GPU";
        discrete.kind = DeviceKind::Gpu;
        discrete.hostUnifiedMemory = false;
        cpu.name = "Test CPU device";
        cpu.kind = DeviceKind::Cpu;
        cpu.hostUnifiedMemory = true;
        cpu.platformIndex = 1; // a spec of its own ("1:0")
        ControlPanel panel({discrete, cpu});
        panel.setAutoRun(false);
        auto *device = panel.findChild<QComboBox *>("deviceCombo");
        auto *transfer = panel.findChild<QComboBox *>("transferCombo");
        QVERIFY(device && transfer);
        device->setCurrentIndex(0);
        QCOMPARE(panel.transferName(), QStringLiteral("pinned"));
        device->setCurrentIndex(1);
        QCOMPARE(panel.transferName(), QStringLiteral("pageable"));
        device->setCurrentIndex(device->findData(QStringLiteral("cpu-multi")));
        QCOMPARE(panel.transferName(), QStringLiteral("pageable"));
        // The user's pick stays through a device change.
        QVERIFY(panel.setTransfer(QStringLiteral("zero_copy")));
        device->setCurrentIndex(0);
        QCOMPARE(panel.transferName(), QStringLiteral("zero_copy"));
        QVERIFY(!panel.setTransfer(QStringLiteral("teleport")));
    }
};

QTEST_MAIN(TestGuiControls)
#include "tst_gui_controls.moc"
