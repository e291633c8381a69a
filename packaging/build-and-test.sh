#!/bin/bash
# Quick start (2): install what is needed (with the lab VM's and the package test's tools), build
# with warnings as errors, and run every test: unit, gui (offscreen), live (root: loop devices),
# vm (lab VM), package (the .deb installed into a clean Debian 12 root, run, purged). Then the
# habits, cheapest first: the format check (seconds), clang-tidy over core/ (minutes), the unit
# and gui tests again under ASan + UBSan (build-asan, the longest). A failed test or check does
# not stop the later ones (one CI run shows every failure); the exit status is 1 if any failed.
# docs/development.md: what each checks, how to run it alone, what it costs. DMTUNE_CHECK_FORMAT=0,
# DMTUNE_TIDY=0, DMTUNE_ASAN=0 skip one.
set -euo pipefail
cd "$(dirname "$0")/.."

failed=()
# step NAME COMMAND...: runs one step and says how long it took, also when it fails.
step() {
    local name=$1 start=$SECONDS rc=0
    shift
    echo "== $name"
    "$@" || rc=$?
    local took=$((SECONDS - start))
    printf '== %s: %s in %dm%02ds\n' "$name" "$([ $rc = 0 ] && echo done || echo FAILED)" $((took / 60)) $((took % 60))
    [ $rc = 0 ] || failed+=("$name")
    return 0
}
# (&&: set -e does not apply inside a command that `step` tests)
build_ci() {
    cmake --preset ci >/dev/null && cmake --build --preset ci -j"$(nproc)"
}
run_tests() {
    (cd build-ci && ctest --output-on-failure -j1 "$@")
}

step "install dependencies" packaging/install-deps.sh --lab
[ ${#failed[@]} = 0 ] && step "build (ci preset, -Werror)" build_ci
[ ${#failed[@]} = 0 ] || exit 1 # nothing to test without a build
step "tests (ctest${*:+ $*})" run_tests "$@"
step "format check (clang-format 14)" tools/check-format.sh
step "clang-tidy over core/" tools/run-clang-tidy.sh build-ci
step "asan + ubsan: unit and gui tests" tools/run-asan.sh

if [ ${#failed[@]} != 0 ]; then
    printf 'build-and-test: FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
echo "build-and-test: every step passed"
