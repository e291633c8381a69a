#pragma once
// An edited copy of a multipath map's table: paths moved between priority groups, selectors and their
// per-path arguments changed, features and the hardware handler set. Pure logic (no widgets, no I/O) so
// that the editor's rules are tested on their own; the editor only shows a draft and forwards edits.
#include "core/dm/grammar/multipathtable.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace dmtune {

// The multipath features this editor offers, in the order the kernel prints them (multipath_status).
struct MultipathFeatures {
    bool queueIfNoPath = false;
    int pgInitRetries = 0; // 0: not set (the kernel's default); 1-50
    int pgInitDelayMsecs = -1; // -1: not set (the kernel's default, 2000 ms on retries); 0-60000
    bool retainAttachedHwHandler = false;
    QString queueMode; // "bio", "rq", "mq" or empty; kept as it was, never offered

    bool operator==(const MultipathFeatures &) const = default;

    static MultipathFeatures fromWords(const QStringList &features);
    QStringList toWords() const;
};

class PathGroupDraft {
public:
    // Where a path sits in the draft; group and row are 0-based (the UI says "group 1").
    struct Place {
        int group = -1;
        int row = -1;
        bool isValid() const { return group >= 0 && row >= 0; }
    };

    PathGroupDraft() = default;
    explicit PathGroupDraft(const MultipathTable &current);

    // Starts over from a (new) live table; the edits are dropped.
    void reset(const MultipathTable &current);
    // The live table changed under the edits (multipathd reloaded it, a path was added): the edits stay,
    // compared with and checked against the new live table from now on.
    void rebase(const MultipathTable &current);
    // Replaces the edited table as a whole (e.g. from pasted text); validate() says what is wrong.
    void setTable(const MultipathTable &table);

    const MultipathTable &current() const { return m_current; }
    const MultipathTable &table() const { return m_table; }
    bool isModified() const { return !(m_table == m_current); }
    int groupCount() const { return int(m_table.groups.size()); }
    // The 0-based group of the live table a draft group came from; -1 for a group made in the draft.
    int originOf(int group) const { return m_origins.value(group, -1); }
    Place find(const QString &device) const;

    // Moves a path to `toGroup` at `toRow` (-1: the end). Its per-path arguments are converted to the
    // target group's selector (repeat_count stays; missing ones get defaults). A group left empty is
    // removed (a group needs a path), and the initial group follows the groups that remain.
    Status movePath(const QString &device, int toGroup, int toRow = -1);
    // Moves a path into a new last group with its old group's selector.
    Status movePathToNewGroup(const QString &device);
    // Adds a device the draft does not have (a disk dragged in from the device tree) to `toGroup` at
    // `toRow` (-1: the end); `toGroup` == groupCount() makes a new last group with the selector of the
    // last one. It gets the group selector's default per-path arguments. Whether the device is the
    // map's LUN is not the draft's business: the editor asks (identityRisks) before it calls this.
    Status addPath(const QString &device, int toGroup, int toRow = -1);
    // Reorders groups (their priority): the group at `from` ends up at `to`.
    Status moveGroup(int from, int to);
    // Changes a group's selector; every path gets that selector's per-path argument count, keeping
    // what carries over (repeat_count) and filling in defaults. Group-level arguments are dropped
    // unless the selector stays the same.
    Status setSelector(int group, const QString &selector);
    Status setSelectorArgs(int group, const QStringList &args);
    Status setPathArgs(const QString &device, const QStringList &args);
    Status setPathArg(const QString &device, int index, const QString &value);
    // 1-based, as the table says.
    Status setInitialGroup(int group);

    MultipathFeatures features() const { return MultipathFeatures::fromWords(m_table.features); }
    void setFeatures(const MultipathFeatures &features);
    // {} for none, {"alua"}, {"emc", "1"}, ...
    void setHwHandler(const QStringList &words);

    // What the kernel would refuse (checkMultipathTable) and what this editor refuses: no group, an
    // empty group, a path twice, a path of the live table missing (the editor moves paths; it never
    // drops one).
    Status validate() const;
    // Advice that does not block Apply: repeat_count above 1 is ignored, pg_init_* do nothing
    // without a hardware handler, a group whose paths are all failed (given their live states).
    QStringList notes(const QStringList &failedDevices = {}) const;
    // formatMultipathTable(table()).
    QString tableText() const;

    // What the per-path arguments mean: {"repeat_count"}, {"repeat_count", "relative throughput"}.
    static QStringList pathArgNames(const QString &selector);
    // `args` written for `fromSelector` rewritten for `toSelector` with `count` words.
    static QStringList convertPathArgs(
        const QStringList &args, const QString &fromSelector, const QString &toSelector, int count);

private:
    void removeEmptyGroup(int group);

    MultipathTable m_current;
    MultipathTable m_table;
    QList<int> m_origins;
};

} // namespace dmtune
