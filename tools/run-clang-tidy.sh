#!/bin/bash
# clang-tidy 14 over the sources of core/, widgets/ and app/ with the checks in .clang-tidy (every finding is an
# error; the three layers' own headers are checked too; a unity build's unity_N.cpp is checked as the sources it
# includes, tools/clang-tidy-cached.py). Needs a configured and built tree: its compile_commands.json and
# Qt's generated files. Why these checks: docs/development.md.
# Usage: tools/run-clang-tidy.sh [BUILD_DIR]      (default build-ci; DMTUNE_TIDY=0 skips it,
#        DMTUNE_TIDY_CACHE=0 checks every file even if it passed before)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${DMTUNE_TIDY:-1}" = 0 ]; then
    echo "run-clang-tidy: skipped (DMTUNE_TIDY=0)"
    exit 0
fi
build=${1:-build-ci}
if [ ! -f "$build/compile_commands.json" ]; then
    echo "run-clang-tidy: no $build/compile_commands.json: configure and build first (cmake --preset ci)" >&2
    exit 1
fi
command -v clang-tidy-14 >/dev/null || { echo "run-clang-tidy: clang-tidy 14 is not installed (packaging/install-deps.sh)" >&2; exit 1; }
# The regex names the layers' sources, not the moc files generated under the build dir. A build dir
# configured from another checkout would match nothing and pass: an error.
sources="^$(pwd -P)/(core|widgets|app)/.*\.cpp\$"
if ! grep -q "\"file\": \"$(pwd -P)/core/" "$build/compile_commands.json"; then
    echo "run-clang-tidy: $build/compile_commands.json has no file of $(pwd -P)/core" >&2
    exit 1
fi
# Files whose exact preprocessed text, command and config passed before are not checked again
# (tools/clang-tidy-cached.py; docs/development.md, "The build cache").
tools/clang-tidy-cached.py "$build" "$sources"
