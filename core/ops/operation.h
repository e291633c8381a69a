#pragma once
// One user action as values (docs/operations.md): a plan (what will happen, the risks found, a preview, and
// the state it was made on), the caller's answers (bound to that plan by its id), and the result (what
// changed, read back, warnings). The GUI, dmtunectl and a remote agent only render plans, ask and render
// results; every rule is in the operation's plan and run functions (operationregistry.h). All three values
// have a versioned JSON form, so that a plan made on one host can be answered on another.
#include "core/util/result.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <any>
#include <memory>
#include <type_traits>

namespace dmtune {

// The JSON schema's version; a reader refuses other major versions.
inline constexpr int OperationSchemaVersion = 1;

// What a risk puts at stake decides who may answer it (core/ops/consent.h, docs/workloads.md "Consent"):
// Data: the device's contents destroyed or silently corrupted; answered only by naming that device or map
//   (confirmDevice): --destroy-data-on in the CLI, the typed name in the GUI. --force never answers it.
// Availability: I/O errors or hangs for applications, nothing lost on the device; --force or a confirmation.
// Fault: a fault a failover experiment injects on purpose; answered by naming the map (--fault-on MAP).
// A risk that is not confirmable (in use, mounted) is refused outright, whatever its kind.
enum class RiskKind { Data, Availability, Fault };

struct OperationRisk {
    QString id; // stable within a kind: "foreign-lun:8:48", "write-cache:sdb", "last-active-path"
    QString text; // one sentence with the numbers: what can be lost and why
    // false: no answer makes it acceptable (a device in use, a mounted file system); the plan cannot run.
    bool confirmable = true;
    // The device or map the user names to accept a Data or Fault risk (typed in the GUI, --destroy-data-on or
    // --fault-on in the CLI); empty for an Availability risk.
    QString confirmDevice;
    RiskKind kind = RiskKind::Availability;
};

// The risks as their makers write them: the kind and what names it in one place.
OperationRisk dataRisk(const QString &id, const QString &text, const QString &device);
OperationRisk availabilityRisk(const QString &id, const QString &text);
OperationRisk faultRisk(const QString &id, const QString &text, const QString &map);
// No answer accepts it: the plan cannot run (a device in use, a mounted file system).
OperationRisk refusedRisk(const QString &id, const QString &text);
// "data", "availability", "fault": the JSON form's "kind".
QString riskKindName(RiskKind kind);

// What an operation's plan function prepared for its run function (a resolved preset, the writes of a transaction):
// held as the operation's own type and given back only as that type (get<T>() is null for any other).
class PreparedState {
public:
    PreparedState() = default;
    template<typename T>
    PreparedState(std::shared_ptr<T> value) // NOLINT(google-explicit-constructor): a plan's own value converts
        : m_value(std::shared_ptr<const std::remove_cv_t<T>>(std::move(value)))
    {
    }
    template<typename T>
    const T *get() const
    {
        const auto *held = std::any_cast<std::shared_ptr<const T>>(&m_value);
        return held ? held->get() : nullptr;
    }
    template<typename T>
    std::shared_ptr<const T> share() const
    {
        const auto *held = std::any_cast<std::shared_ptr<const T>>(&m_value);
        return held ? *held : nullptr;
    }
    explicit operator bool() const { return m_value.has_value(); }

private:
    std::any m_value;
};

struct OperationPlan {
    QString kind; // "multipath.fail-path", "multipath.reload", "tuning.apply", "preset.apply", ...
    QString id; // planId(): a digest of kind, request and basis; answers name it
    QJsonObject request; // what was asked, as the operation reads it
    QString target; // the device or map the operation acts on ("mpatha", "sdb")
    QString summary; // one line: "fail path sdb (8:16) of mpatha"
    QStringList steps; // what run() will do, in order
    QString preview; // a table diff, the writes, the fio command line; may be empty
    QList<OperationRisk> risks;
    QStringList refusals; // why it cannot run at all (bad input, wrong device): run() refuses
    QStringList notes; // caveats that need no answer ("multipathd may reload the map from multipath.conf")
    // The state the plan was made on, as the operation reads it (a map's table and path states, the attributes'
    // current values). run() reads it again and refuses when it differs: the plan would be stale.
    QJsonObject basis;
    // In-process only (never serialised): what the plan function prepared, for the run function of the same
    // process. A plan read from JSON has none; run() then prepares again (it always re-validates).
    PreparedState prepared;

    bool runnable() const { return refusals.isEmpty() && !hasUnconfirmableRisk(); }
    bool hasUnconfirmableRisk() const;
    bool needsAnswers() const { return !risks.isEmpty(); }
};

struct OperationAnswers {
    QString planId; // the plan these answers were given for
    QStringList accepted; // ids of the risks the user accepted
    bool dryRun = false; // run() only re-validates and reports what it would do
};

struct OperationResult {
    QString kind;
    QString planId;
    QString target;
    bool ok = false;
    QString error; // one line; empty when ok
    bool stale = false; // refused because the state changed since the plan (error says what changed)
    bool dryRun = false;
    QStringList changes; // what changed, read back: "sdb queue/nomerges 0 -> 2", "mpatha: path 8:16 failed"
    QStringList warnings;
    QJsonObject details; // the kind's own read-back (an ApplyResult, a table), for renderers that know it

    explicit operator bool() const { return ok; }
};

// Every risk accepted, whatever its kind: only for answers already decided by consentFor() (core/ops/consent.h)
// or a caller that checked every risk itself; never as the answer to --force.
OperationAnswers acceptAll(const OperationPlan &plan);
// Empty when `answers` may run `plan`: they name this plan, every risk is accepted and none is
// unconfirmable, and the plan has no refusal. Else the one line to show.
QString answersProblem(const OperationPlan &plan, const OperationAnswers &answers);
// What differs between two bases, one line per key ("table: ... -> ..."); empty when they agree.
QStringList basisDifferences(const QJsonObject &planned, const QJsonObject &now);
// The plan's id: a hex digest of kind, request and basis (same request on the same state, same id).
QString planId(const QString &kind, const QJsonObject &request, const QJsonObject &basis);

QJsonObject planToJson(const OperationPlan &plan);
Result<OperationPlan> planFromJson(const QJsonObject &json);
QJsonObject answersToJson(const OperationAnswers &answers);
Result<OperationAnswers> answersFromJson(const QJsonObject &json);
QJsonObject resultToJson(const OperationResult &result);
Result<OperationResult> resultFromJson(const QJsonObject &json);

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::OperationPlan)
Q_DECLARE_METATYPE(dmtune::OperationResult)
