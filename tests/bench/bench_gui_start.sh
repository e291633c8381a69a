#!/bin/bash
# What the GUI's start costs at N block devices against the machine as it is: `dmtune --screenshot` (the window,
# the first scan shown in the tree, a grab, exit) with no settling delay, wall time and CPU time (user+sys), the
# median of RUNS, first without and then with N extra loop devices. Not a test (docs/performance.md keeps the
# figures). Makes the loop devices over 1 MiB sparse files in a temporary directory and removes them afterwards
# (detached, then deleted with LOOP_CTL_REMOVE unless they existed before). QT_QPA_PLATFORM=offscreen unless a
# display is set (Xvfb's own start is not in the figures).
# usage: bench_gui_start.sh [-n N] [-r RUNS] DMTUNE   (root; needs losetup, python3)
set -euo pipefail
count=1000 runs=5
while getopts n:r: opt; do
    case $opt in
    n) count=$OPTARG ;;
    r) runs=$OPTARG ;;
    *) echo "usage: bench_gui_start.sh [-n N] [-r RUNS] DMTUNE" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { echo "usage: bench_gui_start.sh [-n N] [-r RUNS] DMTUNE" >&2; exit 2; }
dmtune=$(readlink -f "$1")
[ "$(id -u)" = 0 ] || { echo "bench_gui_start: needs root (losetup)" >&2; exit 1; }
for tool in losetup python3; do
    command -v "$tool" >/dev/null || { echo "bench_gui_start: $tool missing" >&2; exit 1; }
done
[ -n "${DISPLAY:-}" ] || export QT_QPA_PLATFORM=offscreen

. "$(dirname "$0")/scratchloops.sh" benchgui

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# "wall cpu" seconds of one start, the screenshot in $work (a fresh file each time: dmtune never replaces one).
start_once() {
    local t shot
    shot="$work/shot-$RANDOM-$RANDOM.png"
    TIMEFORMAT='%R %U %S'
    t=$({ time "$dmtune" --screenshot "$shot" --screenshot-delay 0 >/dev/null 2>&1; } 2>&1)
    [ -s "$shot" ] || { echo "bench_gui_start: no screenshot written" >&2; exit 1; }
    rm -f "$shot"
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<<"$t"
}
measure() { # label
    local walls=() cpus=() w c
    "$dmtune" --screenshot "$work/warm.png" --screenshot-delay 0 >/dev/null 2>&1 || true # page cache, fonts
    rm -f "$work/warm.png"
    for ((r = 0; r < runs; r++)); do
        read -r w c < <(start_once)
        walls+=("$w") cpus+=("$c")
    done
    printf '%-28s %6d devices  wall %6.3f s  cpu %6.3f s   (walls: %s)\n' "$1" "$(ls /sys/class/block | wc -l)" \
        "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)" "${walls[*]}"
}

measure "this machine"
echo "bench_gui_start: attaching $count loop devices (1 MiB sparse files in $work)"
attach_loops "$count"
measure "+$count loop devices"
echo "dmtune: $dmtune"
