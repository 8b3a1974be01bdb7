// RunLog: every run of this session (request, engine, timings, error; no pixels), and its export
// as a CSV table or a JSON document.
#pragma once

#include "ComputeWorker.h"

#include <QCoreApplication>
#include <QString>

#include <vector>

namespace fwb {

class RunLog
{
    Q_DECLARE_TR_FUNCTIONS(RunLog)

public:
    // Keeps the result without its images: a long session must not hold every output in memory.
    void add(const ComputeResult &result);
    int size() const { return int(m_runs.size()); }
    bool isEmpty() const { return m_runs.empty(); }
    const std::vector<ComputeResult> &runs() const { return m_runs; }

    // .json -> a JSON object with the array of runs, anything else -> CSV (one row per run).
    bool write(const QString &path, QString *error = nullptr) const;

private:
    std::vector<ComputeResult> m_runs;
};

} // namespace fwb
