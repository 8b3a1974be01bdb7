// WorkbenchPage: the base of every page in the window's central area (Compare today; Race, Tuner,
// Sweep, ... next). The shell hands every page the same facts; a page overrides those it shows.
#pragma once

#include "ComputeWorker.h"
#include "Image.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <memory>

class QAction;

namespace fwb {

class WorkbenchPage : public QWidget
{
    Q_OBJECT

public:
    explicit WorkbenchPage(QWidget *parent = nullptr) : QWidget(parent) {}

    // The tab's text.
    virtual QString title() const = 0;

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

signals:
    // A line for the window's status bar: what the page's job waits for now ("Running Naive 3x3 (5 of
    // 8)…"), or how it ended.
    void statusMessage(const QString &text);
};

} // namespace fwb
