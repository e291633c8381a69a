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
# ccache when it is there: the asan objects are cached like the ci ones.
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset asan "${launcher[@]}" >/dev/null
cmake --build build-asan -j"$(nproc)" --target tests-unit tests-gui
ctest --preset asan -j1 "$@"
