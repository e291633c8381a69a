#!/bin/bash
# Quick start (2): install what is needed (with the tests', the lab VM's and the package test's tools), build
# with warnings as errors, and run every test: unit and gui (offscreen, two at a time), live (root: loop
# devices, one at a time), vm (the lab VM, one VM at a time), package (the .deb installed into a clean Debian 12
# root, run, purged). Then the habits, cheapest first: the format check, clang-tidy over core/, widgets/ and app/,
# the unit and gui tests again under ASan + UBSan (build-asan). clang-tidy and the ASan build need only the CPU, which the live
# and vm tests mostly leave idle (they wait for fio and the lab VM), so they run in the background from the end of
# the build, in the idle scheduling class, and their steps wait for them there. A failed test or check does
# not stop the later ones (one CI run shows every failure); the exit status is 1 if any failed. The log ends with a table of step times, the
# figures docs/development.md keeps a budget of. Builds go through the compiler cache (docs/development.md,
# "The build cache") and print its hit rate. DMTUNE_CHECK_FORMAT=0, DMTUNE_TIDY=0, DMTUNE_ASAN=0 skip one.
# Arguments go to every ctest run (e.g. -R NAME).
set -euo pipefail
cd "$(dirname "$0")/.."

failed=()
step_names=() step_secs=() step_results=()
started=$SECONDS
# step NAME COMMAND...: runs one step and says how long it took, also when it fails.
step() {
    local name=$1 start=$SECONDS rc=0
    shift
    echo "== $name"
    "$@" || rc=$?
    local took=$((SECONDS - start)) result=done
    [ $rc = 0 ] || result=FAILED
    printf '== %s: %s in %dm%02ds\n' "$name" "$result" $((took / 60)) $((took % 60))
    step_names+=("$name") step_secs+=("$took") step_results+=("$result")
    [ $rc = 0 ] || failed+=("$name")
    return 0
}
step_table() {
    local i total=$((SECONDS - started))
    echo
    echo "== step times (docs/development.md keeps the budget)"
    printf '%-44s %8s  %s\n' step "min:s" result
    for i in "${!step_names[@]}"; do
        printf '%-44s %5d:%02d  %s\n' "${step_names[i]}" $((step_secs[i] / 60)) $((step_secs[i] % 60)) "${step_results[i]}"
    done
    printf '%-44s %5d:%02d\n' total $((total / 60)) $((total % 60))
    [ ${#background_times[@]} = 0 ] || echo "in the background during the tests (min:s): $(IFS=,; echo "${background_times[*]}" | sed 's/,/, /g')"
}
descendants() {
    local child
    for child in $(pgrep -P "$1"); do descendants "$child"; done
    echo "$1"
}
# An interrupted run stops its background jobs too.
on_exit() {
    local pid
    for pid in "${bg_pid[@]}"; do
        # shellcheck disable=SC2046
        kill $(descendants "$pid") 2>/dev/null || true
    done
    step_table
}
trap on_exit EXIT

# (&&: set -e does not apply inside a command that `step` tests)
build_ci() {
    cmake --preset ci >/dev/null && tools/ccache-stats.sh zero build-ci && cmake --build --preset ci -j"$(nproc)" &&
        tools/ccache-stats.sh show build-ci
}
# background NAME COMMAND...: starts COMMAND in the idle scheduling class (SCHED_IDLE: it runs only on a CPU no
# test wants, and a test that wakes up takes the CPU back at once; nice 19 alone slowed the vm tests by a
# quarter), at idle I/O priority; on_exit stops it. Its output is kept in build-ci/background-NAME.log.
# join NAME: the step that waits for it, prints that output and returns its status; the table row is the wait,
# the line after the table the job's own time.
declare -A bg_pid=()
background_times=()
background() {
    local name=$1 log=build-ci/background-$1.log
    shift
    (
        start=$SECONDS rc=0
        chrt --idle 0 nice -n 19 ionice -c 3 "$@" >"$log" 2>&1 || rc=$?
        echo "$rc $((SECONDS - start))" >"$log.status"
    ) &
    bg_pid[$name]=$!
}
join() {
    local name=$1 log=build-ci/background-$1.log rc took
    wait "${bg_pid[$name]}" || true
    cat "$log"
    read -r rc took <"$log.status" || { rc=1 took=0; }
    background_times+=("$(printf '%s %d:%02d' "$name" $((took / 60)) $((took % 60)))")
    return "$rc"
}
# tests LABEL_REGEX JOBS [ctest args]: one label's tests. ctest exits 8 when a filter selects none (a -R that
# names another label's test): that is not a failure here.
tests() {
    local labels=$1 jobs=$2 rc=0
    shift 2
    (cd build-ci && ctest --output-on-failure --no-tests=ignore -L "$labels" -j"$jobs" "$@") || rc=$?
    return $rc
}

step "install dependencies" packaging/install-deps.sh --tests --lab
[ ${#failed[@]} = 0 ] && step "build (ci preset, -Werror)" build_ci
[ ${#failed[@]} = 0 ] || exit 1 # nothing to test without a build
background tidy tools/run-clang-tidy.sh build-ci
background asan-build tools/run-asan.sh --build-only
# unit and gui tests share no device and no file, so two run at once; live tests write to loop devices and
# sysfs, so one at a time; a vm test keeps both cores busy (PROCESSORS 2), so one VM at a time.
step "tests: unit + gui (2 at a time)" tests '^(unit|gui)$' "$(nproc)" "$@"
step "tests: live (root, loop devices)" tests '^live$' 1 "$@"
step "tests: vm (lab VM, one at a time)" tests '^vm$' 1 "$@"
step "tests: package (clean Debian 12 root)" tests '^package$' 1 "$@"
step "format check (clang-format 14)" tools/check-format.sh
step "clang-tidy over core/, widgets/, app/ (waiting for it)" join tidy
step "asan + ubsan: build (waiting for it)" join asan-build
step "asan + ubsan: unit and gui tests" tools/run-asan.sh --tests-only "$@"

trap - EXIT
step_table
if [ ${#failed[@]} != 0 ]; then
    printf 'build-and-test: FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
echo "build-and-test: every step passed"
