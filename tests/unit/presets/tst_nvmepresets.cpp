// iopolicy in presets by subsystem NQN, on the lab VM's captures (Debian's 6.1, one namespace
// through two NVMe/TCP controllers; tests/unit/discovery/fixtures): a capture puts nvme/iopolicy in a rule of its
// own that matches the subsystem's NQN, that rule selects the namespaces (the head with native multipath, each
// controller's namespace without) and never the hidden paths, apply writes the subsystem's file, and the udev
// export sets it on the nvme-subsystem device the way NVMe vendors' rules do. nvme_core's module default is not
// what the short name "iopolicy" means.
#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/sysfscapture.h"
#include "core/params/catalog.h"
#include "core/presets/presetcapture.h"
#include "core/presets/presetexport.h"
#include "core/presets/presetjson.h"
#include "core/presets/presetmatcher.h"
#include "core/presets/presetresolution.h"
#include "core/sysfs/sysfsroot.h"
#include "tests/common/nvmecaptures.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

const QString nqn = u"nqn.2026-12.org.dmtune.lab:nvme-mpath"_s;

} // namespace

class TestNvmePresets : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void captureCarriesIopolicyByNqn()
    {
        QTemporaryDir dir;
        const SysfsRoot sysfs = sysfsRootForDirectory(test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s));
        const DeviceSnapshot snapshot = test::snapshotOfTree(sysfs);
        QCOMPARE(snapshot.nvmeMultipath.size(), 1);
        QCOMPARE(snapshot.nvmeMultipath.first().subsystem.nqn, nqn);

        // Only iopolicy: one rule, by NQN, nothing by the namespace's WWID.
        const auto only = presetFromDevices(sysfs, snapshot, { u"nvme0n1"_s }, { u"iopolicy"_s }, u"p"_s);
        QVERIFY2(only, qPrintable(only.errorMessage()));
        QCOMPARE(only->rules.size(), 1);
        QCOMPARE(only->rules[0].match.nqn, nqn);
        QVERIFY(only->rules[0].match.wwid.isEmpty());
        QCOMPARE(only->rules[0].settings.size(), 1);
        QCOMPARE(only->rules[0].settings[0].attribute, u"nvme/iopolicy"_s);
        QCOMPARE(only->rules[0].settings[0].value, u"numa"_s);

        // Everything savable: the queue's settings by WWID, iopolicy by NQN, and no module default.
        const auto all = presetFromDevices(sysfs, snapshot, { u"nvme0n1"_s }, {}, u"p"_s);
        QVERIFY2(all, qPrintable(all.errorMessage()));
        QCOMPARE(all->rules.size(), 2);
        const PresetRule &byNqn = all->rules[0];
        const PresetRule &byWwid = all->rules[1];
        QCOMPARE(byNqn.match.nqn, nqn);
        QCOMPARE(byNqn.settings.size(), 1);
        QVERIFY(!byWwid.match.wwid.isEmpty());
        for (const Assignment &a : byWwid.settings) {
            QVERIFY2(a.attribute != u"nvme/iopolicy"_s, qPrintable(a.attribute));
            QVERIFY2(!a.attribute.startsWith(u"module/"_s), qPrintable(a.attribute));
        }

        // The NQN survives the file.
        const auto reread = parsePreset(presetToJson(*all));
        QVERIFY2(reread, qPrintable(reread.errorMessage()));
        QCOMPARE(*reread, *all);
        QVERIFY(presetToJson(*all).contains("\"nqn\": \"nqn.2026-12.org.dmtune.lab:nvme-mpath\""));
    }

    void nqnSelectsNamespacesNotPaths_data()
    {
        QTest::addColumn<QString>("capture");
        QTest::addColumn<QString>("glob");
        QTest::addColumn<QStringList>("devices");
        const QStringList head { u"nvme0n1"_s };
        QTest::newRow("native: the head") << u"nvme-6.1-native-optimized"_s << nqn << head;
        QTest::newRow("native: a glob") << u"nvme-6.1-native-optimized"_s << u"nqn.2026-12.org.dmtune.lab:*"_s << head;
        QTest::newRow("multipath=N: each controller's namespace")
            << u"nvme-6.1-multipath-N"_s << nqn << QStringList { u"nvme0n1"_s, u"nvme1n1"_s };
        QTest::newRow("another subsystem")
            << u"nvme-6.1-native-optimized"_s << u"nqn.2014-08.org.other:*"_s << QStringList();
    }
    void nqnSelectsNamespacesNotPaths()
    {
        QFETCH(QString, capture);
        QFETCH(QString, glob);
        QFETCH(QStringList, devices);
        QTemporaryDir dir;
        const SysfsRoot sysfs = sysfsRootForDirectory(test::unpackNvmeCapture(dir, capture));
        PresetMatch match;
        match.nqn = glob;
        QCOMPARE(matchDevices(test::snapshotOfTree(sysfs), match), devices);
    }

    void applyWritesTheSubsystemsIopolicy()
    {
        QTemporaryDir dir;
        const SysfsRoot sysfs = sysfsRootForDirectory(test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s));
        const auto preset = parsePreset(R"({"schema": 1, "name": "rr", "rules": [
            {"match": {"nqn": "nqn.2026-12.org.dmtune.lab:nvme-mpath"}, "settings": {"iopolicy": "round-robin"}}]})");
        QVERIFY2(preset, qPrintable(preset.errorMessage()));
        const PresetResolution r = resolvePreset(sysfs, test::snapshotOfTree(sysfs), *preset);
        QCOMPARE(r.items.size(), 1);
        QCOMPARE(r.items[0].device, u"nvme0n1"_s);
        QCOMPARE(r.items[0].attribute, u"nvme/iopolicy"_s);
        QCOMPARE(r.items[0].current, u"numa"_s);
        QCOMPARE(r.items[0].state, PresetItemState::Differs);
        QVERIFY(r.unmatched.isEmpty());
    }

    void exports()
    {
        Preset p;
        p.name = u"rr"_s;
        PresetRule rule;
        rule.match.nqn = nqn;
        rule.settings << Assignment { u"nvme/iopolicy"_s, u"round-robin"_s };
        p.rules << rule;
        const PresetExport udev = exportUdevRules(p);
        QCOMPARE(udev.expressed, 1);
        QVERIFY2(udev.text.contains(
                     u"ACTION==\"add|change\", SUBSYSTEM==\"nvme-subsystem\", "
                     "ATTR{subsysnqn}==\"nqn.2026-12.org.dmtune.lab:nvme-mpath\", ATTR{iopolicy}=\"round-robin\"\n"_s),
            qPrintable(udev.text));
        QVERIFY(udev.unexpressed.isEmpty());
        // tuned and multipath.conf have no way to select an NVMe subsystem: said, not written.
        const PresetExport tuned = exportTunedProfile(p);
        QCOMPARE(tuned.expressed, 0);
        QVERIFY2(tuned.unexpressed.join(u'\n').contains(u"NQN"_s), qPrintable(tuned.unexpressed.join(u'\n')));
        // iopolicy on a rule that also matches by WWID cannot be a subsystem line.
        p.rules[0].match.wwid = u"uuid.*"_s;
        const PresetExport mixed = exportUdevRules(p);
        QCOMPARE(mixed.expressed, 0);
        QVERIFY(mixed.unexpressed.join(u'\n').contains(u"a subsystem attribute"_s));
    }

    void moduleDefaultTakesItsLongerName()
    {
        QCOMPARE(catalog::resolve(u"iopolicy"_s).value(), u"nvme/iopolicy"_s);
        QCOMPARE(catalog::resolve(u"nvme_core/iopolicy"_s).value(), u"module/nvme_core/iopolicy"_s);
        const TunableDef *def = catalog::find(u"module/nvme_core/iopolicy"_s);
        QVERIFY(def);
        QCOMPARE(def->location, TunableLocation::Module);
        QCOMPARE(def->module, u"nvme_core"_s);
    }
};

QTEST_GUILESS_MAIN(TestNvmePresets)
#include "tst_nvmepresets.moc"
