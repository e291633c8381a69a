#include "core/params/helperprotocol.h"

#include "core/params/transaction.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace dmtune {

Result<HelperRequest> parseHelperRequest(const QByteArray &json)
{
    using R = Result<HelperRequest>;
    if (json.size() > helperMaxRequestBytes)
        return R::failure(QStringLiteral("request larger than %1 bytes").arg(helperMaxRequestBytes));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (doc.isNull())
        return R::failure(QStringLiteral("request is not JSON: %1").arg(error.errorString()));
    if (!doc.isObject())
        return R::failure(QStringLiteral("request is not a JSON object"));
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it.key() != QLatin1String("changes") && it.key() != QLatin1String("dry_run")
            && it.key() != QLatin1String("risks_confirmed"))
            return R::failure(QStringLiteral("unknown request key '%1'").arg(it.key()));
    }
    HelperRequest request;
    const QJsonValue dry = root.value(QLatin1String("dry_run"));
    if (!dry.isUndefined() && !dry.isBool())
        return R::failure(QStringLiteral("dry_run must be a boolean"));
    request.dryRun = dry.toBool(false);
    const QJsonValue confirmed = root.value(QLatin1String("risks_confirmed"));
    if (!confirmed.isUndefined() && !confirmed.isBool())
        return R::failure(QStringLiteral("risks_confirmed must be a boolean"));
    request.consent = confirmed.toBool(false) ? RiskConsent::Given : RiskConsent::None;
    const QJsonValue changes = root.value(QLatin1String("changes"));
    if (!changes.isArray())
        return R::failure(QStringLiteral("changes must be an array"));
    const QJsonArray array = changes.toArray();
    if (array.size() > helperMaxChanges)
        return R::failure(QStringLiteral("more than %1 changes").arg(helperMaxChanges));
    for (const auto &v : array) {
        if (!v.isObject())
            return R::failure(QStringLiteral("a change is not an object"));
        const QJsonObject o = v.toObject();
        if (o.size() != 3)
            return R::failure(QStringLiteral("a change must have exactly device, attribute and value"));
        const QJsonValue device = o.value(QLatin1String("device"));
        const QJsonValue attribute = o.value(QLatin1String("attribute"));
        const QJsonValue value = o.value(QLatin1String("value"));
        if (!device.isString() || !attribute.isString() || !value.isString())
            return R::failure(QStringLiteral("device, attribute and value must be strings"));
        request.changes << Change { device.toString(), attribute.toString(), value.toString() };
    }
    return request;
}

QByteArray helperRequestJson(const ChangeSet &changes, bool dryRun, RiskConsent consent)
{
    QJsonArray array;
    for (const auto &c : changes) {
        array.append(QJsonObject { { QStringLiteral("device"), c.device }, { QStringLiteral("attribute"), c.attribute },
            { QStringLiteral("value"), c.value } });
    }
    QJsonObject root { { QStringLiteral("changes"), array }, { QStringLiteral("dry_run"), dryRun } };
    if (consent == RiskConsent::Given)
        root.insert(QStringLiteral("risks_confirmed"), true);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

HelperReply runHelper(const SysfsRoot &sysfs, const QByteArray &request)
{
    ApplyResult result;
    const auto parsed = parseHelperRequest(request);
    if (!parsed) {
        result.errors << ApplyError { ApplyError::Stage::Validate, {}, {}, {}, parsed.errorMessage() };
    } else {
        result = applyChanges(sysfs, parsed->changes, parsed->dryRun, parsed->consent);
    }
    result.executor = QStringLiteral("helper");
    HelperReply reply;
    reply.json = QJsonDocument(toJson(result)).toJson(QJsonDocument::Compact) + '\n';
    reply.exitCode = result.ok() ? 0 : result.rejected() ? 2 : 1;
    return reply;
}

} // namespace dmtune
