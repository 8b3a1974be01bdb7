// ErrorBanner: a non-modal strip above the images that explains a failure (OpenCL error name,
// reason, build log on demand) while the window stays usable and the last result stays visible.
#pragma once

#include "ComputeWorker.h"

#include <QFrame>
#include <QString>

class QLabel;
class QPushButton;

namespace fwb {

class ErrorBanner : public QFrame
{
    Q_OBJECT

public:
    enum class Kind { Error, Expected, Info };

    explicit ErrorBanner(QWidget *parent = nullptr);

    void showMessage(Kind kind, const QString &title, const QString &detail,
                     const QString &buildLog = {});
    // A failed run, in the kind its failure calls for: an expected failure (the variant's lesson),
    // a variant that cannot run here, or an error with its OpenCL code and build log.
    void showRunFailure(const ComputeResult &result);
    QString text() const; // title and detail as plain text (tests)
    QString buildLog() const { return m_buildLog; }
    Kind kind() const { return m_kind; }

public slots:
    void dismiss();
    void showBuildLog();

private:
    Kind m_kind = Kind::Info;
    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QPushButton *m_logButton = nullptr;
    QString m_title;
    QString m_detail;
    QString m_buildLog;
};

} // namespace fwb
