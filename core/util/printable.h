#pragma once
// Text from files dmtune did not write (a recording's title, notes, device names; a capture's strings) goes to a
// terminal through these: control characters (an ESC sequence can retitle the window, clear the screen or, in some
// terminals, answer back) and invisible format characters (bidi overrides, zero-width) become visible escapes.
#include <QString>

namespace dmtune {

// Every control (Cc: C0, DEL, C1) and format (Cf) character as \xNN or \uNNNN, newline and tab included.
QString printable(const QString &text);
// The same, but newlines and tabs stay (for a whole block of output dmtune laid out itself).
QString printableLines(const QString &text);

} // namespace dmtune
