// DiagnosticsList: a build log as a list of "file:line:column: error: ..." rows (core/BuildDiagnostics),
// errors in red; a row in the edited file jumps to its line when clicked.
#pragma once

#include <QListWidget>
#include <QMap>

#include <string>

namespace fwb {

class DiagnosticsList : public QListWidget
{
    Q_OBJECT

public:
    explicit DiagnosticsList(QWidget *parent = nullptr);

    // Lists the log's diagnostics (or `error` when the log holds none) and returns the lines of
    // `fileName` to mark in the editor: line -> true for errors, false for warnings.
    QMap<int, bool> showLog(const std::string &log, const std::string &error, const std::string &fileName);
    QStringList texts() const;

    // The compiler's own words: the raw log in a read-only window of its own.
    static void showRawLog(QWidget *parent, const QString &title, const QString &log);

signals:
    void lineActivated(int line); // 0 for a diagnostic outside the edited file
};

} // namespace fwb
