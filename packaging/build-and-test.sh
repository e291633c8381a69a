#!/bin/bash
# Quick start (2): install what is needed (with the lab VM's tools), build with warnings as
# errors, and run every test: unit, gui (offscreen), live (root: loop devices), vm (lab VM).
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh --lab
cmake --preset ci >/dev/null
cmake --build --preset ci -j"$(nproc)"
cd build-ci
ctest --output-on-failure -j1 "$@"
