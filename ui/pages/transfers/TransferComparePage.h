// TransferComparePage: Run ▸ Compare Transfer Modes. The current variant on the current image and
// device, per transfer mode (pageable, pinned, zero_copy, output_mapped, svm), as stacked bars: host
// staging memcpy, upload, kernel and download, to one scale. Each mode is measured in kTransferRounds
// rounds taken in turn with the other modes (so drift and noise fall on every mode alike); the bar is
// the middle round, a whisker spans the fastest to the slowest, and a difference smaller than that
// spread is called noise, not a mode's. A mode the device or the variant cannot use is a row that says why.
// The runs happen on a thread of the page's own (TransferCompareWorker, a SessionWorker: each comparison
// on a fresh Session of its own), so the window never waits.
#pragma once

#include "SessionWorker.h"
#include "WorkbenchPage.h"

#include <QMetaType>
#include <QVector>

#include <memory>

class QAction;
class QLabel;
class QPushButton;

namespace fwb {

// One mode's bar: what one repeat cost, stage by stage (ms), or why the mode did not run.
constexpr int kTransferRounds = 3;

struct TransferBar
{
    QString mode;
    bool ok = false;
    bool unavailable = false;
    QString note; // the error (or why unavailable) when !ok; what the mode used when ok
    double stagingMs = 0, uploadMs = 0, kernelMs = 0, downloadMs = 0;
    double endToEndMs = 0;
    double uploadGBps = 0, downloadGBps = 0;
    int tiles = 1;
    int rounds = 1;                // measurements taken (each the median of its repeats)
    double lowMs = 0, highMs = 0;  // end to end: the fastest and the slowest round
    double stackMs() const { return stagingMs + uploadMs + kernelMs + downloadMs; }
};

// The page's closing sentence: the fastest mode end to end, and each other mode either as "N× the
// fastest" or, where its rounds overlap the fastest's, as the same within the noise. Empty: no mode ran.
QString transferSummary(const QVector<TransferBar> &bars);

// The bars, horizontal, one row per mode, stacked staging | upload | kernel | download, one scale.
class TransferChart : public QWidget
{
    Q_OBJECT

public:
    explicit TransferChart(QWidget *parent = nullptr);
    void clear();
    void addBar(const TransferBar &bar);
    const QVector<TransferBar> &bars() const { return m_bars; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QVector<TransferBar> m_bars;
};

class TransferCompareWorker : public SessionWorker
{
    Q_OBJECT

public:
    explicit TransferCompareWorker(QObject *parent = nullptr);
    ~TransferCompareWorker() override; // cancels and waits

    // Runs `request` once per transfer mode on `device`; false while a comparison runs.
    bool start(const DeviceInfo &device, std::shared_ptr<const Image> input, const RunRequest &request);
    void cancel() { cancelJob(false); }
    bool isBusy() const { return hasJob(); }

signals:
    void barReady(const fwb::TransferBar &bar, int done, int total); // a mode's last round
    void progress(int done, int total);                               // runs, all rounds
    void failed(const QString &message);
    void comparisonDone(); // after the bars, a failure or a cancel; no longer busy

private:
    // Worker thread: each comparison on a fresh Session, closed when it ends.
    void compare(const DeviceInfo &device, const Image &input, RunRequest request);
};

class TransferComparePage : public WorkbenchPage
{
    Q_OBJECT

public:
    explicit TransferComparePage(QWidget *parent = nullptr);
    ~TransferComparePage() override;

    QString title() const override { return tr("Transfers"); }
    void setInput(const std::shared_ptr<const Image> &image, const QString &description) override;
    void setRequest(const ComputeRequest &request) override;

    // The Run menu's entry (WorkbenchPage::runMenuActions; no `override`, so this header also builds
    // against a WorkbenchPage from before that hook).
    QList<QAction *> runMenuActions() const { return {m_compareAct}; }
    QAction *compareAction() const { return m_compareAct; }
    TransferChart *chart() const { return m_chart; }
    bool isComparing() const { return m_worker->isBusy(); }

public slots:
    bool startCompare();
    void cancelCompare();

signals:
    void compareFinished();

private:
    void onBar(const TransferBar &bar, int done, int total);
    void onFinished();
    void updateActions();

    TransferCompareWorker *m_worker;
    ComputeRequest m_request;
    std::shared_ptr<const Image> m_input;
    QString m_inputDescription;
    QAction *m_compareAct;
    QPushButton *m_compareButton;
    QPushButton *m_cancelButton;
    QLabel *m_heading;
    QLabel *m_status;
    QLabel *m_summary;
    TransferChart *m_chart;
    QString m_failure;
};

} // namespace fwb

Q_DECLARE_METATYPE(fwb::TransferBar)
