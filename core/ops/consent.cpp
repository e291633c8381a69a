#include "core/ops/consent.h"

#include <algorithm>

namespace dmtune {

namespace {

// A name answers a risk when it is the risk's device (by any of its names) on the host the command acts on.
bool names(const QList<NamedTarget> &given, const QString &device, const QString &host)
{
    return !device.isEmpty() && std::any_of(given.cbegin(), given.cend(), [&](const NamedTarget &t) {
        return t.host == host && t.names.contains(device);
    });
}

QString named(const QString &device, const QString &host)
{
    return host.isEmpty() ? device : host + QLatin1Char(':') + device;
}

} // namespace

Result<NamedTarget> parseNamedTarget(const QString &text)
{
    using R = Result<NamedTarget>;
    const QString trimmed = text.trimmed();
    NamedTarget target;
    QString device = trimmed;
    // A /dev/ path or a bare name has no host; "HOST:DEV" has one (a device name never holds ':').
    if (const qsizetype colon = trimmed.indexOf(QLatin1Char(':')); colon >= 0 && !trimmed.startsWith(u'/')) {
        target.host = trimmed.left(colon);
        device = trimmed.mid(colon + 1);
        if (target.host.isEmpty())
            return R::failure(QStringLiteral("\"%1\": the host before ':' is empty").arg(text));
    }
    if (device.isEmpty())
        return R::failure(QStringLiteral("\"%1\" names no device").arg(text));
    target.names.append(device);
    return target;
}

Result<QStringList> withHostConsent(const QStringList &command, const QString &host)
{
    using R = Result<QStringList>;
    const QLatin1String option("--destroy-data-on");
    QStringList out;
    for (qsizetype i = 0; i < command.size(); ++i) {
        const QString &arg = command.at(i);
        const bool joined = arg.startsWith(option + QLatin1Char('='));
        if (arg != option && !joined) {
            out.append(arg);
            continue;
        }
        if (!joined && i + 1 >= command.size())
            return R::failure(QStringLiteral("%1 needs %2:DEV").arg(option, host));
        const QString value = joined ? arg.mid(option.size() + 1) : command.at(++i);
        const auto target = parseNamedTarget(value);
        if (!target)
            return R::failure(QStringLiteral("%1 %2").arg(option, target.errorMessage()));
        if (target->host != host)
            return R::failure(QStringLiteral("refused: %1 %2 does not name the host the command acts on: give %1 %3:%4")
                                  .arg(option, value, host, target->names.first()));
        out << option << target->names.first();
    }
    return out;
}

QString howToAnswer(const OperationRisk &risk, const ConsentWays &ways, const QString &host)
{
    if (!risk.confirmable)
        return QStringLiteral("refused whatever is given");
    switch (risk.kind) {
    case RiskKind::Data:
        if (ways.dataOption.isEmpty() || risk.confirmDevice.isEmpty())
            return QStringLiteral("refused: this command cannot accept a data risk");
        return QStringLiteral("refused without %1 %2; --force does not answer a data risk")
            .arg(ways.dataOption, named(risk.confirmDevice, host));
    case RiskKind::Availability:
        if (ways.forceOption.isEmpty())
            return QStringLiteral("refused: this command cannot accept it");
        return QStringLiteral("refused without %1").arg(ways.forceOption);
    case RiskKind::Fault:
        if (ways.faultOption.isEmpty() || risk.confirmDevice.isEmpty())
            return QStringLiteral("refused: this command injects no faults");
        return QStringLiteral("refused without %1 %2").arg(ways.faultOption, named(risk.confirmDevice, host));
    }
    return {};
}

Result<OperationAnswers> consentFor(const OperationPlan &plan, const ConsentGiven &given, const ConsentWays &ways)
{
    OperationAnswers answers;
    answers.planId = plan.id;
    QStringList unanswered;
    for (const OperationRisk &risk : plan.risks) {
        bool answered = false;
        if (risk.confirmable) {
            switch (risk.kind) {
            case RiskKind::Data:
                answered = !ways.dataOption.isEmpty() && names(given.destroyDataOn, risk.confirmDevice, given.host);
                break;
            case RiskKind::Availability:
                answered = !ways.forceOption.isEmpty() && given.force;
                break;
            case RiskKind::Fault:
                answered = !ways.faultOption.isEmpty() && names(given.faultOn, risk.confirmDevice, given.host);
                break;
            }
        }
        if (answered)
            answers.accepted.append(risk.id);
        else
            unanswered.append(QStringLiteral("%1 (%2)").arg(risk.text, howToAnswer(risk, ways, given.host)));
    }
    if (!unanswered.isEmpty())
        return Result<OperationAnswers>::failure(unanswered.join(QStringLiteral("; ")));
    return answers;
}

} // namespace dmtune
