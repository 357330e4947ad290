// RUN: tcc-opt %s --tcc-host-library-calls-to-llvm --split-input-file --verify-diagnostics | FileCheck %s

// A tcc_lib.conv2d without a token is a host call: tccHostConv(null, desc)
// with the descriptor the cuda pipeline passes (43 fields,
// include/tcc/Runtime/ConvCall.h); field 40 says the weight is constant.
//       CHECK: llvm.func @tccHostConv(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @host_conv
//       CHECK:   %[[N:.+]] = llvm.mlir.constant(43 : i64) : i64
//       CHECK:   %[[DESC:.+]] = llvm.alloca %[[N]] x i64
//       CHECK:   %[[F32:.+]] = llvm.mlir.constant(0 : i64) : i64
//  CHECK-NEXT:   %[[F0:.+]] = llvm.getelementptr %[[DESC]][0]
//  CHECK-NEXT:   llvm.store %[[F32]], %[[F0]]
//       CHECK:   llvm.getelementptr %[[DESC]][39]
//       CHECK:   %[[CONSTANT:.+]] = llvm.mlir.constant(1 : i64) : i64
//  CHECK-NEXT:   %[[F40:.+]] = llvm.getelementptr %[[DESC]][40]
//  CHECK-NEXT:   llvm.store %[[CONSTANT]], %[[F40]]
//       CHECK:   %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
//       CHECK:   llvm.call @tccHostConv(%[[NULL]], %[[DESC]]) : (!llvm.ptr, !llvm.ptr) -> ()
//   CHECK-NOT:   tcc_lib.conv2d
func.func @host_conv(%x: memref<?x8x16x16xf32>, %w: memref<16x8x3x3xf32>,
                     %y: memref<?x16x16x16xf32>) {
  tcc_lib.conv2d %x, %w into %y {padding = array<i64: 1, 1>, constant_weight}
      : memref<?x8x16x16xf32>, memref<16x8x3x3xf32> into memref<?x16x16x16xf32>
  return
}

// -----

// A tcc_lib.gemm without a token: tccHostGemm(null, desc) with the
// cuBLASLt descriptor (28 fields, include/tcc/Runtime/GemmCall.h): field 1
// the epilogue (gelu: 2), 22 the bias's address, 24 its stride, 25 whether
// b is constant, 26 and 27 the scratch's address and bytes.
//       CHECK: llvm.func @tccHostGemm(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @host_gemm
//       CHECK:   %[[N:.+]] = llvm.mlir.constant(28 : i64) : i64
//       CHECK:   %[[DESC:.+]] = llvm.alloca %[[N]] x i64
//       CHECK:   %[[GELU:.+]] = llvm.mlir.constant(2 : i64) : i64
//  CHECK-NEXT:   %[[F1:.+]] = llvm.getelementptr %[[DESC]][1]
//  CHECK-NEXT:   llvm.store %[[GELU]], %[[F1]]
//       CHECK:   %[[CONSTANT:.+]] = llvm.mlir.constant(1 : i64) : i64
//  CHECK-NEXT:   %[[F25:.+]] = llvm.getelementptr %[[DESC]][25]
//  CHECK-NEXT:   llvm.store %[[CONSTANT]], %[[F25]]
//       CHECK:   llvm.getelementptr %[[DESC]][26]
//       CHECK:   %[[BYTES:.+]] = llvm.extractvalue %{{.+}}[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
//  CHECK-NEXT:   %[[F27:.+]] = llvm.getelementptr %[[DESC]][27]
//  CHECK-NEXT:   llvm.store %[[BYTES]], %[[F27]]
//       CHECK:   llvm.getelementptr %[[DESC]][22]
//       CHECK:   %[[BIASSTRIDE:.+]] = llvm.extractvalue %{{.+}}[4, 0]
//  CHECK-NEXT:   %[[F24:.+]] = llvm.getelementptr %[[DESC]][24]
//  CHECK-NEXT:   llvm.store %[[BIASSTRIDE]], %[[F24]]
//       CHECK:   %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
//       CHECK:   llvm.call @tccHostGemm(%[[NULL]], %[[DESC]]) : (!llvm.ptr, !llvm.ptr) -> ()
//   CHECK-NOT:   tcc_lib.gemm
func.func @host_gemm(%a: memref<4x8xf32>, %b: memref<8x16xf32, strided<[1, 8]>>,
                     %bias: memref<16xf32, strided<[?], offset: ?>>, %d: memref<4x16xf32>,
                     %s: memref<1024xi8>) {
  tcc_lib.gemm %a, %b bias %bias into %d scratch %s {epilogue = "gelu", constant_b}
      : memref<4x8xf32>, memref<8x16xf32, strided<[1, 8]>> bias memref<16xf32, strided<[?], offset: ?>> into memref<4x16xf32> scratch memref<1024xi8>
  return
}

// -----

// Attention has no host runtime: the op stays, and the conversion says so.
func.func @host_attention(%q: memref<1x2x8x64xf32>, %o: memref<1x2x8x64xf32>) {
  // expected-error @below {{failed to legalize operation 'tcc_lib.attention'}}
  tcc_lib.attention %q, %q, %q into %o {scale = 0.125 : f32}
      : memref<1x2x8x64xf32>, memref<1x2x8x64xf32>, memref<1x2x8x64xf32> into memref<1x2x8x64xf32>
  return
}
