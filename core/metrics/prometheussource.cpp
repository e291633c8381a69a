#include "core/metrics/prometheussource.h"

#include "core/util/printable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
#include <mutex>

using namespace Qt::StringLiterals;

namespace dmtune {

namespace {

constexpr long ConnectTimeoutMs = 3000;
constexpr long TotalTimeoutMs = 15000; // a large host's query answer, gzip'ed, on a slow link
constexpr qsizetype MaxAnswerBytes = 64 * 1024 * 1024;
constexpr int MaxRedirects = 3; // to the same scheme, host and port only
const auto DiskSelector = R"({__name__=~"node_(disk|dmmultipath)_.+",instance=%1})"_L1;

struct Answer {
    long status = 0; // 0: no HTTP answer at all
    QByteArray body;
    QString location; // of a redirect
    QString error; // transport error, empty when an answer came
};

size_t appendBody(char *data, size_t size, size_t count, void *answer)
{
    auto *body = static_cast<QByteArray *>(answer);
    const size_t bytes = size * count;
    if (body->size() + qsizetype(bytes) > MaxAnswerBytes)
        return 0; // curl fails with CURLE_WRITE_ERROR
    body->append(data, qsizetype(bytes));
    return bytes;
}

void initCurlOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// One GET, no redirect followed; the caller decides about a redirect.
Answer getOnce(const QByteArray &url)
{
    initCurlOnce();
    Answer answer;
    const std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
    if (!curl) {
        answer.error = u"libcurl could not start a transfer"_s;
        return answer;
    }
    char errorText[CURL_ERROR_SIZE] = {};
    CURL *c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.constData());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L); // timeouts without SIGALRM: callers run on job threads
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, ConnectTimeoutMs);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, TotalTimeoutMs);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(MaxAnswerBytes));
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, ""); // whatever libcurl decodes: Prometheus gzips
    curl_easy_setopt(c, CURLOPT_USERAGENT, "dmtune");
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errorText);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &appendBody);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &answer.body);
    const CURLcode code = curl_easy_perform(c);
    if (code == CURLE_WRITE_ERROR || code == CURLE_FILESIZE_EXCEEDED) {
        answer.error = u"the answer is larger than %1 MiB"_s.arg(MaxAnswerBytes / (1024 * 1024));
        return answer;
    }
    if (code != CURLE_OK) {
        answer.error = QString::fromUtf8(errorText[0] ? errorText : curl_easy_strerror(code)).simplified();
        return answer;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &answer.status);
    const char *location = nullptr;
    if (curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location)
        answer.location = QString::fromUtf8(location);
    return answer;
}

bool sameServer(const QUrl &a, const QUrl &b)
{
    return a.scheme() == b.scheme() && a.host().compare(b.host(), Qt::CaseInsensitive) == 0
        && a.port(a.scheme() == "https"_L1 ? 443 : 80) == b.port(b.scheme() == "https"_L1 ? 443 : 80);
}

QString shown(const QUrl &url)
{
    return url.toDisplayString(QUrl::RemovePassword | QUrl::RemoveQuery | QUrl::StripTrailingSlash);
}

// An HTTP error's text: Prometheus' error JSON, else the start of the body.
QString errorText(const QByteArray &body)
{
    const QString prometheus = prometheusErrorMessage(body);
    if (!prometheus.isEmpty())
        return prometheus;
    QString text = QString::fromUtf8(body.left(300)).simplified();
    if (text.size() > 200)
        text = text.left(200) + u"…"_s;
    return text.isEmpty() ? u"empty answer"_s : printable(text);
}

} // namespace

QString PrometheusSource::curlVersion()
{
    return QString::fromLatin1(curl_version_info(CURLVERSION_NOW)->version);
}

QString PrometheusSource::promqlString(const QString &text)
{
    QString quoted = text;
    quoted.replace(u'\\', "\\\\"_L1).replace(u'"', "\\\""_L1).replace(u'\n', "\\n"_L1);
    return u"\""_s + quoted + u"\""_s;
}

Result<QUrl> PrometheusSource::checkUrl(const QString &text)
{
    const auto bad = [](const QString &why) {
        return Result<QUrl>::failure(u"bad Prometheus URL: %1 (expected http[s]://host[:port][/prefix])"_s.arg(why));
    };
    // The input is never echoed whole: it may carry a password.
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid())
        return bad(u"not a valid URL"_s);
    if (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)
        return bad(url.scheme().isEmpty() ? u"no scheme"_s
                                          : u"the scheme is '%1', not http or https"_s.arg(printable(url.scheme())));
    if (url.host().isEmpty())
        return bad(u"no host"_s);
    if (url.hasQuery() || url.hasFragment())
        return bad(u"a query or fragment is not part of a server's base URL"_s);
    return url;
}

Result<QByteArray> PrometheusSource::get(const QString &path, const QList<std::pair<QString, QString>> &query) const
{
    QUrl target = m_url;
    QString base = m_url.path();
    while (base.endsWith(u'/'))
        base.chop(1);
    target.setPath(base + path);
    // Encoded by hand: QUrlQuery leaves '+' alone, which the server reads as a space.
    QByteArray encoded = target.toEncoded();
    for (qsizetype i = 0; i < query.size(); ++i) {
        encoded += (i == 0 ? '?' : '&') + QUrl::toPercentEncoding(query[i].first) + '='
            + QUrl::toPercentEncoding(query[i].second);
    }
    const QString where = shown(target);
    for (int hop = 0;; ++hop) {
        const Answer answer = getOnce(encoded);
        if (!answer.error.isEmpty())
            return Result<QByteArray>::failure(u"Prometheus at %1: %2"_s.arg(where, answer.error));
        if (answer.status >= 300 && answer.status < 400 && !answer.location.isEmpty()) {
            const QUrl next(answer.location);
            if (!sameServer(next, m_url) || hop >= MaxRedirects)
                return Result<QByteArray>::failure(u"Prometheus at %1: HTTP %2 redirects to %3, not followed"_s.arg(
                    where, QString::number(answer.status), shown(next)));
            QUrl withAuth = next; // the same server: keep the user's credentials
            withAuth.setUserInfo(m_url.userInfo());
            encoded = withAuth.toEncoded();
            continue;
        }
        if (answer.status != 200)
            return Result<QByteArray>::failure(
                u"Prometheus at %1: HTTP %2: %3"_s.arg(where, QString::number(answer.status), errorText(answer.body)));
        return answer.body;
    }
}

Result<QStringList> PrometheusSource::diskInstances(const QString &url)
{
    const Result<QUrl> checked = checkUrl(url);
    if (!checked)
        return Result<QStringList>::failure(checked.errorMessage());
    PrometheusSource server;
    server.m_url = *checked;
    const Result<QByteArray> values
        = server.get(u"/api/v1/label/instance/values"_s, { { u"match[]"_s, u"{__name__=~\"node_disk_.+\"}"_s } });
    if (!values)
        return Result<QStringList>::failure(values.errorMessage());
    const Result<QStringList> instances = parsePrometheusLabelValues(*values);
    if (!instances)
        return Result<QStringList>::failure(
            u"Prometheus at %1: %2"_s.arg(shown(server.m_url), instances.errorMessage()));
    return instances;
}

Result<std::unique_ptr<PrometheusSource>> PrometheusSource::open(const QString &url, const QString &instance)
{
    using R = Result<std::unique_ptr<PrometheusSource>>;
    const Result<QUrl> checked = checkUrl(url);
    if (!checked)
        return R::failure(checked.errorMessage());
    std::unique_ptr<PrometheusSource> source(new PrometheusSource);
    source->m_url = *checked;

    // Which instances have disk series: the server answers, and the error below can name them.
    const Result<QByteArray> values
        = source->get(u"/api/v1/label/instance/values"_s, { { u"match[]"_s, u"{__name__=~\"node_disk_.+\"}"_s } });
    if (!values)
        return R::failure(values.errorMessage());
    const Result<QStringList> instances = parsePrometheusLabelValues(*values);
    if (!instances)
        return R::failure(u"Prometheus at %1: %2"_s.arg(shown(source->m_url), instances.errorMessage()));
    source->m_instance = instance;
    if (instance.isEmpty() && instances->size() == 1)
        source->m_instance = instances->constFirst();
    if (!instances->contains(source->m_instance)) {
        const QString there = instances->isEmpty() ? u"none"_s : instances->join(", "_L1);
        return R::failure(instance.isEmpty()
                ? u"no instance given, and %1 has several with node_disk_* series: %2"_s.arg(
                    shown(source->m_url), there)
                : u"instance %1 has no node_disk_* series on %2; instances there: %3"_s.arg(
                    printable(instance), shown(source->m_url), there));
    }

    if (const Result<QByteArray> build = source->get(u"/api/v1/status/buildinfo"_s)) // optional: a version
        source->m_version
            = QJsonDocument::fromJson(*build).object().value("data"_L1).toObject().value("version"_L1).toString();
    // The range selector spans a few scrape intervals of the instance: the newest scrape is always in it.
    if (const Result<QByteArray> targets = source->get(u"/api/v1/targets"_s)) {
        if (const Result<QList<PrometheusTarget>> parsed = parsePrometheusTargets(*targets)) {
            for (const PrometheusTarget &t : *parsed) {
                if (t.instance == source->m_instance && t.scrapeIntervalSeconds > 0)
                    source->m_windowSeconds = std::clamp(4 * t.scrapeIntervalSeconds, 10.0, 600.0);
            }
        }
    }
    source->readHost();
    const Result<CounterFrame> first = source->fetch();
    if (!first)
        return R::failure(first.errorMessage());
    return R(std::move(source));
}

void PrometheusSource::readHost()
{
    m_host.nodename = m_instance.section(u':', 0, 0);
    const QString selector = u"{instance=%1}"_s.arg(promqlString(m_instance));
    // The first sample of a vector answer: its labels and its value.
    const auto firstSample = [this](const QString &promql) -> QJsonObject {
        const Result<QByteArray> answer = get(u"/api/v1/query"_s, { { u"query"_s, promql } });
        if (!answer)
            return {};
        const QJsonArray result
            = QJsonDocument::fromJson(*answer).object().value("data"_L1).toObject().value("result"_L1).toArray();
        return result.isEmpty() ? QJsonObject() : result.first().toObject();
    };
    const QJsonObject uname = firstSample(u"node_uname_info"_s + selector).value("metric"_L1).toObject();
    if (!uname.value("nodename"_L1).toString().isEmpty())
        m_host.nodename = uname.value("nodename"_L1).toString();
    m_host.release = uname.value("release"_L1).toString();
    m_host.machine = uname.value("machine"_L1).toString();
    const QJsonArray cpus
        = firstSample(u"count(node_cpu_seconds_total{instance=%1,mode=\"idle\"})"_s.arg(promqlString(m_instance)))
              .value("value"_L1)
              .toArray();
    m_host.cpus = cpus.size() == 2 ? cpus.at(1).toString().toInt() : 0;
}

Result<PrometheusDiskFrame> PrometheusSource::query(qint64 notAfterMs) const
{
    const QString promql
        = QString(DiskSelector).arg(promqlString(m_instance)) + u"[%1s]"_s.arg(qint64(std::ceil(m_windowSeconds)));
    const Result<QByteArray> body = get(u"/api/v1/query"_s, { { u"query"_s, promql } });
    if (!body)
        return Result<PrometheusDiskFrame>::failure(body.errorMessage());
    Result<PrometheusDiskFrame> frame = parsePrometheusDiskFrame(*body, m_instance, notAfterMs);
    if (!frame)
        return Result<PrometheusDiskFrame>::failure(u"Prometheus at %1, instance %2: %3 (in the last %4 s)"_s.arg(
            shown(m_url), printable(m_instance), frame.errorMessage(), QString::number(m_windowSeconds)));
    return frame;
}

Result<CounterFrame> PrometheusSource::fetch()
{
    const Result<PrometheusDiskFrame> parsed = query();
    if (!parsed)
        return Result<CounterFrame>::failure(parsed.errorMessage());
    m_notes = parsed->notes;
    m_hasDmMultipath = parsed->hasDmMultipath;
    if (parsed->frame.timeNs != m_last.timeNs) // else: no new scrape yet, the same frame
        m_last = parsed->frame;
    return m_last;
}

Result<CounterFrame> PrometheusSource::fetchBefore(qint64 timeNs)
{
    // The range selector spans several scrapes: the one before is in the same kind of answer.
    const Result<PrometheusDiskFrame> parsed = query(timeNs / 1'000'000 - 1);
    if (!parsed)
        return Result<CounterFrame>::failure(parsed.errorMessage());
    return parsed->frame;
}

QString PrometheusSource::description() const
{
    return u"prometheus %1 instance %2"_s.arg(shown(m_url), printable(m_instance));
}

QStringList PrometheusSource::limits() const
{
    QStringList limits {
        u"node_exporter exports requests in flight (node_disk_io_now) but not their reads/writes split: the "
        "in-flight columns are known only when nothing is in flight."_s,
        u"Devices are those node_exporter's diskstats filter passes: its default --collector.diskstats.device-exclude "
        "leaves out ram, loop and fd devices (and partitions)."_s,
        u"Rates use Prometheus' scrape timestamps (ms, taken as the scrape starts), not the moment node_exporter "
        "read /proc/diskstats."_s,
    };
    if (m_hasDmMultipath)
        limits.append(
            u"A map's paths come from node_exporter's dmmultipath collector (node_dmmultipath_path_state)."_s);
    else
        limits.append(u"A map's paths are not known: instance %1 exports no node_dmmultipath_* series (node_exporter "
                      "1.12+ with --collector.dmmultipath)."_s.arg(printable(m_instance)));
    bool anyDm = false;
    for (const DiskCounters &d : m_last.devices)
        anyDm = anyDm || d.name.startsWith("dm-"_L1);
    if (anyDm && m_last.dmNames.isEmpty())
        limits.append(u"Map names are not known: no node_disk_device_mapper_info series (node_exporter 1.4+ reads "
                      "them from udev's /run/udev/data)."_s);
    return limits;
}

} // namespace dmtune
