// ElidedLabel: one line of text that takes the width it is given (issue 24: at 1366x768 the status line's
// long summaries were cut off mid-word at the label's edge). What does not fit ends in "…"; the tooltip
// always holds the whole text.
#pragma once

#include <QString>
#include <QWidget>

namespace fwb {

class ElidedLabel : public QWidget
{
    Q_OBJECT

public:
    explicit ElidedLabel(const QString &text = {}, QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    // What is drawn at the current width: the text, or its start and "…".
    QString shownText() const;
    bool isElided() const { return shownText() != m_text; }

    QSize sizeHint() const override;        // the whole text on one line
    QSize minimumSizeHint() const override; // a few characters: the rest elides

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_text;
};

} // namespace fwb
