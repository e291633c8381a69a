#pragma once
// A window's parts, for the tests that look inside one: its remote session (the window itself never asks), its
// tabs and its menu entries.
#include "app/dmtune/mainwindow.h"
#include "core/host/hostsession.h"
#include "core/remote/remotehostsession.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>

#include <functional>

namespace dmtune {

inline QStringList tabTitles(const MainWindow *window)
{
    QStringList titles;
    const auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("deviceTabs"));
    for (int i = 0; tabs && i < tabs->count(); ++i)
        titles << tabs->tabText(i);
    return titles;
}

// "/&File/Open &fleet…" for every entry of every menu, submenus included, separators left out.
inline QStringList menuEntries(const MainWindow *window)
{
    QStringList entries;
    std::function<void(const QString &, const QList<QAction *> &)> walk
        = [&](const QString &path, const QList<QAction *> &actions) {
              for (QAction *action : actions) {
                  if (action->isSeparator())
                      continue;
                  const QString name = path + QLatin1Char('/') + action->text();
                  if (action->menu())
                      walk(name, action->menu()->actions());
                  else
                      entries << name;
              }
          };
    walk(QString(), window->menuBar()->actions());
    return entries;
}

inline RemoteHostSession *remoteSessionOf(const MainWindow *window)
{
    return qobject_cast<RemoteHostSession *>(window->hostSession());
}

} // namespace dmtune
