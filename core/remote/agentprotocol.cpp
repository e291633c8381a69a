#include "core/remote/agentprotocol.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace dmtune {

QString agentProtocolVersion()
{
    return QStringLiteral("%1.%2").arg(AgentProtocolMajor).arg(AgentProtocolMinor);
}

QByteArray encodeAgentMessage(const QJsonObject &message)
{
    QByteArray line = QJsonDocument(message).toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

Result<QJsonObject> decodeAgentMessage(const QByteArray &line)
{
    QByteArray text = line;
    while (text.endsWith('\n') || text.endsWith('\r'))
        text.chop(1);
    if (text.trimmed().isEmpty())
        return Result<QJsonObject>::failure(QStringLiteral("an empty line"));
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        return Result<QJsonObject>::failure(
            QStringLiteral("not JSON at offset %1: %2").arg(error.offset).arg(error.errorString()));
    if (!doc.isObject())
        return Result<QJsonObject>::failure(QStringLiteral("not a JSON object"));
    const QJsonObject object = doc.object();
    if (!object.value(QLatin1String("type")).isString() || object.value(QLatin1String("type")).toString().isEmpty())
        return Result<QJsonObject>::failure(QStringLiteral("a message without a \"type\""));
    return object;
}

QJsonObject agentHello(const QJsonObject &extra)
{
    QJsonObject hello = extra;
    hello.insert(QLatin1String("type"), QStringLiteral("hello"));
    hello.insert(QLatin1String("protocol"), agentProtocolVersion());
    hello.insert(QLatin1String("dmtune"), QStringLiteral(DMTUNE_VERSION));
    return hello;
}

Status agentHelloProblem(const QJsonObject &hello, const QString &peer)
{
    if (hello.value(QLatin1String("type")).toString() != QLatin1String("hello"))
        return Status::failure(
            QStringLiteral("%1 did not begin with a hello: is it dmtune's agent?").arg(peer), ErrorCode::HostSetup);
    const QString version = hello.value(QLatin1String("protocol")).toString();
    const int dot = version.indexOf(QLatin1Char('.'));
    bool ok = false;
    const int major = (dot > 0 ? version.left(dot) : version).toInt(&ok);
    if (!ok)
        return Status::failure(
            QStringLiteral("%1 sent no protocol version ('%2')").arg(peer, version), ErrorCode::HostSetup);
    if (major != AgentProtocolMajor)
        return Status::failure(
            QStringLiteral("%1 speaks protocol %2 (dmtune %3), this side %4 (dmtune %5): install "
                           "the same dmtune major version on both")
                .arg(peer, version, hello.value(QLatin1String("dmtune")).toString(QStringLiteral("?")),
                    agentProtocolVersion(), QStringLiteral(DMTUNE_VERSION)),
            ErrorCode::HostSetup);
    return Status::success();
}

} // namespace dmtune
