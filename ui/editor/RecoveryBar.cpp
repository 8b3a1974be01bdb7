// RecoveryBar: the recovery file as a small JSON object, and the yellow bar that offers it.
#include "RecoveryBar.h"

#include "Catalogue.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>

namespace fwb {

RecoveryBar::RecoveryBar(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("recoveryText"));
    layout->addWidget(m_text, 1);
    auto *restore = new QPushButton(tr("Restore"), this);
    auto *discard = new QPushButton(tr("Discard"), this);
    connect(restore, &QPushButton::clicked, this, &RecoveryBar::restoreClicked);
    connect(discard, &QPushButton::clicked, this, &RecoveryBar::discardClicked);
    layout->addWidget(restore);
    layout->addWidget(discard);
    setStyleSheet(QStringLiteral("background: #fff4d6;"));
    hide();
}

QString RecoveryBar::path()
{
    const QByteArray env = qgetenv("FWB_EDITOR_RECOVERY");
    if (!env.isEmpty())
        return QString::fromLocal8Bit(env);
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/kernel-editor-recovery.json");
}

std::optional<RecoveredEdit> RecoveryBar::read()
{
    QFile file(path());
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    RecoveredEdit edit;
    edit.filter = o.value(QStringLiteral("filter")).toString();
    // Written under a variant's former name (core's variantAliases): the edits belong to today's.
    edit.variant = QString::fromStdString(currentVariantName(edit.filter.toStdString(),
                                                             o.value(QStringLiteral("variant")).toString().toStdString()));
    edit.file = o.value(QStringLiteral("file")).toString();
    edit.saved = o.value(QStringLiteral("saved")).toString();
    edit.source = o.value(QStringLiteral("source")).toString();
    return edit;
}

void RecoveryBar::write(const RecoveredEdit &edit)
{
    const QString file = path();
    QDir().mkpath(QFileInfo(file).absolutePath());
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return;
    QJsonObject o;
    o[QStringLiteral("filter")] = edit.filter;
    o[QStringLiteral("variant")] = edit.variant;
    o[QStringLiteral("file")] = edit.file;
    o[QStringLiteral("saved")] = edit.saved.isEmpty() ? QDateTime::currentDateTime().toString(Qt::ISODate) : edit.saved;
    o[QStringLiteral("source")] = edit.source;
    const QByteArray data = QJsonDocument(o).toJson();
    // flush() before commit(): Qt 6.4's commit() reports success when the last buffered write failed
    // (a full disk) and would replace the previous recovery file with an empty one; keep the old one.
    if (out.write(data) != data.size() || !out.flush())
        out.cancelWriting();
    out.commit(); // after cancelWriting(), commit() discards the temporary file and keeps the old one
}

void RecoveryBar::remove()
{
    QFile::remove(path());
}

void RecoveryBar::offer()
{
    if (m_offered)
        return; // once per start: the file left by the previous session
    m_offered = true;
    const std::optional<RecoveredEdit> edit = read();
    if (!edit || edit->source.isEmpty())
        return;
    m_text->setText(tr("Unsaved edits of %1 (%2/%3, %4) were recovered from a previous session.")
                        .arg(edit->file, edit->filter, edit->variant, edit->saved));
    show();
}

} // namespace fwb
