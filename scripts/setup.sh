#!/usr/bin/env bash
# Installs what tcc needs (idempotent: quick when everything is there),
# then configures and builds into build/. Sourced by demo.sh and test.sh.
set -euo pipefail

TCC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${TCC_BUILD_DIR:-$TCC_ROOT/build}"

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
  cmake ninja-build ccache g++ lld libgtest-dev libomp-dev python3
  libonnx-dev libprotobuf-dev libonnx-testdata
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/tcc-ccache}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S "$TCC_ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD_DIR"
