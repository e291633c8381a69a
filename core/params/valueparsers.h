#pragma once
// Pure parsing and checking of attribute values: text in, Result out, no I/O.
#include "core/params/tunabledef.h"
#include "core/util/result.h"

namespace dmtune {

struct SchedulerList {
    QString current; // the bracketed one ("none" unbracketed when it is the only choice)
    QStringList available;
};

// "[mq-deadline] kyber none" -> current mq-deadline, available all three.
Result<SchedulerList> parseSchedulerList(const QString &text);
// A decimal integer, optional sign, surrounding blanks ignored; nothing else.
Result<qint64> parseInteger(const QString &text);
// 0/1, Y/N, yes/no, true/false, on/off (any case).
Result<bool> parseBool(const QString &text);

// The limits that apply to one attribute of one device (static range narrowed by the kernel's).
struct ValueLimits {
    qint64 minimum = 0;
    qint64 maximum = 0;
    qint64 step = 1; // values must be multiples of it (discard_granularity)
    QStringList choices; // Enum
};

ValueLimits staticLimits(const TunableDef &def);
// Checks the type and the limits; returns the text to write (trimmed, booleans in the attribute's style).
Result<QString> checkValue(const TunableDef &def, const ValueLimits &limits, const QString &input);
// The check of a value for a file that holds `current` (as the kernel reports it, empty when unknown): the current
// value itself passes whether or not it lies on the limits' grid, as the normalized text. The kernel reports values
// it refuses back (discard_max_bytes off the discard granularity); asking for what is there changes nothing and is
// never written, so it is no error. Anything else gets checkValue.
Result<QString> checkValueFrom(
    const TunableDef &def, const ValueLimits &limits, const QString &current, const QString &input);
// The value as compared and shown: the current scheduler's name, booleans in the attribute's style,
// integers without padding. Unparsable text comes back trimmed.
QString normalizeValue(const TunableDef &def, const QString &raw);
// Whether two values mean the same (after normalizing both).
bool sameValue(const TunableDef &def, const QString &a, const QString &b);
// "4..1280 KiB", "0 | 1 | 2", "bool" ... for tables and --help-like output.
QString limitsText(const TunableDef &def, const ValueLimits &limits);

} // namespace dmtune
