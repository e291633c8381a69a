// The pure parts of remote hosts: [user@]host[:port], the agent's hello and lines, the near side's files of a
// command line, a workload.start request that carries its job file's content.
#include "core/ops/operationregistry.h"
#include "core/ops/workloadoperations.h"
#include "core/remote/agentprotocol.h"
#include "core/remote/hostaddress.h"
#include "core/remote/nearsidefiles.h"
#include "core/remote/remotemapstream.h"

#include "core/dm/multipathchange.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

namespace {
QString S(const char *text)
{
    return QString::fromUtf8(text);
}
QStringList L(std::initializer_list<const char *> items)
{
    QStringList list;
    for (const char *item : items)
        list << QString::fromUtf8(item);
    return list;
}
} // namespace

class TestRemoteParsers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hostAddress_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("host") << S("db1") << true << S("") << S("db1") << 0;
        QTest::newRow("user@host:port") << S("root@db1.example.com:2222") << true << S("root") << S("db1.example.com")
                                        << 2222;
        QTest::newRow("ipv4") << S("127.0.0.1:22") << true << S("") << S("127.0.0.1") << 22;
        QTest::newRow("ipv6 in brackets") << S("admin@[::1]:2200") << true << S("admin") << S("::1") << 2200;
        QTest::newRow("ipv6 without brackets") << S("::1") << false << S("") << S("") << 0;
        QTest::newRow("an ssh option") << S("-oProxyCommand=x") << false << S("") << S("") << 0;
        QTest::newRow("user an option") << S("-l@db1") << false << S("") << S("") << 0;
        QTest::newRow("port 0") << S("db1:0") << false << S("") << S("") << 0;
        QTest::newRow("port too big") << S("db1:65536") << false << S("") << S("") << 0;
        QTest::newRow("port not a number") << S("db1:ssh") << false << S("") << S("") << 0;
        QTest::newRow("empty") << S("") << false << S("") << S("") << 0;
        QTest::newRow("shell characters") << S("db1;reboot") << false << S("") << S("") << 0;
    }
    void hostAddress()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        const Result<HostAddress> a = parseHostAddress(text);
        QCOMPARE(bool(a), ok);
        if (!ok) {
            QVERIFY(a.errorMessage().contains(QLatin1String("[user@]host[:port]")));
            return;
        }
        QTEST(a->user, "user");
        QTEST(a->host, "host");
        QTEST(a->port, "port");
        QCOMPARE(parseHostAddress(a->display())->display(), a->display());
    }

    void sshArgumentsEndTheOptions()
    {
        const HostAddress a = *parseHostAddress(QStringLiteral("root@db1:2222"));
        const QStringList args = sshArguments(a, SshSettings {});
        QVERIFY(args.contains(QLatin1String("BatchMode=yes")));
        QVERIFY(args.contains(QLatin1String("Compression=no")));
        const int dashes = int(args.indexOf(QLatin1String("--")));
        QVERIFY(dashes > 0);
        QCOMPARE(args.at(dashes + 1), QStringLiteral("db1"));
        QVERIFY(args.last().contains(QLatin1String("'dmtunectl' agent")));
        QVERIFY(args.last().contains(QLatin1String("sudo -n")));
    }

    void startProblems_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("stderrText");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<ErrorCode>("code");
        QTest::newRow("not installed") << 127 << QString::fromLatin1(RemoteMissingMarker) << S("install dmtune there")
                                       << ErrorCode::HostSetup;
        QTest::newRow("no sudo") << 126 << QString::fromLatin1(RemoteNoSudoMarker) << S("NOPASSWD")
                                 << ErrorCode::NeedsPassword;
        QTest::newRow("host key")
            << 255 << S("No ED25519 host key is known for [127.0.0.1]:2222.\nHost key verification failed.\n")
            << S("ssh to db1 failed: Host key verification failed.") << ErrorCode::HostSetup;
        QTest::newRow("login refused") << 255 << S("admin@db1: Permission denied (publickey).\n")
                                       << S("Permission denied") << ErrorCode::HostSetup;
        QTest::newRow("refused") << 255 << S("ssh: connect to host db1 port 22: Connection refused\n")
                                 << S("Connection refused") << ErrorCode::HostUnreachable;
        QTest::newRow("no route") << 255 << S("ssh: connect to host db1 port 22: No route to host\n")
                                  << S("No route to host") << ErrorCode::HostUnreachable;
        QTest::newRow("name") << 255 << S("ssh: Could not resolve hostname db1: Temporary failure in name resolution\n")
                              << S("name resolution") << ErrorCode::HostUnreachable;
    }
    void startProblems()
    {
        QFETCH(int, status);
        QFETCH(QString, stderrText);
        QFETCH(QString, expected);
        QFETCH(ErrorCode, code);
        const Status problem
            = remoteStartProblem(*parseHostAddress(QStringLiteral("db1")), SshSettings {}, status, stderrText);
        QVERIFY(!problem);
        QCOMPARE(problem.errorCode(), code);
        const QString line = problem.errorMessage();
        QVERIFY2(line.contains(expected), qPrintable(line));
        QVERIFY(!line.contains(QLatin1Char('\n')));
    }

    // The agent's "map" report: what it sends (dmsetup's lines of the lab's 2 x 2 round-robin map, captured in the
    // lab VM: tests/unit/dm/fixtures) is read back here into the same state, and the multipath parser reads that.
    void mapReportRoundTrip()
    {
        MapStateReport report;
        report.name = S("mpatha");
        report.info = { true, false, false, true, false, 1, 7, 253, 0, 1, S("mpath-1Linux_scsi_debug_2000") };
        const auto table = parseTargetLines(S("0 131072 multipath 0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin "
                                              "0 2 1 8:32 1 8:48 1 \n"));
        const auto status = parseTargetLines(
            S("0 131072 multipath 2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 F 1 \n"));
        QVERIFY(table && status);
        report.table = table.value();
        report.status = status.value();
        // Through JSON text, as the line travels.
        const QJsonObject sent = QJsonDocument::fromJson(QJsonDocument(mapStateReportJson(report)).toJson()).object();
        const Result<MapStateReport> read = parseMapStateReport(sent);
        QVERIFY2(read, qPrintable(read.errorMessage()));
        QCOMPARE(read->name, report.name);
        QCOMPARE(read->info, report.info);
        QCOMPARE(read->table, report.table);
        QCOMPARE(read->status, report.status);
        const std::shared_ptr<DeviceMapper> reader = reportedMapReader(read.value());
        const Result<MultipathMapState> state = readMultipathMapState(*reader, S("mpatha"));
        QVERIFY2(state, qPrintable(state.errorMessage()));
        QCOMPARE(state->table.groups.size(), 2);
        QCOMPARE(state->status.groups.size(), 2);
        QCOMPARE(state->status.groups.at(1).paths.at(1).device, S("8:48"));
        QVERIFY(!state->status.groups.at(1).paths.at(1).active); // F: failed, once
        QVERIFY(!reader->info(S("mpathb"))->exists); // only the reported map
        QVERIFY(!reader->message(S("mpatha"), S("fail_path 8:0"))); // read-only
    }

    void badMapReports_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error");
        const QString info = S(R"("info":{"exists":true,"suspended":false,"read_only":false,"live_table":true,)"
                               R"("inactive_table":false,"open_count":0,"event_nr":3,"major":253,"minor":0,)"
                               R"("target_count":1,"uuid":""})");
        const QString lines = S(R"("table":["0 8 multipath 0 0 0 0"],"status":["0 8 multipath 2 0 0 0 0 0"])");
        QTest::newRow("a path for a name")
            << (S(R"({"name":"../x",)") + info + u',' + lines + u'}') << S("a map report: invalid map name");
        QTest::newRow("no info") << (S(R"({"name":"m",)") + lines + u'}') << S("m: a report without \"info\"");
        QTest::newRow("an event number below zero") << (S(R"({"name":"m",)")
            + QString(info).replace(S("\"event_nr\":3"), S("\"event_nr\":-1")) + u',' + lines + u'}')
                                                    << S("m: a report whose \"info\" is malformed");
        QTest::newRow("a flag as text") << (S(R"({"name":"m",)")
            + QString(info).replace(S("\"exists\":true"), S("\"exists\":\"yes\"")) + u',' + lines + u'}')
                                        << S("m: a report whose \"info\" is malformed");
        QTest::newRow("no status") << (S(R"({"name":"m",)") + info + S(R"(,"table":[]})"))
                                   << S("m: status: not an array of target lines");
        QTest::newRow("a line that is not dmsetup's")
            << (S(R"({"name":"m",)") + info + S(R"(,"table":["zero 8 multipath"],"status":[]})")) << S("m: table[0]: ");
    }
    void badMapReports()
    {
        QFETCH(QString, json);
        QFETCH(QString, error);
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(json.toUtf8(), &parseError);
        QVERIFY2(document.isObject(), qPrintable(parseError.errorString()));
        const Result<MapStateReport> read = parseMapStateReport(document.object());
        QVERIFY(!read);
        QVERIFY2(read.errorMessage().startsWith(error), qPrintable(read.errorMessage()));
    }

    void hello_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("compatible");
        QTest::newRow("ours") << encodeAgentMessage(agentHello()) << true;
        QTest::newRow("a newer minor") << QByteArray(R"({"type":"hello","protocol":"1.7","dmtune":"0.9"})") << true;
        QTest::newRow("another major") << QByteArray(R"({"type":"hello","protocol":"2.0","dmtune":"2.1"})") << false;
        QTest::newRow("no version") << QByteArray(R"({"type":"hello"})") << false;
        QTest::newRow("not a hello") << QByteArray(R"({"type":"output","id":1})") << false;
    }
    void hello()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, compatible);
        const Result<QJsonObject> m = decodeAgentMessage(line);
        QVERIFY(m);
        const Status problem = agentHelloProblem(*m, QStringLiteral("the agent on db1"));
        QCOMPARE(problem.ok(), compatible);
        if (!compatible) {
            QVERIFY(problem.errorMessage().startsWith(QLatin1String("the agent on db1")));
            QCOMPARE(problem.errorCode(), ErrorCode::HostSetup);
        }
    }

    void badLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("empty") << QByteArray("\n");
        QTest::newRow("not json") << QByteArray("Welcome to db1\n");
        QTest::newRow("an array") << QByteArray("[1,2]\n");
        QTest::newRow("no type") << QByteArray(R"({"id":1})");
    }
    void badLines()
    {
        QFETCH(QByteArray, line);
        QVERIFY(!decodeAgentMessage(line));
    }

    void nearSideFiles_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("expected"); // index:path:in|out|dir|name, comma-separated
        QTest::newRow("list has none") << L({ "list", "--json" }) << S("");
        QTest::newRow("preset verify") << L({ "preset", "verify", "p.json" }) << S("2:p.json:name");
        QTest::newRow("preset save") << L({ "preset", "save", "--name", "x", "out.json", "sdb" })
                                     << S("4:out.json:out");
        QTest::newRow("preset diff") << L({ "preset", "diff", "a.json", "b.json" }) << S("2:a.json:name,3:b.json:name");
        QTest::newRow("preset export -o") << L({ "preset", "export", "p.json", "--format", "udev", "-o", "r.rules" })
                                          << S("6:r.rules:out,2:p.json:name");
        QTest::newRow("run job and record")
            << L({ "run", "--job", "j.fio", "--device", "sdb", "--record=r.rec" }) << S("2:j.fio:in,5:r.rec:out");
        QTest::newRow("sweep job files") << L({ "sweep", "mpatha", "--param", "queue_depth=2,8", "--job", "a.fio",
            "--job=b.fio", "--record-dir", "recs" })
                                         << S("5:a.fio:in,6:b.fio:in");
        QTest::newRow("sweep values not files")
            << L({ "sweep", "mpatha", "--param", "x.fio", "--settle", "j.fio", "seq-write-4k-64jobs" }) << S("");
        QTest::newRow("run value not a file") << L({ "run", "randread", "--device", "record.rec" }) << S("");
        QTest::newRow("capture") << L({ "capture", "--json", "cap" }) << S("2:cap:dir");
        QTest::newRow("record show") << L({ "record", "show", "a.rec" }) << S("2:a.rec:in");
        QTest::newRow("report") << L({ "report", "a.rec", "b.rec", "--out", "r.pdf" })
                                << S("4:r.pdf:out,1:a.rec:in,2:b.rec:in");
        QTest::newRow("report of a sweep") << L({ "report", "--sweep", "recs", "-o", "r.html" }) << S("4:r.html:out");
        QTest::newRow("diagnose a recording")
            << L({ "diagnose", "mpatha", "--recording", "r.dmrec", "-i", "x.dmrec" }) << S("3:r.dmrec:in");
        QTest::newRow("diagnose a recording, =") << L({ "diagnose", "--recording=r.dmrec" }) << S("1:r.dmrec:in");
        QTest::newRow("stdout is no file") << L({ "preset", "export", "p.json", "-o", "-" }) << S("2:p.json:name");
    }
    void nearSideFiles()
    {
        QFETCH(QStringList, argv);
        QStringList got;
        for (const NearSideFile &f : dmtune::nearSideFiles(argv)) {
            const QString kind = f.directory ? QStringLiteral("dir")
                : f.output                   ? QStringLiteral("out")
                : f.nameOrFile               ? QStringLiteral("name")
                                             : QStringLiteral("in");
            got << QStringLiteral("%1:%2:%3").arg(f.index).arg(f.path, kind);
            QCOMPARE(f.prefix + f.path, argv.at(f.index));
        }
        QTEST(got.join(QLatin1Char(',')), "expected");
    }

    void sentJobFile_data()
    {
        QTest::addColumn<QJsonObject>("job");
        QTest::addColumn<QString>("error"); // empty: read
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("fileName");
        const QByteArray text = "[merge]\nfilename=${DMTUNE_DEVICE}\nrw=write\n";
        const QString data = QString::fromLatin1(text.toBase64());
        const auto job = [](std::initializer_list<std::pair<const char *, QJsonValue>> fields) {
            QJsonObject o { { QStringLiteral("id"), QStringLiteral("custom") } };
            for (const auto &[k, v] : fields)
                o.insert(QLatin1String(k), v);
            return o;
        };
        QTest::newRow("content and its name")
            << job({ { "job_file_data", data }, { "job_file_name", S("/home/me/jobs/merge.fio") } }) << S("") << text
            << S("merge.fio");
        QTest::newRow("no name") << job({ { "job_file_data", data } }) << S("") << text << S("job.fio");
        QTest::newRow("a name that is a directory")
            << job({ { "job_file_data", data }, { "job_file_name", S("..") } }) << S("") << text << S("job.fio");
        QTest::newRow("a name ending in a slash")
            << job({ { "job_file_data", data }, { "job_file_name", S("jobs/") } }) << S("") << text << S("job.fio");
        QTest::newRow("empty content") << job({ { "job_file_data", S("") }, { "job_file_name", S("e.fio") } }) << S("")
                                       << QByteArray() << S("e.fio");
        const QByteArray largest(MaxJobFileBytes, ';');
        QTest::newRow("1 MiB") << job({ { "job_file_data", QString::fromLatin1(largest.toBase64()) } }) << S("")
                               << largest << S("job.fio");
        QTest::newRow("a path and content") << job({ { "job_file", S("/etc/x.fio") }, { "job_file_data", data } })
                                            << S("workload.start: a job file as a path here (\"job_file\") and as "
                                                 "content (\"job_file_data\"): send one")
                                            << QByteArray() << S("");
        QTest::newRow("1 MiB and one byte")
            << job({ { "job_file_data", QString::fromLatin1(QByteArray(MaxJobFileBytes + 1, ';').toBase64()) } })
            << S("workload.start: the job file is larger than 1024 KiB") << QByteArray() << S("");
        QTest::newRow("far too large") << job({ { "job_file_data", QString(8 << 20, QLatin1Char('A')) } })
                                       << S("workload.start: the job file is larger than 1024 KiB or not text")
                                       << QByteArray() << S("");
        QTest::newRow("not text") << job({ { "job_file_data", 42 } })
                                  << S("workload.start: the job file is larger than 1024 KiB or not text")
                                  << QByteArray() << S("");
        QTest::newRow("not base64") << job({ { "job_file_data", S("[merge]\nrw=write") } })
                                    << S("workload.start: \"job_file_data\" is not base64") << QByteArray() << S("");
    }
    void sentJobFile()
    {
        QFETCH(QJsonObject, job);
        QFETCH(QString, error);
        const QJsonObject request { { QStringLiteral("device"), S("loop3") }, { QStringLiteral("job"), job } };
        const auto sent = sentJobFileOf(request);
        QCOMPARE(sent.errorMessage(), error);
        if (!error.isEmpty())
            return;
        QVERIFY(sent->has_value());
        QTEST((*sent)->content, "content");
        QTEST((*sent)->fileName, "fileName");
    }

    // The near side's request and the agent's rewrite of it: the bytes through, the path of the copy in, the title
    // the near side's name; a request without content is left to the plan as it is.
    void jobFileContentRequestIsRewrittenToTheCopy()
    {
        FioJob job;
        job.id = QStringLiteral("custom");
        job.jobFile = QStringLiteral("/home/me/jobs/merge.fio");
        job.title = job.jobFile;
        const QByteArray text = "[merge]\nfilename=${DMTUNE_DEVICE}\n";
        const QJsonObject request = workloadRequestWithContent(job, S("loop3"), text);
        QCOMPARE(request.value(QLatin1String("device")).toString(), S("loop3"));
        QVERIFY(!request.value(QLatin1String("job")).toObject().contains(QLatin1String("job_file")));
        const auto sent = sentJobFileOf(request);
        QVERIFY(sent && sent->has_value());
        QCOMPARE((*sent)->content, text);
        QCOMPARE((*sent)->fileName, S("merge.fio"));
        const QJsonObject planned = withJobFileAt(request, S("/tmp/dmtune-agent-plan-abc123/merge.fio"))
                                        .value(QLatin1String("job"))
                                        .toObject();
        QCOMPARE(planned.value(QLatin1String("job_file")).toString(), S("/tmp/dmtune-agent-plan-abc123/merge.fio"));
        QCOMPARE(planned.value(QLatin1String("title")).toString(), job.jobFile);
        QVERIFY(!planned.contains(QLatin1String("job_file_data")));
        QVERIFY(!planned.contains(QLatin1String("job_file_name")));
        const auto none = sentJobFileOf(workloadRequest(job, S("loop3")));
        QVERIFY(none && !none->has_value());
    }

    // A plan here (no agent) never takes content: it would write a file it was sent. Its job file is a path.
    void aLocalPlanRefusesJobFileContent()
    {
        registerBuiltinOperations();
        QTemporaryDir empty; // a tree without devices: the request is refused before anything is looked at
        OperationEnvironment env;
        env.sysfs = SysfsRoot(empty.path(), QString());
        FioJob job;
        job.id = QStringLiteral("custom");
        job.jobFile = QStringLiteral("/home/me/merge.fio");
        const auto plan = planOperation(env, QString::fromLatin1(WorkloadStartKind),
            workloadRequestWithContent(job, S("loop3"), "[merge]\nfilename=${DMTUNE_DEVICE}\n"));
        QVERIFY(!plan);
        QVERIFY2(
            plan.errorMessage().contains(QLatin1String("\"job_file_data\" is taken by a remote host's agent only")),
            qPrintable(plan.errorMessage()));
    }
};

QTEST_GUILESS_MAIN(TestRemoteParsers)
#include "tst_remoteparsers.moc"
