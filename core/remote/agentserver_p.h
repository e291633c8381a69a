#pragma once
// What the parts of AgentServer share: agentserver.cpp (the connection and the requests' dispatch), agentcommands.cpp
// (the `cli` commands, signals, a command's or job's output and end sent to the client) and agentjobs.cpp (the
// detached jobs): the state of a running command or attached job, and the helpers of the jobs' directories.
#include "core/remote/agentserver.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QString>
#include <QTemporaryDir>

#include <memory>

class QProcess;

namespace dmtune {

struct AgentServer::Command {
    qint64 id = 0;
    QProcess *process = nullptr; // a command of this connection; null for a job
    std::unique_ptr<QTemporaryDir> scratch; // the command's files (removed with it)
    QString jobDir; // a job's directory
    qint64 outOffset = 0;
    qint64 errOffset = 0;
    QByteArray pendingOut;
    QByteArray pendingErr;
    QJsonArray files; // {index, output, directory, remote, path}
    QHash<QString, QString> replacements; // the agent's paths -> the paths the user wrote
};

namespace agentserver {

bool makePrivateDir(const QString &path);
QString readLine(const QString &path);
QString newJobId();
bool validJobId(const QString &id);

} // namespace agentserver

} // namespace dmtune
