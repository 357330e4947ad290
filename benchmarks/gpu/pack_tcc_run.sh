#!/usr/bin/env bash
# Packs what device_tcc_run.sh needs on the GPU machine into
# build/device-tools (under the device tool's 64 MiB carry limit): tcc-run,
# tcc-compile, the runtime archives tcc-compile links, and xz-compressed
# libMLIR, libLLVM, MLIR's execution engine and libz3 (libLLVM needs it;
# the machine's own libxml2 and the rest serve). About a minute of xz.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/build/device-tools"
rm -rf "$OUT" && mkdir -p "$OUT/lib"
cp "$ROOT/build/bin/tcc-run" "$ROOT/build/bin/tcc-compile" "$OUT/"
cp "$ROOT"/build/lib/libTCCModelRuntime.a "$ROOT"/build/lib/libTCCRuntime.a \
   "$ROOT"/build/lib/libTCCCUDARuntime.a "$OUT/lib/"
echo "$ROOT" > "$OUT/root"
libs=$(mktemp -d)
for l in libMLIR.so.22.1 libLLVM.so.22.1 libMLIRExecutionEngineShared.so.22.1 libz3.so.4; do
  cp -L "$(ldd "$ROOT/build/bin/tcc-run" | awk -v l="$l" '$1 == l { print $3 }')" "$libs/"
done
tar -C "$libs" -cf - . | xz -T0 -6 > "$OUT/libs.tar.xz"
rm -rf "$libs"
du -sh "$OUT"
