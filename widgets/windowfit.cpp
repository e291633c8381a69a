#include "windowfit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace dmtune::windowfit {

namespace {

QScreen *screenOf(const QWidget *window)
{
    QScreen *screen = window->screen();
    return screen ? screen : QGuiApplication::primaryScreen();
}

// The frame around the client area: the real one once the window manager has drawn it, else the assumed one.
QSize frameExtra(const QWidget *window)
{
    if (window->isVisible()) {
        const QSize extra = window->frameGeometry().size() - window->geometry().size();
        if (extra.width() > 0 || extra.height() > 0)
            return extra;
    }
    return { 2 * AssumedBorder, AssumedTitleBar + AssumedBorder };
}

} // namespace

QSize boundedSize(QSize wanted, const QRect &available, const QSize &frameExtra)
{
    const QSize room = available.size() - frameExtra;
    return { std::max(1, std::min(wanted.width(), room.width())),
        std::max(1, std::min(wanted.height(), room.height())) };
}

void resizeOnScreen(QWidget *window, QSize wanted)
{
    const QScreen *screen = screenOf(window);
    if (!screen) {
        window->resize(wanted);
        return;
    }
    const QRect available = screen->availableGeometry();
    const QSize extra = frameExtra(window);
    const QSize size = boundedSize(wanted, available, extra);
    window->resize(size);
    // Moved only when it would stick out: a window the window manager placed well stays where it is.
    const QRect frame(window->pos(), size + extra);
    if (!available.contains(frame)) {
        const int x = std::clamp(
            frame.x(), available.left(), std::max(available.left(), available.right() + 1 - frame.width()));
        const int y = std::clamp(
            frame.y(), available.top(), std::max(available.top(), available.bottom() + 1 - frame.height()));
        window->move(x, y);
    }
}

void keepOnScreen(QWidget *window)
{
    resizeOnScreen(window, window->size());
}

} // namespace dmtune::windowfit
