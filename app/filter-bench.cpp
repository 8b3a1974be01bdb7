// filter-bench: the command-line bench (thin main; the logic lives in core/BenchCli).
#include "BenchCli.h"

#ifdef FWB_HAVE_QT
#include "ImageFileIo.h"
#include <QCoreApplication>
#endif

int main(int argc, char **argv)
{
#ifdef FWB_HAVE_QT
    // Image-format plugins load through the application object; no display or platform plugin needed.
    QCoreApplication app(argc, argv);
    fwb::QtImageIo io;
    return fwb::runBenchCli(argc, argv, &io);
#else
    return fwb::runBenchCli(argc, argv, nullptr);
#endif
}
