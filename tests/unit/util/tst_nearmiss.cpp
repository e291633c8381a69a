// editDistance and nearestName: what "did you mean" suggests for a typed name.
#include "core/util/nearmiss.h"

#include <QTest>

using namespace dmtune;

class TestNearMiss : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void distances_data();
    void distances();
    void nearest_data();
    void nearest();
};

void TestNearMiss::distances_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("distance");
    const auto row = [](const char *a, const char *b, int d) {
        QTest::addRow("%s/%s", a, b) << QString::fromLatin1(a) << QString::fromLatin1(b) << d;
    };
    row("", "", 0);
    row("", "abc", 3);
    row("abc", "", 3);
    row("list", "list", 0);
    row("lsit", "list", 1); // one swap
    row("lits", "list", 1);
    row("slit", "list", 2);
    row("lst", "list", 1); // one deletion
    row("lisst", "list", 1); // one insertion
    row("lost", "list", 1); // one substitution
    row("queue/nomerge", "queue/nomerges", 1);
    row("ca", "abc", 3); // optimal string alignment: no edit of a swapped pair
    row("kitten", "sitting", 3);
    row("List", "list", 1); // case counts
}

void TestNearMiss::distances()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, distance);
    QCOMPARE(editDistance(a, b), distance);
    QCOMPARE(editDistance(b, a), distance);
}

void TestNearMiss::nearest_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QString>("nearest");
    const QStringList commands { QStringLiteral("list"), QStringLiteral("stat"), QStringLiteral("get"),
        QStringLiteral("set"), QStringLiteral("map"), QStringLiteral("path"), QStringLiteral("run"),
        QStringLiteral("report"), QStringLiteral("record") };
    QTest::newRow("lsit") << QStringLiteral("lsit") << commands << QStringLiteral("list");
    QTest::newRow("stta") << QStringLiteral("stta") << commands << QStringLiteral("stat");
    QTest::newRow("reprot") << QStringLiteral("reprot") << commands << QStringLiteral("report");
    QTest::newRow("exact: nothing") << QStringLiteral("list") << commands << QString();
    QTest::newRow("gte: one swap from get, two from set") << QStringLiteral("gte") << commands << QStringLiteral("get");
    QTest::newRow("tie: xet is one from get and set") << QStringLiteral("xet") << commands << QString();
    QTest::newRow("far: bogus") << QStringLiteral("bogus") << commands << QString();
    QTest::newRow("short: x suggests nothing") << QStringLiteral("x") << commands << QString();
    QTest::newRow("short: ap is two from map and path, too short anyway")
        << QStringLiteral("ap") << commands << QString();
    QTest::newRow("recrod") << QStringLiteral("recrod") << commands << QStringLiteral("record");
    QTest::newRow("empty") << QString() << commands << QString();
    const QStringList attributes { QStringLiteral("queue/nomerges"), QStringLiteral("queue/nr_requests"),
        QStringLiteral("queue/scheduler") };
    QTest::newRow("queue/nomerge") << QStringLiteral("queue/nomerge") << attributes << QStringLiteral("queue/nomerges");
    QTest::newRow("queue/nr_request") << QStringLiteral("queue/nr_request") << attributes
                                      << QStringLiteral("queue/nr_requests");
    QTest::newRow("queue/bogus") << QStringLiteral("queue/bogus") << attributes << QString();
}

void TestNearMiss::nearest()
{
    QFETCH(QString, typed);
    QFETCH(QStringList, names);
    QFETCH(QString, nearest);
    QCOMPARE(nearestName(typed, names), nearest);
    QCOMPARE(
        didYouMean(typed, names), nearest.isEmpty() ? QString() : QStringLiteral(" (did you mean %1?)").arg(nearest));
}

QTEST_APPLESS_MAIN(TestNearMiss)
#include "tst_nearmiss.moc"
