// EditorResultPanel: the kernel editor's last good run: a two-bar race (original vs edited kernel
// time, the edited bar green when faster, orange when slower, red when its output is wrong), the
// verdict against the CPU reference in words, and thumbnails of the output and the difference.
#pragma once

#include <QWidget>

class QLabel;

namespace fwb {

struct EditorJobResult;
class RaceBars;

class EditorResultPanel : public QWidget
{
    Q_OBJECT

public:
    explicit EditorResultPanel(QWidget *parent = nullptr);

    // A successful Run: replaces the bars, the text and the images. repeat: the runs the median is of.
    void showRun(const EditorJobResult &job, int repeat);

    bool hasResult() const { return m_hasResult; }
    double originalMs() const { return m_originalMs; }
    double editedMs() const { return m_editedMs; }
    bool editedMatches() const { return m_editedMatches; }

private:
    RaceBars *m_race = nullptr;
    QLabel *m_text = nullptr;
    QLabel *m_output = nullptr;
    QLabel *m_diff = nullptr;
    bool m_hasResult = false;
    double m_originalMs = 0, m_editedMs = 0;
    bool m_editedMatches = false;
};

} // namespace fwb
