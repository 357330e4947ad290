#!/usr/bin/env bash
# Regenerates the op and pass references in docs/ from ODS (TableGen).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${TCC_BUILD_DIR:-$ROOT/build}"
cmake --build "$BUILD_DIR" --target mlir-doc
mkdir -p "$ROOT/docs/reference"
for f in Dialects/TCCOps Dialects/TCCAttrs Dialects/FusionOps Dialects/TCCLibOps Passes/TCCTransformsPasses Passes/TCCConversionPasses Passes/TCCCodegenCommonPasses Passes/TCCCodegenCPUPasses Passes/TCCCodegenCUDAPasses; do
  cp "$BUILD_DIR/docs/$f.md" "$ROOT/docs/reference/$(basename "$f").md"
done
echo "docs/reference updated"
