// RecentFilesMenu: one action per file, named after the file, with the full path as its tooltip.
#include "RecentFilesMenu.h"

#include <QFileInfo>

namespace fwb {

RecentFilesMenu::RecentFilesMenu(const QString &title, QWidget *parent) : QMenu(title, parent)
{
    rebuild();
}

void RecentFilesMenu::setFiles(const QStringList &files)
{
    m_files = files;
    rebuild();
}

void RecentFilesMenu::addFile(const QString &path)
{
    m_files.removeAll(path);
    m_files.prepend(path);
    while (m_files.size() > kMaxFiles)
        m_files.removeLast();
    rebuild();
}

void RecentFilesMenu::rebuild()
{
    clear();
    for (const QString &path : std::as_const(m_files))
        addAction(QFileInfo(path).fileName(), this, [this, path] { emit fileTriggered(path); })->setToolTip(path);
    setEnabled(!m_files.isEmpty());
}

} // namespace fwb
