#pragma once
// What the user is asked before a multipath operation or a reload: the map by name, what happens,
// the risks with their reasons (mapsafety.h) and what multipathd may do about it. Built as values so
// that tests read them; shown by a Confirmer (a message box by default, a lambda in tests).
#include "dm/multipathmessages.h"
#include "dm/multipathoperation.h"
#include "dm/multipathstatus.h"
#include "dm/multipathtable.h"

#include <QString>
#include <QStringList>

#include <functional>

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

// Returns true to go ahead.
using Confirmer = std::function<bool(QWidget *parent, const Confirmation &confirmation)>;
// The default Confirmer: a message box; with risks a warning whose default button is Cancel.
bool askConfirmation(QWidget *parent, const Confirmation &confirmation);

// `pathLabel` names the path for people ("sdb (8:16)"); empty: the device word.
Confirmation operationConfirmation(const QString &map, const MultipathTable &table, const MultipathStatus &status,
                                   const MultipathMessage &message, bool multipathdRunning,
                                   const QString &pathLabel = {});
Confirmation reloadConfirmation(const QString &map, const MultipathTable &current, const MultipathStatus &status,
                                const MultipathTable &proposed, bool multipathdRunning);

// One line for the status bar: "mpatha: fail_path 8:16 done (via multipathd)", "… failed: reason".
QString operationResultText(const MultipathOperationResult &result);

} // namespace dmtune
