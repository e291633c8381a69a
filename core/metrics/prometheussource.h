#pragma once
// One instance's disk counters from a Prometheus server that scrapes node_exporter: blocking GETs of its
// HTTP API (libcurl, confined to the .cpp), the newest scrape's raw samples as a CounterFrame.
#include "core/metrics/metricssource.h"
#include "core/metrics/prometheusparse.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <memory>
#include <utility>

namespace dmtune {

class PrometheusSource : public MetricsSource {
public:
    // Checks the URL (http or https, a host), that the server answers, and that `instance` has node_disk_*
    // series there (else the error lists the instances that have). An empty instance takes the only one.
    static Result<std::unique_ptr<PrometheusSource>> open(const QString &url, const QString &instance);

    QString description() const override;
    QStringList limits() const override;
    // The newest scrape; the same frame (same timeNs) again until Prometheus has a newer one.
    Result<CounterFrame> fetch() override;
    Result<CounterFrame> fetchBefore(qint64 timeNs) override;
    // node_uname_info's nodename, release and machine and the CPUs node_cpu_seconds_total counts, where the
    // instance exports them (the uname and cpu collectors); else the instance's host as the node name.
    SourceHost host() const override { return m_host; }

    QString instance() const { return m_instance; }
    QString serverVersion() const { return m_version; } // "2.42.0+ds", empty when buildinfo is not served
    bool hasDmMultipath() const { return m_hasDmMultipath; }
    QStringList lastNotes() const { return m_notes; } // what the newest fetch left out, and why
    double windowSeconds() const { return m_windowSeconds; } // the range selector's width

    // A GET of the server's API (`path` such as "/api/v1/query"), the body of a 200 answer; anything else
    // fails in one line with the status and Prometheus' error text.
    Result<QByteArray> get(const QString &path, const QList<std::pair<QString, QString>> &query = {}) const;

    // The URL as it may be shown (no password); failure for anything but http(s)://host[:port][/prefix].
    static Result<QUrl> checkUrl(const QString &url);
    static QString curlVersion(); // "7.88.1"
    // The instances of the server at `url` that have node_disk_* series (a fleet's hosts), sorted; one line on
    // failure. Blocks: call it from a job.
    static Result<QStringList> diskInstances(const QString &url);
    // A PromQL string literal: "..." with backslashes and quotes escaped.
    static QString promqlString(const QString &text);

private:
    PrometheusSource() = default;
    Result<PrometheusDiskFrame> query(qint64 notAfterMs = std::numeric_limits<qint64>::max()) const;
    void readHost();

    QUrl m_url; // with any user info (basic auth); shown with toDisplayString(RemovePassword)
    QString m_instance;
    QString m_version;
    double m_windowSeconds = 120;
    bool m_hasDmMultipath = false;
    QStringList m_notes;
    CounterFrame m_last;
    SourceHost m_host;
};

} // namespace dmtune
