// CodeEditor: one OpenCL C code view for the kernel editor: QScintilla with the C lexer taught
// OpenCL's keywords, address spaces and vector types when built with it (FWB_HAVE_QSCINTILLA), else
// a plain editor with a line-number gutter and a highlighter; diagnostics as margin markers either way.
#pragma once

#include <QMap>
#include <QWidget>

namespace fwb {

class CodeEditor : public QWidget
{
    Q_OBJECT

public:
    explicit CodeEditor(bool readOnly, QWidget *parent = nullptr);

    QString text() const;
    void setText(const QString &text); // read-only views too
    // line -> true for errors, false for warnings (1-based); an empty map clears the markers.
    void markLines(const QMap<int, bool> &lines);
    void goToLine(int line, int column = 1);
    // Puts the cursor on a line and scrolls it to near the top of the view, without taking the focus.
    void showLine(int line);
    int line() const; // 1-based cursor line
    int firstVisibleLine() const; // 1-based
    int visibleLines() const;     // how many lines of code the view shows whole at its height
    int lineHeight() const;       // pixels per line of code
    QWidget *view() const { return m_view; } // the QsciScintilla or QPlainTextEdit itself

signals:
    void textChanged();

private:
    QWidget *m_view = nullptr;
};

} // namespace fwb
