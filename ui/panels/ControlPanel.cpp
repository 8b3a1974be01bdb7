// ControlPanel: builds its widgets from the catalogue and the device list; turns them into a request.
#include "ControlPanel.h"

#include "Catalogue.h"
#include "ComboBoxes.h"
#include "UiText.h"
#include "VariantPicker.h"
#include "WorkGroupEditor.h"

#include <QCheckBox>
#include "WheelGuard.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace fwb {

ControlPanel::ControlPanel(const std::vector<DeviceInfo> &devices, QWidget *parent)
    : QWidget(parent), m_devices(devices), m_wheelGuard(new WheelGuard(this))
{
    // Everything but the Run box scrolls; the Run box stays in view below it (on a 768-pixel screen
    // it was below the fold). Both stay children of this panel, so findChild() finds every control.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName("controlsScroll");
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    auto *layout = new QVBoxLayout(content);

    // Device: every OpenCL device, then the CPU reference code as two more "devices".
    auto *deviceBox = new QGroupBox(tr("Device"), this);
    auto *deviceLayout = new QVBoxLayout(deviceBox);
    m_device = new QComboBox(deviceBox);
    m_device->setObjectName("deviceCombo");
    for (const DeviceInfo &d : m_devices) {
        m_device->addItem(QString::fromStdString(deviceLabel(d, m_devices)),
                          QString::fromStdString(d.spec()));
        m_device->setItemData(m_device->count() - 1, QString::fromStdString(d.summary()),
                              Qt::ToolTipRole);
    }
    m_device->addItem(tr("CPU reference (single thread)"), QStringLiteral("cpu-single"));
    m_device->addItem(tr("CPU reference (multi-thread)"), QStringLiteral("cpu-multi"));
    const int defaultDevice = defaultDeviceIndex(m_devices);
    m_device->setCurrentIndex(defaultDevice >= 0 ? defaultDevice : m_device->count() - 1);
    m_deviceInfo = wrappedLabel(deviceBox);
    deviceLayout->addWidget(m_device);
    deviceLayout->addWidget(m_deviceInfo);
    layout->addWidget(deviceBox);

    // Filter and its variants.
    m_variantPicker = new VariantPicker(this);
    layout->addWidget(m_variantPicker);

    // Parameters: generated rows, plus border, pixel format and fast-math.
    auto *paramGroup = new QGroupBox(tr("Parameters"), this);
    auto *paramOuter = new QVBoxLayout(paramGroup);
    m_paramBox = new QWidget(paramGroup);
    m_paramLayout = new QFormLayout(m_paramBox);
    m_paramLayout->setContentsMargins(0, 0, 0, 0);
    paramOuter->addWidget(m_paramBox);
    auto *fixedForm = new QFormLayout;
    m_border = new QComboBox(paramGroup);
    m_border->setObjectName("borderCombo");
    for (BorderMode mode : allBorderModes())
        m_border->addItem(QString::fromLatin1(borderModeName(mode)), int(mode));
    m_border->setToolTip(tr("What the filter reads beyond the image edge."));
    m_format = new QComboBox(paramGroup);
    m_format->setObjectName("formatCombo");
    for (PixelFormat format : allPixelFormats())
        m_format->addItem(QString::fromLatin1(formatName(format)), int(format));
    m_format->setToolTip(tr("Pixel layout sent to the device: 1, 3 or 4 bytes per pixel."));
    m_fastMath = new QCheckBox(tr("Fast math (-cl-fast-relaxed-math)"), paramGroup);
    m_fastMath->setToolTip(tr("Lets the compiler trade exact floating-point rules for speed."));
    fixedForm->addRow(tr("Border"), m_border);
    fixedForm->addRow(tr("Pixel format"), m_format);
    fixedForm->addRow(m_fastMath);
    paramOuter->addLayout(fixedForm);
    layout->addWidget(paramGroup);

    // Work-group shape: presets and a custom W x H, validated live.
    m_workGroup = new WorkGroupEditor(this);
    layout->addWidget(m_workGroup);

    // Run controls.
    auto *runBox = m_runBox = new QGroupBox(tr("Run"), this);
    auto *runLayout = new QFormLayout(runBox);
    runLayout->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint); // a 4-digit count, not a bar
    m_repeat = new QSpinBox(runBox);
    m_repeat->setObjectName("repeatSpin");
    m_repeat->setRange(1, 1000);
    m_repeat->setValue(5);
    m_repeat->setToolTip(tr("Timed repeats after one warm-up run; the panel shows the median."));
    m_transfer = new QComboBox(runBox);
    m_transfer->setObjectName("transferCombo");
    m_transfer->addItem(tr("Pageable copies"), QStringLiteral("pageable"));
    m_transfer->addItem(tr("Pinned staging"), QStringLiteral("pinned"));
    m_transfer->addItem(tr("Zero copy (mapped)"), QStringLiteral("zero_copy"));
    m_transfer->addItem(tr("Output mapped"), QStringLiteral("output_mapped"));
    m_transfer->addItem(tr("Shared virtual memory"), QStringLiteral("svm"));
    m_transfer->setToolTip(tr("How the image reaches the device and comes back (seed 004: 19 ms pageable, 8.39 ms "
                              "pinned, 9.18 mapped, 6.93 output mapped). Pinned staging costs a host copy, shown "
                              "apart. The image stays on the device while only the variant, parameters, border or "
                              "work-group change. The default is the fastest way for the device: page-locked (pinned) memory on a "
                              "graphics card with memory of its own, ordinary copies on a processor or a device that "
                              "shares the computer's memory."));
    m_autoRun = new QCheckBox(tr("Run automatically when something changes"), runBox);
    m_autoRun->setChecked(true);
    auto *buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("Run"), runBox);
    m_run->setObjectName("runButton");
    m_cancel = new QPushButton(tr("Cancel"), runBox);
    m_cancel->setObjectName("cancelButton");
    m_cancel->setEnabled(false);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    runLayout->addRow(tr("Repeats"), m_repeat);
    runLayout->addRow(tr("Transfers"), m_transfer);
    runLayout->addRow(m_autoRun);
    runLayout->addRow(buttons);
    layout->addStretch();
    scroll->setWidget(content);
    scroll->setMinimumWidth(content->sizeHint().width() + 24); // room for the vertical scroll bar
    outer->addWidget(scroll, 1);
    outer->addWidget(runBox);

    connect(m_device, &QComboBox::currentIndexChanged, this, [this] {
        rebuildVariants();
        m_workGroup->setCpuEngine(engine().isCpu());
        suggestTransfer();
        emitChanged(true);
    });
    connect(m_variantPicker, &VariantPicker::filterChanged, this, [this] {
        rebuildParams();
        rebuildVariants();
        emitChanged(true);
    });
    connect(m_variantPicker, &VariantPicker::variantChanged, this, [this] {
        updateFastMath();
        emitChanged(true);
    });
    connect(m_border, &QComboBox::currentIndexChanged, this, [this] { emitChanged(false); });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        rebuildVariants();
        emitChanged(true);
    });
    connect(m_format, &QComboBox::activated, this, [this] { m_formatPicked = true; });
    connect(m_autoRun, &QCheckBox::clicked, this, &ControlPanel::autoRunPicked);
    connect(m_fastMath, &QCheckBox::toggled, this, [this] { emitChanged(true); });
    connect(m_workGroup, &WorkGroupEditor::shapeChanged, this, [this] { emitChanged(true); });
    connect(m_repeat, &QSpinBox::valueChanged, this, [this] { emitChanged(false); });
    connect(m_transfer, &QComboBox::currentIndexChanged, this, [this] { emitChanged(false); });
    connect(m_transfer, &QComboBox::activated, this, [this] { m_transferPicked = true; });
    connect(m_run, &QPushButton::clicked, this, &ControlPanel::runClicked);
    connect(m_cancel, &QPushButton::clicked, this, &ControlPanel::cancelClicked);

    m_updating = true;
    rebuildParams();
    rebuildVariants();
    m_workGroup->setCpuEngine(engine().isCpu());
    suggestTransfer();
    m_updating = false;
    // The wheel scrolls the panel; it changes a combo box, spin box or slider only once that has the focus.
    m_wheelGuard->protect(this);
}

void ControlPanel::emitChanged(bool shape)
{
    if (m_updating)
        return;
    if (shape)
        emit shapeChanged();
    emit requestChanged();
}

QString ControlPanel::deviceSpec() const
{
    return m_device->currentData().toString();
}

bool ControlPanel::setDeviceSpec(const QString &spec)
{
    return selectByData(m_device, spec);
}

ComputeEngine ControlPanel::engine() const
{
    ComputeEngine engine;
    const QString spec = deviceSpec();
    if (spec == "cpu-single") {
        engine.kind = ComputeEngine::CpuSingle;
    } else if (spec == "cpu-multi") {
        engine.kind = ComputeEngine::CpuMulti;
    } else {
        const int index = m_device->currentIndex();
        if (index >= 0 && index < int(m_devices.size()))
            engine.device = m_devices[std::size_t(index)];
    }
    return engine;
}

const FilterSpec *ControlPanel::filter() const
{
    return m_variantPicker->filter();
}

const VariantSpec *ControlPanel::variant() const
{
    return m_variantPicker->variant();
}

QString ControlPanel::filterName() const
{
    return m_variantPicker->filterName();
}

bool ControlPanel::setFilterName(const QString &name)
{
    return m_variantPicker->setFilterName(name);
}

QString ControlPanel::variantName() const
{
    return m_variantPicker->variantName();
}

bool ControlPanel::setVariantName(const QString &name)
{
    return m_variantPicker->setVariantName(name);
}

QStringList ControlPanel::availableVariants() const
{
    return m_variantPicker->availableVariants();
}

QString ControlPanel::unavailableReason(const QString &variant) const
{
    return m_variantPicker->unavailableReason(variant);
}

void ControlPanel::rebuildVariants()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const ComputeEngine eng = engine();
    m_variantPicker->setParams(params());
    m_variantPicker->rebuild(eng, PixelFormat(m_format->currentData().toInt()));
    if (eng.isCpu()) {
        m_deviceInfo->setText(tr("The plain C++ reference code on this computer's processor: the "
                                 "yardstick every OpenCL result is checked against."));
    } else {
        const DeviceInfo &d = eng.device;
        m_deviceInfo->setText(tr("%1, %2 compute units, driver %3<br>%4")
                                  .arg(html(d.vendor), QString::number(d.computeUnits),
                                       html(d.driverVersion), html(d.openclVersion)));
    }
    updateFastMath();
    m_updating = wasUpdating;
}

void ControlPanel::updateFastMath()
{
    if (const VariantSpec *v = variant())
        m_fastMath->setEnabled(v->fastMathMatters || m_fastMath->isChecked());
}

void ControlPanel::rebuildParams()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    while (m_paramLayout->rowCount() > 0)
        m_paramLayout->removeRow(0);
    m_paramEditors.clear();
    const FilterSpec *f = filter();
    if (f) {
        for (const ParamSpec &p : f->params) {
            ParamEditor editor;
            editor.key = p.key;
            auto *row = new QWidget(m_paramBox);
            auto *rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(0, 0, 0, 0);
            editor.slider = new QSlider(Qt::Horizontal, row);
            editor.spin = new QDoubleSpinBox(row);
            editor.slider->setObjectName(QString::fromStdString("param_" + p.key + "_slider"));
            editor.spin->setObjectName(QString::fromStdString("param_" + p.key));
            const double step = p.step > 0 ? p.step : (p.integer ? 1.0 : 0.1);
            const int steps = int(std::lround((p.maximum - p.minimum) / step));
            editor.slider->setRange(0, std::max(1, steps));
            editor.spin->setRange(p.minimum, p.maximum);
            editor.spin->setSingleStep(step);
            editor.spin->setDecimals(p.integer ? 0 : (step < 0.1 ? 2 : 1));
            editor.spin->setValue(p.defaultValue);
            editor.spin->setKeyboardTracking(false);
            editor.slider->setValue(int(std::lround((p.defaultValue - p.minimum) / step)));
            const QString help = QString::fromStdString(p.help);
            editor.slider->setToolTip(help);
            editor.spin->setToolTip(help);
            rowLayout->addWidget(editor.slider, 1);
            rowLayout->addWidget(editor.spin);
            QSlider *slider = editor.slider;
            QDoubleSpinBox *spin = editor.spin;
            const double minimum = p.minimum;
            // Slider and spin box mirror each other; each move asks for a run, and the debounce
            // timer plus the worker's coalescing make sure only the latest value is computed.
            connect(slider, &QSlider::valueChanged, spin, [spin, minimum, step](int value) {
                spin->setValue(minimum + value * step);
            });
            connect(spin, &QDoubleSpinBox::valueChanged, this, [this, slider, minimum, step](double v) {
                const QSignalBlocker blocker(slider);
                slider->setValue(int(std::lround((v - minimum) / step)));
                m_variantPicker->setParams(params()); // grey out what this value rules out (box strips: r <= 2)
                // Not a shape change: re-validating would rebuild the program on every slider step.
                emitChanged(false);
            });
            auto *label = new QLabel(QString::fromStdString(p.label), m_paramBox);
            label->setToolTip(help);
            m_paramLayout->addRow(label, row);
            // The help on screen, not only in a tooltip: "Output 2" means nothing until one reads
            // "0 = |gx|, 1 = |gy|, 2 = gradient magnitude".
            auto *helpLabel = new QLabel(m_paramBox);
            helpLabel->setObjectName(QString::fromStdString("param_" + p.key + "_help"));
            helpLabel->setWordWrap(true);
            helpLabel->setTextFormat(Qt::RichText);
            helpLabel->setText(QStringLiteral("<span style='color:gray'>%1</span>").arg(help.toHtmlEscaped()));
            m_paramLayout->addRow(helpLabel);
            m_paramEditors.push_back(editor);
        }
        if (f->params.empty())
            m_paramLayout->addRow(new QLabel(tr("<i>This filter has no parameters.</i>"), m_paramBox));
        m_border->setEnabled(f->hasBorder);
    }
    m_wheelGuard->protect(this); // the new sliders and spin boxes too
    m_updating = wasUpdating;
}

FilterParams ControlPanel::params() const
{
    FilterParams p;
    for (const ParamEditor &editor : m_paramEditors)
        p.values[editor.key] = editor.spin->value();
    p.border = BorderMode(m_border->currentData().toInt());
    p.format = PixelFormat(m_format->currentData().toInt());
    p.fastMath = m_fastMath->isChecked();
    return p;
}

bool ControlPanel::setParamValue(const QString &key, double value)
{
    for (const ParamEditor &editor : m_paramEditors) {
        if (QString::fromStdString(editor.key) == key) {
            editor.spin->setValue(value);
            return true;
        }
    }
    return false;
}

bool ControlPanel::setPixelFormat(PixelFormat format)
{
    const int index = m_format->findData(int(format));
    if (index < 0)
        return false;
    m_formatPicked = true;
    m_format->setCurrentIndex(index);
    return true;
}

void ControlPanel::suggestTransfer()
{
    if (m_transferPicked)
        return;
    const ComputeEngine eng = engine();
    const TransferMode mode = eng.isCpu() ? TransferMode::Pageable : fastestTransferFor(eng.device);
    selectByData(m_transfer, QString::fromStdString(transferModeName(mode)));
}

bool ControlPanel::setTransfer(const QString &modeName)
{
    const int index = m_transfer->findData(modeName);
    if (index < 0)
        return false;
    m_transferPicked = true;
    m_transfer->setCurrentIndex(index);
    return true;
}

QString ControlPanel::transferName() const
{
    return m_transfer->currentData().toString();
}

void ControlPanel::suggestPixelFormat(PixelFormat format)
{
    const int index = m_format->findData(int(format));
    if (!m_formatPicked && index >= 0)
        m_format->setCurrentIndex(index);
}

LocalSize ControlPanel::localSize() const
{
    return m_workGroup->localSize();
}

QString ControlPanel::localSizeText() const
{
    return m_workGroup->localSizeText();
}

bool ControlPanel::setLocalSizeText(const QString &text)
{
    return m_workGroup->setLocalSizeText(text);
}

void ControlPanel::setShapeStatus(const QString &problem, bool pending, double checkMs)
{
    m_workGroup->setShapeStatus(problem, pending, checkMs);
}

QString ControlPanel::shapeProblem() const
{
    return m_workGroup->shapeProblem();
}

int ControlPanel::repeat() const
{
    return m_repeat->value();
}

void ControlPanel::setRepeat(int repeat)
{
    m_repeat->setValue(repeat);
}

bool ControlPanel::autoRun() const
{
    return m_autoRun->isChecked();
}

void ControlPanel::setAutoRun(bool on)
{
    m_autoRun->setChecked(on);
}

void ControlPanel::setRunning(bool running)
{
    m_cancel->setEnabled(running);
}

RunRequest ControlPanel::runRequest() const
{
    RunRequest request;
    request.filter = filterName().toStdString();
    request.variant = variantName().toStdString();
    request.params = params();
    request.local = localSize();
    request.repeat = repeat();
    request.warmup = 1;
    request.cpuSingle = true;
    request.check = true;
    request.reuseUpload = true; // device-resident: a new upload only for a new image or transfer mode
    request.transfer = parseTransferMode(m_transfer->currentData().toString().toStdString())
                           .value_or(TransferMode::Pageable);
    request.keepOutput = true;
    return request;
}

} // namespace fwb
