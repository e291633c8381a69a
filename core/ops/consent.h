#pragma once
// One consent model for every command and both shells (docs/workloads.md "Consent"): what the user gave (the
// devices or maps named, --force, the maps named for faults, the host) against a plan's risks, by their kind
// (operation.h RiskKind). A data risk is answered only by naming its device or map; --force or a confirmation
// answers an availability risk and never a data risk; a fault by naming its map; a risk that is not
// confirmable by nothing. No command decides on its own: each hands what it was given to consentFor().
#include "core/ops/operation.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace dmtune {

// One device or map the user named: every name it goes by (sdb, dm-3, mpatha, as the caller resolved them) and
// the host named with it ("HOST:DEV"; empty: none).
struct NamedTarget {
    QString host;
    QStringList names;
};

struct ConsentGiven {
    QList<NamedTarget> destroyDataOn; // --destroy-data-on, the typed name in the GUI
    bool force = false; // --force, or a confirmation
    QList<NamedTarget> faultOn; // --fault-on (a later command's; the kind is reserved here)
    // The host the command acts on; empty: this machine. A name given for another host must name it too.
    QString host;
};

// The answers a command takes, as its options are spelled; empty: the command has no such answer, and a risk
// that needs it is refused as unanswerable there.
struct ConsentWays {
    QString dataOption = QStringLiteral("--destroy-data-on");
    QString forceOption = QStringLiteral("--force");
    QString faultOption; // "--fault-on" in the commands that inject faults
};

// "HOST:DEV" -> { HOST, DEV }; "DEV" -> { "", DEV }. A /dev/ path keeps its slashes. Fails on an empty part.
Result<NamedTarget> parseNamedTarget(const QString &text);

// The answers for `plan` when every risk is answered by `given`; else one line: each risk left unanswered,
// "TEXT (HOW)" joined by "; ", HOW as howToAnswer() says it. The plan's refusals are not judged here.
Result<OperationAnswers> consentFor(const OperationPlan &plan, const ConsentGiven &given, const ConsentWays &ways);

// A command line that runs on another host (dmtunectl --host HOST COMMAND): each --destroy-data-on must name
// that host too ("--destroy-data-on HOST:DEV"), so that a name meant for one machine never answers for another;
// the far side gets DEV alone. Else one line that says how to name it.
Result<QStringList> withHostConsent(const QStringList &command, const QString &host);

// How a risk is answered, as a refusal says it: "refused without --destroy-data-on sdb; --force does not answer a
// data risk", "refused without --force", "refused whatever is given", "refused: this command cannot accept it".
QString howToAnswer(const OperationRisk &risk, const ConsentWays &ways, const QString &host = {});

} // namespace dmtune
