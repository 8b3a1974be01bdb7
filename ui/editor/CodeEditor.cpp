// CodeEditor: the QScintilla view with its OpenCL lexer, or the fallback QPlainTextEdit with its
// gutter (line numbers and diagnostic markers) and its syntax highlighter.
#include "CodeEditor.h"

#include <QPaintEvent>
#include <QPainter>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QResizeEvent>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>

#ifdef FWB_HAVE_QSCINTILLA
#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>
#endif

namespace fwb {

namespace {

const char *const kOpenClKeywords =
    "kernel __kernel global __global local __local constant __constant private __private read_only "
    "__read_only write_only __write_only read_write image2d_t image3d_t image1d_t sampler_t event_t "
    "uchar uchar2 uchar3 uchar4 uchar8 uchar16 char2 char3 char4 char8 char16 ushort ushort2 ushort4 "
    "short2 short4 uint uint2 uint3 uint4 uint8 int2 int3 int4 int8 int16 ulong long2 long4 float2 "
    "float3 float4 float8 float16 half half2 half4 double2 double4 size_t bool get_global_id "
    "get_local_id get_group_id get_global_size get_local_size barrier CLK_LOCAL_MEM_FENCE "
    "CLK_GLOBAL_MEM_FENCE vload4 vstore4 vload8 vstore8 vload16 vstore16 convert_float4 convert_uchar4_sat "
    "read_imagef write_imagef mad clamp";

#ifdef FWB_HAVE_QSCINTILLA
class OpenClLexer : public QsciLexerCPP
{
public:
    using QsciLexerCPP::QsciLexerCPP;
    const char *keywords(int set) const override
    {
        return set == 2 ? kOpenClKeywords : QsciLexerCPP::keywords(set);
    }
};
#else
// The fallback: a QPlainTextEdit with a line-number gutter that also paints diagnostic markers.
class PlainCodeEdit : public QPlainTextEdit
{
public:
    explicit PlainCodeEdit(QWidget *parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this))
    {
        setLineWrapMode(QPlainTextEdit::NoWrap);
        connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateMargin(); });
        connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
            if (dy)
                m_gutter->scroll(0, dy);
            else
                m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
        });
        updateMargin();
    }
    QMap<int, bool> markers; // line -> error (else warning)

    int gutterWidth() const
    {
        return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * int(QString::number(qMax(1, blockCount())).size());
    }
    void updateMargin() { setViewportMargins(gutterWidth(), 0, 0, 0); }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QPlainTextEdit::resizeEvent(event);
        const QRect cr = contentsRect();
        m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
    }

private:
    class Gutter : public QWidget
    {
    public:
        explicit Gutter(PlainCodeEdit *edit) : QWidget(edit), m_edit(edit) {}

    protected:
        void paintEvent(QPaintEvent *event) override
        {
            QPainter p(this);
            p.fillRect(event->rect(), palette().window());
            QTextBlock block = m_edit->firstVisibleBlock();
            int top = qRound(m_edit->blockBoundingGeometry(block).translated(m_edit->contentOffset()).top());
            while (block.isValid() && top <= event->rect().bottom()) {
                const int height = qRound(m_edit->blockBoundingRect(block).height());
                const int line = block.blockNumber() + 1;
                if (m_edit->markers.contains(line)) {
                    p.setBrush(m_edit->markers.value(line) ? QColor(220, 50, 47) : QColor(230, 160, 0));
                    p.setPen(Qt::NoPen);
                    p.drawEllipse(QPoint(5, top + height / 2), 4, 4);
                }
                p.setPen(palette().color(QPalette::PlaceholderText));
                p.drawText(0, top, width() - 3, height, Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
                block = block.next();
                top += height;
            }
        }

    private:
        PlainCodeEdit *m_edit;
    };
    Gutter *m_gutter;
};

class OpenClHighlighter : public QSyntaxHighlighter
{
public:
    explicit OpenClHighlighter(QTextDocument *document) : QSyntaxHighlighter(document)
    {
        QTextCharFormat keyword;
        keyword.setForeground(QColor(0, 80, 170));
        keyword.setFontWeight(QFont::Bold);
        const QString c = QStringLiteral("if else for while do return break continue switch case default const "
                                         "static inline void int float char short long unsigned signed struct "
                                         "typedef sizeof volatile ");
        const QStringList words = (c + QLatin1String(kOpenClKeywords)).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        m_rules.append({QRegularExpression(QStringLiteral("\\b(") + words.join(QLatin1Char('|')) + QStringLiteral(")\\b")),
                        keyword});
        QTextCharFormat preprocessor;
        preprocessor.setForeground(QColor(140, 60, 160));
        m_rules.append({QRegularExpression(QStringLiteral("^\\s*#.*")), preprocessor});
        QTextCharFormat number;
        number.setForeground(QColor(170, 90, 0));
        m_rules.append({QRegularExpression(QStringLiteral("\\b[0-9][0-9a-fA-FxXp.+-]*[fFuU]?\\b")), number});
        m_comment.setForeground(QColor(0, 128, 0));
        m_rules.append({QRegularExpression(QStringLiteral("//[^\n]*")), m_comment});
    }

protected:
    void highlightBlock(const QString &text) override
    {
        for (const Rule &rule : std::as_const(m_rules)) {
            auto it = rule.pattern.globalMatch(text);
            while (it.hasNext()) {
                const auto m = it.next();
                setFormat(int(m.capturedStart()), int(m.capturedLength()), rule.format);
            }
        }
        // Block comments across lines.
        setCurrentBlockState(0);
        int start = previousBlockState() == 1 ? 0 : int(text.indexOf(QLatin1String("/*")));
        while (start >= 0) {
            const int end = int(text.indexOf(QLatin1String("*/"), start + (previousBlockState() == 1 && start == 0 ? 0 : 2)));
            const int length = end < 0 ? int(text.size()) - start : end - start + 2;
            if (end < 0)
                setCurrentBlockState(1);
            setFormat(start, length, m_comment);
            start = end < 0 ? -1 : int(text.indexOf(QLatin1String("/*"), start + length));
        }
    }

private:
    struct Rule
    {
        QRegularExpression pattern;
        QTextCharFormat format;
    };
    QList<Rule> m_rules;
    QTextCharFormat m_comment;
};
#endif

QWidget *makeCodeView(QWidget *parent, bool readOnly)
{
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSize(10);
#ifdef FWB_HAVE_QSCINTILLA
    auto *sci = new QsciScintilla(parent);
    auto *lexer = new OpenClLexer(sci);
    lexer->setDefaultFont(mono);
    for (int style = 0; style < 128; ++style)
        lexer->setFont(mono, style);
    sci->setLexer(lexer);
    sci->setUtf8(true);
    sci->setMarginType(0, QsciScintilla::NumberMargin);
    sci->setMarginWidth(0, QStringLiteral("00000"));
    sci->setMarginLineNumbers(0, true);
    sci->setMarginType(1, QsciScintilla::SymbolMargin);
    sci->setMarginWidth(1, 14);
    sci->setMarginSensitivity(1, false);
    sci->markerDefine(QsciScintilla::Circle, 0); // errors
    sci->setMarkerBackgroundColor(QColor(220, 50, 47), 0);
    sci->markerDefine(QsciScintilla::Circle, 1); // warnings
    sci->setMarkerBackgroundColor(QColor(230, 160, 0), 1);
    sci->markerDefine(QsciScintilla::Background, 2); // the error line itself
    sci->setMarkerBackgroundColor(QColor(255, 225, 225), 2);
    sci->setAutoIndent(true);
    sci->setIndentationsUseTabs(false);
    sci->setTabWidth(4);
    sci->setBraceMatching(QsciScintilla::SloppyBraceMatch);
    sci->setCaretLineVisible(true);
    sci->setCaretLineBackgroundColor(QColor(245, 245, 250));
    sci->setReadOnly(readOnly);
    return sci;
#else
    auto *edit = new PlainCodeEdit(parent);
    edit->setFont(mono);
    edit->setReadOnly(readOnly);
    new OpenClHighlighter(edit->document());
    return edit;
#endif
}

} // namespace

CodeEditor::CodeEditor(bool readOnly, QWidget *parent) : QWidget(parent), m_view(makeCodeView(this, readOnly))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setFocusProxy(m_view);
#ifdef FWB_HAVE_QSCINTILLA
    connect(static_cast<QsciScintilla *>(m_view), &QsciScintilla::textChanged, this, &CodeEditor::textChanged);
#else
    connect(static_cast<QPlainTextEdit *>(m_view), &QPlainTextEdit::textChanged, this, &CodeEditor::textChanged);
#endif
}

QString CodeEditor::text() const
{
    QWidget *view = m_view;
#ifdef FWB_HAVE_QSCINTILLA
    return static_cast<QsciScintilla *>(view)->text();
#else
    return static_cast<QPlainTextEdit *>(view)->toPlainText();
#endif
}

void CodeEditor::setText(const QString &text)
{
    QWidget *view = m_view;
#ifdef FWB_HAVE_QSCINTILLA
    auto *sci = static_cast<QsciScintilla *>(view);
    const bool readOnly = sci->isReadOnly();
    sci->setReadOnly(false);
    sci->setText(text);
    sci->setReadOnly(readOnly);
#else
    static_cast<QPlainTextEdit *>(view)->setPlainText(text);
#endif
}

void CodeEditor::markLines(const QMap<int, bool> &lines)
{
    QWidget *view = m_view;
#ifdef FWB_HAVE_QSCINTILLA
    auto *sci = static_cast<QsciScintilla *>(view);
    sci->markerDeleteAll();
    for (auto it = lines.begin(); it != lines.end(); ++it) {
        sci->markerAdd(it.key() - 1, it.value() ? 0 : 1);
        if (it.value())
            sci->markerAdd(it.key() - 1, 2);
    }
#else
    auto *edit = static_cast<PlainCodeEdit *>(view);
    edit->markers = lines;
    QList<QTextEdit::ExtraSelection> selections;
    for (auto it = lines.begin(); it != lines.end(); ++it) {
        if (!it.value())
            continue;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(QColor(255, 225, 225));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(edit->document()->findBlockByNumber(it.key() - 1));
        selections.append(s);
    }
    edit->setExtraSelections(selections);
    edit->viewport()->update();
    edit->update();
#endif
}

void CodeEditor::goToLine(int line, int column)
{
    QWidget *view = m_view;
#ifdef FWB_HAVE_QSCINTILLA
    auto *sci = static_cast<QsciScintilla *>(view);
    sci->setCursorPosition(line - 1, qMax(0, column - 1));
    sci->ensureLineVisible(line - 1);
    sci->setFocus();
#else
    auto *edit = static_cast<QPlainTextEdit *>(view);
    QTextCursor cursor(edit->document()->findBlockByNumber(line - 1));
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, qMax(0, column - 1));
    edit->setTextCursor(cursor);
    edit->centerCursor();
    edit->setFocus();
#endif
}

void CodeEditor::showLine(int line)
{
    QWidget *view = m_view;
    const int above = 2; // a little context above the line
#ifdef FWB_HAVE_QSCINTILLA
    auto *sci = static_cast<QsciScintilla *>(view);
    sci->setCursorPosition(line - 1, 0);
    sci->setFirstVisibleLine(qMax(0, line - 1 - above));
#else
    auto *edit = static_cast<QPlainTextEdit *>(view);
    edit->setTextCursor(QTextCursor(edit->document()->findBlockByNumber(line - 1)));
    edit->verticalScrollBar()->setValue(qMax(0, line - 1 - above)); // one step per line (block)
#endif
}

int CodeEditor::firstVisibleLine() const
{
    QWidget *view = m_view;
#ifdef FWB_HAVE_QSCINTILLA
    return static_cast<QsciScintilla *>(view)->firstVisibleLine() + 1;
#else
    return static_cast<QPlainTextEdit *>(view)->verticalScrollBar()->value() + 1;
#endif
}

int CodeEditor::visibleLines() const
{
#ifdef FWB_HAVE_QSCINTILLA
    return int(static_cast<QsciScintilla *>(m_view)->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN));
#else
    const auto *edit = static_cast<QPlainTextEdit *>(m_view);
    return edit->viewport()->height() / std::max(1, edit->fontMetrics().lineSpacing());
#endif
}

int CodeEditor::lineHeight() const
{
#ifdef FWB_HAVE_QSCINTILLA
    return std::max(1, int(static_cast<QsciScintilla *>(m_view)->SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, 0ul)));
#else
    return std::max(1, static_cast<QPlainTextEdit *>(m_view)->fontMetrics().lineSpacing());
#endif
}

int CodeEditor::line() const
{
    QWidget *view = m_view;
#ifdef FWB_HAVE_QSCINTILLA
    int line = 0, index = 0;
    static_cast<QsciScintilla *>(view)->getCursorPosition(&line, &index);
    return line + 1;
#else
    return static_cast<QPlainTextEdit *>(view)->textCursor().blockNumber() + 1;
#endif
}

} // namespace fwb
