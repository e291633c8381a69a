#!/bin/bash
# The rules of background work, checked on the source tree (docs/architecture.md, "Background work"):
# - widgets/ and app/: no thread nobody owns (QThread::create, std::thread, a raw QThreadPool), no nested
#   event loop (QEventLoop, a dialog's or menu's exec(), QMessageBox/QInputDialog/QFileDialog static prompts,
#   processEvents; widgets/filedialogs opens file choosers without one). The application's own loop
#   (app.exec(), QCoreApplication::exec()) is fine.
# - core/: no nested event loop (QEventLoop, exec(), processEvents) and no thread outside the job layer
#   (std::thread, QThread::create, a raw QThreadPool) except in core/jobs/ itself.
# Prints each violation as file:line: text and exits 1 when there is one.
set -u
src=${1:?usage: check_background_work.sh SOURCE_DIR}
cd "$src" || exit 2
found=0
report() { # pattern, dirs..., then an optional exclusion regex in $EXCLUDE
    local pattern=$1; shift
    local hits
    hits=$(grep -rnE --include='*.cpp' --include='*.h' "$pattern" "$@" 2>/dev/null \
        | grep -vE '^[^:]+:[0-9]+:\s*//' | grep -vE "${EXCLUDE:-^$}")
    if [ -n "$hits" ]; then
        echo "$hits"
        found=1
    fi
}
shells=(widgets app)
EXCLUDE='^$' report 'QThread::create|std::thread|QThreadPool|QtConcurrent' "${shells[@]}"
EXCLUDE='^$' report 'QEventLoop|processEvents\(' "${shells[@]}" core
EXCLUDE='^$' report 'QInputDialog::get|QFileDialog::get|QMessageBox::(question|warning|critical|information|about)\(' "${shells[@]}"
# exec(): a dialog, a menu, a drag started by hand. The application's loop is fine.
EXCLUDE='(app\.exec\(\)|QCoreApplication::exec\(\)|QApplication::exec\(\)|QProcess)' report '(\.|->)exec\(' "${shells[@]}" core
EXCLUDE='^core/jobs/' report 'QThread::create|std::thread|QThreadPool|QtConcurrent' core
if [ $found = 0 ]; then
    echo "background work: no unowned thread, no nested event loop"
fi
exit $found
