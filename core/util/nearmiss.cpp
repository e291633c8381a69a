#include "core/util/nearmiss.h"

#include <QList>

#include <algorithm>

namespace dmtune {

int editDistance(QStringView a, QStringView b)
{
    // Three rows of the dynamic programme: the one before the previous is what a swap looks back to.
    const qsizetype n = b.size();
    QList<int> before(n + 1), previous(n + 1), current(n + 1);
    for (qsizetype j = 0; j <= n; ++j)
        previous[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= n; ++j) {
            const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = std::min({ previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost });
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                best = std::min(best, before[j - 2] + 1);
            current[j] = best;
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[n];
}

QString nearestName(const QString &typed, const QStringList &names)
{
    if (typed.isEmpty() || names.contains(typed))
        return {};
    const int limit = std::min(2, int((typed.size() - 1) / 2));
    QString best;
    int bestDistance = limit + 1;
    bool tie = false;
    for (const QString &name : names) {
        const int d = editDistance(typed, name);
        if (d < bestDistance) {
            best = name;
            bestDistance = d;
            tie = false;
        } else if (d == bestDistance && name != best) {
            tie = true;
        }
    }
    return bestDistance <= limit && !tie ? best : QString();
}

QString didYouMean(const QString &typed, const QStringList &names)
{
    const QString name = nearestName(typed, names);
    return name.isEmpty() ? QString() : QStringLiteral(" (did you mean %1?)").arg(name);
}

} // namespace dmtune
