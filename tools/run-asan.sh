#!/bin/bash
# ASan + UBSan over the unit and gui tests: the asan preset (build-asan: -O1, Debug, warnings as
# errors), building only what those two labels run (targets tests-unit, tests-gui), then
# `ctest --preset asan`, whose environment makes any finding fail its test (halt_on_error,
# detect_leaks; tools/lsan.supp holds the only leaks we accept, in system libraries).
# Usage: tools/run-asan.sh [ctest args...]     (DMTUNE_ASAN=0 skips it)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${DMTUNE_ASAN:-1}" = 0 ]; then
    echo "run-asan: skipped (DMTUNE_ASAN=0)"
    exit 0
fi
# The asan objects go through the project's compiler cache like the ci ones (CMakeLists.txt, DMTUNE_CCACHE).
cmake --preset asan >/dev/null
tools/ccache-stats.sh zero build-asan
cmake --build build-asan -j"$(nproc)" --target tests-unit tests-gui
tools/ccache-stats.sh show build-asan
# Two at a time, as in the ci build's pass (docs/development.md: parallel tests).
ctest --preset asan -j"$(nproc)" "$@"
