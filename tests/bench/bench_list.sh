#!/bin/bash
# What `dmtunectl list --json` costs at N block devices against `lsblk -J` on the same devices: CPU time
# (user+sys) of each, their ratio, and the file opens per block device (open/openat system calls, failed ones and
# libudev's included, divided by the block devices in /sys/class/block). Not a test (docs/performance.md keeps the
# figures). Makes N loop devices over 1 MiB sparse files in a temporary directory and removes them afterwards
# (detached, then deleted with LOOP_CTL_REMOVE unless they existed before: their /dev nodes go with them).
# Given two dmtunectl binaries (before and after a change), measures both on the same devices and says whether
# their `list --json` outputs are byte-identical.
# usage: bench_list.sh [-n N] [-r RUNS] [-k DIR] DMTUNECTL [DMTUNECTL2]   (root; needs losetup, lsblk, strace, python3)
#   -k DIR keeps each binary's `list --json` output there (list-1.json, list-2.json).
set -euo pipefail
count=1000 runs=5 keep=
while getopts n:r:k: opt; do
    case $opt in
    n) count=$OPTARG ;;
    r) runs=$OPTARG ;;
    k) keep=$OPTARG ;;
    *) echo "usage: bench_list.sh [-n N] [-r RUNS] [-k DIR] DMTUNECTL [DMTUNECTL2]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: bench_list.sh [-n N] [-r RUNS] [-k DIR] DMTUNECTL [DMTUNECTL2]" >&2; exit 2; }
binaries=()
for b in "$@"; do binaries+=("$(readlink -f "$b")"); done
[ "$(id -u)" = 0 ] || { echo "bench_list: needs root (losetup)" >&2; exit 1; }
for tool in losetup lsblk strace python3; do
    command -v "$tool" >/dev/null || { echo "bench_list: $tool missing" >&2; exit 1; }
done

. "$(dirname "$0")/scratchloops.sh" benchlist

echo "bench_list: attaching $count loop devices (1 MiB sparse files in $work)"
attach_loops "$count"
devices=$(ls /sys/class/block | wc -l)
echo "bench_list: $devices block devices (disks and partitions) on this machine"

# CPU seconds (user+sys) of one run of the command, output to $out.
cpu_of() {
    local out=$1 t
    shift
    TIMEFORMAT='%U %S'
    t=$({ time "$@" >"$out" 2>/dev/null; } 2>&1)
    awk '{ printf "%.3f\n", $1 + $2 }' <<<"$t"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
opens_of() {
    strace -f -qq -e trace=open,openat -o "$work/strace" "$@" >/dev/null 2>&1
    awk -v n="$devices" 'END { printf "%d %.2f\n", NR, NR / n }' "$work/strace"
}

declare -A cpu
labels=(lsblk)
for ((k = 1; k <= ${#binaries[@]}; k++)); do labels+=("dmtunectl-$k"); done
for ((r = 0; r < runs; r++)); do # side by side: each run of one is next to a run of the others
    cpu[lsblk]+="$(cpu_of "$work/lsblk.json" lsblk -J) "
    for ((k = 1; k <= ${#binaries[@]}; k++)); do
        cpu[dmtunectl-$k]+="$(cpu_of "$work/list-$k.json" "${binaries[k - 1]}" list --json) "
    done
done
lsblk_cpu=$(tr ' ' '\n' <<<"${cpu[lsblk]}" | grep . | median)
printf '%-14s %10s %8s %14s %10s  %s\n' what cpu_s ratio opens per_device runs
for label in "${labels[@]}"; do
    med=$(tr ' ' '\n' <<<"${cpu[$label]}" | grep . | median)
    if [ "$label" = lsblk ]; then
        read -r opens per < <(opens_of lsblk -J)
    else
        read -r opens per < <(opens_of "${binaries[${label#dmtunectl-} - 1]}" list --json)
    fi
    printf '%-14s %10s %8s %14s %10s  %s\n' "$label" "$med" "$(awk -v a="$med" -v b="$lsblk_cpu" 'BEGIN { printf "%.2f", a / b }')" \
        "$opens" "$per" "${cpu[$label]}"
done
for ((k = 1; k <= ${#binaries[@]}; k++)); do echo "dmtunectl-$k: ${binaries[k - 1]}"; done
if [ ${#binaries[@]} -eq 2 ]; then
    if cmp -s "$work/list-1.json" "$work/list-2.json"; then
        echo "list --json: byte-identical ($(wc -c <"$work/list-1.json") bytes, $(grep -c '"name": "loop' "$work/list-1.json") loop devices)"
    else
        echo "list --json: DIFFERENT"; diff "$work/list-1.json" "$work/list-2.json" | head -20
    fi
fi
if [ -n "$keep" ]; then
    mkdir -p "$keep"
    cp "$work"/list-*.json "$keep"/
fi
