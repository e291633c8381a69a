#pragma once
// What every user of libdevmapper in core shares: its log, collected per thread instead of printed on stderr, and
// the one mutex around its global state (control fd, udev sync flag, pending node operations).
#include <QMutex>
#include <QStringList>

namespace dmtune {

// Collects libdevmapper's errors and warnings of the calls this thread makes while it lives.
class DmLogCapture {
public:
    DmLogCapture();
    ~DmLogCapture();
    DmLogCapture(const DmLogCapture &) = delete;
    DmLogCapture &operator=(const DmLogCapture &) = delete;

    QString text() const { return m_messages.join(QStringLiteral("; ")); }

private:
    QStringList m_messages;
    QStringList *m_previous;
};

// One libdevmapper call at a time, except the blocking event wait.
QMutex &dmLibraryMutex();

} // namespace dmtune
