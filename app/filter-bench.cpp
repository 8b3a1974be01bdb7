// filter-bench: the command-line bench (thin main; the command line lives in cli/, the work in core/).
#include "BenchCli.h"

#ifndef FWB_HAVE_QT
#include "HeadlessImageIo.h" // PNG and JPEG without Qt
#else
#include "ImageFileIo.h"

#include <QCoreApplication>

#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace {

// Decoders such as libpng print their own chatter straight to stderr ("libpng error: Read Error"),
// which would break the one-line error contract; the loader reports the reason itself.
// FWB_VERBOSE=1 keeps the chatter.
class QuietImageIo : public fwb::QtImageIo
{
public:
    bool load(const std::string &path, fwb::Image &image, std::string &error) override
    {
        return quietly([&] { return QtImageIo::load(path, image, error); });
    }
    // Encoders chatter too: libpng prints "libpng error: Write Error" on a full disk.
    bool save(const std::string &path, const fwb::Image &image, std::string &error) override
    {
        return quietly([&] { return QtImageIo::save(path, image, error); });
    }

private:
    template<typename Call>
    static bool quietly(Call call)
    {
        if (qEnvironmentVariableIsSet("FWB_VERBOSE"))
            return call();
        std::fflush(stderr);
        const int saved = dup(2);
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        const bool ok = call();
        std::fflush(stderr);
        if (saved >= 0)
            dup2(saved, 2);
        for (int fd : {saved, null})
            if (fd >= 0)
                close(fd);
        return ok;
    }
};

void quietMessages(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtCriticalMsg || type == QtFatalMsg || qEnvironmentVariableIsSet("FWB_VERBOSE"))
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}

} // namespace
#endif

int main(int argc, char **argv)
{
#ifdef FWB_HAVE_QT
    qInstallMessageHandler(quietMessages);
    // Image-format plugins load through the application object; no display or platform plugin needed.
    QCoreApplication app(argc, argv);
    QuietImageIo io;
    return fwb::runBenchCli(argc, argv, &io);
#else
    fwb::HeadlessImageIo io;
    return fwb::runBenchCli(argc, argv, &io);
#endif
}
