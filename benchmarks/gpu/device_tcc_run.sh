#!/usr/bin/env bash
# tcc-run --device=cuda on the GPU machine, which has no MLIR: runs the RUN
# lines of test/Integration/device_cuda.mlir (lit and FileCheck are not
# there either: each line's output is printed with the line that it must
# contain) and two cuDNN convolutions, with tcc-run, tcc-compile and the
# MLIR/LLVM shared libraries carried from this machine:
#
#   bash benchmarks/gpu/pack_tcc_run.sh          # here: build/device-tools
#   bash benchmarks/gpu/device_tcc_run.sh        # there, build/device-tools carried
#
# tcc-compile links the runtime archives at the paths it was built with
# (this checkout's build/lib and include/): they are put there first.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="$ROOT/build/device-tools"
BUILT_ROOT="$(cat "$TOOLS/root")"
LIBS=$(mktemp -d)
tar -C "$LIBS" -xJf "$TOOLS/libs.tar.xz"
export LD_LIBRARY_PATH="$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ "$BUILT_ROOT" != "$ROOT" ]; then
  mkdir -p "$BUILT_ROOT/build"
  [ -e "$BUILT_ROOT/include" ] || ln -s "$ROOT/include" "$BUILT_ROOT/include"
fi
mkdir -p "$BUILT_ROOT/build/lib"
cp -n "$TOOLS"/lib/*.a "$BUILT_ROOT/build/lib/" 2>/dev/null || true
if [ -z "${TCC_CUDNN:-}" ] && ! ldconfig -p 2>/dev/null | grep -q libcudnn.so.9; then
  TCC_CUDNN=$(find / -name 'libcudnn.so.9' -not -path '/proc/*' 2>/dev/null | sort | head -1)
  [ -n "$TCC_CUDNN" ] && export TCC_CUDNN \
    LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$(dirname "$TCC_CUDNN")"
fi
TCC_RUN="$TOOLS/tcc-run"
status=0
test="$ROOT/test/Integration/device_cuda.mlir"
while IFS= read -r line; do
  cmd=${line#*RUN: }
  cmd=${cmd%%|*}
  prefix=$(sed -n 's/.*--check-prefix=\([A-Z_]*\).*/\1/p' <<<"$line")
  want=$(sed -n "s|^// $prefix: ||p" "$test")
  cmd=${cmd#not }  # the messages say whether it failed as it must
  cmd=${cmd//%s/$test}
  cmd=${cmd/tcc-run /$TCC_RUN }
  echo "== $cmd"
  echo "   must print: $want"
  out=$(eval "$cmd" 2>&1)
  echo "$out"
  grep -qF -- "$want" <<<"$out" || { echo "   MISSING"; status=1; }
done < <(grep '^// RUN: .*--device=cuda' "$test")
cases="$ROOT/benchmarks/gpu/cases/convs.mlir"
for spec in "conv_residual_relu --input=2x64x28x28xf32=random --input=64x64x3x3xf32=random --input=64xf32=random --input=2x64x28x28xf32=random" \
            "stem_bf16 --input=1x3x224x224xbf16=random --input=64x3x7x7xbf16=random --input=64xbf16=random"; do
  echo "== tcc-run convs.mlir --device=cuda --function=$spec --check-reference"
  "$TCC_RUN" "$cases" --device=cuda --function=$spec --check-reference || status=1
done
echo "tcc-run --device=cuda: status $status"
exit $status
