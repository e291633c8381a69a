#pragma once
// Near misses of names the user typed ("lsit" for list, "queue/nomerge" for queue/nomerges): pure, no I/O.
#include <QString>
#include <QStringList>

namespace dmtune {

// Edits (insert, delete, substitute, swap two neighbours) from a to b: the optimal string alignment distance
// (Damerau-Levenshtein without editing a substring twice). Case-sensitive.
int editDistance(QStringView a, QStringView b);
// The one name of `names` nearest to `typed`, when it is near (at most 2 edits, and fewer than half of typed's
// length, so "x" suggests nothing) and no other name is as near; empty otherwise, or when typed is one of them.
QString nearestName(const QString &typed, const QStringList &names);
// " (did you mean NAME?)" for nearestName, empty when there is none: appended to an "unknown ..." line.
QString didYouMean(const QString &typed, const QStringList &names);

} // namespace dmtune
