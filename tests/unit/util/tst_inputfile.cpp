// readInputFile: every file dmtune reads that someone else made is a regular file under a cap. Anything else
// (a device, /dev/zero, a FIFO, a directory, a file over the cap, a missing path) is one line naming the path,
// at once: the FIFO is opened without waiting for a writer, /dev/zero is never read.
#include "core/util/inputfile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace dmtune;

class TestInputFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void reads_data();
    void reads();
    void capNamesTheKind();
    void byteSizes_data();
    void byteSizes();

private:
    QTemporaryDir m_dir;
};

void TestInputFile::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const auto write = [this](const QString &name, const QByteArray &bytes) {
        QFile f(m_dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
    };
    write(QStringLiteral("preset.json"), "{\"name\": \"x\"}\n");
    write(QStringLiteral("empty"), {});
    write(QStringLiteral("at-cap"), QByteArray(1024, 'a'));
    write(QStringLiteral("over-cap"), QByteArray(1025, 'a'));
    QVERIFY(::mkfifo(QFile::encodeName(m_dir.filePath(QStringLiteral("fifo"))).constData(), 0600) == 0);
    QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("dir")));
    QVERIFY(QFile::link(QStringLiteral("/dev/zero"), m_dir.filePath(QStringLiteral("zero-link"))));
    QVERIFY(QFile::link(m_dir.filePath(QStringLiteral("preset.json")), m_dir.filePath(QStringLiteral("file-link"))));
}

void TestInputFile::reads_data()
{
    QTest::addColumn<QString>("name"); // in the temporary directory, or absolute
    QTest::addColumn<QByteArray>("content"); // what is read; empty with an error
    QTest::addColumn<QString>("error"); // the line after "PATH: "; empty when it reads

    QTest::newRow("regular") << "preset.json" << QByteArray("{\"name\": \"x\"}\n") << QString();
    QTest::newRow("empty") << "empty" << QByteArray() << QString();
    QTest::newRow("at the cap") << "at-cap" << QByteArray(1024, 'a') << QString();
    QTest::newRow("a link to a file") << "file-link" << QByteArray("{\"name\": \"x\"}\n") << QString();
    QTest::newRow("over the cap") << "over-cap" << QByteArray()
                                  << "1.0 KiB, more than the 1 KiB a preset may have"; // 1025 bytes
    QTest::newRow("/dev/zero") << "/dev/zero" << QByteArray()
                               << "not a regular file (a character device); a preset must be one";
    QTest::newRow("a link to /dev/zero") << "zero-link" << QByteArray()
                                         << "not a regular file (a character device); a preset must be one";
    QTest::newRow("FIFO") << "fifo" << QByteArray() << "not a regular file (a FIFO); a preset must be one";
    QTest::newRow("directory") << "dir" << QByteArray() << "not a regular file (a directory); a preset must be one";
    QTest::newRow("missing") << "missing.json" << QByteArray() << "No such file or directory";
}

void TestInputFile::reads()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, error);
    const QString path = name.startsWith(u'/') ? name : m_dir.filePath(name);
    QElapsedTimer took;
    took.start();
    const auto read = readInputFile(path, 1024, QStringLiteral("a preset"));
    QVERIFY(took.elapsed() < 5000); // a FIFO without a writer does not block, /dev/zero is not read
    if (error.isEmpty()) {
        QVERIFY2(read.ok(), qPrintable(read.errorMessage()));
        QCOMPARE(read.value(), content);
        return;
    }
    QVERIFY(!read.ok());
    QCOMPARE(read.errorMessage(), path + QStringLiteral(": ") + error);
    QVERIFY(!read.errorMessage().contains(u'\n'));
}

void TestInputFile::capNamesTheKind()
{
    const auto read = readInputFile(m_dir.filePath(QStringLiteral("over-cap")), 100, QStringLiteral("a hosts file"));
    QVERIFY(!read.ok());
    QVERIFY2(read.errorMessage().endsWith(QStringLiteral("more than the 100 bytes a hosts file may have")),
        qPrintable(read.errorMessage()));
}

void TestInputFile::byteSizes_data()
{
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("bytes") << qint64(100) << "100 bytes";
    QTest::newRow("KiB") << qint64(1024) << "1 KiB";
    QTest::newRow("MiB") << TextInputCap << "4 MiB";
    QTest::newRow("GiB") << RecordingInputCap << "1 GiB";
    QTest::newRow("fraction") << qint64(1536) * 1024 * 1024 << "1.5 GiB";
}

void TestInputFile::byteSizes()
{
    QFETCH(qint64, bytes);
    QFETCH(QString, text);
    QCOMPARE(byteSizeText(bytes), text);
}

QTEST_GUILESS_MAIN(TestInputFile)
#include "tst_inputfile.moc"
