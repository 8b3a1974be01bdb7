// RunLog: the exported run log (its JSON and its CSV columns from the run schema, ResultJson.h),
// written atomically (QSaveFile).
#include "RunLog.h"
#include "UiText.h"

#include "ResultJson.h"

#include <QDir>
#include <QSaveFile>
#include <QStringList>

#include <string_view>

namespace fwb {

namespace {


// The CSV's columns. `run` and `engine` are the log's own; every other column is a field of the run
// schema (ResultJson.h), of the result or (format, repeat) of the request, named after its key path
// ("/kernel_ms/median": kernel_ms_median). Numbers with the column's decimals (-1: as they are).
struct CsvColumn
{
    enum Source { Log, Request, Result };
    Source source;
    const char *key; // Log: the column's name; else a JSON pointer into the schema's object
    int decimals = -1;

    QString name() const
    {
        QString name = QString::fromLatin1(key);
        if (source != Log)
            name = name.mid(1).replace(QLatin1Char('/'), QLatin1Char('_'));
        return name;
    }
};

const CsvColumn kCsvColumns[] = {
    {CsvColumn::Log, "run"},
    {CsvColumn::Result, "/filter"},
    {CsvColumn::Result, "/variant"},
    {CsvColumn::Log, "engine"},
    {CsvColumn::Result, "/device"},
    {CsvColumn::Result, "/local"},
    {CsvColumn::Request, "/format"},
    {CsvColumn::Request, "/repeat"},
    {CsvColumn::Result, "/build_ms", 3},
    {CsvColumn::Result, "/build_origin"},
    {CsvColumn::Result, "/upload_ms", 4},
    {CsvColumn::Result, "/kernel_ms/median", 4},
    {CsvColumn::Result, "/kernel_ms/min", 4},
    {CsvColumn::Result, "/kernel_ms/max", 4},
    {CsvColumn::Result, "/download_ms", 4},
    {CsvColumn::Result, "/total_ms", 4},
    {CsvColumn::Result, "/mpix_per_s", 2},
    {CsvColumn::Result, "/gbps", 3},
    {CsvColumn::Result, "/cpu_ms/single", 3},
    {CsvColumn::Result, "/cpu_ms/multi", 3},
    {CsvColumn::Result, "/max_abs_diff"},
    {CsvColumn::Result, "/matches"},
    {CsvColumn::Result, "/error_code"},
    {CsvColumn::Result, "/error"},
};

// A schema value as a CSV cell: null (not measured, no error) empty, booleans yes / no.
QString csvValue(const Json &value, int decimals)
{
    if (value.is_string())
        return q(value.get<std::string>());
    if (value.is_boolean())
        return value.get<bool>() ? QStringLiteral("yes") : QStringLiteral("no");
    if (value.is_number_float()) {
        const double number = value.get<double>();
        return decimals >= 0 ? QString::number(number, 'f', decimals) : QString::number(number);
    }
    if (value.is_number())
        return QString::number(value.get<qlonglong>());
    return {};
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
        QStringList lines, header;
        for (const CsvColumn &column : kCsvColumns)
            header << column.name();
        lines << header.join(QLatin1Char(','));
        int index = 0;
        for (const ComputeResult &entry : m_runs) {
            const Json result = entry.run, request = entry.request; // the run schema (ResultJson.h)
            QStringList f;
            ++index;
            for (const CsvColumn &column : kCsvColumns) {
                QString field;
                if (column.source == CsvColumn::Log) {
                    field = column.key == std::string_view("run") ? QString::number(index) : entry.engine.label();
                } else {
                    const Json &schema = column.source == CsvColumn::Request ? request : result;
                    const Json::json_pointer pointer(column.key);
                    if (schema.contains(pointer))
                        field = csvValue(schema.at(pointer), column.decimals);
                }
                f << csvField(field);
            }
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
