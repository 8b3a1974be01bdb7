// ControlPanel: builds its widgets from the catalogue and the device list; turns them into a request.
#include "ControlPanel.h"

#include "Catalogue.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace fwb {

namespace {

QLabel *wrappedLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString html(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

constexpr int kCustomShape = -1; // item data of the "custom" preset entry

} // namespace

ControlPanel::ControlPanel(const std::vector<DeviceInfo> &devices, QWidget *parent)
    : QWidget(parent), m_devices(devices)
{
    auto *layout = new QVBoxLayout(this);

    // Device: every OpenCL device, then the CPU reference code as two more "devices".
    auto *deviceBox = new QGroupBox(tr("Device"), this);
    auto *deviceLayout = new QVBoxLayout(deviceBox);
    m_device = new QComboBox(deviceBox);
    m_device->setObjectName("deviceCombo");
    for (const DeviceInfo &d : m_devices) {
        m_device->addItem(QString::fromStdString(d.name + " (" + deviceKindName(d.kind) + ")"),
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
    auto *filterBox = new QGroupBox(tr("Filter and variant"), this);
    auto *filterLayout = new QVBoxLayout(filterBox);
    m_filter = new QComboBox(filterBox);
    m_filter->setObjectName("filterCombo");
    for (const FilterSpec &f : catalogue())
        m_filter->addItem(QString::fromStdString(f.title), QString::fromStdString(f.name));
    m_filterInfo = wrappedLabel(filterBox);
    m_variants = new QListWidget(filterBox);
    m_variants->setObjectName("variantList");
    // Long titles ("Exact global size, non-uniform work-groups (CL 2.0) — unavailable") wrap instead
    // of growing a horizontal scroll bar that hid the last row; the list is as tall as its rows.
    m_variants->setWordWrap(true);
    m_variants->setTextElideMode(Qt::ElideNone);
    m_variants->setResizeMode(QListView::Adjust);
    m_variants->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_variants->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_variants->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_variants->installEventFilter(this);
    m_variantInfo = wrappedLabel(filterBox);
    m_variantInfo->setObjectName("variantInfo");
    filterLayout->addWidget(m_filter);
    filterLayout->addWidget(m_filterInfo);
    filterLayout->addWidget(m_variants);
    filterLayout->addWidget(m_variantInfo);
    layout->addWidget(filterBox);

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
    auto *shapeBox = new QGroupBox(tr("Work-group shape"), this);
    auto *shapeLayout = new QVBoxLayout(shapeBox);
    m_shapePreset = new QComboBox(shapeBox);
    m_shapePreset->setObjectName("shapePreset");
    for (const char *preset : kLocalSizePresets) {
        const QString name = QString::fromLatin1(preset);
        m_shapePreset->addItem(name == "auto" ? tr("auto (runtime picks, NULL local size)") : name, name);
    }
    m_shapePreset->addItem(tr("custom"), kCustomShape);
    auto *customRow = new QHBoxLayout;
    m_shapeWidth = new QSpinBox(shapeBox);
    m_shapeHeight = new QSpinBox(shapeBox);
    m_shapeWidth->setObjectName("shapeWidth");
    m_shapeHeight->setObjectName("shapeHeight");
    for (QSpinBox *spin : {m_shapeWidth, m_shapeHeight}) {
        spin->setRange(1, 8192);
        spin->setValue(16);
        spin->setKeyboardTracking(false);
    }
    customRow->addWidget(m_shapeWidth);
    customRow->addWidget(new QLabel(QStringLiteral("×"), shapeBox));
    customRow->addWidget(m_shapeHeight);
    customRow->addStretch();
    m_shapeStatus = wrappedLabel(shapeBox);
    m_shapeStatus->setObjectName("shapeStatus");
    shapeLayout->addWidget(m_shapePreset);
    shapeLayout->addLayout(customRow);
    shapeLayout->addWidget(m_shapeStatus);
    layout->addWidget(shapeBox);

    // Run controls.
    auto *runBox = new QGroupBox(tr("Run"), this);
    auto *runLayout = new QFormLayout(runBox);
    runLayout->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint); // a 4-digit count, not a bar
    m_repeat = new QSpinBox(runBox);
    m_repeat->setObjectName("repeatSpin");
    m_repeat->setRange(1, 1000);
    m_repeat->setValue(5);
    m_repeat->setToolTip(tr("Timed repeats after one warm-up run; the panel shows the median."));
    m_pinned = new QCheckBox(tr("Copy through pinned host memory"), runBox);
    m_pinned->setObjectName("pinnedCheck");
    m_pinned->setToolTip(tr("Upload and download through page-locked staging buffers, which the device can "
                            "copy directly (seed 004: 19 ms plain vs 8.39 ms pinned). Filling them costs a "
                            "host copy, shown apart as staging."));
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
    runLayout->addRow(m_pinned);
    runLayout->addRow(m_autoRun);
    runLayout->addRow(buttons);
    layout->addWidget(runBox);
    layout->addStretch();

    connect(m_device, &QComboBox::currentIndexChanged, this, [this] {
        rebuildVariants();
        updateShapeEditors();
        emitChanged(true);
    });
    connect(m_filter, &QComboBox::currentIndexChanged, this, [this] {
        rebuildParams();
        rebuildVariants();
        emitChanged(true);
    });
    connect(m_variants, &QListWidget::currentRowChanged, this, [this] {
        updateVariantText();
        emitChanged(true);
    });
    connect(m_border, &QComboBox::currentIndexChanged, this, [this] { emitChanged(false); });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        rebuildVariants();
        emitChanged(true);
    });
    connect(m_fastMath, &QCheckBox::toggled, this, [this] { emitChanged(true); });
    connect(m_shapePreset, &QComboBox::currentIndexChanged, this, [this] {
        updateShapeEditors();
        emitChanged(true);
    });
    connect(m_shapeWidth, &QSpinBox::valueChanged, this, [this] { emitChanged(true); });
    connect(m_shapeHeight, &QSpinBox::valueChanged, this, [this] { emitChanged(true); });
    connect(m_repeat, &QSpinBox::valueChanged, this, [this] { emitChanged(false); });
    connect(m_pinned, &QCheckBox::toggled, this, [this] { emitChanged(false); });
    connect(m_run, &QPushButton::clicked, this, &ControlPanel::runClicked);
    connect(m_cancel, &QPushButton::clicked, this, &ControlPanel::cancelClicked);

    m_updating = true;
    rebuildParams();
    rebuildVariants();
    updateShapeEditors();
    m_updating = false;
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
    const int index = m_device->findData(spec);
    if (index < 0)
        return false;
    m_device->setCurrentIndex(index);
    return true;
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
    return findFilter(filterName().toStdString());
}

const VariantSpec *ControlPanel::variant() const
{
    const FilterSpec *f = filter();
    return f ? f->variant(variantName().toStdString()) : nullptr;
}

QString ControlPanel::filterName() const
{
    return m_filter->currentData().toString();
}

bool ControlPanel::setFilterName(const QString &name)
{
    const int index = m_filter->findData(name);
    if (index < 0)
        return false;
    m_filter->setCurrentIndex(index);
    return true;
}

QString ControlPanel::variantName() const
{
    const QListWidgetItem *item = m_variants->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

bool ControlPanel::setVariantName(const QString &name)
{
    for (int row = 0; row < m_variants->count(); ++row) {
        QListWidgetItem *item = m_variants->item(row);
        if (item->data(Qt::UserRole).toString() == name) {
            if (!(item->flags() & Qt::ItemIsEnabled))
                return false;
            m_variants->setCurrentRow(row);
            return true;
        }
    }
    return false;
}

QStringList ControlPanel::availableVariants() const
{
    QStringList names;
    for (int row = 0; row < m_variants->count(); ++row) {
        const QListWidgetItem *item = m_variants->item(row);
        if (item->flags() & Qt::ItemIsEnabled)
            names << item->data(Qt::UserRole).toString();
    }
    return names;
}

QString ControlPanel::unavailableReason(const QString &variant) const
{
    for (int row = 0; row < m_variants->count(); ++row) {
        const QListWidgetItem *item = m_variants->item(row);
        if (item->data(Qt::UserRole).toString() == variant)
            return item->data(Qt::UserRole + 1).toString();
    }
    return {};
}

bool ControlPanel::eventFilter(QObject *watched, QEvent *event)
{
    // Wrapped rows change height with the width: refit when the width changes (a height change is
    // our own doing). The filter runs before the list lays out its viewport: use the new width.
    if (watched == m_variants && event->type() == QEvent::Resize) {
        const auto *resize = static_cast<QResizeEvent *>(event);
        if (resize->size().width() != resize->oldSize().width())
            fitVariantList(resize->size().width());
    }
    return QWidget::eventFilter(watched, event);
}

void ControlPanel::fitVariantList(int outerWidth)
{
    // As tall as its (wrapped) rows: no scroll bar, no hidden last row, and no empty box pushing
    // the parameters below the fold. Scroll bars are off, so the text gets all but the frame.
    const int width = (outerWidth >= 0 ? outerWidth : m_variants->width()) - 2 * m_variants->frameWidth();
    if (width <= 0)
        return;
    // A first estimate now, from the font...
    const QFontMetrics metrics(m_variants->font());
    const int margin =
        2 * (m_variants->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_variants) + 1);
    int height = 0;
    for (int row = 0; row < m_variants->count(); ++row) {
        const QRect text = metrics.boundingRect(QRect(0, 0, std::max(10, width - margin), 100000),
                                                Qt::TextWordWrap, m_variants->item(row)->text());
        height += std::max(m_variants->sizeHintForRow(row), text.height() + 2);
    }
    if (m_variants->count() == 0)
        height = metrics.height();
    m_variants->setFixedHeight(height + 2 * m_variants->frameWidth() + 2);
    // ...then the list's own layout once the viewport has its new width: the delegate's margins
    // decide the real row heights, and an estimate a few pixels short left the top row cut off.
    QTimer::singleShot(0, this, [this] {
        if (m_variants->count() == 0)
            return;
        m_variants->doItemsLayout();
        const int top = m_variants->visualItemRect(m_variants->item(0)).top();
        const int bottom = m_variants->visualItemRect(m_variants->item(m_variants->count() - 1)).bottom();
        const int needed = bottom - top + 1;
        if (needed > 0 && needed != m_variants->viewport()->height())
            m_variants->setFixedHeight(needed + m_variants->height() - m_variants->viewport()->height());
        m_variants->scrollToTop();
    });
}

void ControlPanel::rebuildVariants()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const QString previous = variantName();
    const FilterSpec *f = filter();
    const ComputeEngine eng = engine();
    const auto format = PixelFormat(m_format->currentData().toInt());
    {
        const QSignalBlocker blocker(m_variants);
        m_variants->clear();
        if (f) {
            for (const VariantSpec &v : f->variants) {
                // The CPU engines run the reference code, which every variant must agree with.
                const std::string why = eng.isCpu() ? std::string()
                                                    : variantUnavailableReason(v, eng.device, format);
                auto *item = new QListWidgetItem(QString::fromStdString(v.title), m_variants);
                item->setData(Qt::UserRole, QString::fromStdString(v.name));
                if (!why.empty()) {
                    item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
                    item->setText(tr("%1 — unavailable").arg(QString::fromStdString(v.title)));
                    item->setToolTip(tr("Unavailable here: %1").arg(QString::fromStdString(why)));
                    item->setData(Qt::UserRole + 1, QString::fromStdString(why));
                } else {
                    item->setToolTip(QString::fromStdString(v.description));
                }
            }
        }
        int row = -1;
        for (int i = 0; i < m_variants->count(); ++i) {
            const QListWidgetItem *item = m_variants->item(i);
            if (!(item->flags() & Qt::ItemIsEnabled))
                continue;
            if (row < 0 || item->data(Qt::UserRole).toString() == previous)
                row = i;
        }
        m_variants->setCurrentRow(row);
    }
    fitVariantList();
    if (f)
        m_filterInfo->setText(html(f->description));
    if (eng.isCpu()) {
        m_deviceInfo->setText(tr("The plain C++ reference code on this computer's processor: the "
                                 "yardstick every OpenCL result is checked against."));
    } else {
        const DeviceInfo &d = eng.device;
        m_deviceInfo->setText(tr("%1, %2 compute units, driver %3<br>%4")
                                  .arg(html(d.vendor), QString::number(d.computeUnits),
                                       html(d.driverVersion), html(d.openclVersion)));
    }
    updateVariantText();
    m_updating = wasUpdating;
}

void ControlPanel::updateVariantText()
{
    const VariantSpec *v = variant();
    if (!v) {
        m_variantInfo->setText(tr("<i>No variant of this filter can run on this device and pixel "
                                  "format.</i>"));
        return;
    }
    QString text = QStringLiteral("<b>%1</b><br>%2").arg(html(v->title), html(v->description));
    if (!v->seedNote.empty())
        text += tr("<br><i>Measured before:</i> %1").arg(html(v->seedNote));
    if (engine().isCpu())
        text += tr("<br><i>The CPU reference ignores the variant.</i>");
    m_variantInfo->setText(text);
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
    m_format->setCurrentIndex(index);
    return true;
}

void ControlPanel::updateShapeEditors()
{
    const bool custom = m_shapePreset->currentData().toInt() == kCustomShape
                        && m_shapePreset->currentData().typeId() == QMetaType::Int;
    // The CPU reference engines have no work-groups: editors that change nothing stay disabled.
    const bool cpu = engine().isCpu();
    m_shapePreset->setEnabled(!cpu);
    m_shapeWidth->setEnabled(custom && !cpu);
    m_shapeHeight->setEnabled(custom && !cpu);
    if (!custom) {
        const LocalSize local = localSize();
        const QSignalBlocker b1(m_shapeWidth);
        const QSignalBlocker b2(m_shapeHeight);
        if (!local.isAuto()) {
            m_shapeWidth->setValue(local.width);
            m_shapeHeight->setValue(local.height);
        }
    }
}

LocalSize ControlPanel::localSize() const
{
    const QVariant data = m_shapePreset->currentData();
    if (data.typeId() == QMetaType::Int)
        return LocalSize{m_shapeWidth->value(), m_shapeHeight->value()};
    return LocalSize::parse(data.toString().toStdString()).value_or(LocalSize{});
}

QString ControlPanel::localSizeText() const
{
    return QString::fromStdString(localSize().toString());
}

bool ControlPanel::setLocalSizeText(const QString &text)
{
    const std::optional<LocalSize> parsed = LocalSize::parse(text.toStdString());
    if (!parsed)
        return false;
    const int preset = m_shapePreset->findData(QString::fromStdString(parsed->toString()));
    if (preset >= 0) {
        m_shapePreset->setCurrentIndex(preset);
        return true;
    }
    {
        const QSignalBlocker b1(m_shapeWidth);
        const QSignalBlocker b2(m_shapeHeight);
        m_shapeWidth->setValue(parsed->width);
        m_shapeHeight->setValue(parsed->height);
    }
    const int custom = m_shapePreset->count() - 1;
    if (m_shapePreset->currentIndex() == custom)
        emitChanged(true);
    else
        m_shapePreset->setCurrentIndex(custom);
    return true;
}

void ControlPanel::setShapeStatus(const QString &problem, bool pending, double checkMs)
{
    m_shapeProblem = pending ? QString() : problem;
    if (engine().isCpu() && problem.isEmpty())
        // "This shape can launch" would claim a check that means nothing for C++ loops.
        m_shapeStatus->setText(tr("<i>The CPU reference does not use work-groups.</i>"));
    else if (pending)
        m_shapeStatus->setText(tr("<i>Checking this shape against the kernel…</i>"));
    else if (problem.isEmpty() && checkMs >= 50)
        // The check builds (or loads) the program, so the run after it reports "from memory cache"
        // and a build time of zero: say here where the build time went.
        m_shapeStatus->setText(tr("<span style='color:#2e7d32'>✔ This shape can launch.</span><br>"
                                  "<span style='color:gray'>Checking it took %1 ms, mostly building or "
                                  "loading the program; runs then take it from the memory cache.</span>")
                                   .arg(checkMs, 0, 'f', 0));
    else if (problem.isEmpty())
        m_shapeStatus->setText(tr("<span style='color:#2e7d32'>✔ This shape can launch.</span>"));
    else
        m_shapeStatus->setText(tr("<span style='color:#c62828'>✘ %1</span>").arg(problem.toHtmlEscaped()));
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
    request.reuseUpload = false;
    request.pinnedTransfers = m_pinned->isChecked();
    request.keepOutput = true;
    return request;
}

} // namespace fwb
