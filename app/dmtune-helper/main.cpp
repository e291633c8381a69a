// dmtune-helper: the privileged half of parameter changes, started through pkexec. One JSON
// request on stdin, one JSON result on stdout (core/params/helperprotocol.h). It takes no options
// and no environment: the sysfs root is /sys, always, so a caller cannot point it elsewhere.
#include "params/helperprotocol.h"

#include <QCoreApplication>
#include <QFile>

#include <cstdio>

int main(int argc, char **argv)
{
    // Checked before Qt sees argv: no argument of any kind is accepted.
    if (argc != 1) {
        std::fputs("usage: dmtune-helper < request.json (no arguments)\n", stderr);
        return 2;
    }
    QCoreApplication app(argc, argv);
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly)) {
        std::fputs("dmtune-helper: cannot read stdin\n", stderr);
        return 2;
    }
    // One byte past the limit, so an oversized request is rejected rather than cut.
    const QByteArray request = in.read(dmtune::helperMaxRequestBytes + 1);
    const dmtune::HelperReply reply = dmtune::runHelper(dmtune::SysfsRoot(QStringLiteral("/sys"), QString()), request);
    std::fwrite(reply.json.constData(), 1, size_t(reply.json.size()), stdout);
    std::fflush(stdout);
    return reply.exitCode;
}
