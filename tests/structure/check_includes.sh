#!/bin/bash
# Includes that say their layer, and layers that include only what is below them (docs/architecture.md):
# - a quoted include names its file from the source root ("core/dm/backend/devicemapper.h", "widgets/...",
#   "app/...", "tests/...") or is a neighbour in the including file's own folder ("cli.h"); generated files (moc
#   output, the BPF skeleton) are left alone;
# - core/ includes nothing of widgets/, app/ or tests/; widgets/ nothing of app/ or tests/; app/ nothing of tests/.
#   One include folder (the source root) serves every layer, so the build no longer stops a core file that reaches
#   up: this does.
# Prints each violation as file:line: text and exits 1 when there is one.
set -u
src=${1:?usage: check_includes.sh SOURCE_DIR}
cd "$src" || exit 2
found=0
while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    [[ ${rest#*:} =~ \"([^\"]+)\" ]] || continue
    name=${BASH_REMATCH[1]}
    case $name in
    *.moc | moc_*.cpp | *.skel.h) continue ;;
    core/* | widgets/* | app/* | tests/*)
        if [ ! -f "$name" ]; then
            echo "$file:$line: \"$name\": no such file under the source root"
            found=1
        fi
        ;;
    */*)
        echo "$file:$line: \"$name\": name it from the source root (core/..., widgets/..., app/..., tests/...)"
        found=1
        ;;
    *)
        if [ ! -f "${file%/*}/$name" ]; then
            echo "$file:$line: \"$name\": not in this folder: name it from the source root"
            found=1
        fi
        ;;
    esac
done < <(grep -rnE --include='*.cpp' --include='*.h' --include='*.in' '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' \
    core widgets app tests)
layer() { # dir, the folders it must not include
    local dir=$1; shift
    local pattern
    pattern=$(printf '|%s/' "$@")
    local hits
    hits=$(grep -rnE --include='*.cpp' --include='*.h' "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"(${pattern:1})" "$dir")
    if [ -n "$hits" ]; then
        echo "$hits" | sed 's/$/   <- a layer includes only what is below it/'
        found=1
    fi
}
layer core widgets app tests
layer widgets app tests
layer app tests
exit $found
