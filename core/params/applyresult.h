#pragma once
// What applying a change set did: per change old -> new (read back), clamping, errors, rollback,
// stacking warnings. The same value in-process, from the helper (JSON) and in the CLI.
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include "core/util/result.h"

namespace dmtune {

struct ChangeOutcome {
    QString device;
    QString attribute;
    QString oldValue; // before the transaction
    QString requested; // empty for a side effect
    QString newValue; // read back after the transaction (after a rollback: the restored value)
    bool clamped = false; // the kernel stored something other than what was written
    bool written = false; // a write happened (and stayed, unless the result is rolled back)
    bool sideEffect = false; // changed by another write (nr_requests reset by a scheduler change)
    QString error;
    QString note;

    // "sdb queue/nomerges 0 -> 2" (for chart markers and logs).
    QString summary() const;
};

struct ApplyError {
    enum class Stage { Validate, Write, ReadBack, Rollback, Helper };
    Stage stage = Stage::Write;
    QString device;
    QString attribute;
    QString value;
    QString message; // errno text for writes ("Invalid argument")

    // "sdb queue/scheduler=no-such: Invalid argument"
    QString text() const;
};

struct StackingWarning {
    QString code; // "max-sectors-above-paths", "nr-requests-vs-queue-depth", "scheduler-under-rq-map"
    QString device; // the device to look at (the map, or the path)
    QString attribute;
    qint64 value = -1;
    qint64 limit = -1;
    QString message; // with the numbers
};

struct ApplyResult {
    bool dryRun = false;
    bool rolledBack = false;
    QString executor; // "in-process" or "helper"
    QList<ChangeOutcome> changes; // in write order
    QList<ApplyError> errors;
    QList<StackingWarning> warnings;

    bool ok() const { return errors.isEmpty(); }
    explicit operator bool() const { return ok(); }
    // Rejected before anything was written (bad device, attribute or value).
    bool rejected() const;
    bool anyWritten() const;
    QString errorMessage() const; // one error per line
};

QString stageName(ApplyError::Stage stage);
QJsonObject toJson(const ApplyResult &result);
Result<ApplyResult> applyResultFromJson(const QJsonObject &object);

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::ApplyResult)
