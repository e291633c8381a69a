#!/bin/bash
# Quick start (2): install what is needed (with the lab VM's and the package test's tools), build
# with warnings as errors, and run every test: unit, gui (offscreen), live (root: loop devices),
# vm (lab VM), package (the .deb installed into a clean Debian 12 root, run, purged).
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh --lab
cmake --preset ci >/dev/null
cmake --build --preset ci -j"$(nproc)"
cd build-ci
ctest --output-on-failure -j1 "$@"
