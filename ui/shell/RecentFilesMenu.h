// RecentFilesMenu: File ▸ Open Recent, the last few images opened, newest first; disabled while
// the list is empty.
#pragma once

#include <QMenu>
#include <QStringList>

namespace fwb {

class RecentFilesMenu : public QMenu
{
    Q_OBJECT

public:
    explicit RecentFilesMenu(const QString &title, QWidget *parent = nullptr);

    QStringList files() const { return m_files; }
    void setFiles(const QStringList &files);
    // Moves (or adds) path to the top; the oldest falls off past kMaxFiles.
    void addFile(const QString &path);

    static constexpr int kMaxFiles = 8;

signals:
    void fileTriggered(const QString &path);

private:
    void rebuild();

    QStringList m_files;
};

} // namespace fwb
