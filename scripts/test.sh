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
# Each stage's wall time, printed as it ends (where CI's minutes go).
stage_start=$SECONDS
stage() {
  echo "test.sh: $1 took $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
stage "set-up and build"
cmake --build "$BUILD_DIR" --target check-tcc
stage "unit tests and lit"
if [ -x "$BUILD_DIR/bin/tcc-import-onnx" ]; then
  python3 "$TCC_ROOT/test/ONNX/conformance.py" --bin "$BUILD_DIR/bin" \
      --report "$BUILD_DIR/onnx-conformance.md"
  stage "ONNX conformance"
  "$TCC_PYTHON" "$TCC_ROOT/examples/export_onnx.py" --bin "$BUILD_DIR/bin" \
      --out "$BUILD_DIR/onnx-export"
  stage "examples exported to ONNX"
fi
"$TCC_PYTHON" -m pytest -q "$TCC_ROOT/python_bindings/tests" \
    --tcc-build-dir "$BUILD_DIR" --durations=15
stage "pytest"
bash "$TCC_ROOT/examples/embed/test.sh" "$BUILD_DIR"
stage "embedding example"
