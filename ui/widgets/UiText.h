// Small text helpers shared by the window's pages.
#pragma once

#include <QLabel>
#include <QString>

#include <string>

namespace fwb {

inline QString q(const std::string &s) { return QString::fromStdString(s); }

// Catalogue text (descriptions, device names) made safe inside rich text.
inline QString html(const std::string &text) { return q(text).toHtmlEscaped(); }

// A selectable, word-wrapped rich-text label, as the Controls panel and the variant picker show text.
inline QLabel *wrappedLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// A time for people: "123 ms", "4.56 ms", "0.789 ms" (three significant figures or so).
inline QString msText(double ms)
{
    return ms >= 100 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', 0)
           : ms >= 1 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', 2)
                     : QStringLiteral("%1 ms").arg(ms, 0, 'f', 3);
}

} // namespace fwb
