// RunLog: the CSV columns and JSON shape of the exported run log, written atomically (QSaveFile).
#include "RunLog.h"

#include "ResultJson.h"

#include <QDir>
#include <QSaveFile>
#include <QStringList>

namespace fwb {

namespace {

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString escaped = text;
    escaped.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

} // namespace

void RunLog::add(const ComputeResult &result)
{
    ComputeResult logged = result;
    logged.outputImage.reset();
    logged.output = QImage();
    logged.heatMap = QImage();
    logged.heatMapLevels.clear();
    logged.convertedInput = QImage();
    m_runs.push_back(logged);
}

bool RunLog::write(const QString &path, QString *error) const
{
    QByteArray data;
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        Json json = {{"tool", "filter-workbench"}, {"runs", Json::array()}};
        for (const ComputeResult &entry : m_runs)
            json["runs"].push_back(runResultJson(entry.run));
        data = QByteArray::fromStdString(dumpJson(json)) + '\n';
    } else {
        QStringList lines;
        lines << QStringLiteral("run,filter,variant,engine,device,work_group,format,repeats,build_ms,"
                                "build_origin,upload_ms,kernel_ms_median,kernel_ms_min,kernel_ms_max,"
                                "download_ms,total_ms,mpix_per_s,gb_per_s,cpu_single_ms,cpu_multi_ms,"
                                "max_abs_diff,matches,error_code,error");
        int index = 0;
        for (const ComputeResult &entry : m_runs) {
            const RunResult &r = entry.run;
            QStringList f;
            f << QString::number(++index) << q(r.filter) << q(r.variant) << entry.engine.label()
              << q(r.device) << q(r.local.toString()) << QString::fromLatin1(formatName(entry.request.params.format))
              << QString::number(entry.request.repeat) << QString::number(r.buildMs, 'f', 3)
              << q(r.buildOrigin) << QString::number(r.uploadMs, 'f', 4)
              << QString::number(r.kernelMs.median, 'f', 4) << QString::number(r.kernelMs.min, 'f', 4)
              << QString::number(r.kernelMs.max, 'f', 4) << QString::number(r.downloadMs, 'f', 4)
              << QString::number(r.totalMs, 'f', 4) << QString::number(r.mpixPerS, 'f', 2)
              << QString::number(r.gbps, 'f', 3) << QString::number(r.cpuSingleMs, 'f', 3)
              << QString::number(r.cpuMultiMs, 'f', 3) << QString::number(r.maxAbsDiff)
              << (r.matches ? QStringLiteral("yes") : QStringLiteral("no")) << q(r.errorCode)
              << q(r.error);
            for (QString &field : f)
                field = csvField(field);
            lines << f.join(QLatin1Char(','));
        }
        data = lines.join(QLatin1Char('\n')).toUtf8() + '\n';
    }
    QSaveFile file(path);
    // flush() before commit(): Qt 6.4's commit() returns true when the last buffered write fails
    // (ENOSPC on a full disk) and puts an empty file in place of the old one.
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.flush() || !file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

} // namespace fwb
