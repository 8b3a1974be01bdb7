// ControlPanel: every choice that shapes a run (device, filter, variant, parameters, pixel format,
// work-group shape, repeats), generated from the catalogue so no filter needs its own widgets.
// The filter/variant box and the work-group box are widgets of their own (VariantPicker,
// WorkGroupEditor); this panel adds the device, the parameters and the run controls around them.
#pragma once

#include "ComputeWorker.h"
#include "Devices.h"
#include "Session.h"
#include "WorkGroup.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace fwb {

struct FilterSpec;
struct VariantSpec;
class VariantPicker;
class WorkGroupEditor;
class WheelGuard;

class ControlPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ControlPanel(const std::vector<DeviceInfo> &devices, QWidget *parent = nullptr);

    // "P:D" for an OpenCL device, "cpu-single" or "cpu-multi" for the CPU reference engines.
    QString deviceSpec() const;
    bool setDeviceSpec(const QString &spec);
    ComputeEngine engine() const;

    QString filterName() const;
    bool setFilterName(const QString &name);
    QString variantName() const;
    bool setVariantName(const QString &name);
    // Variants of the current filter that can run on the current device and format.
    QStringList availableVariants() const;
    // Why a variant of the current filter cannot run here; empty when it can (or is unknown).
    QString unavailableReason(const QString &variant) const;

    FilterParams params() const;
    bool setParamValue(const QString &key, double value);
    bool setPixelFormat(PixelFormat format); // counts as the user's pick
    // The opened image's own layout (colour: rgba8888, grey: gray8), taken until the user picks one.
    void suggestPixelFormat(PixelFormat format);
    bool formatPicked() const { return m_formatPicked; }
    // How the image moves: by default the fastest way for the device (core's fastestTransferFor: page-locked on
    // a discrete GPU, ordinary copies elsewhere), until the user picks one; false for an unknown name.
    bool setTransfer(const QString &modeName); // counts as the user's pick
    QString transferName() const;

    LocalSize localSize() const;
    QString localSizeText() const;
    bool setLocalSizeText(const QString &text); // a preset name or "WxH"
    // Shows why the shape cannot launch (empty: it can); "pending" text while the worker checks.
    // checkMs: how long the worker's check took (it builds the program first), -1 when unknown.
    void setShapeStatus(const QString &problem, bool pending = false, double checkMs = -1);
    QString shapeProblem() const;

    int repeat() const;
    void setRepeat(int repeat);
    bool autoRun() const;
    void setAutoRun(bool on);
    void setRunning(bool running);

    RunRequest runRequest() const;
    // The Run box (repeats, transfers, auto-run, Run/Cancel), kept in view below the scrolled controls.
    QWidget *runBox() const { return m_runBox; }
    const FilterSpec *filter() const;
    const VariantSpec *variant() const;

signals:
    void requestChanged(); // anything that changes the output or the timing
    void shapeChanged();   // the work-group shape or anything that changes its limits
    void runClicked();
    void autoRunPicked(bool on); // the user ticked or unticked "Run automatically"
    void cancelClicked();

private:
    void rebuildVariants();
    void rebuildParams();
    void updateFastMath();
    void emitChanged(bool shape);

    std::vector<DeviceInfo> m_devices;
    QComboBox *m_device = nullptr;
    QLabel *m_deviceInfo = nullptr;
    VariantPicker *m_variantPicker = nullptr;
    QWidget *m_paramBox = nullptr;
    QFormLayout *m_paramLayout = nullptr;
    struct ParamEditor
    {
        std::string key;
        QSlider *slider = nullptr;
        QDoubleSpinBox *spin = nullptr;
    };
    std::vector<ParamEditor> m_paramEditors;
    QComboBox *m_border = nullptr;
    QComboBox *m_format = nullptr;
    QCheckBox *m_fastMath = nullptr;
    WorkGroupEditor *m_workGroup = nullptr;
    QSpinBox *m_repeat = nullptr;
    QComboBox *m_transfer = nullptr; // TransferMode, in allTransferModes() order
    QCheckBox *m_autoRun = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QWidget *m_runBox = nullptr;
    bool m_updating = false; // true while rebuilding: suppress change signals
    WheelGuard *m_wheelGuard;
    bool m_formatPicked = false; // the user chose the pixel format: opened images no longer change it
    bool m_transferPicked = false; // the user chose the transfer: a device change no longer changes it
    void suggestTransfer();
};

} // namespace fwb
