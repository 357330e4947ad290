// RUN: tcc-opt %s --tcc-host-library-calls-to-llvm --split-input-file --verify-diagnostics | FileCheck %s

// A tcc_gpu.conv2d without a token is a host call: tccHostConv(null, desc)
// with the descriptor the cuda pipeline passes (41 fields,
// include/tcc/Runtime/ConvCall.h); field 40 says the weight is constant.
//       CHECK: llvm.func @tccHostConv(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @host_conv
//       CHECK:   %[[N:.+]] = llvm.mlir.constant(41 : i64) : i64
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
//   CHECK-NOT:   tcc_gpu.conv2d
func.func @host_conv(%x: memref<?x8x16x16xf32>, %w: memref<16x8x3x3xf32>,
                     %y: memref<?x16x16x16xf32>) {
  tcc_gpu.conv2d %x, %w into %y {padding = array<i64: 1, 1>, constant_weight}
      : memref<?x8x16x16xf32>, memref<16x8x3x3xf32> into memref<?x16x16x16xf32>
  return
}

// -----

// Matrix products have no host runtime: the op stays, and the conversion
// says so.
func.func @host_gemm(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %d: memref<4x16xf32>) {
  // expected-error @below {{failed to legalize operation 'tcc_gpu.gemm'}}
  tcc_gpu.gemm %a, %b into %d : memref<4x8xf32>, memref<8x16xf32> into memref<4x16xf32>
  return
}
