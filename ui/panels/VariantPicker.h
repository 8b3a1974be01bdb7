// VariantPicker: the "Filter and variant" box: the filter, its description, the list of its
// variants (unavailable ones greyed out with the reason: the device or format cannot run them, or the
// current parameters rule them out, as a radius above box strips' 2) and what the chosen variant changes.
// The user's own variants of the filter (core/UserVariants) follow the catalogue's, marked
// "★ NAME (user)" and named "user:NAME"; they can be deleted from the list's context menu.
#pragma once

#include "ComputeWorker.h"

#include <QGroupBox>
#include <QStringList>

#include <map>
#include <memory>

class QComboBox;
class QLabel;
class QListWidget;

namespace fwb {

struct FilterSpec;
struct VariantSpec;

class VariantPicker : public QGroupBox
{
    Q_OBJECT

public:
    explicit VariantPicker(QWidget *parent = nullptr);

    QString filterName() const;
    bool setFilterName(const QString &name);
    const FilterSpec *filter() const;

    QString variantName() const;
    // Selects a variant of the current filter by its name or a former one (core's variantAliases).
    bool setVariantName(const QString &name);
    const VariantSpec *variant() const;
    // Variants of the current filter that can run on the engine and format of the last rebuild, at
    // the parameters of the last setParams().
    QStringList availableVariants() const;
    // Why a variant of the current filter cannot run here; empty when it can (or is unknown).
    QString unavailableReason(const QString &variant) const;

    // Refills the list for this engine and pixel format, keeping the chosen variant if it can
    // still run or only the parameters rule it out (else the baseline or the first that can run);
    // emits nothing.
    void rebuild(const ComputeEngine &engine, PixelFormat format);
    // The filter's parameters now: variants they rule out (VariantSpec::maxRadius) are greyed out
    // with the reason, the others enabled again. The chosen variant stays chosen even when ruled out
    // (the reason shows under the list; the user decides), and setVariantName() may still choose one
    // that only the parameters rule out. Emits nothing.
    void setParams(const FilterParams &params);

    // User variants: the ones listed for the current filter ("user:NAME"), re-read from the user's
    // folder for the last rebuild's engine and format (emits variantChanged when the current one
    // went away), and deleted after asking (ask=false: without asking; tests).
    QStringList userVariants() const;
    void refreshUserVariants();
    bool deleteUserVariant(const QString &name, bool ask = true);

signals:
    void filterChanged();  // the user (or setFilterName) chose another filter; the list is stale
    void variantChanged(); // another row of the list became current
    void userVariantsChanged(); // one was deleted from this list

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QString variantNameNow(const QString &name) const; // a former name: the name it has now
    void updateVariantText();
    bool applyParamLimits(); // true when a row changed
    void fitVariantList(int outerWidth = -1);
    void showVariantMenu(const QPoint &pos);

    QComboBox *m_filter = nullptr;
    QLabel *m_filterInfo = nullptr;
    QListWidget *m_variants = nullptr;
    QLabel *m_variantInfo = nullptr;
    bool m_cpu = false; // the CPU reference engines ignore the variant
    ComputeEngine m_engine; // of the last rebuild (refreshUserVariants)
    PixelFormat m_format = PixelFormat::Gray8;
    FilterParams m_params; // of the last setParams
    // "user:NAME" -> the spec it launches (its base variant's, with the user's entry points):
    // variant() hands these out for user rows.
    std::map<QString, std::shared_ptr<const VariantSpec>> m_userSpecs;
};

} // namespace fwb
