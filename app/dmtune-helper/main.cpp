// dmtune-helper: the one privileged program, started through pkexec. Its first stdin line says what is asked:
// - a tuning transaction: one JSON request on stdin, one JSON result on stdout (core/params/helperprotocol.h);
// - {"latency": ...}: the block-layer latency probe, one reading line per "read" line until EOF
//   (core/latency/latencystream.h).
// It takes no options and no environment: the sysfs root is /sys, always, so a caller cannot point it elsewhere.
#include "core/latency/latencystream.h"
#include "core/params/helperprotocol.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    // Checked before Qt sees argv: no argument of any kind is accepted.
    if (argc != 1) {
        std::fputs("usage: dmtune-helper < request.json (no arguments)\n", stderr);
        return 2;
    }
    QCoreApplication app(argc, argv);
    // The first line, read byte by byte up to its newline: a latency stream's later lines stay in stdin.
    QByteArray request;
    for (int c = std::getc(stdin); c != EOF; c = std::getc(stdin)) {
        request.append(char(c));
        // One byte past the limit, so an oversized request is rejected rather than cut.
        if (c == '\n' || request.size() > dmtune::helperMaxRequestBytes)
            break;
    }
    if (dmtune::isLatencyRequest(request)) {
        const auto devices = dmtune::parseLatencyRequest(request);
        if (!devices) {
            std::fprintf(stderr, "dmtune-helper: %s\n", qPrintable(devices.errorMessage()));
            return 2;
        }
        return dmtune::serveLatencyStream(devices.value(), stdin, stdout);
    }
    // A tuning request: the rest of stdin belongs to it.
    while (request.size() <= dmtune::helperMaxRequestBytes) {
        const int c = std::getc(stdin);
        if (c == EOF)
            break;
        request.append(char(c));
    }
    const dmtune::HelperReply reply = dmtune::runHelper(dmtune::SysfsRoot(QStringLiteral("/sys"), QString()), request);
    std::fwrite(reply.json.constData(), 1, size_t(reply.json.size()), stdout);
    std::fflush(stdout);
    return reply.exitCode;
}
