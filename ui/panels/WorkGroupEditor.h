// WorkGroupEditor: the "Work-group shape" box: presets (auto, 8x8, 16x16, ...) or a custom W x H,
// and the live verdict on whether that shape can launch, with the reason when it cannot.
#pragma once

#include "WorkGroup.h"

#include <QGroupBox>
#include <QString>

class QComboBox;
class QLabel;
class QSpinBox;

namespace fwb {

class WorkGroupEditor : public QGroupBox
{
    Q_OBJECT

public:
    explicit WorkGroupEditor(QWidget *parent = nullptr);

    LocalSize localSize() const;
    QString localSizeText() const;
    bool setLocalSizeText(const QString &text); // a preset name or "WxH"

    // The CPU reference engines have no work-groups: the editors are disabled and the verdict
    // says so.
    void setCpuEngine(bool cpu);
    // Shows why the shape cannot launch (empty: it can); "pending" text while the worker checks.
    // checkMs: how long the worker's check took (it builds the program first), -1 when unknown.
    void setShapeStatus(const QString &problem, bool pending = false, double checkMs = -1);
    QString shapeProblem() const { return m_shapeProblem; }

signals:
    void shapeChanged(); // a preset chosen or the custom width or height edited

private:
    void updateEditors();

    QComboBox *m_shapePreset = nullptr;
    QSpinBox *m_shapeWidth = nullptr;
    QSpinBox *m_shapeHeight = nullptr;
    QLabel *m_shapeStatus = nullptr;
    QString m_shapeProblem;
    bool m_cpu = false;
};

} // namespace fwb
