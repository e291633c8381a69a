#!/bin/bash
# The compiler cache's hit rate for one build: `zero BUILD_DIR` before it, `show BUILD_DIR` after it. The
# cache's folder is the one the build tree was configured with (CMakeLists.txt, DMTUNE_CCACHE_DIR).
# Prints one line: "ccache (BUILD_DIR): H of N compiles from the cache (P %), cache S of MAX".
set -euo pipefail
mode=${1:?usage: ccache-stats.sh zero|show BUILD_DIR}
build=${2:?usage: ccache-stats.sh zero|show BUILD_DIR}
dir=$(sed -n 's/^DMTUNE_CCACHE_DIR:PATH=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
if [ -z "$dir" ] || ! command -v ccache >/dev/null; then
    [ "$mode" = show ] && echo "ccache ($build): not used"
    exit 0
fi
mkdir -p "$dir"
case $mode in
zero) ccache -d "$dir" --zero-stats >/dev/null ;;
show)
    ccache -d "$dir" --print-stats | awk -v build="$build" -v dir="$dir" '
        { v[$1] = $2 }
        END {
            hits = v["direct_cache_hit"] + v["preprocessed_cache_hit"]
            total = hits + v["cache_miss"]
            printf "ccache (%s): %d of %d compiles from the cache (%.1f %%), cache %.2f GB in %s\n", build, hits, total,
                total ? 100 * hits / total : 0, v["cache_size_kibibyte"] / 1048576, dir
        }'
    ;;
*) echo "usage: ccache-stats.sh zero|show BUILD_DIR" >&2; exit 2 ;;
esac
