// REQUIRES: avx512
// tcc-compile --mcpu: AVX-512-only instructions (vscalefps in exp) only
// when the CPU compiled for has AVX-512, and the library still matches the
// reference on this host either way.

// RUN: rm -rf %t && mkdir -p %t
// RUN: tcc-compile %s -o %t/libnative.so
// RUN: llvm-objdump -d %t/libnative.so | FileCheck %s --check-prefix=NATIVE
// NATIVE: vscalefps
// RUN: tcc-run %s --library=%t/libnative.so --function=softmax --input=8x64xf32=random --check-reference | FileCheck %s --check-prefix=MATCH
// RUN: tcc-compile %s -o %t/libavx2.so --mcpu=x86-64-v3
// RUN: llvm-objdump -d %t/libavx2.so | FileCheck %s --check-prefix=AVX2
// AVX2-NOT: vscalefps
// AVX2-NOT: zmm
// RUN: tcc-run %s --library=%t/libavx2.so --function=softmax --input=8x64xf32=random --check-reference | FileCheck %s --check-prefix=MATCH
// The pipeline's own mcpu= names the target as --mcpu does (the tool
// attaches the target before the pipeline runs).
// RUN: tcc-compile %s -o %t/libavx2opt.so --pipeline-options="mcpu=x86-64-v3 fuse=false"
// RUN: llvm-objdump -d %t/libavx2opt.so | FileCheck %s --check-prefix=AVX2
// RUN: tcc-opt %s --tcc-cpu-pipeline="avx512=off" | FileCheck %s --check-prefix=OFF
// OFF-NOT: llvm.x86.avx512.mask.scalef
// RUN: tcc-opt %s --tcc-cpu-pipeline="avx512=on" | FileCheck %s --check-prefix=ON
// ON: llvm.x86.avx512.mask.scalef
// RUN: not tcc-opt %s --tcc-cpu-pipeline="avx512=maybe" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: Cannot find option named 'maybe'
// MATCH: [SUCCESS] result[0] matches the reference (8x64xf32)

func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
