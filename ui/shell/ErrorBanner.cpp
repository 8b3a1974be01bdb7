// ErrorBanner: colours per kind of message, and the build-log window opened from it.
#include "ErrorBanner.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace fwb {

ErrorBanner::ErrorBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName("errorBanner");
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    m_icon = new QLabel(this);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_logButton = new QPushButton(tr("Show build log…"), this);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Dismiss this message"));
    close->setAutoRaise(true);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_logButton);
    layout->addWidget(close);
    connect(m_logButton, &QPushButton::clicked, this, &ErrorBanner::showBuildLog);
    connect(close, &QToolButton::clicked, this, &ErrorBanner::dismiss);
    hide();
}

void ErrorBanner::showMessage(Kind kind, const QString &title, const QString &detail,
                              const QString &buildLog)
{
    m_kind = kind;
    m_title = title;
    m_detail = detail;
    m_buildLog = buildLog;
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxCritical;
    QString colours = QStringLiteral("background:#fdecea; color:#611a15; border:1px solid #f5c6cb;");
    if (kind == Kind::Expected) {
        icon = QStyle::SP_MessageBoxInformation;
        colours = QStringLiteral("background:#fff4e5; color:#663c00; border:1px solid #ffd699;");
    } else if (kind == Kind::Info) {
        icon = QStyle::SP_MessageBoxInformation;
        colours = QStringLiteral("background:#e8f4fd; color:#0d3c61; border:1px solid #b3d7f5;");
    }
    setStyleSheet(QStringLiteral("QFrame#errorBanner{%1} QLabel{border:none; background:transparent;}")
                      .arg(colours));
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(24, 24));
    m_text->setText(QStringLiteral("<b>%1</b><br>%2").arg(title.toHtmlEscaped(), detail.toHtmlEscaped()));
    m_logButton->setVisible(!buildLog.trimmed().isEmpty());
    show();
}

void ErrorBanner::showRunFailure(const ComputeResult &result)
{
    const RunResult &r = result.run;
    const QString code = QString::fromStdString(r.errorCode);
    const QString error = QString::fromStdString(r.error);
    if (r.expectedFailure) {
        showMessage(Kind::Expected,
                    tr("Expected failure (%1): this is the lesson of this variant")
                        .arg(code.isEmpty() ? tr("no error code") : code),
                    error);
    } else if (r.unavailable) {
        showMessage(Kind::Info, tr("This variant cannot run here"), error);
    } else {
        const QString title = code.isEmpty() ? tr("The run failed") : tr("The run failed: %1").arg(code);
        QString detail = error;
        if (result.sessionReset)
            detail += tr(" The device connection will be re-created for the next run.");
        showMessage(Kind::Error, title, detail, QString::fromStdString(r.buildLog));
    }
}

QString ErrorBanner::text() const
{
    return isHidden() ? QString() : m_title + QLatin1Char('\n') + m_detail;
}

void ErrorBanner::dismiss()
{
    hide();
}

void ErrorBanner::showBuildLog()
{
    // Non-modal: the user can keep the log open next to the kernel source while fixing it.
    auto *dialog = new QDialog(window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("OpenCL build log"));
    auto *layout = new QVBoxLayout(dialog);
    auto *log = new QPlainTextEdit(m_buildLog, dialog);
    log->setReadOnly(true);
    log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(log);
    layout->addWidget(buttons);
    dialog->resize(760, 420);
    dialog->show();
}

} // namespace fwb
