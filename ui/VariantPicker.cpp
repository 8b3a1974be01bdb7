// VariantPicker: fills the variant list from the catalogue, greys out what the device or format
// cannot run, and keeps the list exactly as tall as its wrapped rows.
#include "VariantPicker.h"

#include "Catalogue.h"

#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QListWidget>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

namespace fwb {

namespace {

QLabel *wrappedLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString html(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

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
    const FilterSpec *f = filter();
    return f ? f->variant(variantName().toStdString()) : nullptr;
}

QString VariantPicker::filterName() const
{
    return m_filter->currentData().toString();
}

bool VariantPicker::setFilterName(const QString &name)
{
    const int index = m_filter->findData(name);
    if (index < 0)
        return false;
    m_filter->setCurrentIndex(index);
    return true;
}

QString VariantPicker::variantName() const
{
    const QListWidgetItem *item = m_variants->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

bool VariantPicker::setVariantName(const QString &name)
{
    for (int row = 0; row < m_variants->count(); ++row) {
        QListWidgetItem *item = m_variants->item(row);
        if (item->data(Qt::UserRole).toString() == name) {
            if (!(item->flags() & Qt::ItemIsEnabled))
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

QString VariantPicker::unavailableReason(const QString &variant) const
{
    for (int row = 0; row < m_variants->count(); ++row) {
        const QListWidgetItem *item = m_variants->item(row);
        if (item->data(Qt::UserRole).toString() == variant)
            return item->data(Qt::UserRole + 1).toString();
    }
    return {};
}

bool VariantPicker::eventFilter(QObject *watched, QEvent *event)
{
    // Wrapped rows change height with the width: refit when the width changes (a height change is
    // our own doing). The filter runs before the list lays out its viewport: use the new width.
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
    const QString previous = variantName();
    const FilterSpec *f = filter();
    {
        const QSignalBlocker blocker(m_variants);
        m_variants->clear();
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
        }
        int row = -1;
        for (int i = 0; i < m_variants->count(); ++i) {
            const QListWidgetItem *item = m_variants->item(i);
            if (!(item->flags() & Qt::ItemIsEnabled))
                continue;
            if (row < 0 || item->data(Qt::UserRole).toString() == previous)
                row = i;
        }
        m_variants->setCurrentRow(row);
    }
    fitVariantList();
    if (f)
        m_filterInfo->setText(html(f->description));
    updateVariantText();
}

void VariantPicker::updateVariantText()
{
    const VariantSpec *v = variant();
    if (!v) {
        m_variantInfo->setText(tr("<i>No variant of this filter can run on this device and pixel "
                                  "format.</i>"));
        return;
    }
    QString text = QStringLiteral("<b>%1</b><br>%2").arg(html(v->title), html(v->description));
    if (!v->seedNote.empty())
        text += tr("<br><i>Measured before:</i> %1").arg(html(v->seedNote));
    if (m_cpu)
        text += tr("<br><i>The CPU reference ignores the variant.</i>");
    m_variantInfo->setText(text);
}

} // namespace fwb
