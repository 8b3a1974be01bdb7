// DiagnosticsList: parseBuildLog's diagnostics as list rows with their line in Qt::UserRole.
#include "DiagnosticsList.h"

#include "BuildDiagnostics.h"

#include <QDialog>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace fwb {

DiagnosticsList::DiagnosticsList(QWidget *parent) : QListWidget(parent)
{
    setObjectName(QStringLiteral("editorDiagnostics"));
    auto jump = [this](QListWidgetItem *item) { emit lineActivated(item->data(Qt::UserRole).toInt()); };
    connect(this, &QListWidget::itemActivated, this, jump);
    connect(this, &QListWidget::itemClicked, this, jump);
}

QMap<int, bool> DiagnosticsList::showLog(const std::string &log, const std::string &error, const std::string &fileName)
{
    clear();
    QMap<int, bool> marks;
    for (const BuildDiagnostic &d : parseBuildLog(log)) {
        auto *item = new QListWidgetItem(QString::fromStdString(d.text()), this);
        const bool ours = d.file == fileName;
        item->setData(Qt::UserRole, ours ? d.line : 0);
        item->setToolTip(QString::fromStdString(d.context));
        if (d.severity == BuildDiagnostic::Severity::Error)
            item->setForeground(QColor(176, 0, 32));
        if (ours && d.severity != BuildDiagnostic::Severity::Note)
            marks[d.line] = marks.value(d.line) || d.severity == BuildDiagnostic::Severity::Error;
    }
    if (count() == 0 && !error.empty() && !log.empty())
        new QListWidgetItem(QString::fromStdString(error), this);
    return marks;
}

QStringList DiagnosticsList::texts() const
{
    QStringList out;
    for (int i = 0; i < count(); ++i)
        out << item(i)->text();
    return out;
}

void DiagnosticsList::showRawLog(QWidget *parent, const QString &title, const QString &text)
{
    auto *dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto *layout = new QVBoxLayout(dialog);
    auto *log = new QPlainTextEdit(text, dialog);
    log->setReadOnly(true);
    log->setFont(QFont(QStringLiteral("monospace")));
    layout->addWidget(log);
    dialog->resize(800, 400);
    dialog->show();
}

} // namespace fwb
