#pragma once
// Tick labels that never run together: every axis of a chart gets as many ticks as its length in pixels has
// room for at the width (horizontal) or height (vertical) of its labels, and value axes read "150k", not
// "150000".
#include <QSharedPointer>

class QCustomPlot;
class QCPAxisTicker;

namespace dmtune::axisticks {

// A value axis' ticker: SI suffixes, one suffix per axis, from its range ("8k" never sits under "10000").
QSharedPointer<QCPAxisTicker> siTicker();
// Keeps the tick count of every visible axis of `plot` to what its length fits, after every layout of the plot
// (a changed count replots once more). Text tickers (fixed ticks) are left alone.
void keepReadable(QCustomPlot *plot);
// The tick count for an axis `lengthPx` long with labels `labelExtentPx` wide (or high): the ticker rounds its
// step to 1, 2, 2.5 or 5 times a power of ten, which can give up to 1.5 times the count asked for.
int tickCountFor(double lengthPx, double labelExtentPx);

} // namespace dmtune::axisticks
