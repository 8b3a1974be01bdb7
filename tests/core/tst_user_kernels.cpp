// User kernels: build-log lines in the user's own file (#line), the helper process (a syntax error,
// an infinite loop stopped within the limit, an out-of-bounds write, wrong pixels), user variants on
// disk, filter-bench run --timeout / --user-variant, and the protocol carrying every request and result
// field (the run schema).
#include "BuildDiagnostics.h"
#include "Error.h"
#include "KernelSources.h"
#include "ResultJson.h"
#include "TestSupport.h"
#include "TuningDb.h"
#include "UserVariants.h"
#include "WorkerProcess.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace fwb;

namespace {

const char *const kFilter = "gaussian5x5";
const char *const kVariant = "unrolled_constant"; // entry gaussian5x5_unrolled

std::string workerPath()
{
    return (QFileInfo(QStringLiteral(FWB_FILTER_BENCH)).absolutePath() + "/filter-worker").toStdString();
}

// The shipped gaussian5x5.cl with `from` (first occurrence inside gaussian5x5_unrolled) replaced by
// `to` on the same line; *line receives that line's number.
std::string editedSource(const std::string &from, const std::string &to, int *line = nullptr)
{
    std::string text = rawKernelFile("gaussian5x5.cl");
    const std::size_t kernel = text.find("gaussian5x5_unrolled(");
    const std::size_t at = text.find(from, kernel);
    if (kernel == std::string::npos || at == std::string::npos)
        return {};
    text.replace(at, from.size(), to);
    if (line)
        *line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
    return text;
}

UserVariant editedKernel(const std::string &source)
{
    const FilterSpec *filter = findFilter(kFilter);
    UserVariant kernel = userVariantFrom(*filter, *filter->variant(kVariant), "edited", source);
    kernel.kernelFile = "gaussian5x5.cl"; // as the editor does: diagnostics name the file being edited
    return kernel;
}

WorkerOutcome runEdited(const std::string &source, double timeoutS = 10, WorkerJob::Op op = WorkerJob::Op::Run)
{
    WorkerJob job;
    job.op = op;
    job.request = test::oneShotRequest(kFilter, kVariant);
    job.request.openCvCpuBaseline = false;
    if (const char *spec = std::getenv("FWB_TEST_DEVICE"))
        job.deviceSpec = spec;
    if (!source.empty())
        job.kernel = editedKernel(source);
    job.input = makeTestCard(259, 194, PixelFormat::Gray8);
    WorkerOptions options;
    options.workerPath = workerPath();
    options.timeoutS = timeoutS;
    return runInWorker(job, options);
}

struct CliOutput
{
    int code = -1;
    QString out, err;
};

CliOutput runCli(const QStringList &args, const QString &userVariantDir = {})
{
    QProcess process;
    if (!userVariantDir.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("FWB_USER_VARIANT_DIR"), userVariantDir);
        process.setProcessEnvironment(env);
    }
    process.start(QStringLiteral(FWB_FILTER_BENCH), args);
    process.waitForFinished(120000);
    CliOutput o;
    o.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    o.out = QString::fromUtf8(process.readAllStandardOutput());
    o.err = QString::fromUtf8(process.readAllStandardError());
    return o;
}

} // namespace

class TestUserKernels : public QObject
{
    Q_OBJECT

private:
    bool m_haveDevice = false;

private slots:
    void initTestCase()
    {
        DeviceInfo device;
        m_haveDevice = test::testDevice(device);
        QVERIFY2(QFileInfo::exists(QString::fromStdString(workerPath())), workerPath().c_str());
    }

    // #line directives: every assembled line maps back to its file and line, and the compiler's
    // names agree with the map.
    void lineMapFollowsIncludes()
    {
        const KernelSource source = loadKernelSource("gaussian5x5.cl");
        QVERIFY(std::find(source.includes.begin(), source.includes.end(), "common.clh") != source.includes.end());
        const std::string raw = rawKernelFile("gaussian5x5.cl");
        const std::size_t at = raw.find("kernel void gaussian5x5_unrolled(");
        const int fileLine = 1 + int(std::count(raw.begin(), raw.begin() + std::ptrdiff_t(at), '\n'));
        const std::size_t assembledAt = source.text.find("kernel void gaussian5x5_unrolled(");
        const int assembledLine = 1 + int(std::count(source.text.begin(), source.text.begin() + std::ptrdiff_t(assembledAt), '\n'));
        QVERIFY(assembledLine > fileLine); // the headers were pasted in above it
        const KernelSource::Origin origin = source.originOf(assembledLine);
        QCOMPARE(origin.file, std::string("gaussian5x5.cl"));
        QCOMPARE(origin.line, fileLine);
    }

    // A kernel folder may be a copy of the repository's kernels/ (one folder per family): a file found in
    // one of its folders overrides the embedded one; a file in none comes from the embedded set.
    void kernelFolderWithFamilyFolders()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("gaussian5x5")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("shared")));
        const std::string marker = "// edited copy in a family folder\n";
        {
            std::ofstream out((dir.path() + "/gaussian5x5/gaussian5x5.cl").toStdString());
            out << marker << rawKernelFile("gaussian5x5.cl");
        }
        const KernelSource source = loadKernelSource("gaussian5x5.cl", dir.path().toStdString());
        QCOMPARE(source.origin, (dir.path() + "/gaussian5x5/gaussian5x5.cl").toStdString());
        QVERIFY(source.text.find(marker) != std::string::npos);
        QVERIFY(loadKernelSource("sobel.cl", dir.path().toStdString()).origin == "embedded");
    }

    void parsesClangStyleLogs()
    {
        const std::string log = "gaussian5x5.cl:48:5: error: use of undeclared identifier 'oops'\n"
                                "    oops = 1;\n    ^\n"
                                "warning: common.clh:12:9: unused variable 'q'\n" // PoCL's order
                                "1 error generated.\n";
        const std::vector<BuildDiagnostic> all = parseBuildLog(log);
        QCOMPARE(int(all.size()), 2);
        QCOMPARE(all[0].file, std::string("gaussian5x5.cl"));
        QCOMPARE(all[0].line, 48);
        QCOMPARE(all[0].column, 5);
        QVERIFY(all[0].context.find("oops = 1;") != std::string::npos);
        QCOMPARE(int(all[1].severity), int(BuildDiagnostic::Severity::Warning));
        QCOMPARE(firstBuildError(log), std::string("gaussian5x5.cl:48:5: error: use of undeclared identifier 'oops'"));
    }

    // A syntax error: the diagnostic names the edited file and the edited line, in the helper's build,
    // in an in-process run and in the CLI's message.
    void syntaxErrorOnTheRightLine()
    {
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        int line = 0;
        const std::string source = editedSource("const float filter[25] = {FWB_WEIGHTS};",
                                                "const float filter[25] = {FWB_WEIGHTS}; oops_undeclared = 1;", &line);
        QVERIFY(line > 40);
        const std::string where = "gaussian5x5.cl:" + std::to_string(line) + ":";

        const WorkerOutcome built = runEdited(source, 60, WorkerJob::Op::Build);
        QVERIFY2(!built.result.ok(), "the broken kernel built");
        QVERIFY2(built.result.error.find(where) != std::string::npos, built.result.error.c_str());
        const std::vector<BuildDiagnostic> diagnostics = parseBuildLog(built.result.buildLog);
        QVERIFY(!diagnostics.empty());
        QCOMPARE(diagnostics.front().file, std::string("gaussian5x5.cl"));
        QCOMPARE(diagnostics.front().line, line);

        QTemporaryDir dir;
        QFile file(dir.filePath("gaussian5x5.cl"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(source.data(), qint64(source.size()));
        file.close();
        const CliOutput cli = runCli({"run", "--filter", kFilter, "--variant", kVariant, "--synthetic", "64x48",
                                      "--repeat", "1", "--warmup", "0", "--no-cpu-single", "--kernel-dir", dir.path()});
        QCOMPARE(cli.code, 1);
        QVERIFY2(cli.err.contains(QString::fromStdString(where)), qPrintable(cli.err));
    }

    // An infinite loop: stopped within the limit + 2 s with the message, and the next run works.
    void infiniteLoopIsStopped()
    {
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        const std::string source = editedSource("const float filter[25] = {FWB_WEIGHTS};",
                                                "const float filter[25] = {FWB_WEIGHTS}; volatile int spin = 1; while (spin) {}");
        QVERIFY(!source.empty());
        QElapsedTimer timer;
        timer.start();
        const WorkerOutcome stuck = runEdited(source, 3);
        QVERIFY2(stuck.timedOut, stuck.result.error.c_str());
        // The limit counts from the launch (the worker's compile on a loaded CI machine does not).
        QVERIFY2(stuck.launchedMs >= 2900 && stuck.launchedMs < 5000, QByteArray::number(stuck.launchedMs));
        QVERIFY2(timer.elapsed() < 120000, QByteArray::number(timer.elapsed()));
        QCOMPARE(stuck.result.error, std::string("the kernel did not finish within 3 s and was stopped"));

        const WorkerOutcome next = runEdited(editedSource("", ""), 60);
        QVERIFY2(next.result.ok() && next.result.matches, test::describe(next.result, 259, 194).constData());
    }

    // Out of bounds: the helper may crash or the write may land somewhere harmless; either way the
    // caller gets an answer and the next run works.
    void outOfBoundsWriteIsContained()
    {
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        const std::string source = editedSource("const float filter[25] = {FWB_WEIGHTS};",
                                                "const float filter[25] = {FWB_WEIGHTS}; dst[y * width + x + 400000000] = 7;");
        const WorkerOutcome wild = runEdited(source, 30);
        qInfo("out-of-bounds write: %s", wild.result.ok() ? "contained (no crash)" : wild.result.error.c_str());
        QVERIFY(!wild.timedOut);
        if (wild.crashed)
            QVERIFY(wild.result.error.find("crashed") != std::string::npos);
        const WorkerOutcome next = runEdited({}, 60);
        QVERIFY2(next.result.ok() && next.result.matches, test::describe(next.result, 259, 194).constData());
    }

    // Wrong pixels: the run completes and says it does not match.
    void wrongPixelsDoNotMatch()
    {
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        const std::string source = editedSource("fwb_store(dst, y * width + x, sum);",
                                                "fwb_store(dst, y * width + x, sum + 40.0f);");
        QVERIFY(!source.empty());
        const WorkerOutcome wrong = runEdited(source, 60);
        QVERIFY2(wrong.result.ok(), wrong.result.error.c_str());
        QVERIFY(wrong.result.checked);
        QVERIFY(!wrong.result.matches);
        QVERIFY(wrong.result.maxAbsDiff > wrong.result.tolerance);
        QCOMPARE(wrong.result.output.width(), 259);
        qInfo("helper process: wall %.1f ms, session %.1f ms, run %.1f ms, worker %.1f ms", wrong.wallMs,
              wrong.sessionMs, wrong.runMs, wrong.workerMs);
    }

    // What the helper process costs per run beyond the run itself (spawn, OpenCL platform and device,
    // Session, program from the disk cache, files both ways), printed for the record.
    void helperOverhead()
    {
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        runEdited({}, 60); // the program in the disk cache
        double total = 0, session = 0, spawn = 0;
        const int n = 5;
        for (int i = 0; i < n; ++i) {
            const WorkerOutcome o = runEdited({}, 60);
            QVERIFY2(o.result.ok(), o.result.error.c_str());
            total += o.wallMs - o.launchMs;
            session += o.sessionMs;
            spawn += o.wallMs - o.workerMs;
        }
        qInfo("helper-process overhead per run (259x194 gray8, %d runs): %.1f ms beyond Session::run; of it %.1f ms "
              "finding the device and opening the Session, %.1f ms outside the worker's main (spawn, exec, exit)",
              n, total / n, session / n, spawn / n);
    }

    // Everything a request says reaches the helper, so a user kernel launches exactly as the catalogue
    // launches its base variant: transfer mode, tiles and streams, repeats, and the shape the tuning
    // database holds for the base variant (auto launches); the result comes back with every field.
    void requestTravelsWhole()
    {
        QCOMPARE(userVariantRef("my_blur"), std::string("user:my_blur"));
        QCOMPARE(userVariantNameOf("user:my_blur").value_or(""), std::string("my_blur"));
        QVERIFY(!userVariantNameOf("unrolled_constant"));
        QVERIFY(!userVariantNameOf("user:"));
        if (!m_haveDevice)
            QSKIP("no OpenCL platform");
        DeviceInfo device;
        QVERIFY(test::testDevice(device));
        QTemporaryDir dir;
        TuningDb db(dir.filePath("tuning.json").toStdString());
        TuningEntry tuned;
        tuned.key = TuningKey::of(device, kFilter, kVariant, PixelFormat::Gray8, 259, 194);
        tuned.local = *LocalSize::parse("16x4");
        db.put(tuned);
        QVERIFY(db.save());

        WorkerJob job;
        job.request = test::oneShotRequest(kFilter, kVariant);
        job.request.openCvCpuBaseline = false;
        job.request.repeat = 2;
        job.request.transfer = TransferMode::Pinned;
        job.request.tileWidth = 128;
        job.request.tileHeight = 96;
        job.request.streams = 2;
        job.deviceSpec = device.spec();
        job.tuningDb = db.path().string();
        job.kernel = editedKernel(rawKernelFile("gaussian5x5.cl"));
        job.input = makeTestCard(259, 194, PixelFormat::Gray8);
        WorkerOptions options;
        options.workerPath = workerPath();
        options.timeoutS = 60;
        const WorkerOutcome out = runInWorker(job, options);
        const RunResult &r = out.result;
        QVERIFY2(r.ok() && r.matches, test::describe(r, 259, 194).constData());
        QCOMPARE(r.transfer, std::string("pinned"));
        QCOMPARE(r.tiles, 9); // 3 x 3 tiles of 128x96 over 259x194
        QCOMPARE(r.tileWidth, 128);
        QCOMPARE(r.tileHeight, 96);
        QCOMPARE(r.streams, 2);
        QVERIFY(r.tileHalo > 0);
        QCOMPARE(r.local.toString(), std::string("16x4"));
        QCOMPARE(r.localSource, LocalSource::Tuned);

        // Without the database: the project's default shape, as an untuned in-process launch.
        job.tuningDb.clear();
        job.request.tileWidth = job.request.tileHeight = 0;
        const WorkerOutcome untuned = runInWorker(job, options);
        QVERIFY2(untuned.result.ok(), untuned.result.error.c_str());
        QCOMPARE(untuned.result.localSource, LocalSource::Default);
        QCOMPARE(untuned.result.tiles, 1);
    }

    // Every field set in the helper arrives in the caller, and every request field in the helper: a
    // stand-in helper (a shell script) keeps the request it was given and answers with a result whose
    // fields all differ from RunResult's defaults. No device needed.
    void everyFieldTravels()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RunResult sent = test::populatedResult(); // every field set
        sent.kernelMs.median = 1.0 / 7;               // travels at full precision
        sent.cancelled = true;                        // the one field only the helper protocol carries
        const QString answer = dir.filePath("answer.json"), seen = dir.filePath("request-seen.json");
        {
            QFile file(answer);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(dumpJson(Json{{"protocol", kWorkerProtocol}, {"result", sent}})));
        }
        const QString script = dir.filePath("stand-in-worker");
        {
            QFile file(script);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QStringLiteral("#!/bin/sh\n"
                                      "# $1 --job, $2 the job folder\n"
                                      "cp \"$2/request.json\" '%1'\n"
                                      "cp '%2' \"$2/response.json\"\n")
                           .arg(seen, answer)
                           .toUtf8());
            file.close();
            QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        }
        WorkerJob job;
        job.request = test::oneShotRequest(kFilter, kVariant);
        job.request.params.values = {{"sigma", 2.5}};
        job.request.params.border = BorderMode::Constant;
        job.request.params.fastMath = true;
        job.request.local = LocalSize{8, 8};
        job.request.block = LocalSize{2, 4};
        job.request.repeat = 3;
        job.request.warmup = 2;
        job.request.check = false;
        job.request.cpuSingle = false;
        job.request.keepOutput = false;
        job.request.openCvCpuBaseline = false;
        job.request.transfer = TransferMode::ZeroCopy;
        job.request.tileWidth = 64;
        job.request.tileHeight = 32;
        job.request.maxAllocBytes = 1 << 20;
        job.request.allowTiles = false;
        job.request.streams = 5;
        job.input = makeTestCard(259, 194, PixelFormat::Gray8);
        WorkerOptions options;
        options.workerPath = script.toStdString();
        const WorkerOutcome out = runInWorker(job, options);
        QVERIFY2(!out.crashed && !out.timedOut, out.result.error.c_str());
        QCOMPARE(QString::fromStdString(dumpJson(Json(out.result))), QString::fromStdString(dumpJson(Json(sent))));
        QCOMPARE(out.result.kernelMs.median, 1.0 / 7); // full precision, not a report's 6 digits
        QCOMPARE(out.result.cancelled, true);
        // As the window and Session::run show it: the helper's CPU times go into this process's CPU timing
        // store, and the figures shown are the store's (one CPU time per work in the process).
        RunResult adopted = out.result;
        adoptHelperCpuFigures(adopted, job.request, job.input.width(), job.input.height());
        QVERIFY(!adopted.cpuWork.empty());
        const CpuTiming ours = cpuTimings().find(adopted.cpuWork, adopted.cpuThreads, CpuCode::Ours);
        const CpuTiming openCv = cpuTimings().find(adopted.cpuWork, adopted.cpuThreads, CpuCode::OpenCv);
        QVERIFY(ours.known() && openCv.known());
        QCOMPARE(adopted.cpuMultiMs, ours.ms);
        QCOMPARE(adopted.openCvCpuMs, openCv.ms);
        QCOMPARE(adopted.cpuBestMs, std::min(ours.ms, openCv.ms));
        QCOMPARE(adopted.cpuMeasurements, (openCv.ms < ours.ms ? openCv : ours).measurements);
        std::string error;
        const std::optional<Json> request = parseJsonFile(seen.toStdString(), &error);
        QVERIFY2(request, error.c_str());
        QCOMPARE(QString::fromStdString(dumpJson(Json(request->at("request").get<RunRequest>()))),
                 QString::fromStdString(dumpJson(Json(job.request))));
    }

    // Saved, listed, run from the CLI (wrong pixels: "does not match"; --timeout on a loop: exit 1
    // with the message), deleted.
    void userVariantsOnDisk()
    {
        QTemporaryDir dir;
        const FilterSpec *filter = findFilter(kFilter);
        UserVariant v = userVariantFrom(*filter, *filter->variant(kVariant), "brighter",
                                        editedSource("fwb_store(dst, y * width + x, sum);",
                                                     "fwb_store(dst, y * width + x, sum + 40.0f);"));
        saveUserVariant(v, dir.path().toStdString());
        UserVariant loop = userVariantFrom(*filter, *filter->variant(kVariant), "spins",
                                           editedSource("const float filter[25] = {FWB_WEIGHTS};",
                                                        "const float filter[25] = {FWB_WEIGHTS}; volatile int s = 1; while (s) {}"));
        saveUserVariant(loop, dir.path().toStdString());
        QVERIFY_THROWS_EXCEPTION(fwb::Error, saveUserVariant(userVariantFrom(*filter, *filter->variant(kVariant), "bad/name", "x"),
                                                        dir.path().toStdString()));
        const std::vector<UserVariant> all = listUserVariants(dir.path().toStdString());
        QCOMPARE(int(all.size()), 2);
        QCOMPARE(all[0].name, std::string("brighter"));
        QCOMPARE(all[0].entryPoints, std::vector<std::string>{"gaussian5x5_unrolled"});
        QCOMPARE(userVariantSpec(all[0])->kernelFile, std::string("brighter.cl"));

        const CliOutput listed = runCli({"user-variants"}, dir.path());
        QCOMPARE(listed.code, 0);
        QVERIFY2(listed.out.contains("brighter") && listed.out.contains("spins"), qPrintable(listed.out));
        if (m_haveDevice) {
            const CliOutput ran = runCli({"run", "--user-variant", "brighter", "--synthetic", "64x48", "--repeat", "1",
                                          "--warmup", "0", "--no-cpu-single", "--check"},
                                         dir.path());
            QCOMPARE(ran.code, 1);
            QVERIFY2(ran.err.contains("brighter does not match"), qPrintable(ran.out + ran.err));
            QElapsedTimer timer;
            timer.start();
            const CliOutput stuck = runCli({"run", "--user-variant", "spins", "--synthetic", "64x48", "--repeat", "1",
                                            "--warmup", "0", "--no-cpu-single", "--timeout", "2"},
                                           dir.path());
            QCOMPARE(stuck.code, 1);
            QVERIFY2(stuck.err.contains("did not finish within 2 s and was stopped"), qPrintable(stuck.err));
            QVERIFY2(timer.elapsed() < 30000, QByteArray::number(timer.elapsed())); // build included
        }
        // A name longer than the system allows (255 bytes) is "no such variant" with the reason, not
        // an unexpected filesystem exception (found by fuzz_cli).
        const QString tooLong(300, QLatin1Char('a'));
        for (const QString &name : {tooLong, tooLong + ".cl"}) {
            const CliOutput shown = runCli({"user-variants", "--show", name}, dir.path());
            QCOMPARE(shown.code, 2);
            QVERIFY2(shown.err.contains("no user variant") && !shown.err.contains("unexpected"), qPrintable(shown.err));
            QVERIFY2(shown.err.contains("File name too long"), qPrintable(shown.err));
            const CliOutput ran = runCli({"run", "--user-variant", name, "--synthetic", "64x48"}, dir.path());
            QCOMPARE(ran.code, 2);
            QVERIFY2(ran.err.contains("no user variant") && !ran.err.contains("unexpected"), qPrintable(ran.err));
        }
        const CliOutput deleted = runCli({"user-variants", "--delete", "spins"}, dir.path());
        QCOMPARE(deleted.code, 0);
        QCOMPARE(int(listUserVariants(dir.path().toStdString()).size()), 1);
    }
};

QTEST_GUILESS_MAIN(TestUserKernels)
#include "tst_user_kernels.moc"
