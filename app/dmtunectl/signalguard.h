#pragma once
// SIGINT/SIGTERM/SIGHUP turned into a readable file descriptor (the self-pipe trick) for the commands that run
// until interrupted (stat, run): they end cleanly from the event loop instead of dying mid-output. SIGHUP
// too: a closed terminal or ssh session must stop a run as Ctrl-C does, with its recording finished.
#include <QObject>

#include <csignal>
#include <functional>
#include <memory>

class QSocketNotifier;

namespace dmtune::cli {

class SignalGuard {
public:
    SignalGuard();
    ~SignalGuard();
    SignalGuard(const SignalGuard &) = delete;
    SignalGuard &operator=(const SignalGuard &) = delete;

    int readFd() const;
    // Calls `onSignal` from the event loop on every SIGINT/SIGTERM/SIGHUP (after the first, each one again).
    template<typename F>
    void onSignal(QObject *context, F onSignal);

private:
    void watch(QObject *context, std::function<void()> callback);
    struct sigaction m_oldInt { };
    struct sigaction m_oldTerm { };
    struct sigaction m_oldHup { };
    bool m_installed = false;
    std::unique_ptr<QSocketNotifier> m_notifier;
};

template<typename F>
void SignalGuard::onSignal(QObject *context, F callback)
{
    watch(context, std::function<void()>(std::move(callback)));
}

} // namespace dmtune::cli
