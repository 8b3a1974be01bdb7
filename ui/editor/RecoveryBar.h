// RecoveryBar: the kernel editor's recovery file (unsaved edits, autosaved) and the bar that offers
// them back after the window itself crashed: "Unsaved edits of ... were recovered" [Restore] [Discard].
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

class QLabel;

namespace fwb {

struct RecoveredEdit
{
    QString filter, variant, file, saved, source; // saved: when, ISO 8601
};

class RecoveryBar : public QWidget
{
    Q_OBJECT

public:
    explicit RecoveryBar(QWidget *parent = nullptr);

    // $FWB_EDITOR_RECOVERY, else kernel-editor-recovery.json in the application's data folder.
    static QString path();
    static std::optional<RecoveredEdit> read();
    static void write(const RecoveredEdit &edit); // atomically (QSaveFile)
    static void remove();

    // Shows the bar when the file holds edits (once per bar: the file the previous session left).
    void offer();
    bool offered() const { return m_offered; }

signals:
    void restoreClicked();
    void discardClicked();

private:
    QLabel *m_text = nullptr;
    bool m_offered = false;
};

} // namespace fwb
