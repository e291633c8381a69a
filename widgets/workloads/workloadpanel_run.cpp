#include "widgets/workloads/workloadpanel.h"

#include "core/recordings/recordingsfolder.h"

#include "core/host/hostsession.h"
#include "core/host/workloadruns.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationrunner.h"
#include "core/ops/workloadoperations.h"
#include "core/workloads/fiorun.h"
#include "core/workloads/workloadsession.h" // fioRatesFromJson
#include "widgets/charts/livestatsview.h"
#include "widgets/devices/devicelabels.h"
#include "widgets/filedialogs.h"
#include "widgets/workloads/confirmwritedialog.h"
#include "widgets/workloads/fiochart.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace dmtune {

namespace {

QString rateText(double v)
{
    return v >= 1e6 ? QString::number(v / 1e6, 'f', 2) + u'M'
        : v >= 1e3  ? QString::number(v / 1e3, 'f', 1) + u'k'
                    : QString::number(v, 'f', 0);
}

QString latencyText(double ns)
{
    return ns >= 1e6 ? QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', 2)
                     : QStringLiteral("%1 us").arg(ns / 1e3, 0, 'f', 0);
}
} // namespace

void WorkloadPanel::start()
{
    const QString device = currentDevice();
    const FioJob job = currentJob();
    if (isRunning() || m_checking || device.isEmpty())
        return;
    if (nothingToRunOn(device))
        return setStatus(tr("/dev/%1 is 0 B: nothing to run on").arg(device));
    if (!m_actsOnHost)
        return setStatus(tr("A captured system is read-only: workloads run on this machine's own devices"));
    if (const Status valid = validateFioJob(job); !valid)
        return setStatus(valid.errorMessage());
    // Frozen here: the job, the device and the recording as the user saw them when pressing Start.
    WorkloadExtras extras;
    if (m_record->isChecked()) {
        extras.recordPath = m_recordPath->text().trimmed();
        if (extras.recordPath.isEmpty())
            extras.recordPath = defaultRecordPath(job);
    }
    // Never a silent overwrite, never through a link (util/atomicfile.h): an existing file is asked about.
    if (!extras.recordPath.isEmpty()) {
        const QString problem = outputFileProblem(extras.recordPath, ExistingFile::Refuse);
        if (!problem.isEmpty() && !outputFileOnlyExists(extras.recordPath))
            return setStatus(problem);
        if (!problem.isEmpty() && m_replaceAnswered != extras.recordPath)
            return askToReplaceRecording(extras.recordPath);
        extras.replaceRecording = !problem.isEmpty();
    }
    m_replaceAnswered.clear();
    // A recording made as root carries the latency histograms of the devices it records (the probe costs under a
    // microsecond per I/O, only while the run records); without the probe it goes on and says why.
    if (!extras.recordPath.isEmpty() && m_host->actsAsRoot())
        extras.latency = QString::fromLatin1(WorkloadLatencyWanted);
    // The core's one check, the workload.start plan (a job file read by fio --showcmd and frozen, for a write the
    // guard, which holds the device O_EXCL from its look on), made by whoever runs it: this process (a job, never
    // the window's thread) or the host's agent, which gets a job file's content as read here once.
    const Result<QJsonObject> asked = m_runs->startRequest(job, device, extras);
    if (!asked)
        return setStatus(asked.errorMessage());
    Q_EMIT targetChosen(device); // charted (with a map's paths) from now on
    m_runJob = job;
    m_runDevice = device;
    m_checking = true;
    updateButtons();
    setStatus(m_hostName.isEmpty() ? tr("Checking the job and /dev/%1...").arg(device)
                                   : tr("Checking the job and /dev/%1 on %2...").arg(device, m_hostName));
    m_runs->planner()->plan(
        QString::fromLatin1(WorkloadStartKind), asked.value(), this,
        [this, extras](const OperationPlan &plan) {
            m_checking = false;
            updateButtons();
            onPlanned(plan, extras);
        },
        [this](const QString &error) {
            m_checking = false;
            updateButtons();
            setStatus(error);
        });
}

void WorkloadPanel::onPlanned(const OperationPlan &plan, const WorkloadExtras &extras)
{
    if (!plan.refusals.isEmpty())
        return setStatus(plan.refusals.join(QLatin1String("; ")));
    if (!plan.needsAnswers())
        return startChecked(plan, acceptAll(plan), extras);
    setStatus(tr("Waiting for confirmation: /dev/%1 is not empty").arg(plan.target));
    // The dialog keeps the plan, and so its hold, while it is open; closing it lets go.
    m_confirm = new ConfirmWriteDialog(plan, this);
    m_confirm->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_confirm, &PlanDialog::answered, this, [this, plan, extras](const OperationAnswers &answers) {
        log(tr("confirmed: the data on /dev/%1 will be destroyed").arg(plan.target));
        startChecked(plan, answers, extras);
    });
    connect(m_confirm, &QDialog::rejected, this, [this] { setStatus(tr("Not started: not confirmed")); });
    m_confirm->open();
}

void WorkloadPanel::startChecked(
    const OperationPlan &plan, const OperationAnswers &answers, const WorkloadExtras &extras)
{
    // Started: checked again on the state then (the answers for this plan, the device and the job as planned); what
    // runs is the fresh plan's frozen job with its hold, on a thread the core owns or as a job of the host's agent.
    m_chart->clear();
    m_runDevicePath = QStringLiteral("/dev/") + plan.target;
    m_runJobId
        = plan.request.value(QLatin1String("job")).toObject().value(QLatin1String("id")).toString(CustomTemplateId);
    m_runRecordPath = extras.recordPath;
    m_runLatency = plan.request.contains(QLatin1String("latency"));
    m_runLatencyNoted = false;
    m_startShown = false;
    QString error;
    if (!m_runs->start(plan, answers, extras, &error))
        return setStatus(error);
    // The next Start records to a new file: a name typed here is followed by NAME-2, NAME-3... (empty: the default,
    // a fresh timestamped name every time).
    if (!extras.recordPath.isEmpty() && m_recordPath->text().trimmed() == extras.recordPath)
        m_recordPath->setText(nextFreshFilePath(extras.recordPath));
    setStatus(m_hostName.isEmpty() ? tr("Starting fio...") : tr("Starting fio on %1...").arg(m_hostName));
    updateButtons();
}

void WorkloadPanel::onRunEvent(const QJsonObject &event)
{
    const QString name = event.value(QLatin1String("event")).toString();
    if (name == QLatin1String("started")) {
        const double t = event.value(QLatin1String("t")).toDouble();
        QStringList argv;
        for (const QJsonValue &a : event.value(QLatin1String("argv")).toArray())
            argv << a.toString();
        if (!std::exchange(m_startShown, true)) {
            const QString label = startLabel();
            m_chart->addMarker(t, label);
            if (m_statsView)
                m_statsView->addMarker(t, label, MarkerKind::WorkloadStart);
        }
        // The frozen job's command line (the form may show another one by now).
        log(QStringLiteral("$ ") + event.value(QLatin1String("command")).toString());
        if (!m_runRecordPath.isEmpty())
            log(tr("recording to %1").arg(m_runRecordPath));
        showRecording(m_runRecordPath, true);
        if (m_runLatency && !m_runLatencyNoted) {
            QStringList devices;
            for (const QJsonValue &d : event.value(QLatin1String("devices")).toArray())
                devices << d.toString();
            log(tr("recording the latency histograms of %1 (block-layer probe)")
                    .arg(devices.join(QStringLiteral(", "))));
        }
        setStatus(m_hostName.isEmpty() ? tr("fio running on %1").arg(m_runDevicePath)
                                       : tr("fio running on %1 of %2").arg(m_runDevicePath, m_hostName));
        updateButtons();
        Q_EMIT fioStarted(argv);
    } else if (name == QLatin1String("progress")) {
        QList<FioRates> rates;
        for (const QJsonValue &r : event.value(QLatin1String("rates")).toArray())
            rates.append(fioRatesFromJson(r.toObject()));
        showProgress(event.value(QLatin1String("t")).toDouble(), rates);
    } else if (name == QLatin1String("output")) {
        log(event.value(QLatin1String("line")).toString());
    } else if (name == QLatin1String("recording-failed")) {
        log(tr("recording stopped: %1").arg(event.value(QLatin1String("message")).toString()));
    } else if (name == QLatin1String("note")) {
        m_runLatencyNoted = true;
        log(tr("recording without latency histograms: %1").arg(event.value(QLatin1String("reason")).toString()));
    } else if (name == QLatin1String("job")) { // a run that outlives the window: a job of the host's agent
        const QString job = event.value(QLatin1String("job")).toString();
        if (!event.value(QLatin1String("attached")).toBool()) {
            // Remembered for this host's later windows: offered again if this one is closed before the job ends.
            rememberJob(m_hostName, { job, m_runRecordPath, m_runJob.title, m_runDevice });
            showOffers({});
            log(tr("job %1 on %2 (it goes on if the connection is lost)").arg(job, m_hostName));
        } else {
            const bool first = std::exchange(m_adopting, false);
            log((first ? tr("job %1 on %2: attached") : tr("job %1 on %2: attached again")).arg(job, m_hostName));
            setStatus(
                (first ? tr("fio job %1 on %2 (%3 on %4): attached, its output and then its result come here")
                       : tr("fio job %1 on %2 (%3 on %4): attached again, its output and then its result come here"))
                    .arg(job, m_hostName, m_runJob.title, m_runDevice));
        }
        updateButtons();
    } else if (name == QLatin1String("detached")) {
        const QString message = event.value(QLatin1String("message")).toString();
        setStatus(message);
        log(message);
    }
}

void WorkloadPanel::onRunResult(const OperationResult &result)
{
    if (!result.ok) {
        setStatus(m_hostName.isEmpty() ? tr("fio failed: %1").arg(result.error)
                                       : tr("fio on %1: %2").arg(m_hostName, result.error));
        log(tr("failed: %1").arg(result.error));
        m_right->setCurrentWidget(m_log); // fio's own words on why
        showRecording({}, false);
        updateButtons();
        return;
    }
    QJsonObject summary = result.details;
    summary.remove(QStringLiteral("window_from"));
    summary.remove(QStringLiteral("window_to"));
    summary.remove(QStringLiteral("latency_histograms"));
    const bool stopped = summary.value(QLatin1String("stopped")).toBool();
    const double seconds = summary.value(QLatin1String("seconds")).toDouble();
    const QDateTime started
        = QDateTime::fromString(summary.value(QLatin1String("started")).toString(), Qt::ISODateWithMs);
    const double endedAt = started.isValid() ? double(started.toMSecsSinceEpoch()) / 1000.0 + seconds
                                             : double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    const QString label = stopped ? QStringLiteral("fio stopped") : QStringLiteral("fio end");
    m_chart->addMarker(endedAt, label);
    if (m_statsView)
        m_statsView->addMarker(endedAt, label, MarkerKind::WorkloadStop);
    const QString took = QString::number(seconds, 'f', 1);
    if (m_hostName.isEmpty())
        setStatus((stopped ? tr("Stopped after %1 s") : tr("Done after %1 s")).arg(took));
    else
        setStatus((stopped ? tr("Stopped after %1 s on %2") : tr("Done after %1 s on %2")).arg(took, m_hostName));
    const QString recorded = summary.value(QLatin1String("recording")).toString();
    if (!recorded.isEmpty())
        log(tr("recorded to %1").arg(recorded));
    QList<FioRates> overall;
    for (const QJsonValue &v : summary.value(QLatin1String("fio")).toArray())
        overall.append(fioRatesFromJson(v.toObject()));
    showRunResult(overall, recorded);
    updateButtons();
    Q_EMIT runFinished(summary);
}

void WorkloadPanel::askToReplaceRecording(const QString &path)
{
    auto *box = new QMessageBox(QMessageBox::Question, tr("Replace the recording?"),
        tr("%1 exists. Replace it with this run's recording?").arg(path), QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("replaceRecordingQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *replace = box->addButton(tr("&Replace"), QMessageBox::AcceptRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, box, replace, path] {
        if (box->clickedButton() != replace) {
            setStatus(tr("Not started: %1 exists (give another file to record to)").arg(path));
            return;
        }
        m_replaceAnswered = path;
        start();
    });
    box->open();
}

QString WorkloadPanel::defaultRecordPath(const FioJob &job) const
{
    const QString dir = recordingsDirectory();
    QDir().mkpath(dir);
    return QStringLiteral("%1/%2-%3.dmrec")
        .arg(dir, QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")), job.id);
}

void WorkloadPanel::showOffers(const QList<JobOffer> &offers)
{
    m_offers = offers;
    // deleteLater: this may run inside the click of a button it removes.
    for (QWidget *row : m_offersBox->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
        row->deleteLater();
    const QDateTime now = QDateTime::currentDateTime();
    for (const JobOffer &offer : offers) {
        auto *row = new QWidget(m_offersBox);
        auto *layout = new QHBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        auto *text = new QLabel(jobOfferText(offer, m_hostName, now), row);
        text->setWordWrap(true);
        text->setToolTip(offer.remembered.recordPath.isEmpty()
                ? offer.job.command
                : tr("%1\nrecording to %2 here").arg(offer.job.command, offer.remembered.recordPath));
        layout->addWidget(text, 1);
        if (offer.action != JobOffer::Action::None) {
            auto *button
                = new QPushButton(offer.action == JobOffer::Action::Attach ? tr("Attach") : tr("Fetch result"), row);
            button->setObjectName(QStringLiteral("adopt-") + offer.job.id);
            connect(button, &QPushButton::clicked, this, [this, id = offer.job.id] { adoptJob(id); });
            layout->addWidget(button);
        }
        m_offersBox->layout()->addWidget(row);
    }
    if (auto *form = qobject_cast<QFormLayout *>(m_offersBox->parentWidget()->layout()))
        form->setRowVisible(m_offersBox, !offers.isEmpty());
    updateButtons();
}

void WorkloadPanel::adoptJob(const QString &jobId)
{
    const auto it = std::find_if(m_offers.cbegin(), m_offers.cend(),
        [&](const JobOffer &o) { return o.job.id == jobId && o.action != JobOffer::Action::None; });
    if (it == m_offers.cend() || isRunning() || m_checking)
        return;
    // A copy: showOffers() below replaces the list it points into.
    const JobOffer offer = *it; // NOLINT(performance-unnecessary-copy-initialization)
    // The file chosen when it started, unless something is there now: then a fresh name beside it, said so.
    QString recordPath = offer.remembered.recordPath;
    if (!recordPath.isEmpty()) {
        const QString fresh = unusedFilePath(recordPath);
        if (fresh.isEmpty())
            return setStatus(
                tr("%1 and its numbered neighbours exist: move them to fetch job %2").arg(recordPath, jobId));
        if (fresh != recordPath)
            log(tr("%1 exists here now (not written over): job %2's recording goes to %3")
                    .arg(recordPath, jobId, fresh));
        recordPath = fresh;
    }
    const RunCommandParts parts = runCommandParts(offer.job.command);
    const FioJob *known = fioTemplate(parts.workload);
    m_runJob = known ? *known : FioJob {};
    if (!offer.remembered.title.isEmpty())
        m_runJob.title = offer.remembered.title;
    m_runDevice = offer.remembered.device.isEmpty() ? parts.device : offer.remembered.device;
    QString error;
    if (!m_runs->attach(jobId, recordPath, &error))
        return setStatus(error);
    m_adopting = true;
    m_runDevicePath = QStringLiteral("/dev/") + m_runDevice;
    m_runJobId = m_runJob.id.isEmpty() ? parts.workload : m_runJob.id;
    m_runRecordPath = recordPath;
    m_runLatency = false;
    showOffers({});
    m_chart->clear();
    // Its start as the agent listed it (a job of `dmtunectl run` reports no start event).
    m_startShown = offer.job.started.isValid();
    if (m_startShown)
        m_chart->addMarker(double(offer.job.started.toMSecsSinceEpoch()) / 1000.0, startLabel());
    log(QStringLiteral("$ dmtunectl --host %1 job attach %2   (%3)").arg(m_hostName, jobId, offer.job.command));
    if (!recordPath.isEmpty())
        log(tr("its recording comes to %1").arg(recordPath));
    if (offer.action == JobOffer::Action::Attach) {
        Q_EMIT targetChosen(m_runDevice);
        setStatus(tr("Attaching to fio job %1 on %2...").arg(jobId, m_hostName));
    } else {
        setStatus(tr("Fetching the result of fio job %1 from %2...").arg(jobId, m_hostName));
    }
    updateButtons();
}

void WorkloadPanel::stop()
{
    m_runs->stop();
    setStatus(m_hostName.isEmpty()
            ? tr("Stopping fio (SIGINT; SIGKILL after %1 s)...").arg(FioRun::DefaultGraceMs / 1000)
            : tr("Stopping fio on %1 (SIGINT to its job)...").arg(m_hostName));
}

void WorkloadPanel::showProgress(double epochSeconds, const QList<FioRates> &rates)
{
    // fio's final object comes after the jobs stopped: no I/O time since the last one, nothing to show.
    if (rates.isEmpty() || rates.first().seconds <= 0)
        return;
    m_chart->addRates(epochSeconds, rates);
    m_readout->setText(readoutLine(rates));
    m_readout->setToolTip(m_readout->text());
    Q_EMIT progressShown(epochSeconds);
}

QString WorkloadPanel::readoutLine(const QList<FioRates> &rates)
{
    double iops = 0, bytes = 0;
    for (const FioRates &r : rates) {
        iops += r.iops();
        bytes += r.bytesPerSecond();
    }
    const FioLatency clat = rates.isEmpty() ? FioLatency() : rates.first().clat;
    return tr("IOPS %1   %2 MiB/s   clat p50 %3   p99 %4")
        .arg(rateText(iops), QString::number(bytes / (1024.0 * 1024.0), 'f', 1), latencyText(clat.p50Ns),
            latencyText(clat.p99Ns));
}

void WorkloadPanel::showRunResult(const QList<FioRates> &overall, const QString &recordedTo)
{
    for (const FioRates &r : overall)
        log(tr("%1: read %2 IOPS, write %3 IOPS, %4 MiB/s, clat p50 %5 p99 %6")
                .arg(r.name, rateText(r.readIops), rateText(r.writeIops),
                    QString::number(r.bytesPerSecond() / (1024.0 * 1024.0), 'f', 1), latencyText(r.clat.p50Ns),
                    latencyText(r.clat.p99Ns)));
    // The readout ends on the whole run, as the summary says it, not on fio's last second.
    if (!overall.isEmpty())
        m_readout->setText(readoutLine(overall) + tr("   (whole run)"));
    m_readout->setToolTip(m_readout->text());
    // The summary is what one looks for after a run: in view even when the pane was scrolled up.
    m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
    showRecording(recordedTo, false);
}

void WorkloadPanel::showRecording(const QString &path, bool running)
{
    m_recorded->setVisible(!path.isEmpty());
    if (path.isEmpty())
        return;
    const QString name = QFileInfo(path).fileName();
    m_recorded->setText(running ? tr("recording to %1").arg(name) : tr("recorded to %1").arg(name));
    m_recorded->setToolTip(path);
}

QString WorkloadPanel::recordingText() const
{
    return m_recorded->isHidden() ? QString() : m_recorded->text();
}

void WorkloadPanel::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setToolTip(text);
}

ConfirmWriteDialog *WorkloadPanel::pendingConfirmation() const
{
    return m_confirm;
}

QString WorkloadPanel::statusText() const
{
    return m_status->text();
}

QString WorkloadPanel::readoutText() const
{
    return m_readout->text();
}

void WorkloadPanel::log(const QString &line)
{
    m_log->appendPlainText(line);
}

} // namespace dmtune
