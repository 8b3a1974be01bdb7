// WorkbenchPage: the base of every page in the window's central area (Compare, Compute Lab, Race, Tuner,
// Sweep, Duel, Transfers). The shell hands every page the same facts; a page overrides those it shows.
// The shell's loops over its pages are all this interface: the report (File ▸ Export Report) asks each
// page for its section, the --screenshot driver for its job; neither knows a page by its type.
#pragma once

#include "ComputeWorker.h"
#include "Image.h"
#include "ScreenshotJob.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <memory>

class QAction;
class QImage;

namespace fwb {

struct ReportData;

class WorkbenchPage : public QWidget
{
    Q_OBJECT

public:
    explicit WorkbenchPage(QWidget *parent = nullptr) : QWidget(parent) {}

    // The tab's text.
    virtual QString title() const = 0;
    // Brings this page's tab to the front (the page sits in the shell's QTabWidget).
    void raiseTab();

    // A new input image (a file or the test card); any earlier result no longer belongs to it.
    virtual void setInput(const std::shared_ptr<const Image> &image, const QString &description)
    {
        Q_UNUSED(image);
        Q_UNUSED(description);
    }
    // What the controls would run now (device, filter, variant, parameters); sent on every change.
    virtual void setRequest(const ComputeRequest &request) { Q_UNUSED(request); }
    // A successful run of the shared worker, after the shell has logged it.
    virtual void showResult(const ComputeResult &result) { Q_UNUSED(result); }

    // The page's own actions: the shell puts these in the View menu (separators included)...
    virtual QList<QAction *> viewMenuActions() const { return {}; }
    // ...and these, a subset, in the main tool bar...
    virtual QList<QAction *> toolBarActions() const { return {}; }
    // ...and these in the Run menu (Race All Variants, Tune Work-Group, Sweep, Device Duel).
    virtual QList<QAction *> runMenuActions() const { return {}; }

    // The page's section of the exported report: what it holds now (a race, a heat map, a sweep, a duel)
    // into `data`, pictures through addReportImage(); nothing when it has nothing to show. The shell calls
    // the pages in tab order after it added its own settings, runs and pictures.
    virtual void addToReport(ReportData &data) const { Q_UNUSED(data); }
    // The page's job for a --screenshot run, when the plan asks for it (nullopt: none). A job that cannot
    // be set up as asked says so in ScreenshotJob::refusal (exit 2 before anything runs).
    virtual std::optional<ScreenshotJob> screenshotJob(const ScreenshotPlan &plan)
    {
        Q_UNUSED(plan);
        return std::nullopt;
    }
    // What a screenshot captures instead of the window while the page shows it (present mode), else null.
    virtual QWidget *screenshotWidget() const { return nullptr; }

    // The picture as a report thumbnail under `caption` (a null picture adds nothing).
    static void addReportImage(ReportData &data, const std::string &caption, const QImage &picture);

signals:
    // A line for the window's status bar: what the page's job waits for now ("Running Naive 3x3 (5 of
    // 8)…"), or how it ended.
    void statusMessage(const QString &text);
};

// PNG bytes of a thumbnail no wider or taller than `side` (empty for a null image).
std::string thumbnailPng(const QImage &image, int side = 320);

} // namespace fwb
