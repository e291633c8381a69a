#!/bin/bash
# ASan + UBSan over the unit and gui tests: the asan preset (build-asan: -O0, Debug, warnings as
# errors), building only what those two labels run (targets tests-unit, tests-gui), then
# `ctest --preset asan`, whose environment makes any finding fail its test (halt_on_error,
# detect_leaks; tools/lsan.supp holds the only leaks we accept, in system libraries).
# Usage: tools/run-asan.sh [--build-only | --tests-only] [ctest args...]     (DMTUNE_ASAN=0 skips it)
#   --build-only  configure and build (packaging/build-and-test.sh runs this while the live and vm tests run)
#   --tests-only  run the tests of a tree built before
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${DMTUNE_ASAN:-1}" = 0 ]; then
    echo "run-asan: skipped (DMTUNE_ASAN=0)"
    exit 0
fi
build=1 run=1
case ${1:-} in
--build-only) run=0; shift ;;
--tests-only) build=0; shift ;;
esac
if [ $build = 1 ]; then
    # The asan objects go through the project's compiler cache like the ci ones (CMakeLists.txt, DMTUNE_CCACHE).
    cmake --preset asan >/dev/null
    tools/ccache-stats.sh zero build-asan
    cmake --build build-asan -j"$(nproc)" --target tests-unit tests-gui
    tools/ccache-stats.sh show build-asan
fi
if [ $run = 1 ]; then
    # Two at a time, as in the ci build's pass (docs/development.md: parallel tests).
    ctest --preset asan -j"$(nproc)" "$@"
fi
