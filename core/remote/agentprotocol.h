#pragma once
// The agent's protocol (docs/remote.md): JSON lines on the agent's stdin and stdout, one object a line. The
// agent speaks first ({"type":"hello","protocol":"1.0",...}); the client answers with its own hello; then
// requests carry an "id" and every response and event names it. A peer of another major version is refused
// with one line; minor versions only add fields a reader may ignore.
#include "core/util/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace dmtune {

inline constexpr int AgentProtocolMajor = 1;
inline constexpr int AgentProtocolMinor = 2; // 1.1: stream, stream-update, watch, cancel; 1.2: start detached

QString agentProtocolVersion(); // "1.0"

// One message as one line: compact JSON and "\n".
QByteArray encodeAgentMessage(const QJsonObject &message);
// One line (without or with its "\n") to a message: valid JSON, an object with a string "type".
Result<QJsonObject> decodeAgentMessage(const QByteArray &line);

// A hello of this side: {"type":"hello","protocol":"1.0","dmtune":VERSION, ...extra}.
QJsonObject agentHello(const QJsonObject &extra = {});
// Success when the peer's hello speaks our major version; else HostSetup with the one line to show (`peer` names
// it: "the agent on db1").
Status agentHelloProblem(const QJsonObject &hello, const QString &peer);

} // namespace dmtune
