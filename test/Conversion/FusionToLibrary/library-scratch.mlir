// REQUIRES: dnnl
// RUN: tcc-opt %s --tcc-conv-to-library=target=cpu --tcc-linear-to-library --split-input-file | FileCheck %s

// oneDNN's scratchpad, reserved at compile time: the passes ask oneDNN
// (tccHostConvScratchpadBytes, tccHostGemmScratchpadBytes) for the call's
// bytes at the sizes the types give (an open batch or row count taken as
// 1) and pass an i8 buffer of that size as the op's scratch, which
// tcc-place-scratch-buffers later puts on the stack or in the arena. An
// NCHW convolution (oneDNN's im2col-style kernels) needs one (a ViT
// linear too on AVX-512 hosts: library-scratch-gemm.mlir); the byte
// counts are oneDNN's and vary with its version and the CPU, so only
// their presence is checked.
// CHECK-LABEL: func.func @nchw_conv
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?x64x56x56xf32>
//       CHECK:   %[[S:.+]] = memref.alloc() {alignment = 64 : i64} : memref<{{[1-9][0-9]*}}xi8>
//       CHECK:   tcc_lib.conv2d %{{.+}}, %{{.+}} into %[[OUT]] scratch %[[S]]
func.func @nchw_conv(%x: tensor<?x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32> {
  %0 = fusion.group "conv"(%x, %w : tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32> {
  ^bb0(%a: tensor<?x64x56x56xf32>, %b: tensor<64x64x3x3xf32>):
    %1 = tcc.conv2d %a, %b {padding = array<i64: 1, 1>} : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
    fusion.yield %1 : tensor<?x64x56x56xf32>
  }
  return %0 : tensor<?x64x56x56xf32>
}

// -----

// Sizes the reservation cannot assume (an open channel count, an open K):
// no scratch; the runtime's per-thread buffer serves the call.
// CHECK-LABEL: func.func @open_sizes
//   CHECK-NOT:   xi8>
//       CHECK:   tcc_lib.conv2d %{{.+}}, %{{.+}} into %{{[^ ]+}} {padding
//   CHECK-NOT:   xi8>
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %{{[^ ]+}} :
func.func @open_sizes(%x: tensor<1x?x56x56xf32>, %w: tensor<64x?x3x3xf32>, %y: tensor<600x?xf32>, %v: tensor<2304x?xf32>) -> (tensor<1x64x56x56xf32>, tensor<600x2304xf32>) {
  %0 = fusion.group "conv"(%x, %w : tensor<1x?x56x56xf32>, tensor<64x?x3x3xf32>) -> tensor<1x64x56x56xf32> {
  ^bb0(%a: tensor<1x?x56x56xf32>, %b: tensor<64x?x3x3xf32>):
    %1 = tcc.conv2d %a, %b {padding = array<i64: 1, 1>} : (tensor<1x?x56x56xf32>, tensor<64x?x3x3xf32>) -> tensor<1x64x56x56xf32>
    fusion.yield %1 : tensor<1x64x56x56xf32>
  }
  %2 = fusion.group "matmul"(%y, %v : tensor<600x?xf32>, tensor<2304x?xf32>) -> tensor<600x2304xf32> {
  ^bb0(%a: tensor<600x?xf32>, %b: tensor<2304x?xf32>):
    %3 = tcc.linear %a, %b : (tensor<600x?xf32>, tensor<2304x?xf32>) -> tensor<600x2304xf32>
    fusion.yield %3 : tensor<600x2304xf32>
  }
  return %0, %2 : tensor<1x64x56x56xf32>, tensor<600x2304xf32>
}
