#pragma once
// A client for multipathd's control socket (multipath-tools' uxsock protocol), without the
// multipathd binary: connect to the abstract unix socket, send one command, read one reply.
// Wire format, both ways: a native size_t length counting the text and its NUL, the text, the NUL.
// Replies are "ok", "fail" or the command's output; an unknown command gets the command reference.
#include "core/dm/multipathd/multipathdview.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QString>
#include <QStringView>

#include <sys/types.h>

namespace dmtune {

class MultipathdClient {
public:
    // The socket name without the leading NUL of an abstract socket. Tests pass their own. Any local user can
    // listen on an abstract name while multipathd is not there, so no command is sent before the listener's
    // credentials (SO_PEERCRED) say uid `peerUid`: root, as multipathd runs; tests that are not root pass
    // their own uid.
    explicit MultipathdClient(QString socketName = defaultSocketName(), uid_t peerUid = 0);

    static QString defaultSocketName() { return QStringLiteral("/org/kernel/linux/storage/multipathd"); }

    // Checked per call: the abstract socket is listening (/proc/net/unix; a connect() when that
    // file cannot be read). Cheap: no command is sent.
    static bool isRunning(const QString &socketName = defaultSocketName());

    // Sends one command, e.g. "fail path sdb", and returns the reply text. A "fail" reply, an
    // unknown command, a timeout or no daemon are errors (parseMultipathdReply).
    Result<QString> command(const QString &cmd, int timeoutMs = 5000);
    // A command that must answer "ok" (fail path, switchgroup, ...): anything else is an error.
    Status action(const QString &cmd, int timeoutMs = 5000);
    // multipathd's view of the maps (`show maps json`), for multipathdview.h.
    Result<QString> showMapsJson();
    // The same, parsed (multipathdview.h): one question for every map multipathd manages.
    Result<QList<MultipathdMapView>> showMaps();
    // Names of the maps multipathd manages (`show maps raw format "%n"`).
    Result<QStringList> mapNames();

private:
    QString m_socketName;
    uid_t m_peerUid = 0;
};

// Pure helpers, exposed for tests.

// One request frame: native size_t length (text + NUL), text, NUL.
QByteArray encodeMultipathdRequest(const QString &cmd);
// Interprets a reply: "fail" (and "fail\n..."), "timeout", a permission refusal and the command
// reference that unknown commands get are errors naming the command; anything else is the output.
Result<QString> parseMultipathdReply(const QString &cmd, QStringView reply);
// Whether /proc/net/unix text lists `socketName` as a listening abstract socket
// ("... 00010000 0001 01 <inode> @<name>").
bool unixSocketListening(QStringView procNetUnix, const QString &socketName);
// `show maps raw format "%n"` and its reply: one name per line, padded.
QString multipathdMapNamesCommand();
QStringList parseMultipathdNames(QStringView reply);
// Quotes an argument with blanks the way the multipathd client does ("%n %Q" -> "\"%n %Q\"").
QString quoteMultipathdArgument(const QString &argument);

} // namespace dmtune
