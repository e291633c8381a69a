#!/bin/bash
# The man pages against the programs: every dmtunectl command (from `dmtunectl --help`) has its
# entry in dmtunectl.1, every option any `--help` prints is documented, and groff reads both
# pages without a warning.
# usage: man_coverage.sh DMTUNECTL DMTUNE|- MANDIR
set -euo pipefail
ctl=$1 gui=$2 man=$3
failed=0
miss() { echo "FAIL: $*" >&2; failed=1; }

# The text as a reader sees it: fonts dropped, \- as -.
plain() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$1"; }
# Long options a help text mentions (Qt's own --help-all and the standard --help/--version aside).
options() { grep -oE -- '--[a-z][a-z0-9-]*' | grep -vxE -- '--(help|help-all|version)' | sort -u; }

warnings=$(groff -ww -man -z "$man/dmtunectl.1" "$man/dmtune.1" 2>&1 || true)
[ -z "$warnings" ] || miss "groff: $warnings"

page=$(plain "$man/dmtunectl.1")
commands=$("$ctl" --help | awk '/^commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }')
[ -n "$commands" ] || miss "no commands in 'dmtunectl --help'"
for cmd in $commands; do
    grep -Eq "^$cmd( |$)" <<<"$page" || miss "dmtunectl.1 has no entry for '$cmd'"
    help=$("$ctl" "$cmd" --help 2>&1 || true)
    # A command of subcommands lists them under "Subcommands:", one "  NAME SYNOPSIS" line each.
    subs=$(awk '/^Subcommands:/ { on = 1; next } on && NF == 0 { exit } on && /^  [a-z]/ { print $1 }' <<<"$help")
    for sub in $subs; do
        grep -Eq "^$cmd $sub( |$)" <<<"$page" || miss "dmtunectl.1 has no entry for '$cmd $sub'"
        help+=$'\n'$("$ctl" "$cmd" "$sub" --help 2>&1 || true)
    done
    for opt in $(options <<<"$help"); do
        grep -q -- "$opt" <<<"$page" || miss "dmtunectl.1 does not mention '$cmd $opt'"
    done
done

if [ "$gui" != - ]; then
    page=$(plain "$man/dmtune.1")
    for opt in $(QT_QPA_PLATFORM=offscreen "$gui" --help 2>/dev/null | options); do
        grep -q -- "$opt" <<<"$page" || miss "dmtune.1 does not mention '$opt'"
    done
fi
[ "$failed" = 0 ] && echo "man pages cover $(wc -w <<<"$commands") commands and every option"
exit "$failed"
