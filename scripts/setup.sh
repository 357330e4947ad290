#!/usr/bin/env bash
# Installs what tcc needs (idempotent: quick when everything is there),
# then configures and builds into build/. Sourced by demo.sh and test.sh.
set -euo pipefail

TCC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${TCC_BUILD_DIR:-$TCC_ROOT/build}"

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
  cmake ninja-build ccache g++ lld libgtest-dev libomp-dev python3
  libonnx-dev libprotobuf-dev libonnx-testdata python3-venv libdnnl-dev
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

# Python packages of the tests and tools (PyPI): torch and numpy for
# examples/export_onnx.py (onnx: torch.onnx.export needs it) and the
# torch.compile backend's tests, onnxruntime for
# benchmarks/cpu/compare_cpu.py, torchvision and transformers for the
# model zoo (benchmarks/models: architectures from configs, no weights
# downloaded), onnxscript for torch.onnx's default exporter, nanobind to
# build the Python package, pytest for its tests. One venv per user, outside the checkout, so that
# fresh clones (CI) reuse it (pip keeps its wheel cache in ~/.cache/pip);
# TCC_VENV moves it.
TCC_VENV="${TCC_VENV:-$HOME/.cache/tcc/venv}"
TCC_PYTHON_PACKAGES=(numpy onnx onnxruntime onnxscript torch torchvision
                     transformers nanobind pytest)
if [ ! -x "$TCC_VENV/bin/python" ]; then
  python3 -m venv "$TCC_VENV"
fi
if ! "$TCC_VENV/bin/python" -c "import numpy, onnx, onnxruntime, onnxscript, torch, torchvision, transformers, nanobind, pytest" 2>/dev/null; then
  echo "setup: installing ${TCC_PYTHON_PACKAGES[*]} into $TCC_VENV"
  "$TCC_VENV/bin/pip" install -q "${TCC_PYTHON_PACKAGES[@]}"
fi
export TCC_PYTHON="$TCC_VENV/bin/python"

export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/tcc-ccache}"
# Paths under the checkout hash as relative ones: a fresh clone elsewhere
# (CI's) hits the objects another checkout compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$TCC_ROOT}"
# The Python package builds for the venv's interpreter (python_bindings/).
if [ ! -f "$BUILD_DIR/build.ninja" ] ||
   ! grep -qxE "Python_EXECUTABLE:[A-Z]+=$TCC_PYTHON" "$BUILD_DIR/CMakeCache.txt"; then
  cmake -G Ninja -S "$TCC_ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
      -DPython_EXECUTABLE="$TCC_PYTHON"
fi
cmake --build "$BUILD_DIR"
