#pragma once
// A remote host's window's parts, for the tests that look inside one (the window itself never asks).
#include "host/hostsession.h"
#include "mainwindow.h"
#include "remote/remotehostsession.h"

namespace dmtune {

inline RemoteHostSession *remoteSessionOf(const MainWindow *window)
{
    return qobject_cast<RemoteHostSession *>(window->hostSession());
}

} // namespace dmtune
