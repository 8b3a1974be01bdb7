// VariantPicker: fills the variant list from the catalogue, greys out what the device, format or
// parameters rule out, and keeps the list exactly as tall as its wrapped rows.
#include "VariantPicker.h"

#include "Catalogue.h"
#include "ComboBoxes.h"
#include "MeasurementRecord.h"
#include "UiText.h"
#include "UserVariants.h"
#include "VariantLimits.h"
#include "WorkerProcess.h"

#include <QComboBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

namespace fwb {

namespace {

// A row's data: Qt::UserRole the variant's name, +1 why the device or format cannot run it, +2 a
// user variant; these for the parameters' verdict, which changes without a rebuild:
constexpr int kParamReasonRole = Qt::UserRole + 3; // why the parameters rule it out ("" when not)
constexpr int kPlainTextRole = Qt::UserRole + 4;   // its text and tooltip when they do not
constexpr int kPlainToolTipRole = Qt::UserRole + 5;

} // namespace

VariantPicker::VariantPicker(QWidget *parent) : QGroupBox(tr("Filter and variant"), parent)
{
    auto *filterLayout = new QVBoxLayout(this);
    m_filter = new QComboBox(this);
    m_filter->setObjectName("filterCombo");
    for (const FilterSpec &f : catalogue())
        m_filter->addItem(QString::fromStdString(f.title), QString::fromStdString(f.name));
    m_filterInfo = wrappedLabel(this);
    m_variants = new QListWidget(this);
    m_variants->setObjectName("variantList");
    // Long titles ("Exact global size, non-uniform work-groups (CL 2.0) — unavailable") wrap instead
    // of growing a horizontal scroll bar that hid the last row; the list is as tall as its rows.
    m_variants->setWordWrap(true);
    m_variants->setTextElideMode(Qt::ElideNone);
    m_variants->setResizeMode(QListView::Adjust);
    m_variants->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_variants->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_variants->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_variants->installEventFilter(this);
    m_variants->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_variants, &QWidget::customContextMenuRequested, this, &VariantPicker::showVariantMenu);
    m_variantInfo = wrappedLabel(this);
    m_variantInfo->setObjectName("variantInfo");
    filterLayout->addWidget(m_filter);
    filterLayout->addWidget(m_filterInfo);
    filterLayout->addWidget(m_variants);
    filterLayout->addWidget(m_variantInfo);

    connect(m_filter, &QComboBox::currentIndexChanged, this, &VariantPicker::filterChanged);
    connect(m_variants, &QListWidget::currentRowChanged, this, [this] {
        updateVariantText();
        emit variantChanged();
    });
}

const FilterSpec *VariantPicker::filter() const
{
    return findFilter(filterName().toStdString());
}

const VariantSpec *VariantPicker::variant() const
{
    const QString name = variantName();
    if (const auto user = m_userSpecs.find(name); user != m_userSpecs.end())
        return user->second.get();
    const FilterSpec *f = filter();
    return f ? f->variant(name.toStdString()) : nullptr;
}

QString VariantPicker::filterName() const
{
    return m_filter->currentData().toString();
}

bool VariantPicker::setFilterName(const QString &name)
{
    return selectByData(m_filter, name);
}

QString VariantPicker::variantName() const
{
    const QListWidgetItem *item = m_variants->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

QString VariantPicker::variantNameNow(const QString &name) const
{
    return QString::fromStdString(currentVariantName(filterName().toStdString(), name.toStdString()));
}

bool VariantPicker::setVariantName(const QString &asked)
{
    const QString name = variantNameNow(asked); // a former name (--variant, saved settings) selects today's
    for (int row = 0; row < m_variants->count(); ++row) {
        QListWidgetItem *item = m_variants->item(row);
        if (item->data(Qt::UserRole).toString() == name) {
            // Refused where the device or format cannot run it; one that only the parameters rule out
            // may be chosen (a radius change leads there too), with the reason shown.
            if (!(item->flags() & Qt::ItemIsEnabled) && item->data(kParamReasonRole).toString().isEmpty())
                return false;
            m_variants->setCurrentRow(row);
            return true;
        }
    }
    return false;
}

QStringList VariantPicker::availableVariants() const
{
    QStringList names;
    for (int row = 0; row < m_variants->count(); ++row) {
        const QListWidgetItem *item = m_variants->item(row);
        if (item->flags() & Qt::ItemIsEnabled)
            names << item->data(Qt::UserRole).toString();
    }
    return names;
}

QString VariantPicker::unavailableReason(const QString &asked) const
{
    const QString variant = variantNameNow(asked);
    for (int row = 0; row < m_variants->count(); ++row) {
        const QListWidgetItem *item = m_variants->item(row);
        if (item->data(Qt::UserRole).toString() == variant) {
            const QString why = item->data(Qt::UserRole + 1).toString();
            return why.isEmpty() ? item->data(kParamReasonRole).toString() : why;
        }
    }
    return {};
}

bool VariantPicker::eventFilter(QObject *watched, QEvent *event)
{
    // Wrapped rows change height with the width: refit when the width changes (a height change is
    // our own doing). The filter runs before the list lays out its viewport: use the new width.
    if (watched == m_variants && event->type() == QEvent::KeyPress
        && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Delete && m_userSpecs.count(variantName())) {
        deleteUserVariant(variantName());
        return true;
    }
    if (watched == m_variants && event->type() == QEvent::Resize) {
        const auto *resize = static_cast<QResizeEvent *>(event);
        if (resize->size().width() != resize->oldSize().width())
            fitVariantList(resize->size().width());
    }
    return QGroupBox::eventFilter(watched, event);
}

void VariantPicker::fitVariantList(int outerWidth)
{
    // As tall as its (wrapped) rows: no scroll bar, no hidden last row, and no empty box pushing
    // the parameters below the fold. Scroll bars are off, so the text gets all but the frame.
    const int width = (outerWidth >= 0 ? outerWidth : m_variants->width()) - 2 * m_variants->frameWidth();
    if (width <= 0)
        return;
    // A first estimate now, from the font...
    const QFontMetrics metrics(m_variants->font());
    const int margin =
        2 * (m_variants->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_variants) + 1);
    int height = 0;
    for (int row = 0; row < m_variants->count(); ++row) {
        const QRect text = metrics.boundingRect(QRect(0, 0, std::max(10, width - margin), 100000),
                                                Qt::TextWordWrap, m_variants->item(row)->text());
        height += std::max(m_variants->sizeHintForRow(row), text.height() + 2);
    }
    if (m_variants->count() == 0)
        height = metrics.height();
    m_variants->setFixedHeight(height + 2 * m_variants->frameWidth() + 2);
    // ...then the list's own layout once the viewport has its new width: the delegate's margins
    // decide the real row heights, and an estimate a few pixels short left the top row cut off.
    QTimer::singleShot(0, this, [this] {
        if (m_variants->count() == 0)
            return;
        m_variants->doItemsLayout();
        const int top = m_variants->visualItemRect(m_variants->item(0)).top();
        const int bottom = m_variants->visualItemRect(m_variants->item(m_variants->count() - 1)).bottom();
        const int needed = bottom - top + 1;
        if (needed > 0 && needed != m_variants->viewport()->height())
            m_variants->setFixedHeight(needed + m_variants->height() - m_variants->viewport()->height());
        m_variants->scrollToTop();
    });
}

void VariantPicker::rebuild(const ComputeEngine &eng, PixelFormat format)
{
    m_cpu = eng.isCpu();
    m_engine = eng;
    m_format = format;
    const QString previous = variantName();
    const FilterSpec *f = filter();
    {
        const QSignalBlocker blocker(m_variants);
        m_variants->clear();
        m_userSpecs.clear();
        if (f) {
            for (const VariantSpec &v : f->variants) {
                // The CPU engines run the reference code, which every variant must agree with.
                const std::string why = eng.isCpu() ? std::string()
                                                    : variantUnavailableReason(v, eng.device, format);
                auto *item = new QListWidgetItem(QString::fromStdString(v.title), m_variants);
                item->setData(Qt::UserRole, QString::fromStdString(v.name));
                if (!why.empty()) {
                    item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
                    item->setText(tr("%1 — unavailable").arg(QString::fromStdString(v.title)));
                    item->setToolTip(tr("Unavailable here: %1").arg(QString::fromStdString(why)));
                    item->setData(Qt::UserRole + 1, QString::fromStdString(why));
                } else {
                    item->setToolTip(QString::fromStdString(v.description));
                }
            }
            // The user's variants of this filter, after the catalogue's: they launch as their base does,
            // so they can run wherever it can.
            for (const UserVariant &u : listUserVariants()) {
                if (u.baseFilter != f->name)
                    continue;
                std::shared_ptr<const VariantSpec> spec;
                try {
                    spec = userVariantSpec(u);
                } catch (const std::exception &) {
                    continue; // its base variant is gone: filter-bench user-variants says why
                }
                const QString ref = QString::fromStdString(userVariantRef(u.name));
                const VariantSpec *base = f->variant(u.baseVariant);
                const std::string why = eng.isCpu() ? std::string() : variantUnavailableReason(*base, eng.device, format);
                auto *item = new QListWidgetItem(tr("★ %1 (user)").arg(QString::fromStdString(u.name)), m_variants);
                item->setData(Qt::UserRole, ref);
                item->setData(Qt::UserRole + 2, true);
                if (!why.empty()) {
                    item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
                    item->setText(tr("★ %1 (user) — unavailable").arg(QString::fromStdString(u.name)));
                    item->setData(Qt::UserRole + 1, QString::fromStdString(why));
                }
                item->setToolTip(tr("Your kernel, based on %1 (%2); it runs in the helper process. "
                                    "Right-click or press Delete to delete it.")
                                     .arg(QString::fromStdString(base->title), QString::fromStdString(u.baseVariant)));
                m_userSpecs[ref] = std::move(spec);
            }
            for (int i = 0; i < m_variants->count(); ++i) {
                QListWidgetItem *item = m_variants->item(i);
                item->setData(kPlainTextRole, item->text());
                item->setData(kPlainToolTipRole, item->toolTip());
            }
            applyParamLimits();
        }
        // Keep the chosen variant (even when only the parameters rule it out: no silent switch); else
        // start from the catalogue's baseline (a newcomer should not meet the slowest rung first), else
        // the first that can run.
        const VariantSpec *baseline = f ? baselineVariant(*f) : nullptr;
        int row = -1, kept = -1, baselineRow = -1;
        for (int i = 0; i < m_variants->count(); ++i) {
            const QListWidgetItem *item = m_variants->item(i);
            const QString name = item->data(Qt::UserRole).toString();
            if (name == previous && !item->data(kParamReasonRole).toString().isEmpty())
                kept = i;
            if (!(item->flags() & Qt::ItemIsEnabled))
                continue;
            if (row < 0)
                row = i;
            if (name == previous)
                kept = i;
            if (baseline && name == QString::fromStdString(baseline->name))
                baselineRow = i;
        }
        row = kept >= 0 ? kept : baselineRow >= 0 ? baselineRow : row;
        m_variants->setCurrentRow(row);
    }
    fitVariantList();
    if (f)
        m_filterInfo->setText(html(f->description));
    updateVariantText();
}

QStringList VariantPicker::userVariants() const
{
    QStringList names;
    for (const auto &[ref, spec] : m_userSpecs)
        names << ref;
    return names;
}

void VariantPicker::refreshUserVariants()
{
    const QString previous = variantName();
    rebuild(m_engine, m_format);
    if (variantName() != previous)
        emit variantChanged();
}

bool VariantPicker::deleteUserVariant(const QString &ref, bool ask)
{
    const std::optional<std::string> name = userVariantNameOf(ref.toStdString());
    if (!name)
        return false;
    const QString shown = QString::fromStdString(*name);
    if (ask
        && QMessageBox::question(this, tr("Delete user variant"),
                                 tr("Delete your variant %1? Its kernel file and description are removed from "
                                    "%2; this cannot be undone.")
                                     .arg(shown, QString::fromStdString(userVariantDir().string())),
                                 QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
               != QMessageBox::Yes)
        return false;
    // The current variant going away: its base variant takes its place.
    std::string base;
    if (ref == variantName()) {
        try {
            base = loadUserVariant(*name).baseVariant;
        } catch (const std::exception &) {
        }
    }
    const bool removed = fwb::deleteUserVariant(*name);
    refreshUserVariants();
    if (!base.empty() && variantName() != QString::fromStdString(base))
        setVariantName(QString::fromStdString(base)); // emits variantChanged
    if (removed)
        emit userVariantsChanged();
    return removed;
}

void VariantPicker::showVariantMenu(const QPoint &pos)
{
    const QListWidgetItem *item = m_variants->itemAt(pos);
    if (!item || !item->data(Qt::UserRole + 2).toBool())
        return;
    const QString ref = item->data(Qt::UserRole).toString();
    QMenu menu(this);
    menu.addAction(tr("Delete user variant %1...").arg(QString::fromStdString(*userVariantNameOf(ref.toStdString()))),
                   this, [this, ref] { deleteUserVariant(ref); });
    menu.exec(m_variants->viewport()->mapToGlobal(pos));
}

void VariantPicker::setParams(const FilterParams &params)
{
    m_params = params;
    if (applyParamLimits())
        fitVariantList(); // a row's text changed, and with it perhaps its wrapped height
    updateVariantText();
}

bool VariantPicker::applyParamLimits()
{
    const FilterSpec *f = filter();
    bool changed = false;
    for (int row = 0; row < m_variants->count(); ++row) {
        QListWidgetItem *item = m_variants->item(row);
        if (!item->data(Qt::UserRole + 1).toString().isEmpty())
            continue; // the device or format rules it out already, and says so
        const QString name = item->data(Qt::UserRole).toString();
        const VariantSpec *v = nullptr;
        if (const auto user = m_userSpecs.find(name); user != m_userSpecs.end())
            v = user->second.get();
        else if (f)
            v = f->variant(name.toStdString());
        // The CPU engines run the reference code, which takes every parameter.
        const QString why = f && v && !m_cpu ? QString::fromStdString(paramsUnavailableReason(*f, *v, m_params))
                                             : QString();
        if (why == item->data(kParamReasonRole).toString())
            continue;
        changed = true;
        item->setData(kParamReasonRole, why);
        const QString text = item->data(kPlainTextRole).toString();
        if (why.isEmpty()) {
            item->setFlags(item->flags() | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            item->setText(text);
            item->setToolTip(item->data(kPlainToolTipRole).toString());
        } else {
            item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
            item->setText(tr("%1 — unavailable").arg(text));
            item->setToolTip(tr("Unavailable at these parameters: %1").arg(why));
        }
    }
    return changed;
}

void VariantPicker::updateVariantText()
{
    // A disabled row shows no selection: the chosen one that the parameters rule out is set in bold.
    bool refit = false;
    for (int row = 0; row < m_variants->count(); ++row) {
        QListWidgetItem *item = m_variants->item(row);
        const bool bold = item == m_variants->currentItem() && !item->data(kParamReasonRole).toString().isEmpty();
        if (item->font().bold() != bold) {
            QFont font = item->font();
            font.setBold(bold);
            item->setFont(font);
            refit = true;
        }
    }
    if (refit)
        fitVariantList(); // bold text may wrap onto another line
    const VariantSpec *v = variant();
    if (!v) {
        m_variantInfo->setText(tr("<i>No variant of this filter can run on this device and pixel "
                                  "format.</i>"));
        return;
    }
    QString text = QStringLiteral("<b>%1</b><br>%2").arg(html(v->title), html(v->description));
    if (m_userSpecs.count(variantName()))
        text += tr("<br><i>Your variant: it runs in the helper process, stopped when it takes longer "
                   "than %1 s.</i>").arg(kDefaultWorkerTimeoutS);
    if (!v->seedNote.empty())
        text += tr("<br><i>Measured before:</i> %1").arg(html(v->seedNote));
    // A real device's figures for this variant from the kept records, where the descriptions once
    // quoted them: always with the device, driver and date, never as this computer's.
    if (const FilterSpec *f = filter(); f && !m_userSpecs.count(variantName()))
        for (const VariantRecord &entry : variantRecords(*installedMeasurementRecords(), f->name, v->name))
            text += tr("<br><i>Recorded on %1 - not measured on this computer.</i>")
                        .arg(html(variantRecordSentence(entry)));
    if (m_cpu)
        text += tr("<br><i>The CPU reference ignores the variant.</i>");
    // Kept though the parameters now rule it out: say so first, where the user looks.
    if (const QListWidgetItem *item = m_variants->currentItem();
        item && !item->data(kParamReasonRole).toString().isEmpty())
        text = tr("<b style='color:#b00020'>Cannot run at these parameters:</b> %1<br>")
                   .arg(item->data(kParamReasonRole).toString().toHtmlEscaped())
               + text;
    m_variantInfo->setText(text);
}

} // namespace fwb
