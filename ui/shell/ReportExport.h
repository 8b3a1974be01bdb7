// ReportExport: File ▸ Export Report. Gathers what this window's session holds (the settings, the run log
// and the images, then each page's own section: WorkbenchPage::addToReport) into core's ReportData and
// writes the self-contained HTML report that `filter-bench report` writes.
#pragma once

#include "Report.h"

#include <QString>

namespace fwb {

class MainWindow;

// Everything the window can report now (sections without data are left out).
ReportData workbenchReport(const MainWindow &window);

// Writes the report atomically; refuses an existing file unless overwriteConfirmed.
bool writeWorkbenchReport(const MainWindow &window, const QString &path, bool overwriteConfirmed,
                          QString *error = nullptr);

// writeWorkbenchReport, then the window's status bar says where the report went.
bool exportWorkbenchReport(MainWindow &window, const QString &path, bool overwriteConfirmed, QString *error = nullptr);

// The menu entry: a save dialog (which asks before replacing a file), then exportWorkbenchReport and a
// message with the path (issue 24: the export gave no confirmation).
void exportReportInteractively(MainWindow *window);

} // namespace fwb
