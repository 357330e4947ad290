#!/usr/bin/env bash
# Set-up and build, then the main job on the bundled example: compile
# examples/vit_block.mlir with fusion and memory planning, run it on the CPU
# on generated inputs, and report the fusion groups, the memory plan, output
# checksums and latency.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

EXAMPLE="${1:-$TCC_ROOT/examples/vit_block.mlir}"
BATCH="${BATCH:-2}"
BIN="$BUILD_DIR/bin"

echo
echo "== fusion groups and memory plan: tcc-opt $(basename "$EXAMPLE") --fuse --plan-memory"
"$BIN/tcc-opt" "$EXAMPLE" --fuse=report=true --plan-memory=report=true \
  -o "$BUILD_DIR/demo.planned.mlir"
echo "(the fused and planned IR is in $BUILD_DIR/demo.planned.mlir)"

echo
echo "== compiled run (batch $BATCH, seeded random inputs) checked against the reference evaluator"
# Random weights in [-1, 1) drive the block's activations to ~300, and the
# reference sums in double: 1e-3 relative / 0.1 absolute is f32 rounding here
# (the worst seen is 0.05).
"$BIN/tcc-run" "$EXAMPLE" --random-inputs --dim-size="$BATCH" --checksum \
  --check-reference --rtol=1e-3 --atol=0.1

echo
echo "== latency (compiled, batch $BATCH)"
"$BIN/tcc-run" "$EXAMPLE" --random-inputs --dim-size="$BATCH" --benchmark=20 --checksum
