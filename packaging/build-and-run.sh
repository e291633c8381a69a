#!/bin/bash
# Quick start (1): install what builds and runs dmtune (not the tests' tools), build the programs only (the app
# preset: DMTUNE_BUILD_TESTS=OFF, through the compiler cache) and start the GUI. Arguments go to dmtune.
# docs/development.md: what it costs from nothing and with a warm cache.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
packaging/install-deps.sh
cmake --preset app >/dev/null
tools/ccache-stats.sh zero build
cmake --build --preset app -j"$(nproc)"
tools/ccache-stats.sh show build
took=$((SECONDS - start))
printf 'build-and-run: installed and built in %dm%02ds; starting build/app/dmtune/dmtune\n' $((took / 60)) $((took % 60))
exec build/app/dmtune/dmtune "$@"
