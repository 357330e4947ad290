#!/usr/bin/env bash
# Set-up, build, then the whole test suite: unit tests and lit (check-tcc),
# then the ONNX backend-test conformance (its report goes to the build
# directory; a case of test/ONNX/expected_pass.txt that fails is a
# failure), then the examples exported from PyTorch to ONNX, imported, run
# and compared with PyTorch, then the Python package's tests (pytest:
# bindings and the torch.compile backend) and the embedding example built
# against the installed package. Exits non-zero on any failure; the summaries
# are printed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cmake --build "$BUILD_DIR" --target check-tcc
if [ -x "$BUILD_DIR/bin/tcc-import-onnx" ]; then
  python3 "$TCC_ROOT/test/ONNX/conformance.py" --bin "$BUILD_DIR/bin" \
      --report "$BUILD_DIR/onnx-conformance.md"
  "$TCC_PYTHON" "$TCC_ROOT/examples/export_onnx.py" --bin "$BUILD_DIR/bin" \
      --out "$BUILD_DIR/onnx-export"
fi
"$TCC_PYTHON" -m pytest -q "$TCC_ROOT/python_bindings/tests" \
    --tcc-build-dir "$BUILD_DIR"
bash "$TCC_ROOT/examples/embed/test.sh" "$BUILD_DIR"
