#pragma once
// Where a window's counters come from: this machine's Sampler (sampler.h) or a remote host's RemoteSampler (its
// agent's stream, remote/remotesampler.h). The charts, the history, the Explain pane and the Latency tab take a
// SampleSource and never ask which one it is.
#include "core/stats/samplebatch.h"

#include <QObject>
#include <QStringList>

namespace dmtune {

class SampleSource : public QObject {
    Q_OBJECT
public:
    static constexpr int MinIntervalMs = 100;
    static constexpr int MaxIntervalMs = 60000;
    static constexpr int DefaultIntervalMs = 1000;

    using QObject::QObject;

    // Exactly these kernel names, reported in this order; empty: every whole device.
    virtual void setWatched(const QStringList &names) = 0;
    virtual QStringList watched() const = 0;
    // MinIntervalMs .. MaxIntervalMs; outside that range nothing changes and false is returned.
    virtual bool setInterval(int ms) = 0;
    virtual int interval() const = 0;
    // The first batch covers the first interval after start(), never the time before it; stop() ends every series.
    virtual void start() = 0;
    virtual void stop() = 0;
    virtual bool isRunning() const = 0;

Q_SIGNALS:
    void samplesAvailable(const dmtune::SampleBatch &batch);
    void deviceAppeared(const QString &name);
    // The device's series ends; its last batch was the previous one.
    void deviceVanished(const QString &name);
    // The counters could not be read this tick (the series go on from the next).
    void samplingFailed(const QString &message);
};

} // namespace dmtune
