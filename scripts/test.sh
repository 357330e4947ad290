#!/usr/bin/env bash
# Set-up, build, then the whole test suite: unit tests and lit (check-tcc).
# Exits non-zero on any failure; lit's summary is printed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cmake --build "$BUILD_DIR" --target check-tcc
