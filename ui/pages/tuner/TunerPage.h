// TunerPage: Run ▸ Tune Work-Group. Every valid shape for the current variant as a heat map; "Apply
// best" saves it to the tuning database, so every auto launch of this variant, format and image size
// on this device uses it from then on ("auto (16x16, tuned)"). For block variants, "Tune output block
// too" first times each output block per work-item at the default shape, then the shapes at the best.
#pragma once

#include "BenchWorker.h"
#include "JobPage.h"

class QAction;
class QCheckBox;
class QLabel;
class QPushButton;

namespace fwb {

class TuneHeatMap;

class TunerPage : public JobPage
{
    Q_OBJECT

public:
    explicit TunerPage(QWidget *parent = nullptr);

    QString title() const override { return tr("Tuner"); }
    QList<QAction *> toolBarActions() const override { return {m_startAct}; }
    QList<QAction *> runMenuActions() const override { return {m_startAct}; }
    void addToReport(ReportData &data) const override; // the heat map
    std::optional<ScreenshotJob> screenshotJob(const ScreenshotPlan &plan) override; // --tune

    TuneHeatMap *heatMap() const { return m_map; }
    QPushButton *applyButton() const { return m_apply; }
    QCheckBox *blocksOption() const { return m_blocks; }
    bool isTuning() const { return isBusy(); }

public slots:
    bool startJob() override;
    bool applyBest();

signals:
    void bestApplied(const QString &shape);

protected:
    bool canStart() const override;
    void updateActions() override;
    void showFailure(const QString &message) override;
    void benchProgress(const BenchProgress &progress) override; // a shape measured: its cell on the map
    void benchFinished(const BenchResult &result) override;     // the map and the summary

private:
    DeviceInfo m_tunedDevice;
    PixelFormat m_tunedFormat = PixelFormat::Gray8;
    QPushButton *m_apply;
    QCheckBox *m_blocks;
    QLabel *m_summary;
    TuneHeatMap *m_map;
};

} // namespace fwb
