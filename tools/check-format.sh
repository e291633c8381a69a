#!/bin/bash
# Checks that every C++ file git tracks is formatted as .clang-format says, with clang-format 14
# (a newer clang-format formats differently). Lists the files that differ and shows the first one.
# Usage: tools/check-format.sh          check (CI; DMTUNE_CHECK_FORMAT=0 skips it)
#        tools/check-format.sh --fix    format those same files in place
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-clang-format-14}

if [ "${DMTUNE_CHECK_FORMAT:-1}" = 0 ] && [ "${1:-}" != --fix ]; then
    echo "check-format: skipped (DMTUNE_CHECK_FORMAT=0)"
    exit 0
fi
command -v "$CLANG_FORMAT" >/dev/null || { echo "check-format: $CLANG_FORMAT is not installed (packaging/install-deps.sh)" >&2; exit 1; }

# From git, so build directories and untracked files are never checked. An empty list means git
# failed (no checkout, or "dubious ownership" when root runs in another user's clone): an error.
list=$(git ls-files -- '*.cpp' '*.h') || { echo "check-format: git ls-files failed" >&2; exit 1; }
mapfile -t files <<<"$list"
if [ -z "$list" ]; then
    echo "check-format: git lists no C++ files" >&2
    exit 1
fi
if [ "${1:-}" = --fix ]; then
    printf '%s\n' "${files[@]}" | xargs -d '\n' -n 50 "$CLANG_FORMAT" -i
    echo "check-format: formatted ${#files[@]} files"
    exit 0
fi

# In batches, one per core: one clang-format per file was a minute of process start-up. A file that
# differs shows as "FILE:LINE:COL: error:" on stderr; a failure that names no file is an error too.
rc=0
out=$(printf '%s\n' "${files[@]}" |
    xargs -d '\n' -n 64 -P "$(nproc)" "$CLANG_FORMAT" --dry-run --Werror --ferror-limit=1 2>&1 >/dev/null) || rc=$?
mapfile -t bad < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$out" | sort -u)
[ -n "${bad[*]}" ] || bad=()
if [ $rc != 0 ] && [ ${#bad[@]} -eq 0 ]; then
    echo "check-format: $CLANG_FORMAT failed (exit $rc):" >&2
    head -5 <<<"$out" >&2
    exit 1
fi
if [ ${#bad[@]} -eq 0 ]; then
    echo "check-format: ${#files[@]} files formatted as .clang-format says"
    exit 0
fi
echo "check-format: ${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says:" >&2
printf '  %s\n' "${bad[@]}" >&2
echo "check-format: first differences in ${bad[0]}:" >&2
"$CLANG_FORMAT" --dry-run --Werror --ferror-limit=3 "${bad[0]}" 2>&1 | head -30 >&2 || true
echo "check-format: fix with tools/check-format.sh --fix" >&2
exit 1
