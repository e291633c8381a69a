// Themes, offscreen, under Fusion's light palette and a dark Fusion palette: every message colour
// the GUI uses (banners, error and warning text on windows and in views, the rich-text spans of the Tune tab and the
// preset editor, the path group editor's banner style sheet) reaches WCAG AA contrast (4.5:1) with the background it
// is drawn on, measured from the palette roles the widgets use and, for the banner, from the pixels painted. A palette
// switched while a banner and an error label are shown recolours them. Screenshots of the main window under both
// palettes at 1400x900 are saved in the build directory (tst_messagestyle_light.png, tst_messagestyle_dark.png).
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"
#include "tests/common/testpaths.h"

#include "app/dmtune/mainwindow.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/charts/statsexportdialog.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/messagebanner.h"
#include "widgets/messagestyle.h"
#include "widgets/params/applyresulttext.h"
#include "widgets/params/changepreviewmodel.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"
#include "widgets/remote/connectdialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

#include <memory>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

QPalette lightPalette()
{
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    return fusion->standardPalette();
}

// The usual dark Fusion palette (as KDE's Breeze Dark and most "dark Fusion" recipes have it).
QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x35, 0x35, 0x35), base(0x2a, 0x2a, 0x2a), text(0xee, 0xee, 0xee), grey(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x42, 0x42, 0x42));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, grey);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Light, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x45, 0x45, 0x45));
    p.setColor(QPalette::Mid, QColor(0x2a, 0x2a, 0x2a));
    p.setColor(QPalette::Dark, QColor(0x23, 0x23, 0x23));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Link, QColor(0x2a, 0x82, 0xda));
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::Disabled, QPalette::Text, grey);
    p.setColor(QPalette::Disabled, QPalette::WindowText, grey);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, grey);
    return p;
}

QPalette paletteNamed(const QString &name)
{
    return name == QLatin1String("dark") ? darkPalette() : lightPalette();
}

// The colour of the first style="color:#rrggbb" in rich text.
QColor htmlTextColor(const QString &html)
{
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("color:\\s*(#[0-9a-fA-F]{6})")).match(html);
    return m.hasMatch() ? QColor(m.captured(1)) : QColor();
}

QColor styleSheetColor(const QString &sheet, const QString &property)
{
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("(?:^|[ ;{])%1:\\s*(#[0-9a-fA-F]{6})").arg(property)).match(sheet);
    return m.hasMatch() ? QColor(m.captured(1)) : QColor();
}

QString describe(const QColor &a, const QColor &b)
{
    return QStringLiteral("%1 on %2: %3:1").arg(a.name(), b.name()).arg(messagestyle::contrastRatio(a, b), 0, 'f', 2);
}

const QList<MessageTone> tones { MessageTone::Positive, MessageTone::Information, MessageTone::Warning,
    MessageTone::Error };

} // namespace

class TestMessageStyle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setStyle(QStringLiteral("Fusion"));
    }
    void cleanup() { QApplication::setPalette(lightPalette()); }

    void contrastRatioIsWcags()
    {
        QCOMPARE(messagestyle::contrastRatio(Qt::black, Qt::white), 21.0);
        QCOMPARE(messagestyle::contrastRatio(Qt::white, Qt::white), 1.0);
        // WCAG's own example values: #767676 on white is the lightest grey that passes AA (4.54:1).
        QVERIFY(qAbs(messagestyle::contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white) - 4.54) < 0.01);
        // The old hard-coded red on a dark window failed: the reason for this item.
        QVERIFY(messagestyle::contrastRatio(QColor(0xc6, 0x28, 0x28), QColor(0x35, 0x35, 0x35)) < 3.0);
    }

    void textColoursReadOnBothPalettes_data()
    {
        QTest::addColumn<QString>("palette");
        QTest::newRow("light") << QStringLiteral("light");
        QTest::newRow("dark") << QStringLiteral("dark");
    }
    void textColoursReadOnBothPalettes()
    {
        QFETCH(QString, palette);
        const QPalette pal = paletteNamed(palette);
        QApplication::setPalette(pal);
        for (MessageTone tone : tones) {
            for (QPalette::ColorRole role : { QPalette::Window, QPalette::Base }) {
                const QColor fg = messagestyle::text(tone, pal, role);
                const QColor bg = pal.color(role);
                QVERIFY2(messagestyle::contrastRatio(fg, bg) >= 4.5, qPrintable(describe(fg, bg)));
            }
            // A view's cells: foreground on Base, and Text on the tinted background of an input or pending edit.
            QVERIFY(messagestyle::contrastRatio(messagestyle::viewText(tone), pal.color(QPalette::Base)) >= 4.5);
            QVERIFY2(messagestyle::contrastRatio(pal.color(QPalette::Text), messagestyle::viewTint(tone)) >= 4.5,
                qPrintable(describe(pal.color(QPalette::Text), messagestyle::viewTint(tone))));
            // The path group editor's banner: its style sheet's text colour on its background.
            const QString sheet = messagestyle::bannerStyleSheet(tone, pal);
            const QColor sheetText = styleSheetColor(sheet, QStringLiteral("color"));
            const QColor sheetBack = styleSheetColor(sheet, QStringLiteral("background"));
            QVERIFY2(sheetText.isValid() && sheetBack.isValid(), qPrintable(sheet));
            QVERIFY2(
                messagestyle::contrastRatio(sheetText, sheetBack) >= 4.5, qPrintable(describe(sheetText, sheetBack)));
        }

        // The rich text the widgets build: the Tune tab's failed transaction and the preset editor's error.
        ApplyResult failed;
        failed.errors.append(ApplyError {});
        const QColor errorColor = htmlTextColor(applyErrorHtml(failed, QStringLiteral("Apply failed")));
        QVERIFY(errorColor.isValid());
        QVERIFY2(messagestyle::contrastRatio(errorColor, pal.color(QPalette::Window)) >= 4.5,
            qPrintable(describe(errorColor, pal.color(QPalette::Window))));
        const QColor span = htmlTextColor(messagestyle::htmlSpan(MessageTone::Error, QStringLiteral("x")));
        QCOMPARE(span.name(), messagestyle::text(MessageTone::Error, pal).name());

        // The device tree's failed path, in a view.
        const QColor attention = messagestyle::viewText(MessageTone::Error);
        QVERIFY(messagestyle::contrastRatio(attention, pal.color(QPalette::Base)) >= 4.5);
    }

    void bannerPaintsWhatItMeasures_data() { textColoursReadOnBothPalettes_data(); }
    void bannerPaintsWhatItMeasures()
    {
        QFETCH(QString, palette);
        const QPalette pal = paletteNamed(palette);
        QApplication::setPalette(pal);
        QWidget host;
        auto *layout = new QVBoxLayout(&host);
        QList<MessageBanner *> banners;
        for (MessageTone tone : tones) {
            auto *banner = new MessageBanner(&host);
            banner->showMessage(tone, QStringLiteral("i"));
            layout->addWidget(banner);
            banners << banner;
        }
        host.resize(400, 240);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        for (MessageBanner *banner : std::as_const(banners)) {
            const QColor fg = banner->textColor();
            const QColor bg = banner->backgroundColor();
            QVERIFY2(messagestyle::contrastRatio(fg, bg) >= 4.5, qPrintable(describe(fg, bg)));
            // The label draws with that colour, and the banner paints that background (away from text and border).
            QCOMPARE(banner->label()->palette().color(QPalette::WindowText), fg);
            const QImage image = banner->grab().toImage();
            const QColor painted = image.pixelColor(image.width() - 6, image.height() / 2);
            QVERIFY2(qAbs(painted.red() - bg.red()) <= 2 && qAbs(painted.green() - bg.green()) <= 2
                    && qAbs(painted.blue() - bg.blue()) <= 2,
                qPrintable(QStringLiteral("painted %1, expected %2").arg(painted.name(), bg.name())));
            // The tint follows the palette: dark on the dark one, light on the light one.
            const double l = messagestyle::relativeLuminance(bg);
            QVERIFY2(palette == QLatin1String("dark") ? l < 0.1 : l > 0.5, qPrintable(bg.name()));
        }

        // A label with setTextTone (the connect dialog's problem line) reads on its window.
        ConnectDialog dialog;
        QLabel *problem = dialog.problemLabel();
        const QColor fg = problem->palette().color(QPalette::WindowText);
        const QColor bg = problem->palette().color(QPalette::Window);
        QVERIFY2(messagestyle::contrastRatio(fg, bg) >= 4.5, qPrintable(describe(fg, bg)));
    }

    void paletteSwitchedWhileShown()
    {
        QApplication::setPalette(lightPalette());
        QWidget host;
        auto *layout = new QVBoxLayout(&host);
        auto *banner = new MessageBanner(&host);
        banner->showMessage(MessageTone::Error, QStringLiteral("Disconnected"));
        auto *label = new QLabel(QStringLiteral("failed"), &host);
        messagestyle::setTextTone(label, MessageTone::Error);
        layout->addWidget(banner);
        layout->addWidget(label);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        const QColor lightText = banner->textColor();
        const QColor lightLabel = label->palette().color(QPalette::WindowText);

        QApplication::setPalette(darkPalette());
        QCoreApplication::processEvents();
        QVERIFY(banner->textColor() != lightText);
        QVERIFY2(messagestyle::contrastRatio(banner->textColor(), banner->backgroundColor()) >= 4.5,
            qPrintable(describe(banner->textColor(), banner->backgroundColor())));
        QVERIFY(messagestyle::relativeLuminance(banner->backgroundColor()) < 0.1);
        QTRY_VERIFY(label->palette().color(QPalette::WindowText) != lightLabel); // recoloured once settled
        const QColor darkLabel = label->palette().color(QPalette::WindowText);
        QVERIFY2(messagestyle::contrastRatio(darkLabel, label->palette().color(QPalette::Window)) >= 4.5,
            qPrintable(describe(darkLabel, label->palette().color(QPalette::Window))));
    }

    void screenshots_data() { textColoursReadOnBothPalettes_data(); }
    void screenshots()
    {
        // The main window over the GUI tests' machine with an error, a pending edit and the export banner shown.
        QFETCH(QString, palette);
        QApplication::setPalette(paletteNamed(palette));
        FakeSysfs fake;
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot::scratch(fake.root()));
        window.setTreeWritable(true);
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        window.resize(1400, 900);
        window.show();
        window.start();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
        QVERIFY(window.selectDevice(QStringLiteral("sdak")));
        QVERIFY(window.showTab(QStringLiteral("tune")));
        ParameterEditor *editor = window.parameterEditor();
        QTRY_VERIFY(!editor->isReading());
        QVERIFY(editor->model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        editor->model()->setPending(QStringLiteral("queue/read_ahead_kb"), QStringLiteral("-5")); // rejected: red
        editor->updatePreview();
        QTRY_VERIFY(!editor->isReading());
        QTRY_VERIFY(editor->isVisible() && editor->previewModel()->rowCount() >= 1); // the preview is shown
        QCoreApplication::sendPostedEvents(); // and laid out
        QCoreApplication::processEvents();
        QVERIFY(window.grab().save(DMTUNE_BINARY_PATH("/tst_messagestyle_%1_tune.png").arg(palette)));

        QTemporaryDir temp;
        QVERIFY(window.showTab(QStringLiteral("statistics")));
        StatsExportDialog *dialog = window.statsView()->openExportDialog();
        dialog->directoryEdit()->setText(temp.filePath(QStringLiteral("stats")));
        for (statsexport::Format f : statsexport::allFormats)
            dialog->formatBox(f)->setChecked(f == statsexport::Format::Png || f == statsexport::Format::Csv);
        dialog->exportButton()->click();
        QTRY_VERIFY(window.statsView()->exportBanner() && window.statsView()->exportBanner()->isVisible());
        // A second export dialog into the same folder: the conflict banner.
        dialog = window.statsView()->openExportDialog();
        dialog->directoryEdit()->setText(temp.filePath(QStringLiteral("stats")));
        for (statsexport::Format f : statsexport::allFormats)
            dialog->formatBox(f)->setChecked(f == statsexport::Format::Png || f == statsexport::Format::Csv);
        QVERIFY(dialog->conflictBanner()->isVisible());
        dialog->adjustSize();
        QTRY_VERIFY(dialog->isVisible() && dialog->conflictBanner()->isVisible());
        QCoreApplication::sendPostedEvents(); // the adjusted dialog and the window laid out
        QCoreApplication::processEvents();
        QVERIFY(window.grab().save(DMTUNE_BINARY_PATH("/tst_messagestyle_%1_stats.png").arg(palette)));
        QVERIFY(dialog->grab().save(DMTUNE_BINARY_PATH("/tst_messagestyle_%1_export.png").arg(palette)));
        dialog->reject();
    }
};

QTEST_MAIN(TestMessageStyle)
#include "tst_messagestyle.moc"
