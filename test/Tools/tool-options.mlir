// The flags tcc-run and tcc-compile share (tools/ToolOptions.h): the
// pipeline's own options as text, the short flags on top, the target from
// --mcpu / --chip through the one target builder.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tcc-run %s --mcpu=x86-64-v3 --input=8x64xf32=random --check-reference | FileCheck %s --check-prefix=MATCH
// RUN: tcc-run %s --pipeline-options="fuse=false vectorize=false" --input=8x64xf32=random --check-reference | FileCheck %s --check-prefix=MATCH
// RUN: tcc-run %s --pipeline-options="fuse=false" --no-parallel --input=8x64xf32=random --check-reference | FileCheck %s --check-prefix=MATCH
// MATCH: [SUCCESS] result[0] matches the reference (8x64xf32)

// RUN: not tcc-run %s --pipeline-options="no-such-option=1" --input=8x64xf32=random 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: tcc-run: error: --pipeline-options: not options of the cpu pipeline: 'no-such-option=1'
// RUN: not tcc-run %s --mcpu=pentium9 --input=8x64xf32=random 2>&1 | FileCheck %s --check-prefix=BADCPU
// BADCPU: tcc-run: error: unknown CPU 'pentium9' (an LLVM CPU name such as x86-64-v3, znver4 or skylake-avx512, or host)
// RUN: not tcc-compile %s -o %t/lib.so --chip=sm_80 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: tcc-compile: error: --chip applies to cuda builds only
// RUN: not tcc-compile %s -o %t/lib.so --target=tpu 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: tcc-compile: error: --target: unknown target 'tpu' (expected cpu or cuda)

// A library for another CPU, its manifest and target as named.
// RUN: tcc-compile %s -o %t/libv3.so --mcpu=x86-64-v3 --pipeline-options="fuse=false"
// RUN: tcc-run %s --library=%t/libv3.so --input=8x64xf32=random --check-reference | FileCheck %s --check-prefix=MATCH
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/libv3.json
// MANIFEST: "target": "cpu"

func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
