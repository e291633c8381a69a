#!/bin/bash
# Quick start (1): install what is needed, build, and start the GUI.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"
exec build/app/dmtune/dmtune "$@"
