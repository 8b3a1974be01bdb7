// SweepPage: the parameter sweep as a line chart (see SweepPage.h).
#include "SweepPage.h"
#include "UiText.h"

#include "Catalogue.h"
#include "ChartViews.h"
#include "ComboBoxes.h"
#include "Report.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fwb {

namespace {


// The other filter worth drawing on the same chart: the family that computes the same filter another
// way (FilterSpec::alternative).
QString naturalPartner(const QString &filter)
{
    const FilterSpec *spec = findFilter(filter.toStdString());
    return spec ? QString::fromStdString(spec->alternative) : QString();
}

const ParamSpec *findParam(const FilterSpec *filter, const std::string &key)
{
    if (!filter)
        return nullptr;
    for (const ParamSpec &p : filter->params)
        if (p.key == key)
            return &p;
    return nullptr;
}

} // namespace

SweepPage::SweepPage(QWidget *parent) : JobPage(parent)
{
    setObjectName("sweepPage");
    m_param = new QComboBox(this);
    m_param->setObjectName("sweepParam");
    m_from = new QDoubleSpinBox(this);
    m_from->setObjectName("sweepFrom");
    m_to = new QDoubleSpinBox(this);
    m_to->setObjectName("sweepTo");
    m_steps = new QSpinBox(this);
    m_steps->setObjectName("sweepSteps");
    m_steps->setRange(2, 40);
    m_steps->setValue(8);
    m_steps->setToolTip(tr("How many values, spaced evenly on a log scale from the first to the last"));
    m_compare = new QComboBox(this);
    m_compare->setObjectName("sweepCompare");
    m_compare->setToolTip(tr("Draw the variants of another filter with the same parameter on the same chart"));
    createJobControls({tr("Sweep a Parameter"), "sweepAction",
                       tr("Time every variant over a range of one parameter (sigma, radius, ...)"), tr("Sweep"),
                       "sweepButton", "sweepCancel", "sweepProgress", tr("%v of %m runs")});
    m_progress->setValue(0);
    m_summary = new QLabel(tr("Pick a parameter and a range, then Sweep: every variant runs at every value."), this);
    m_summary->setObjectName("sweepSummary");
    m_summary->setWordWrap(true);

    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_view = createChartView(m_chart, "sweepChart", 200, this);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Parameter"), this));
    top->addWidget(m_param);
    top->addWidget(new QLabel(tr("from"), this));
    top->addWidget(m_from);
    top->addWidget(new QLabel(tr("to"), this));
    top->addWidget(m_to);
    top->addWidget(new QLabel(tr("in"), this));
    top->addWidget(m_steps);
    top->addWidget(new QLabel(tr("steps; also"), this));
    top->addWidget(m_compare);
    top->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(createJobBar());
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);

    connect(m_param, &QComboBox::currentIndexChanged, this, [this] {
        const ParamSpec *p = findParam(findFilter(m_request.run.filter), m_param->currentData().toString().toStdString());
        if (!p)
            return;
        const double step = p->step > 0 ? p->step : 0.1;
        const int decimals = p->integer ? 0 : (step < 0.1 ? 2 : 1);
        for (QDoubleSpinBox *box : {m_from, m_to}) {
            box->setDecimals(decimals);
            box->setRange(std::max(p->minimum, p->integer ? 1.0 : step), p->maximum);
            box->setSingleStep(step);
        }
        // The default range: the small end to 16 (or the top): where the two blurs cross on most devices.
        m_from->setValue(std::max(p->minimum, p->integer ? 1.0 : 0.5));
        m_to->setValue(std::min(p->maximum, 16.0));
        // Compare filters: the others with this parameter.
        const QString keep = m_compare->currentData().toString();
        m_compare->clear();
        m_compare->addItem(tr("(no other filter)"), QString());
        for (const FilterSpec &f : catalogue())
            if (q(f.name) != m_filter && findParam(&f, p->key))
                m_compare->addItem(q(f.title), q(f.name));
        int index = m_compare->findData(keep.isEmpty() ? naturalPartner(m_filter) : keep);
        m_compare->setCurrentIndex(std::max(0, index));
    });

    createBenchWorker();
    updateActions();
}

void SweepPage::benchProgress(const BenchProgress &progress)
{
    m_progress->setMaximum(progress.total);
    m_progress->setValue(progress.done);
    showSweep(std::get<SweepResult>(progress.what));
}

void SweepPage::benchFinished(const BenchResult &result)
{
    const SweepResult &sweep = std::get<SweepResult>(result.what);
    showSweep(sweep);
    if (sweep.cancelled)
        m_progress->setFormat(tr("cancelled after %v of %m runs"));
    finishJob();
}

void SweepPage::showFailure(const QString &message)
{
    m_summary->setText(tr("The sweep could not run: %1").arg(message));
}

void SweepPage::setRequest(const ComputeRequest &request)
{
    m_request = request;
    if (q(request.run.filter) != m_filter) {
        m_filter = q(request.run.filter);
        rebuildParams();
    }
    updateActions();
}

void SweepPage::rebuildParams()
{
    m_param->clear();
    const FilterSpec *filter = findFilter(m_filter.toStdString());
    if (!filter)
        return;
    for (const ParamSpec &p : filter->params)
        m_param->addItem(q(p.label), q(p.key));
    const int index = m_param->findData(q(defaultSweepParam(*filter)));
    m_param->setCurrentIndex(std::max(0, index));
    if (m_param->count() == 0)
        m_summary->setText(tr("%1 has no numeric parameter to sweep.").arg(q(filter->title)));
}

bool SweepPage::canStart() const
{
    return m_request.input && !m_request.engine.isCpu() && m_param->count() > 0;
}

void SweepPage::updateActions()
{
    JobPage::updateActions();
    m_startButton->setToolTip(m_request.engine.isCpu() ? tr("Pick an OpenCL device in the controls to sweep")
                                                       : QString());
}

std::vector<double> SweepPage::values() const
{
    const ParamSpec *p = findParam(findFilter(m_filter.toStdString()), param().toStdString());
    return sweepValues(m_from->value(), m_to->value(), m_steps->value(), p && p->integer);
}

QString SweepPage::param() const
{
    return m_param->currentData().toString();
}

bool SweepPage::setParam(const QString &key)
{
    return selectByData(m_param, key);
}

void SweepPage::setRange(double from, double to, int steps)
{
    m_from->setValue(from);
    m_to->setValue(to);
    m_steps->setValue(steps);
}

bool SweepPage::setCompareFilter(const QString &filter)
{
    return selectByData(m_compare, filter);
}

bool SweepPage::startJob()
{
    if (isBusy() || !m_request.input || m_request.engine.isCpu() || param().isEmpty())
        return false;
    const std::vector<double> vals = values();
    if (vals.size() < 2) {
        m_summary->setText(tr("Pick two different ends of the range."));
        return false;
    }
    raiseTab();
    BenchJob job = benchJob();
    job.run.keepOutput = false;
    job.run.cpuSingle = false;
    job.run.repeat = std::min(job.run.repeat, 3);
    job.run.local = LocalSize{}; // every variant at its own best launch
    job.sweepParam = param().toStdString();
    job.sweepValues = vals;
    if (const QString other = m_compare->currentData().toString(); !other.isEmpty())
        job.sweepFilters.push_back(other.toStdString());
    m_sweep = SweepResult{};
    m_sweep.filter = job.run.filter;
    m_sweep.param = job.sweepParam;
    m_sweep.values = vals;
    showSweep(m_sweep);
    m_progress->setFormat(tr("%v of %m runs"));
    m_progress->setRange(0, 0);
    m_summary->setText(tr("Sweeping %1 from %2 to %3 on %4…")
                           .arg(m_param->currentText())
                           .arg(vals.front())
                           .arg(vals.back())
                           .arg(q(job.device.name)));
    return startBenchJob(job, &BenchWorker::sweepJob);
}

int SweepPage::pointCount() const
{
    int n = 0;
    for (const SweepSeries &s : m_sweep.series)
        n += int(std::count_if(s.kernelMs.begin(), s.kernelMs.end(), [](double t) { return t > 0; }));
    return n;
}

int SweepPage::seriesCount() const
{
    return int(m_chart->series().size());
}

QString SweepPage::crossoverText() const
{
    // The main filter's fastest variant at each value against the compare filter's fastest.
    std::vector<const SweepSeries *> mine, theirs;
    for (const SweepSeries &s : m_sweep.series)
        (s.variant.find('/') == std::string::npos ? mine : theirs).push_back(&s);
    if (mine.empty() || theirs.empty())
        return {};
    auto best = [](const std::vector<const SweepSeries *> &group, std::size_t i, const SweepSeries **who) {
        double t = -1;
        for (const SweepSeries *s : group)
            if (i < s->kernelMs.size() && s->kernelMs[i] > 0 && (t < 0 || s->kernelMs[i] < t)) {
                t = s->kernelMs[i];
                *who = s;
            }
        return t;
    };
    int lastSign = 0;
    for (std::size_t i = 0; i < m_sweep.values.size(); ++i) {
        const SweepSeries *a = nullptr, *b = nullptr;
        const double ta = best(mine, i, &a), tb = best(theirs, i, &b);
        if (ta <= 0 || tb <= 0)
            continue;
        const int sign = tb < ta ? 1 : -1;
        if (lastSign != 0 && sign != lastSign) {
            const QString faster = sign > 0 ? q(b->title) : q(a->title);
            const QString slower = sign > 0 ? q(a->title) : q(b->title);
            return tr("From %1 = %2, %3 overtakes %4 (%5 ms against %6 ms).")
                .arg(q(m_sweep.param))
                .arg(m_sweep.values[i])
                .arg(faster, slower)
                .arg(std::min(ta, tb), 0, 'g', 3)
                .arg(std::max(ta, tb), 0, 'g', 3);
        }
        lastSign = sign;
    }
    return {};
}

void SweepPage::showSweep(const SweepResult &sweep)
{
    m_sweep = sweep;
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes())
        m_chart->removeAxis(axis);
    double lo = -1, hi = -1;
    for (const SweepSeries &s : sweep.series)
        for (double t : s.kernelMs)
            if (t > 0) {
                lo = lo < 0 ? t : std::min(lo, t);
                hi = std::max(hi, t);
            }
    const double vLo = sweep.values.empty() ? 1 : sweep.values.front();
    const double vHi = sweep.values.empty() ? 2 : sweep.values.back();
    // Log axes when the range spans a factor of ten or more: then equal steps on screen are equal
    // ratios, a flat-cost variant is a flat line and a linear one a straight slope.
    const bool logX = vLo > 0 && vHi / vLo >= 10;
    const bool logY = lo > 0 && hi / lo >= 10;
    QAbstractAxis *x, *y;
    if (logX) {
        auto *axis = new QLogValueAxis;
        axis->setBase(2);
        axis->setLabelFormat("%g");
        axis->setRange(vLo / 1.1, vHi * 1.1);
        x = axis;
    } else {
        auto *axis = new QValueAxis;
        axis->setRange(vLo, vHi);
        axis->setLabelFormat("%g");
        x = axis;
    }
    if (logY) {
        auto *axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setLabelFormat("%g");
        axis->setMinorTickCount(8);
        axis->setRange(lo / 1.3, hi * 1.3);
        y = axis;
    } else {
        auto *axis = new QValueAxis;
        axis->setRange(0, hi > 0 ? hi * 1.1 : 1);
        axis->setLabelFormat("%g");
        y = axis;
    }
    const QString label = sweep.paramLabel.empty() ? q(sweep.param) : q(sweep.paramLabel);
    x->setTitleText(label + (logX ? tr(" (log scale)") : QString()));
    y->setTitleText(tr("kernel time, ms") + (logY ? tr(" (log scale)") : QString()));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    for (std::size_t k = 0; k < sweep.series.size(); ++k) {
        const SweepSeries &s = sweep.series[k];
        auto *line = new QLineSeries;
        line->setName(q(s.title));
        QList<QPointF> points;
        for (std::size_t i = 0; i < s.kernelMs.size() && i < sweep.values.size(); ++i)
            if (s.kernelMs[i] > 0)
                points.append(QPointF(sweep.values[i], s.kernelMs[i]));
        line->replace(points);
        line->setPointsVisible(true);
        m_chart->addSeries(line);
        // A colour of its own for each of the first twenty lines (issue 24: the theme's five colours came
        // round again, so lines looked alike in pairs), dotted after that; the compare filter's lines dashed:
        // two families, one chart. After addSeries, which would set the theme's pen.
        const bool compare = s.variant.find('/') != std::string::npos;
        QPen pen(QColor(q(seriesColour(k))));
        pen.setWidthF(2);
        pen.setStyle(k < kSeriesColourCount ? (compare ? Qt::DashLine : Qt::SolidLine)
                                            : (compare ? Qt::DashDotLine : Qt::DotLine));
        line->setPen(pen);
        line->setColor(pen.color()); // the points too
        line->attachAxis(x);
        line->attachAxis(y);
    }
    const FilterSpec *filter = findFilter(sweep.filter);
    m_chart->setTitle(filter ? tr("%1: kernel time over %2").arg(q(filter->title), label) : QString());
    if (!isBusy() || sweep.cancelled) {
        QString text = tr("%1 runs: %2 lines over %3 values of %4.")
                           .arg(pointCount())
                           .arg(sweep.series.size())
                           .arg(sweep.values.size())
                           .arg(label);
        const QString cross = crossoverText();
        if (!cross.isEmpty())
            text += QStringLiteral(" <b>%1</b>").arg(cross.toHtmlEscaped());
        if (sweep.cancelled)
            text += tr(" (cancelled)");
        m_summary->setText(text);
    }
}

void SweepPage::addToReport(ReportData &data) const
{
    if (!m_sweep.series.empty())
        data.sweep = m_sweep;
}

std::optional<ScreenshotJob> SweepPage::screenshotJob(const ScreenshotPlan &plan)
{
    if (!plan.sweep)
        return std::nullopt;
    return jobScreenshot(
        [this] { return pointCount() == 0 ? QStringLiteral("no run of the sweep produced a time") : QString(); });
}

} // namespace fwb
