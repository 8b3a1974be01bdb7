// KernelEditorDock, the edits' keeping: Revert, Save As User Variant, opening and deleting user
// variants, and the recovery file written while the user types (RecoveryBar offers it back).
#include "KernelEditorDock.h"
#include "UiText.h"

#include "Catalogue.h"
#include "CodeEditor.h"
#include "ControlPanel.h"
#include "DiagnosticsList.h"
#include "RecoveryBar.h"
#include "VariantPicker.h"

#include <QComboBox>
#include <QInputDialog>

namespace fwb {

void KernelEditorDock::revert()
{
    m_edits.remove(m_loadedKey);
    setSource(m_shippedSource);
    m_code->markLines({});
    m_diagnostics->clear();
    RecoveryBar::remove();
    setStatus((m_userVariant ? tr("Reverted to the saved %1.") : tr("Reverted to the shipped %1.")).arg(m_fileName));
    updateActions();
}

bool KernelEditorDock::saveAsUserVariant(const QString &givenName)
{
    QString name = givenName;
    if (name.isEmpty()) {
        bool ok = false;
        name = QInputDialog::getText(this, tr("Save As User Variant"),
                                     tr("Name (letters, digits, '_' and '-'):"), QLineEdit::Normal,
                                     m_userVariant ? q(m_userVariant->name) : q(m_request.run.variant) + QStringLiteral("_edited"),
                                     &ok);
        if (!ok || name.isEmpty())
            return false;
    }
    try {
        const FilterSpec *filter = findFilter(m_request.run.filter);
        UserVariant v = m_userVariant ? *m_userVariant
                                      : userVariantFrom(*filter, *filter->variant(baseVariantName()), {}, {});
        v.name = name.toStdString();
        v.source = source().toStdString();
        if (m_userVariant && v.kernelFile == m_userVariant->name + ".cl")
            v.kernelFile.clear(); // NAME.cl follows the new name
        const std::filesystem::path path = saveUserVariant(v);
        if (m_userVariant && m_userVariant->name == v.name) { // saved over the variant being edited
            m_userVariant = v;
            m_shippedSource = q(v.source);
            m_edits.remove(m_loadedKey);
            writeRecovery();
        }
        setStatus(tr("Saved user variant %1 (%2); run it with filter-bench run --user-variant %1")
                      .arg(name, q(path.string())));
        refreshUserVariants();
        emit userVariantsChanged();
        return true;
    } catch (const std::exception &e) {
        setStatus(tr("Cannot save: %1").arg(q(e.what())), true);
        return false;
    }
}

void KernelEditorDock::openUserVariant(const QString &name)
{
    if (name.isEmpty())
        return;
    try {
        const UserVariant v = loadUserVariant(name.toStdString());
        const QString ref = q(userVariantRef(v.name));
        if (m_controls && m_controls->setFilterName(q(v.baseFilter)) && m_controls->setVariantName(ref))
            return; // the window's list now shows it; setRequest() loads it
        ComputeRequest request = m_request; // a dock without a window, or a variant the device cannot run
        request.run.filter = v.baseFilter;
        request.run.variant = ref.toStdString();
        setRequest(request);
        setStatus(tr("Opened user variant %1 (based on %2/%3)").arg(name, q(v.baseFilter), q(v.baseVariant)));
    } catch (const std::exception &e) {
        setStatus(q(e.what()), true);
    }
}

void KernelEditorDock::deleteUserVariant(const QString &name)
{
    if (name.isEmpty())
        return;
    if (m_picker) { // asks first, then refreshes both lists
        if (m_picker->deleteUserVariant(q(userVariantRef(name.toStdString()))))
            setStatus(tr("Deleted user variant %1").arg(name));
        return;
    }
    if (fwb::deleteUserVariant(name.toStdString())) {
        setStatus(tr("Deleted user variant %1").arg(name));
        refreshUserVariants();
        emit userVariantsChanged();
    }
}

void KernelEditorDock::refreshUserVariants()
{
    m_userVariants->clear();
    const std::vector<UserVariant> all = listUserVariants();
    if (all.empty())
        m_userVariants->addItem(tr("(no user variants)"), QString());
    for (const UserVariant &v : all)
        m_userVariants->addItem(tr("%1 (user, %2/%3)").arg(q(v.name), q(v.baseFilter), q(v.baseVariant)), q(v.name));
}

QString KernelEditorDock::recoveryPath() const
{
    return RecoveryBar::path();
}

void KernelEditorDock::scheduleAutosave()
{
    if (!m_loadedKey.isEmpty())
        m_autosave.start();
}

void KernelEditorDock::writeRecovery()
{
    m_autosave.stop();
    if (m_loadedKey.isEmpty() || m_recoveryBar->isVisible())
        return; // never overwrite a recovery the user has not answered yet
    if (!isModified())
        RecoveryBar::remove();
    else
        RecoveryBar::write({q(m_request.run.filter), q(m_request.run.variant), m_fileName, {}, source()});
}

bool KernelEditorDock::recoveryOffered() const
{
    return m_recoveryBar->isVisible() || (m_recoveryBar->offered() && !m_recoveryBar->isHidden());
}

void KernelEditorDock::checkRecovery()
{
    m_recoveryBar->offer();
}

void KernelEditorDock::restoreRecovery()
{
    const std::optional<RecoveredEdit> edit = RecoveryBar::read();
    if (!edit)
        return;
    m_recoveryBar->hide();
    const QString key = edit->filter + QLatin1Char('/') + edit->variant;
    m_edits[key] = edit->source;
    if (key == m_loadedKey)
        setSource(m_edits.value(key));
    else if (m_controls) {
        m_controls->setFilterName(edit->filter);
        m_controls->setVariantName(edit->variant); // loadVariantFiles() picks the edits up
    }
    setStatus(tr("Restored your unsaved edits of %1.").arg(edit->file));
    updateActions();
}

void KernelEditorDock::discardRecovery()
{
    m_recoveryBar->hide();
    RecoveryBar::remove();
}

} // namespace fwb
