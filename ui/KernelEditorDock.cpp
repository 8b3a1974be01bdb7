// KernelEditorDock: code views (QScintilla when built with it, else a plain editor with line numbers
// and a highlighter), the build/run jobs on a thread of their own that waits on the helper process,
// diagnostics, the two-bar race, user variants and the recovery file.
#include "KernelEditorDock.h"

#include "BuildDiagnostics.h"
#include "Catalogue.h"
#include "ControlPanel.h"
#include "KernelSources.h"
#include "MainWindow.h"
#include "WorkerProcess.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMainWindow>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSplitter>
#include <QStandardPaths>
#include <QSyntaxHighlighter>
#include <QTabWidget>
#include <QTextBlock>
#include <QThread>
#include <QToolBar>
#include <QVBoxLayout>

#ifdef FWB_HAVE_QSCINTILLA
#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>
#endif

namespace fwb {

namespace {

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

// OpenCL C on top of C: qualifiers, address spaces, vector and image types, common built-ins.
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

// ---- One code view, whichever editor backs it --------------------------------------------------

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

QString codeText(QWidget *view)
{
#ifdef FWB_HAVE_QSCINTILLA
    return static_cast<QsciScintilla *>(view)->text();
#else
    return static_cast<QPlainTextEdit *>(view)->toPlainText();
#endif
}

void setCodeText(QWidget *view, const QString &text)
{
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

// line -> true for errors, false for warnings (1-based lines).
void markCodeLines(QWidget *view, const QMap<int, bool> &lines)
{
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

void goToCodeLine(QWidget *view, int line, int column)
{
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

int codeLine(QWidget *view)
{
#ifdef FWB_HAVE_QSCINTILLA
    int line = 0, index = 0;
    static_cast<QsciScintilla *>(view)->getCursorPosition(&line, &index);
    return line + 1;
#else
    return static_cast<QPlainTextEdit *>(view)->textCursor().blockNumber() + 1;
#endif
}

template<typename Fn>
void onCodeChanged(QWidget *view, QObject *context, Fn fn)
{
#ifdef FWB_HAVE_QSCINTILLA
    QObject::connect(static_cast<QsciScintilla *>(view), &QsciScintilla::textChanged, context, fn);
#else
    QObject::connect(static_cast<QPlainTextEdit *>(view), &QPlainTextEdit::textChanged, context, fn);
#endif
}

QPixmap thumbnail(const QImage &image, int height)
{
    return image.isNull() ? QPixmap() : QPixmap::fromImage(image.scaledToHeight(height, Qt::SmoothTransformation));
}

QImage toQImage(const Image &image)
{
    if (image.isNull())
        return {};
    const QImage::Format format = image.format() == PixelFormat::Gray8  ? QImage::Format_Grayscale8
                                  : image.format() == PixelFormat::Rgb888 ? QImage::Format_RGB888
                                                                          : QImage::Format_RGBA8888;
    return QImage(image.data(), image.width(), image.height(), qsizetype(image.stride()), format).copy();
}

} // namespace

// ---- The two-bar race: original vs edited ----------------------------------------------------

class RaceBars : public QWidget
{
public:
    explicit RaceBars(QWidget *parent) : QWidget(parent) { setMinimumHeight(58); }
    void setTimes(double originalMs, double editedMs, bool editedOk)
    {
        m_original = originalMs;
        m_edited = editedMs;
        m_editedOk = editedOk;
        update();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const double longest = qMax(m_original, m_edited);
        const int labelWidth = 70, valueWidth = 150, barHeight = 20;
        const int room = qMax(10, width() - labelWidth - valueWidth - 8);
        auto bar = [&](int row, const QString &label, double ms, QColor colour) {
            const int y = 4 + row * (barHeight + 8);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(0, y, labelWidth, barHeight, Qt::AlignVCenter | Qt::AlignLeft, label);
            const int w = longest > 0 && ms > 0 ? qMax(2, int(room * ms / longest)) : 0;
            p.setBrush(colour);
            p.setPen(Qt::NoPen);
            p.drawRoundedRect(labelWidth, y, w, barHeight, 3, 3);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(labelWidth + w + 6, y, valueWidth, barHeight, Qt::AlignVCenter | Qt::AlignLeft,
                       ms > 0 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 1 ? 3 : 2) : QStringLiteral("-"));
        };
        const bool editedFaster = m_edited > 0 && m_edited < m_original;
        bar(0, tr("original"), m_original, QColor(120, 144, 176));
        bar(1, tr("edited"), m_edited,
            !m_editedOk ? QColor(200, 80, 80) : editedFaster ? QColor(60, 170, 90) : QColor(230, 150, 40));
    }

private:
    double m_original = 0, m_edited = 0;
    bool m_editedOk = true;
};

// ---- Jobs --------------------------------------------------------------------------------------

struct KernelEditorDock::JobResult
{
    bool runIt = false;
    WorkerOutcome original; // Run only: the unedited variant, through the same helper
    WorkerOutcome edited;
    QImage output, heatMap;
    int maxDiff = -1;
    qint64 diffPixels = 0;
};

KernelEditorDock::KernelEditorDock(QWidget *parent)
    : QDockWidget(tr("Kernel source"), parent), m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    setObjectName(QStringLiteral("kernelEditorDock"));
    createWidgets();
    m_autosave.setSingleShot(true);
    m_autosave.setInterval(1500);
    connect(&m_autosave, &QTimer::timeout, this, &KernelEditorDock::writeRecovery);
    refreshUserVariants();
    updateActions();
}

KernelEditorDock::~KernelEditorDock()
{
    // Kill any helper still running and wait for the threads that watch them (they poll the flag).
    m_cancel->store(true);
    for (QThread *thread : m_threads) {
        thread->wait();
        delete thread;
    }
    if (m_autosave.isActive())
        writeRecovery();
}

KernelEditorDock *KernelEditorDock::install(MainWindow *window, std::function<ComputeRequest()> currentRequest)
{
    auto *dock = new KernelEditorDock(window);
    ControlPanel *controls = dock->m_controls = window->controls();
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    const QList<QDockWidget *> docks = window->findChildren<QDockWidget *>();
    for (QDockWidget *other : docks)
        if (other != dock && window->dockWidgetArea(other) == Qt::BottomDockWidgetArea) {
            window->tabifyDockWidget(other, dock);
            other->raise(); // the timing panel stays in front until the user picks the editor
            break;
        }
    auto feed = [dock, currentRequest] { dock->setRequest(currentRequest()); };
    connect(controls, &ControlPanel::requestChanged, dock, feed);
    connect(window, &MainWindow::imageLoaded, dock, feed);
    QTimer::singleShot(0, dock, feed);
    return dock;
}

void KernelEditorDock::createWidgets()
{
    auto *root = new QWidget(this);
    auto *layout = new QVBoxLayout(root);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(3);

    auto *toolbar = new QToolBar(root);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_buildAct = toolbar->addAction(tr("Build"), this, &KernelEditorDock::build);
    m_buildAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_buildAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_buildAct->setToolTip(tr("Compile the edited kernel with the variant's options (Ctrl+B)"));
    m_runAct = toolbar->addAction(tr("Run"), this, &KernelEditorDock::run);
    m_runAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAct->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_runAct->setToolTip(tr("Run the edited kernel and the unedited variant in the helper process (Ctrl+R)"));
    toolbar->addSeparator();
    m_saveAct = toolbar->addAction(tr("Save As User Variant..."), this, [this] { saveAsUserVariant(); });
    m_revertAct = toolbar->addAction(tr("Revert"), this, &KernelEditorDock::revert);
    m_logAct = toolbar->addAction(tr("Raw log"), this, &KernelEditorDock::showRawLog);
    toolbar->addSeparator();
    toolbar->addWidget(new QLabel(tr(" Limit "), toolbar));
    m_timeout = new QDoubleSpinBox(toolbar);
    m_timeout->setObjectName(QStringLiteral("editorTimeout"));
    m_timeout->setRange(0.5, 600);
    m_timeout->setDecimals(1);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(kDefaultWorkerTimeoutS);
    m_timeout->setToolTip(tr("The helper process is stopped when the kernel runs longer than this"));
    toolbar->addWidget(m_timeout);
    toolbar->addSeparator();
    m_userVariants = new QComboBox(toolbar);
    m_userVariants->setObjectName(QStringLiteral("userVariants"));
    m_userVariants->setMinimumContentsLength(14);
    m_userVariants->setToolTip(tr("Your saved kernels (user variants)"));
    toolbar->addWidget(m_userVariants);
    toolbar->addAction(tr("Open"), this, [this] {
        const QString name = m_userVariants->currentData().toString();
        if (name.isEmpty())
            return;
        try {
            const UserVariant v = loadUserVariant(name.toStdString());
            m_pendingUserVariant = name;
            if (m_controls) {
                m_controls->setFilterName(q(v.baseFilter));
                m_controls->setVariantName(q(v.baseVariant));
            }
            if (m_request.run.filter == v.baseFilter && m_request.run.variant == v.baseVariant) {
                m_pendingUserVariant.clear();
                setSource(q(v.source));
                setStatus(tr("Opened user variant %1 (based on %2/%3)").arg(name, q(v.baseFilter), q(v.baseVariant)));
            }
        } catch (const std::exception &e) {
            setStatus(q(e.what()), true);
        }
    });
    toolbar->addAction(tr("Delete"), this, [this] {
        const QString name = m_userVariants->currentData().toString();
        if (!name.isEmpty() && deleteUserVariant(name.toStdString())) {
            setStatus(tr("Deleted user variant %1").arg(name));
            refreshUserVariants();
            emit userVariantsChanged();
        }
    });
    layout->addWidget(toolbar);

    m_recoveryBar = new QWidget(root);
    auto *recoveryLayout = new QHBoxLayout(m_recoveryBar);
    recoveryLayout->setContentsMargins(6, 2, 6, 2);
    auto *recoveryText = new QLabel(m_recoveryBar);
    recoveryText->setObjectName(QStringLiteral("recoveryText"));
    recoveryLayout->addWidget(recoveryText, 1);
    auto *restore = new QPushButton(tr("Restore"), m_recoveryBar);
    auto *discard = new QPushButton(tr("Discard"), m_recoveryBar);
    connect(restore, &QPushButton::clicked, this, &KernelEditorDock::restoreRecovery);
    connect(discard, &QPushButton::clicked, this, &KernelEditorDock::discardRecovery);
    recoveryLayout->addWidget(restore);
    recoveryLayout->addWidget(discard);
    m_recoveryBar->setStyleSheet(QStringLiteral("background: #fff4d6;"));
    m_recoveryBar->hide();
    layout->addWidget(m_recoveryBar);

    m_fileLabel = new QLabel(root);
    m_fileLabel->setObjectName(QStringLiteral("editorFile"));
    layout->addWidget(m_fileLabel);
    m_defines = new QLabel(root);
    m_defines->setObjectName(QStringLiteral("editorDefines"));
    m_defines->setWordWrap(true);
    m_defines->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_defines->setStyleSheet(QStringLiteral("color: #555; font-family: monospace; font-size: 9pt;"));
    layout->addWidget(m_defines);

    auto *split = new QSplitter(Qt::Horizontal, root);
    m_tabs = new QTabWidget(split);
    m_tabs->setDocumentMode(true);
    m_code = makeCodeView(m_tabs, false);
    m_code->setObjectName(QStringLiteral("kernelCode"));
    m_tabs->addTab(m_code, tr("kernel"));
    onCodeChanged(m_code, this, [this] {
        scheduleAutosave();
        updateActions();
    });

    auto *side = new QWidget(split);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(4, 0, 0, 0);
    m_status = new QLabel(tr("Edit the kernel, then Build (Ctrl+B) or Run (Ctrl+R)."), side);
    m_status->setObjectName(QStringLiteral("editorStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sideLayout->addWidget(m_status);
    m_diagnostics = new QListWidget(side);
    m_diagnostics->setObjectName(QStringLiteral("editorDiagnostics"));
    m_diagnostics->setMaximumHeight(110);
    connect(m_diagnostics, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        goToLine(item->data(Qt::UserRole).toInt());
    });
    connect(m_diagnostics, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        goToLine(item->data(Qt::UserRole).toInt());
    });
    sideLayout->addWidget(m_diagnostics);
    m_race = new RaceBars(side);
    sideLayout->addWidget(m_race);
    m_resultText = new QLabel(side);
    m_resultText->setObjectName(QStringLiteral("editorResult"));
    m_resultText->setWordWrap(true);
    sideLayout->addWidget(m_resultText);
    auto *images = new QHBoxLayout;
    m_resultImage = new QLabel(side);
    m_resultImage->setToolTip(tr("The edited kernel's output"));
    m_diffImage = new QLabel(side);
    m_diffImage->setToolTip(tr("|edited output - CPU reference|: black is equal"));
    images->addWidget(m_resultImage);
    images->addWidget(m_diffImage);
    images->addStretch(1);
    sideLayout->addLayout(images);
    sideLayout->addStretch(1);
    split->addWidget(m_tabs);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setWidget(root);
}

// ---- State ----------------------------------------------------------------------------------------

QString KernelEditorDock::variantKey() const
{
    return q(m_request.run.filter) + QLatin1Char('/') + q(m_request.run.variant);
}

QString KernelEditorDock::source() const
{
    return codeText(m_code);
}

void KernelEditorDock::setSource(const QString &text)
{
    setCodeText(m_code, text);
}

bool KernelEditorDock::isModified() const
{
    return !m_loadedKey.isEmpty() && source() != m_shippedSource;
}

double KernelEditorDock::timeoutS() const
{
    return m_timeout->value();
}

void KernelEditorDock::setTimeoutS(double seconds)
{
    m_timeout->setValue(seconds);
}

QString KernelEditorDock::statusText() const
{
    return m_status->text();
}

QStringList KernelEditorDock::diagnosticTexts() const
{
    QStringList out;
    for (int i = 0; i < m_diagnostics->count(); ++i)
        out << m_diagnostics->item(i)->text();
    return out;
}

QStringList KernelEditorDock::tabTitles() const
{
    QStringList out;
    for (int i = 0; i < m_tabs->count(); ++i)
        out << m_tabs->tabText(i);
    return out;
}

QString KernelEditorDock::definesText() const
{
    return m_defines->text();
}

int KernelEditorDock::currentLine() const
{
    return codeLine(m_code);
}

void KernelEditorDock::setRequest(const ComputeRequest &request)
{
    m_request = request;
    if (variantKey() != m_loadedKey)
        loadVariantFiles();
    else if (const FilterSpec *filter = findFilter(request.run.filter)) {
        // Same variant, other parameters: the defines may have changed.
        const PreparedFilter prepared = filter->prepare(request.run.params);
        QStringList defines;
        if (const VariantSpec *variant = filter->variant(request.run.variant))
            for (const std::string &d : variant->defines)
                defines << QStringLiteral("-D") + q(d);
        for (const std::string &d : prepared.defines)
            defines << q(d);
        m_defines->setText(tr("Built with: %1").arg(defines.join(QLatin1Char(' '))));
    }
    updateActions();
}

void KernelEditorDock::loadVariantFiles()
{
    if (!m_loadedKey.isEmpty() && isModified())
        m_edits[m_loadedKey] = source();
    const FilterSpec *filter = findFilter(m_request.run.filter);
    const VariantSpec *variant = filter ? filter->variant(m_request.run.variant) : nullptr;
    while (m_tabs->count() > 1) {
        QWidget *tab = m_tabs->widget(1);
        m_tabs->removeTab(1);
        delete tab;
    }
    if (!variant) {
        m_loadedKey.clear();
        m_fileLabel->setText(tr("No variant selected"));
        return;
    }
    m_loadedKey = variantKey();
    m_fileName = q(variant->kernelFile);
    try {
        m_shippedSource = q(rawKernelFile(variant->kernelFile));
        const KernelSource assembled = loadKernelSource(variant->kernelFile);
        for (const std::string &header : assembled.includes) {
            QWidget *view = makeCodeView(m_tabs, true);
            setCodeText(view, q(rawKernelFile(header)));
            m_tabs->addTab(view, q(header) + tr(" (read-only)"));
        }
    } catch (const std::exception &e) {
        m_shippedSource.clear();
        setStatus(q(e.what()), true);
    }
    m_tabs->setTabText(0, m_fileName);
    QStringList entries;
    for (const PassSpec &pass : variant->passes)
        entries << q(pass.entry);
    m_fileLabel->setText(tr("<b>%1</b> - %2/%3, entry %4").arg(m_fileName, q(filter->name), q(variant->name),
                                                               entries.join(QStringLiteral(", "))));
    setRequest(m_request); // the defines line
    const QString text = m_edits.value(m_loadedKey, m_shippedSource);
    setSource(text);
    if (!m_pendingUserVariant.isEmpty()) {
        try {
            const UserVariant v = loadUserVariant(m_pendingUserVariant.toStdString());
            if (v.baseFilter == filter->name && v.baseVariant == variant->name)
                setSource(q(v.source));
        } catch (const std::exception &) {
        }
        m_pendingUserVariant.clear();
    }
    markCodeLines(m_code, {});
    m_diagnostics->clear();
    checkRecovery();
}

void KernelEditorDock::updateActions()
{
    const bool ready = !m_loadedKey.isEmpty() && !m_busy;
    m_buildAct->setEnabled(ready);
    m_runAct->setEnabled(ready && m_request.input);
    m_saveAct->setEnabled(!m_loadedKey.isEmpty());
    m_revertAct->setEnabled(isModified());
    m_logAct->setEnabled(!m_buildLog.isEmpty());
}

void KernelEditorDock::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

UserVariant KernelEditorDock::editedKernel() const
{
    const FilterSpec *filter = findFilter(m_request.run.filter);
    UserVariant kernel = userVariantFrom(*filter, *filter->variant(m_request.run.variant), "edited",
                                         source().toStdString());
    kernel.kernelFile = m_fileName.toStdString(); // diagnostics name the file being edited
    kernel.title = "edited";
    return kernel;
}

// ---- Build and run ---------------------------------------------------------------------------------

void KernelEditorDock::build()
{
    startJob(false);
}

void KernelEditorDock::run()
{
    startJob(true);
}

void KernelEditorDock::startJob(bool runIt)
{
    if (m_busy || m_loadedKey.isEmpty() || (runIt && !m_request.input))
        return;
    m_busy = true;
    updateActions();
    writeRecovery();
    setStatus(runIt ? tr("Running the original and the edited kernel in the helper process...")
                    : tr("Building in the helper process..."));

    WorkerJob job;
    job.op = runIt ? WorkerJob::Op::Run : WorkerJob::Op::Build;
    job.request = m_request.run;
    job.request.keepOutput = true;
    job.request.cpuSingle = false;
    job.request.openCvCpuBaseline = false;
    if (m_request.engine.kind == ComputeEngine::OpenCl)
        job.deviceSpec = m_request.engine.device.spec();
    job.kernel = editedKernel();
    const std::shared_ptr<const Image> input = m_request.input;
    if (input)
        job.input = runIt ? *input : Image(std::max(1, input->width()), std::max(1, input->height()), input->format());
    else
        job.input = Image(64, 64, m_request.run.params.format);
    WorkerOptions options;
    options.timeoutS = timeoutS();
    m_cancel->store(false);
    options.cancel = m_cancel.get();
    const std::shared_ptr<std::atomic<bool>> cancel = m_cancel; // outlives the dock's member if need be
    const RunRequest request = m_request.run;
    QPointer<KernelEditorDock> self(this);

    QThread *thread = QThread::create([self, job, options, cancel, runIt, input, request]() mutable {
        JobResult result;
        result.runIt = runIt;
        if (runIt) {
            // The unedited variant first, through the same helper: both bars pay the same overhead.
            WorkerJob original = job;
            original.kernel.reset();
            result.original = runInWorker(original, options);
        }
        result.edited = runInWorker(job, options);
        if (runIt && result.edited.result.ok() && !result.edited.result.output.isNull()) {
            const FilterSpec *filter = findFilter(request.filter);
            const Image src = input->format() == request.params.format ? *input
                                                                       : input->convertedTo(request.params.format);
            Image reference(result.edited.result.output.width(), result.edited.result.output.height(),
                            request.params.format);
            if (filter && filter->cpuReference)
                filter->cpuReference(src, reference, request.params, 0);
            double mean = 0;
            result.heatMap = differenceHeatMap(result.edited.result.output, reference, &result.maxDiff, &mean,
                                               &result.diffPixels);
            result.output = toQImage(result.edited.result.output);
        }
        if (!cancel->load())
            QMetaObject::invokeMethod(
                qApp, [self, result] {
                    if (self)
                        self->finishJob(result);
                },
                Qt::QueuedConnection);
    });
    m_threads.push_back(thread);
    connect(thread, &QThread::finished, this, [this, thread] {
        std::erase(m_threads, thread);
        thread->deleteLater();
    });
    thread->start();
}

void KernelEditorDock::showDiagnostics(const std::string &log, const std::string &error)
{
    m_buildLog = q(log);
    m_diagnostics->clear();
    QMap<int, bool> marks;
    const std::string file = m_fileName.toStdString();
    for (const BuildDiagnostic &d : parseBuildLog(log)) {
        auto *item = new QListWidgetItem(q(d.text()), m_diagnostics);
        const bool ours = d.file == file;
        item->setData(Qt::UserRole, ours ? d.line : 0);
        item->setToolTip(q(d.context));
        if (d.severity == BuildDiagnostic::Severity::Error)
            item->setForeground(QColor(176, 0, 32));
        if (ours && d.severity != BuildDiagnostic::Severity::Note)
            marks[d.line] = marks.value(d.line) || d.severity == BuildDiagnostic::Severity::Error;
    }
    if (m_diagnostics->count() == 0 && !error.empty() && !log.empty())
        new QListWidgetItem(q(error), m_diagnostics);
    markCodeLines(m_code, marks);
}

void KernelEditorDock::finishJob(const JobResult &job)
{
    m_busy = false;
    const RunResult &r = job.edited.result;
    showDiagnostics(r.buildLog, r.error);
    const bool buildFailed = !r.ok() && (r.errorCode == "CL_BUILD_PROGRAM_FAILURE" || !r.buildLog.empty());
    if (job.edited.timedOut) {
        setStatus(q(r.error) + tr(" (the helper process was killed; the window and your source are fine)"), true);
    } else if (job.edited.crashed) {
        setStatus(q(r.error), true);
    } else if (buildFailed) {
        const std::string first = firstBuildError(r.buildLog);
        setStatus(tr("Build failed: %1").arg(q(first.empty() ? r.error : first)), true);
    } else if (!r.ok()) {
        setStatus(q(r.error), true);
    } else if (!job.runIt) {
        setStatus(tr("Built %1 on %2 in %3 ms.").arg(m_fileName, q(r.device)).arg(job.edited.runMs, 0, 'f', 0));
    } else {
        // A good run: race, result and difference replace the last good ones (a failed build never does).
        const RunResult &o = job.original.result;
        m_hasResult = true;
        m_originalMs = o.ok() ? o.kernelMs.median : 0;
        m_editedMs = r.kernelMs.median;
        m_editedMatches = r.checked && r.matches;
        m_race->setTimes(m_originalMs, m_editedMs, m_editedMatches);
        m_resultImage->setPixmap(thumbnail(job.output, 150));
        m_diffImage->setPixmap(thumbnail(job.heatMap, 150));
        const QString verdict = m_editedMatches
                                    ? tr("matches the CPU reference (max diff %1, tolerance %2)").arg(r.maxAbsDiff).arg(r.tolerance)
                                    : tr("does not match the CPU reference: max diff %1 (tolerance %2), %3 pixels differ")
                                          .arg(r.maxAbsDiff)
                                          .arg(r.tolerance)
                                          .arg(job.diffPixels);
        const double speed = m_editedMs > 0 && m_originalMs > 0 ? m_originalMs / m_editedMs : 0;
        m_resultText->setText(tr("Edited kernel %1.<br>%2 than the original (%3 ms vs %4 ms kernel time, median of %5); "
                                 "helper process %6 ms per run.")
                                  .arg(verdict,
                                       speed >= 1 ? tr("%1x faster").arg(speed, 0, 'f', 2)
                                                  : tr("%1x slower").arg(speed > 0 ? 1 / speed : 0, 0, 'f', 2))
                                  .arg(m_editedMs, 0, 'f', 3)
                                  .arg(m_originalMs, 0, 'f', 3)
                                  .arg(m_request.run.repeat)
                                  .arg(job.edited.wallMs - job.edited.launchMs, 0, 'f', 0));
        setStatus(m_editedMatches ? tr("Run finished on %1.").arg(q(r.device))
                                  : tr("Run finished on %1: the output does not match.").arg(q(r.device)),
                  !m_editedMatches);
    }
    updateActions();
    if (job.runIt)
        emit runFinished(r.ok() && !job.edited.timedOut);
    else
        emit buildFinished(r.ok());
}

void KernelEditorDock::goToLine(int line)
{
    if (line > 0) {
        m_tabs->setCurrentIndex(0);
        goToCodeLine(m_code, line, 1);
    }
}

void KernelEditorDock::showRawLog()
{
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Build log of %1").arg(m_fileName));
    auto *layout = new QVBoxLayout(dialog);
    auto *log = new QPlainTextEdit(m_buildLog, dialog);
    log->setReadOnly(true);
    log->setFont(QFont(QStringLiteral("monospace")));
    layout->addWidget(log);
    dialog->resize(800, 400);
    dialog->show();
}

// ---- Revert, user variants, recovery ---------------------------------------------------------------

void KernelEditorDock::revert()
{
    m_edits.remove(m_loadedKey);
    setSource(m_shippedSource);
    markCodeLines(m_code, {});
    m_diagnostics->clear();
    QFile::remove(recoveryPath());
    setStatus(tr("Reverted to the shipped %1.").arg(m_fileName));
    updateActions();
}

bool KernelEditorDock::saveAsUserVariant(const QString &givenName)
{
    QString name = givenName;
    if (name.isEmpty()) {
        bool ok = false;
        name = QInputDialog::getText(this, tr("Save As User Variant"),
                                     tr("Name (letters, digits, '_' and '-'):"), QLineEdit::Normal,
                                     q(m_request.run.variant) + QStringLiteral("_edited"), &ok);
        if (!ok || name.isEmpty())
            return false;
    }
    try {
        const FilterSpec *filter = findFilter(m_request.run.filter);
        UserVariant v = userVariantFrom(*filter, *filter->variant(m_request.run.variant), name.toStdString(),
                                        source().toStdString());
        const std::filesystem::path path = saveUserVariant(v);
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
    const QByteArray env = qgetenv("FWB_EDITOR_RECOVERY");
    if (!env.isEmpty())
        return QString::fromLocal8Bit(env);
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/kernel-editor-recovery.json");
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
    const QString path = recoveryPath();
    if (!isModified()) {
        QFile::remove(path);
        return;
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return;
    QJsonObject o;
    o[QStringLiteral("filter")] = q(m_request.run.filter);
    o[QStringLiteral("variant")] = q(m_request.run.variant);
    o[QStringLiteral("file")] = m_fileName;
    o[QStringLiteral("saved")] = QDateTime::currentDateTime().toString(Qt::ISODate);
    o[QStringLiteral("source")] = source();
    file.write(QJsonDocument(o).toJson());
    file.commit();
}

bool KernelEditorDock::recoveryOffered() const
{
    return m_recoveryBar->isVisible() || (m_recoveryOffered && !m_recoveryBar->isHidden());
}

void KernelEditorDock::checkRecovery()
{
    if (m_recoveryOffered)
        return; // once per start: the file left by the previous session
    m_recoveryOffered = true;
    QFile file(recoveryPath());
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    if (o.value(QStringLiteral("source")).toString().isEmpty())
        return;
    auto *text = m_recoveryBar->findChild<QLabel *>(QStringLiteral("recoveryText"));
    text->setText(tr("Unsaved edits of %1 (%2/%3, %4) were recovered from a previous session.")
                      .arg(o.value(QStringLiteral("file")).toString(), o.value(QStringLiteral("filter")).toString(),
                           o.value(QStringLiteral("variant")).toString(), o.value(QStringLiteral("saved")).toString()));
    m_recoveryBar->show();
}

void KernelEditorDock::restoreRecovery()
{
    QFile file(recoveryPath());
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    m_recoveryBar->hide();
    const QString filter = o.value(QStringLiteral("filter")).toString(),
                  variant = o.value(QStringLiteral("variant")).toString();
    const QString key = filter + QLatin1Char('/') + variant;
    m_edits[key] = o.value(QStringLiteral("source")).toString();
    if (key == m_loadedKey)
        setSource(m_edits.value(key));
    else if (m_controls) {
        m_controls->setFilterName(filter);
        m_controls->setVariantName(variant); // loadVariantFiles() picks the edits up
    }
    setStatus(tr("Restored your unsaved edits of %1.").arg(o.value(QStringLiteral("file")).toString()));
    updateActions();
}

void KernelEditorDock::discardRecovery()
{
    m_recoveryBar->hide();
    QFile::remove(recoveryPath());
}

} // namespace fwb
