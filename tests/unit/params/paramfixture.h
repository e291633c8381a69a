#pragma once
// The params tests' helpers over tests/common's multipath fixture (buildMultipathFixture: mpatha over sda..sdd).
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>

namespace dmtune::test {

// Every file under the tree with its content: to prove that nothing was written.
inline QByteArray treeDigest(const QString &root)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QStringList files;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    for (const auto &f : files) {
        QFile file(f);
        hash.addData(f.toUtf8());
        if (file.open(QIODevice::ReadOnly))
            hash.addData(file.readAll());
    }
    return hash.result().toHex();
}

} // namespace dmtune::test
