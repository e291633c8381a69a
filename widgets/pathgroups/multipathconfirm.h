#pragma once
// What the user is asked before a disk of another LUN joins the editor's draft (the operations
// themselves are asked with a PlanDialog over their core plan). Built as values so that tests read
// them; shown with open(), never exec().
#include "core/dm/grammar/multipathmessages.h"
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/dm/lunidentity.h"
#include "core/dm/multipathchange.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <functional>

class QMessageBox;
class QPushButton;
class QWidget;

namespace dmtune {

struct Confirmation {
    QString map;
    QString title; // window title: "Fail path sdb of mpatha"
    QString question; // "Fail path sdb (8:16) of mpatha?"
    QStringList risks; // each a warning with its reason; non-empty: the action can cause I/O errors
    QStringList warnings; // what multipathd may do
    QString details; // the new table line and the diff, for a reload
    QString acceptText; // the button: "Fail path", "Reload mpatha"

    bool risky() const { return !risks.isEmpty(); }
    // Everything as plain text, in the order the dialog shows it.
    QString text() const;
};

// A message box, asynchronous (no nested event loop): opened with open(), deleted on close.
// The caller connects to box->buttonClicked and goes ahead when it is `accept`.
struct OpenedConfirmation {
    QMessageBox *box = nullptr;
    QPushButton *accept = nullptr;
};
OpenedConfirmation openConfirmation(QWidget *parent, const Confirmation &confirmation);

// Before a disk dragged in joins a group of the draft: `risks` are identityRisks() for it (they name
// both LUNs).
Confirmation addPathConfirmation(const QString &map, const QString &pathLabel, int group, const QStringList &risks);

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::Confirmation)
