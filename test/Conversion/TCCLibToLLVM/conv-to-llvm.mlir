// RUN: tcc-opt %s --gpu-to-llvm --split-input-file --verify-diagnostics | FileCheck %s

// tcc_lib.conv2d is a call of tccConv on the token's stream with its
// descriptor on the stack (43 fields, include/tcc/Runtime/ConvCall.h):
// element type (f32: 0), activation (relu: 1), the sizes, padding,
// strides, dilations and groups from the attributes, the bias's address
// and stride, then x, the weight, the residual (absent: zeros) and out as
// address and N, C, H, W strides read from the views' descriptors, and
// whether the weight is constant (no: 0).
//       CHECK: llvm.func @tccConv(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func @conv_bias_relu
//       CHECK:   %[[S:.+]] = llvm.call @mgpuStreamCreate()
//       CHECK:   %[[N:.+]] = llvm.mlir.constant(43 : i64) : i64
//       CHECK:   %[[DESC:.+]] = llvm.alloca %[[N]] x i64
//       CHECK:   %[[F32:.+]] = llvm.mlir.constant(0 : i64) : i64
//  CHECK-NEXT:   %[[F0:.+]] = llvm.getelementptr %[[DESC]][0]
//  CHECK-NEXT:   llvm.store %[[F32]], %[[F0]]
//  CHECK-NEXT:   %[[RELU:.+]] = llvm.mlir.constant(1 : i64) : i64
//  CHECK-NEXT:   %[[F1:.+]] = llvm.getelementptr %[[DESC]][1]
//  CHECK-NEXT:   llvm.store %[[RELU]], %[[F1]]
//       CHECK:   %[[PAD:.+]] = llvm.mlir.constant(3 : i64) : i64
//  CHECK-NEXT:   %[[F11:.+]] = llvm.getelementptr %[[DESC]][11]
//  CHECK-NEXT:   llvm.store %[[PAD]], %[[F11]]
//       CHECK:   %[[GROUPS:.+]] = llvm.mlir.constant(4 : i64) : i64
//  CHECK-NEXT:   %[[F17:.+]] = llvm.getelementptr %[[DESC]][17]
//  CHECK-NEXT:   llvm.store %[[GROUPS]], %[[F17]]
//       CHECK:   llvm.getelementptr %[[DESC]][18]
//       CHECK:   llvm.getelementptr %[[DESC]][19]
//       CHECK:   %[[NONE:.+]] = llvm.mlir.constant(0 : i64) : i64
//  CHECK-NEXT:   %[[F30:.+]] = llvm.getelementptr %[[DESC]][30]
//  CHECK-NEXT:   llvm.store %[[NONE]], %[[F30]]
//       CHECK:   llvm.getelementptr %[[DESC]][39]
//       CHECK:   %[[VARYING:.+]] = llvm.mlir.constant(0 : i64) : i64
//  CHECK-NEXT:   %[[F40:.+]] = llvm.getelementptr %[[DESC]][40]
//  CHECK-NEXT:   llvm.store %[[VARYING]], %[[F40]]
//       CHECK:   llvm.call @tccConv(%[[S]], %[[DESC]]) : (!llvm.ptr, !llvm.ptr) -> ()
//       CHECK:   llvm.call @mgpuStreamSynchronize(%[[S]])
func.func @conv_bias_relu(%x: memref<?x8x224x224xf32>, %w: memref<64x2x7x7xf32>,
                          %b: memref<64xf32>, %y: memref<?x64x112x112xf32>) {
  %t0 = gpu.wait async
  %t1 = tcc_lib.conv2d async [%t0] %x, %w bias %b into %y
      {strides = array<i64: 2, 2>, padding = array<i64: 3, 3>, groups = 4 : i64,
       activation = "relu"}
      : memref<?x8x224x224xf32>, memref<64x2x7x7xf32> bias memref<64xf32>
        into memref<?x64x112x112xf32>
  gpu.wait [%t1]
  return
}

// -----

// bf16 channels-last with a residual: element type 2, no activation.
// CHECK-LABEL: llvm.func @channels_last_residual
//       CHECK:   %[[BF16:.+]] = llvm.mlir.constant(2 : i64) : i64
//  CHECK-NEXT:   %[[F0:.+]] = llvm.getelementptr %{{.+}}[0]
//  CHECK-NEXT:   llvm.store %[[BF16]], %[[F0]]
//  CHECK-NEXT:   %[[NONE:.+]] = llvm.mlir.constant(0 : i64) : i64
//  CHECK-NEXT:   %[[F1:.+]] = llvm.getelementptr %{{.+}}[1]
//  CHECK-NEXT:   llvm.store %[[NONE]], %[[F1]]
//       CHECK:   llvm.call @tccConv
func.func @channels_last_residual(%x: memref<2x64x56x56xbf16, strided<[200704, 1, 3584, 64]>>,
                                  %w: memref<64x64x3x3xbf16, strided<[576, 1, 192, 64]>>,
                                  %r: memref<2x64x56x56xbf16>, %y: memref<2x64x56x56xbf16>) {
  %t0 = gpu.wait async
  %t1 = tcc_lib.conv2d async [%t0] %x, %w residual %r into %y {padding = array<i64: 1, 1>}
      : memref<2x64x56x56xbf16, strided<[200704, 1, 3584, 64]>>,
        memref<64x64x3x3xbf16, strided<[576, 1, 192, 64]>>
        residual memref<2x64x56x56xbf16> into memref<2x64x56x56xbf16>
  gpu.wait [%t1]
  return
}

// -----

// Without gpu-async-region there is no stream to queue the call on.
func.func @no_stream(%x: memref<1x4x8x8xf32>, %w: memref<4x4x3x3xf32>, %y: memref<1x4x6x6xf32>) {
  // expected-error @+1 {{failed to legalize operation 'tcc_lib.conv2d'}}
  tcc_lib.conv2d %x, %w into %y : memref<1x4x8x8xf32>, memref<4x4x3x3xf32> into memref<1x4x6x6xf32>
  return
}
