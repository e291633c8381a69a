#include "widgets/about/aboutdialog.h"

#include "widgets/anywherewrapdelegate.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/windowfit.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace dmtune {

AboutDialog::AboutDialog(const QList<ComponentVersion> &local, const QString &note, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About dmtune"));
    auto *layout = new QVBoxLayout(this);

    auto *header
        = new QLabel(tr("<h3>dmtune %1</h3><p>See dm-multipath maps, path groups, paths and every block queue "
                        "parameter, live; tune them as transactions and measure the effect with fio.</p>%2")
                         .arg(QStringLiteral(DMTUNE_VERSION),
                             note.isEmpty() ? QString() : QStringLiteral("<p>%1</p>").arg(note.toHtmlEscaped())));
    header->setWordWrap(true);
    header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(header);

    m_table = new QTableWidget(0, 3);
    m_table->setObjectName(QStringLiteral("versionsTable"));
    m_table->setHorizontalHeaderLabels({ tr("Component"), tr("Version"), tr("Notes") });
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setWordWrap(true);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->setItemDelegateForColumn(2, new AnywhereWrapDelegate(m_table)); // reasons name long paths
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);

    // QCustomPlot after Qt: the GUI's own library, its version from the header the charts use.
    for (const ComponentVersion &v : local) {
        addRow(v);
        if (v.key == QLatin1String("qt"))
            addRow({ QStringLiteral("qcustomplot"), QStringLiteral("QCustomPlot"), ChartPanel::qcustomplotVersion(),
                tr("the charts") });
    }
    addRow({ QStringLiteral("fio"), QStringLiteral("fio"), QString(), tr("checking…") });
    const int fioRow = m_table->rowCount() - 1;

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton *copy = buttons->addButton(tr("&Copy versions"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(versionsText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    auto *probe = new FioVersionProbe(this);
    connect(probe, &FioVersionProbe::finished, this, [this, fioRow](const ComponentVersion &fio) {
        m_versions[fioRow] = fio;
        setRow(fioRow, fio);
        Q_EMIT fioVersionShown();
    });
    probe->start();

    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    windowfit::resizeOnScreen(this, { 680, 360 });
}

void AboutDialog::resizeEvent(QResizeEvent *event)
{
    QDialog::resizeEvent(event);
    // Notes wrap: the rows take their height once the stretched column has its new width.
    QTimer::singleShot(0, m_table, &QTableWidget::resizeRowsToContents);
}

QString AboutDialog::versionOf(const QString &key) const
{
    for (const ComponentVersion &v : m_versions) {
        if (v.key == key)
            return v.version;
    }
    return {};
}

void AboutDialog::addRow(const ComponentVersion &version)
{
    m_versions.append(version);
    m_table->insertRow(m_table->rowCount());
    setRow(m_table->rowCount() - 1, version);
}

void AboutDialog::setRow(int row, const ComponentVersion &version)
{
    const QStringList cells { version.name, version.version.isEmpty() ? QStringLiteral("—") : version.version,
        version.detail };
    for (int column = 0; column < cells.size(); ++column) {
        auto *item = new QTableWidgetItem(cells[column]);
        item->setToolTip(cells[column]);
        m_table->setItem(row, column, item);
    }
    m_table->resizeRowToContents(row);
}

} // namespace dmtune
