#!/bin/bash
# The GUI's text is translatable (docs/translations.md), checked on the source tree:
# - in widgets/ and app/dmtune/, a widget's text, title, tip or placeholder is never a bare literal
#   (QStringLiteral, u""_s, QLatin1String): it goes through tr() or QCoreApplication::translate, or lupdate misses it;
# - translations/dmtune.ts holds what lupdate extracts from those sources today (run the lupdate target after
#   changing GUI text). Location lines are ignored: they are relative to where the .ts file is.
# Usage: check_translatable.sh SOURCE_DIR LUPDATE
set -u
src=${1:?usage: check_translatable.sh SOURCE_DIR LUPDATE}
lupdate=${2:?usage: check_translatable.sh SOURCE_DIR LUPDATE}
cd "$src" || exit 2
found=0
setters='setText|setWindowTitle|setToolTip|setStatusTip|setWhatsThis|setPlaceholderText|setTitle|setLabelText|setTabText|addTab|insertTab|addAction|addMenu|setHeaderLabels|setInformativeText|setDetailedText|showMessage'
# a literal that starts like a word of a sentence ("Apply", "Path groups"), not an identifier
literal='(QStringLiteral\(|QLatin1String\(|u)"[A-Z][a-z]'
hits=$(grep -rnE --include='*.cpp' --include='*.h' "(${setters})\(([^()]*, *)?${literal}" widgets app/dmtune \
    | grep -vE '^[^:]+:[0-9]+:\s*//')
if [ -n "$hits" ]; then
    echo "GUI text as a bare literal (use tr() or QCoreApplication::translate):"
    echo "$hits"
    found=1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp translations/dmtune.ts "$tmp/dmtune.ts"
if ! "$lupdate" -silent -locations relative -no-obsolete -no-ui-lines -I . widgets app/dmtune core/host -ts "$tmp/dmtune.ts" >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    exit 1
fi
if ! diff <(grep -v '<location ' translations/dmtune.ts) <(grep -v '<location ' "$tmp/dmtune.ts") >"$tmp/diff"; then
    echo "translations/dmtune.ts is not what lupdate extracts now: cmake --build build --target lupdate"
    head -40 "$tmp/diff"
    found=1
fi
[ $found = 0 ] && echo "translatable: no bare GUI literal, translations/dmtune.ts current"
exit $found
