#pragma once
// Top-level windows open inside the screen they open on: a laptop's 1280x720 or 1366x768 as well as a desk's
// 1920x1080. A window asks for the size its content likes; it gets that, or what the screen leaves.
#include <QRect>
#include <QSize>

class QScreen;
class QWidget;

namespace dmtune::windowfit {

// What a window manager adds around a top-level window before it is shown (its title bar and borders); after
// it is shown the real frame is known and used instead.
inline constexpr int AssumedTitleBar = 32;
inline constexpr int AssumedBorder = 4;

// `wanted`, or the part of `available` (a screen's available geometry) that a window with that frame can
// take, whichever is smaller in each direction.
QSize boundedSize(QSize wanted, const QRect &available, const QSize &frameExtra);

// Resizes `window` to `wanted` bounded by its screen (the primary one when it has none yet), and moves it
// so that its frame lies inside the screen's available geometry.
void resizeOnScreen(QWidget *window, QSize wanted);

// After restoreGeometry(): the same bound, for a geometry saved on a larger screen.
void keepOnScreen(QWidget *window);

} // namespace dmtune::windowfit
