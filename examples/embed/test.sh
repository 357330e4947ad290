#!/usr/bin/env bash
# Installs tcc from BUILD_DIR into a prefix, builds this example against
# the installed package (not the source tree) and runs it: what a
# downstream compiler does. scripts/test.sh runs it in CI.
#   examples/embed/test.sh [BUILD_DIR]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD_DIR="${1:-$ROOT/build}"
PREFIX="$BUILD_DIR/embed/prefix"
EMBED_BUILD="$BUILD_DIR/embed/build"
FILECHECK=/usr/lib/llvm-22/bin/FileCheck

rm -rf "$PREFIX"
cmake --install "$BUILD_DIR" --prefix "$PREFIX" > /dev/null
cmake -G Ninja -S "$HERE" -B "$EMBED_BUILD" -DTCC_DIR="$PREFIX/lib/cmake/tcc" \
    -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$EMBED_BUILD"

MODEL="$ROOT/examples/robot_policy.mlir"
# my-opt: tcc's fuse pass, the project's own pass, tcc's lowering.
"$EMBED_BUILD/my-opt" "$MODEL" --my-pipeline --mlir-print-op-on-diagnostic=false 2>&1 | "$FILECHECK" "$HERE/checks.txt" --check-prefix=OPT
"$EMBED_BUILD/my-opt" "$MODEL" --my-pipeline=llvm=true --mlir-print-op-on-diagnostic=false 2>&1 | "$FILECHECK" "$HERE/checks.txt" --check-prefix=LLVM
# my-capi: the C API; all-ones inputs make every LayerNorm output its bias
# (1), so each head gives 256 * 1 + 1.
"$EMBED_BUILD/my-capi" "$MODEL" robot_policy 4x256 512x256 512 512 512 \
    256x512 256 256 256 12x256 12 1x256 1 | "$FILECHECK" "$HERE/checks.txt" --check-prefix=CAPI
# The installed tools run from the prefix.
"$PREFIX/bin/tcc-run" "$MODEL" --function=robot_policy --random-inputs \
    --dim-size=3 --check-reference | "$FILECHECK" "$HERE/checks.txt" --check-prefix=TOOL
echo "embed: the example built against $PREFIX and ran"
