// TunerPage: Run ▸ Tune Work-Group. Every valid shape for the current variant as a heat map; "Apply
// best" saves it to the tuning database, so every auto launch of this variant, format and image size
// on this device uses it from then on ("auto (16x16, tuned)").
#pragma once

#include "BenchWorker.h"
#include "WorkbenchPage.h"

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;

namespace fwb {

class TuneHeatMap;

class TunerPage : public WorkbenchPage
{
    Q_OBJECT

public:
    explicit TunerPage(QWidget *parent = nullptr);

    QString title() const override { return tr("Tuner"); }
    void setRequest(const ComputeRequest &request) override;
    QList<QAction *> toolBarActions() const override { return {m_tuneAct}; }
    QList<QAction *> runMenuActions() const override { return {m_tuneAct}; }
    void setInput(const std::shared_ptr<const Image> &image, const QString &description) override;

    QAction *tuneAction() const { return m_tuneAct; }
    TuneHeatMap *heatMap() const { return m_map; }
    QPushButton *applyButton() const { return m_apply; }
    bool isTuning() const { return m_worker->isBusy(); }

public slots:
    bool startTune();
    void cancelTune();
    bool applyBest();

signals:
    void tuneFinished();
    void bestApplied(const QString &shape);

private:
    void updateActions();

    BenchWorker *m_worker;
    ComputeRequest m_request;
    DeviceInfo m_tunedDevice;
    PixelFormat m_tunedFormat = PixelFormat::Gray8;
    QAction *m_tuneAct;
    QPushButton *m_tuneButton;
    QPushButton *m_cancel;
    QPushButton *m_apply;
    QProgressBar *m_progress;
    QLabel *m_summary;
    TuneHeatMap *m_map;
};

} // namespace fwb
