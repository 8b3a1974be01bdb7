// EditorResultPanel: the race bars (painted), the verdict text and the two thumbnails.
#include "EditorResultPanel.h"

#include "EditorJobRunner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace fwb {

namespace {

QPixmap thumbnail(const QImage &image, int height)
{
    return image.isNull() ? QPixmap() : QPixmap::fromImage(image.scaledToHeight(height, Qt::SmoothTransformation));
}

} // namespace

class RaceBars : public QWidget
{
public:
    explicit RaceBars(QWidget *parent) : QWidget(parent) { setMinimumHeight(58); }
    void setTimes(double originalMs, double editedMs, bool editedOk)
    {
        m_original = originalMs;
        m_edited = editedMs;
        m_editedOk = editedOk;
        update();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const double longest = qMax(m_original, m_edited);
        const int labelWidth = 70, valueWidth = 150, barHeight = 20;
        const int room = qMax(10, width() - labelWidth - valueWidth - 8);
        auto bar = [&](int row, const QString &label, double ms, QColor colour) {
            const int y = 4 + row * (barHeight + 8);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(0, y, labelWidth, barHeight, Qt::AlignVCenter | Qt::AlignLeft, label);
            const int w = longest > 0 && ms > 0 ? qMax(2, int(room * ms / longest)) : 0;
            p.setBrush(colour);
            p.setPen(Qt::NoPen);
            p.drawRoundedRect(labelWidth, y, w, barHeight, 3, 3);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(labelWidth + w + 6, y, valueWidth, barHeight, Qt::AlignVCenter | Qt::AlignLeft,
                       ms > 0 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 1 ? 3 : 2) : QStringLiteral("-"));
        };
        const bool editedFaster = m_edited > 0 && m_edited < m_original;
        bar(0, tr("original"), m_original, QColor(120, 144, 176));
        bar(1, tr("edited"), m_edited,
            !m_editedOk ? QColor(200, 80, 80) : editedFaster ? QColor(60, 170, 90) : QColor(230, 150, 40));
    }

private:
    double m_original = 0, m_edited = 0;
    bool m_editedOk = true;
};

// ---- Jobs --------------------------------------------------------------------------------------

EditorResultPanel::EditorResultPanel(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_race = new RaceBars(this);
    layout->addWidget(m_race);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("editorResult"));
    m_text->setWordWrap(true);
    layout->addWidget(m_text);
    auto *images = new QHBoxLayout;
    m_output = new QLabel(this);
    m_output->setToolTip(tr("The edited kernel's output"));
    m_diff = new QLabel(this);
    m_diff->setToolTip(tr("|edited output - CPU reference|: black is equal"));
    images->addWidget(m_output);
    images->addWidget(m_diff);
    images->addStretch(1);
    layout->addLayout(images);
}

void EditorResultPanel::showRun(const EditorJobResult &job, int repeat)
{
    const RunResult &r = job.edited.result;
    const RunResult &o = job.original.result;
    m_hasResult = true;
    m_originalMs = o.ok() ? o.kernelMs.median : 0;
    m_editedMs = r.kernelMs.median;
    m_editedMatches = r.checked && r.matches;
    m_race->setTimes(m_originalMs, m_editedMs, m_editedMatches);
    m_output->setPixmap(thumbnail(job.output, 150));
    m_diff->setPixmap(thumbnail(job.heatMap, 150));
    const QString verdict = m_editedMatches
                                ? tr("matches the CPU reference (max diff %1, tolerance %2)").arg(r.maxAbsDiff).arg(r.tolerance)
                                : tr("does not match the CPU reference: max diff %1 (tolerance %2), %3 pixels differ")
                                      .arg(r.maxAbsDiff)
                                      .arg(r.tolerance)
                                      .arg(job.diffPixels);
    const double speed = m_editedMs > 0 && m_originalMs > 0 ? m_originalMs / m_editedMs : 0;
    // The helper's own cost: the wall time less what ran inside it (the build, then Session::run).
    m_text->setText(tr("Edited kernel %1.<br>%2 than the original (%3 ms vs %4 ms kernel time, median of %5); "
                       "helper process %6 ms per run, build %7 ms.")
                        .arg(verdict,
                             speed >= 1 ? tr("%1x faster").arg(speed, 0, 'f', 2)
                                        : tr("%1x slower").arg(speed > 0 ? 1 / speed : 0, 0, 'f', 2))
                        .arg(m_editedMs, 0, 'f', 3)
                        .arg(m_originalMs, 0, 'f', 3)
                        .arg(repeat)
                        .arg(job.edited.wallMs - job.edited.runMs, 0, 'f', 0)
                        .arg(job.edited.runMs - job.edited.launchMs, 0, 'f', 0));
}

} // namespace fwb
