// WorkGroupEditor: preset and custom shape editors kept in step, and the verdict's wording.
#include "WorkGroupEditor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace fwb {

namespace {

constexpr int kCustomShape = -1; // item data of the "custom" preset entry

} // namespace

WorkGroupEditor::WorkGroupEditor(QWidget *parent) : QGroupBox(tr("Work-group shape"), parent)
{
    auto *shapeLayout = new QVBoxLayout(this);
    m_shapePreset = new QComboBox(this);
    m_shapePreset->setObjectName("shapePreset");
    for (const char *preset : kLocalSizePresets) {
        const QString name = QString::fromLatin1(preset);
        m_shapePreset->addItem(name == "auto"     ? tr("auto (the project's choice for this device)")
                               : name == "driver" ? tr("driver (NULL local size: the runtime picks; seed 001)")
                                                  : name,
                               name);
    }
    m_shapePreset->addItem(tr("custom"), kCustomShape);
    auto *customRow = new QHBoxLayout;
    m_shapeWidth = new QSpinBox(this);
    m_shapeHeight = new QSpinBox(this);
    m_shapeWidth->setObjectName("shapeWidth");
    m_shapeHeight->setObjectName("shapeHeight");
    for (QSpinBox *spin : {m_shapeWidth, m_shapeHeight}) {
        spin->setRange(1, 8192);
        spin->setValue(16);
        spin->setKeyboardTracking(false);
    }
    customRow->addWidget(m_shapeWidth);
    customRow->addWidget(new QLabel(QStringLiteral("×"), this));
    customRow->addWidget(m_shapeHeight);
    customRow->addStretch();
    m_shapeStatus = new QLabel(this);
    m_shapeStatus->setWordWrap(true);
    m_shapeStatus->setTextFormat(Qt::RichText);
    m_shapeStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_shapeStatus->setObjectName("shapeStatus");
    shapeLayout->addWidget(m_shapePreset);
    shapeLayout->addLayout(customRow);
    shapeLayout->addWidget(m_shapeStatus);

    connect(m_shapePreset, &QComboBox::currentIndexChanged, this, [this] {
        updateEditors();
        emit shapeChanged();
    });
    connect(m_shapeWidth, &QSpinBox::valueChanged, this, &WorkGroupEditor::shapeChanged);
    connect(m_shapeHeight, &QSpinBox::valueChanged, this, &WorkGroupEditor::shapeChanged);
    updateEditors();
}

void WorkGroupEditor::setCpuEngine(bool cpu)
{
    m_cpu = cpu;
    updateEditors();
}

void WorkGroupEditor::updateEditors()
{
    const bool custom = m_shapePreset->currentData().toInt() == kCustomShape
                        && m_shapePreset->currentData().typeId() == QMetaType::Int;
    // The CPU reference engines have no work-groups: editors that change nothing stay disabled.
    m_shapePreset->setEnabled(!m_cpu);
    m_shapeWidth->setEnabled(custom && !m_cpu);
    m_shapeHeight->setEnabled(custom && !m_cpu);
    if (!custom) {
        const LocalSize local = localSize();
        const QSignalBlocker b1(m_shapeWidth);
        const QSignalBlocker b2(m_shapeHeight);
        if (local.isConcrete()) {
            m_shapeWidth->setValue(local.width);
            m_shapeHeight->setValue(local.height);
        }
    }
}

LocalSize WorkGroupEditor::localSize() const
{
    const QVariant data = m_shapePreset->currentData();
    if (data.typeId() == QMetaType::Int)
        return LocalSize{m_shapeWidth->value(), m_shapeHeight->value()};
    return LocalSize::parse(data.toString().toStdString()).value_or(LocalSize{});
}

QString WorkGroupEditor::localSizeText() const
{
    return QString::fromStdString(localSize().toString());
}

bool WorkGroupEditor::setLocalSizeText(const QString &text)
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
        emit shapeChanged();
    else
        m_shapePreset->setCurrentIndex(custom);
    return true;
}

void WorkGroupEditor::setShapeStatus(const QString &problem, bool pending, double checkMs)
{
    m_shapeProblem = pending ? QString() : problem;
    if (m_cpu && problem.isEmpty())
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

} // namespace fwb
