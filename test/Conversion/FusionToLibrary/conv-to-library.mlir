// RUN: tcc-opt %s --tcc-conv-to-library=target=cuda --split-input-file | FileCheck %s

// conv_block's first group (dynamic batch): cuDNN computes the convolution
// into a new buffer and the batch norm and ReLU stay a pointwise group
// that reads it. The inputs the convolution took leave the group.
// CHECK-LABEL: func.func @conv_bn_relu
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x64x56x56xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<64x64x3x3xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<64xf32>
//       CHECK:   %[[XB:.+]] = bufferization.to_buffer %[[X]] read_only : tensor<?x64x56x56xf32> to memref<?x64x56x56xf32, strided<[?, ?, ?, ?], offset: ?>>
//       CHECK:   %[[WB:.+]] = bufferization.to_buffer %[[W]] read_only
//       CHECK:   %[[N:.+]] = memref.dim %[[XB]], %c0
//       CHECK:   %[[OUT:.+]] = memref.alloc(%[[N]]) : memref<?x64x56x56xf32>
//       CHECK:   tcc_lib.conv2d %[[XB]], %[[WB]] into %[[OUT]] {padding = array<i64: 1, 1>}
//       CHECK:   %[[C:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
//       CHECK:   %[[G:.+]] = fusion.group "pointwise"(%[[S]], %[[C]] : tensor<64xf32>, tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32> {
//       CHECK:   ^bb0(%[[SA:.+]]: tensor<64xf32>, %[[CA:.+]]: tensor<?x64x56x56xf32>):
//       CHECK:     %[[BN:.+]] = tcc.batch_norm %[[CA]], %[[SA]], %[[SA]], %[[SA]], %[[SA]]
//       CHECK:     %[[R:.+]] = tcc.relu %[[BN]]
//       CHECK:     fusion.yield %[[R]]
//   CHECK-NOT:   tcc.conv2d
//       CHECK:   return %[[G]]
func.func @conv_bn_relu(%x: tensor<?x64x56x56xf32>, %w: tensor<64x64x3x3xf32>, %s: tensor<64xf32>) -> tensor<?x64x56x56xf32> {
  %0 = fusion.group "conv"(%x, %w, %s : tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32> {
  ^bb0(%a: tensor<?x64x56x56xf32>, %b: tensor<64x64x3x3xf32>, %c: tensor<64xf32>):
    %1 = tcc.conv2d %a, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
    %2 = tcc.batch_norm %1, %c, %c, %c, %c : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
    %3 = tcc.relu %2 : (tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32>
    fusion.yield %3 : tensor<?x64x56x56xf32>
  }
  return %0 : tensor<?x64x56x56xf32>
}

// -----

// The whole epilogue goes with the call: bias, a residual add (either
// operand order) and ReLU. Nothing is left, so the group is gone.
// CHECK-LABEL: func.func @bias_residual_relu
//   CHECK-NOT:   fusion.group
//       CHECK:   %[[OUT:.+]] = memref.alloc() : memref<2x16x5x5xbf16>
//       CHECK:   tcc_lib.conv2d %{{.+}}, %{{.+}} bias %{{.+}} residual %{{.+}} into %[[OUT]] {activation = "relu", padding = array<i64: 1, 1>, strides = array<i64: 2, 2>}
//  CHECK-SAME:     bias memref<16xbf16, strided<[?], offset: ?>> residual memref<2x16x5x5xbf16, strided<[?, ?, ?, ?], offset: ?>> into memref<2x16x5x5xbf16>
//       CHECK:   %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
//       CHECK:   return %[[R]]
func.func @bias_residual_relu(%x: tensor<2x8x9x9xbf16>, %w: tensor<16x8x3x3xbf16>, %b: tensor<16xbf16>, %r: tensor<2x16x5x5xbf16>) -> tensor<2x16x5x5xbf16> {
  %0 = fusion.group "conv"(%x, %w, %b, %r : tensor<2x8x9x9xbf16>, tensor<16x8x3x3xbf16>, tensor<16xbf16>, tensor<2x16x5x5xbf16>) -> tensor<2x16x5x5xbf16> {
  ^bb0(%a: tensor<2x8x9x9xbf16>, %c: tensor<16x8x3x3xbf16>, %d: tensor<16xbf16>, %e: tensor<2x16x5x5xbf16>):
    %1 = tcc.conv2d %a, %c, %d {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<2x8x9x9xbf16>, tensor<16x8x3x3xbf16>, tensor<16xbf16>) -> tensor<2x16x5x5xbf16>
    %2 = tcc.add %e, %1 : (tensor<2x16x5x5xbf16>, tensor<2x16x5x5xbf16>) -> tensor<2x16x5x5xbf16>
    %3 = tcc.relu %2 : (tensor<2x16x5x5xbf16>) -> tensor<2x16x5x5xbf16>
    fusion.yield %3 : tensor<2x16x5x5xbf16>
  }
  return %0 : tensor<2x16x5x5xbf16>
}

// -----

// Dynamic batch and spatial dims, strides, dilations and groups: the
// output's spatial sizes are (in + 2 pad - dilation (k - 1) - 1) / stride
// + 1, and the residual's open dims are compared with the output's at run
// time.
// CHECK-LABEL: func.func @dynamic
//       CHECK:   %[[XB:.+]] = bufferization.to_buffer %arg0 read_only
//       CHECK:   %[[H:.+]] = memref.dim %[[XB]], %c2
//       CHECK:   arith.divsi
//       CHECK:   %[[W:.+]] = memref.dim %[[XB]], %c3
//       CHECK:   arith.divsi
//       CHECK:   cf.assert %{{.+}}, "tcc.conv2d: the residual's shape differs from the output's"
//       CHECK:   cf.assert %{{.+}}, "tcc.conv2d: the residual's shape differs from the output's"
//       CHECK:   cf.assert %{{.+}}, "tcc.conv2d: the residual's shape differs from the output's"
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}, %{{.+}}, %{{.+}}) : memref<?x8x?x?xf32>
//       CHECK:   tcc_lib.conv2d %[[XB]], %{{.+}} residual %{{.+}} into %[[OUT]] {dilations = array<i64: 2, 1>, groups = 2 : i64, strides = array<i64: 2, 1>}
func.func @dynamic(%x: tensor<?x4x?x?xf32>, %w: tensor<8x2x3x3xf32>, %r: tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32> {
  %0 = fusion.group "conv"(%x, %w, %r : tensor<?x4x?x?xf32>, tensor<8x2x3x3xf32>, tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32> {
  ^bb0(%a: tensor<?x4x?x?xf32>, %c: tensor<8x2x3x3xf32>, %e: tensor<?x8x?x?xf32>):
    %1 = tcc.conv2d %a, %c {strides = array<i64: 2, 1>, dilations = array<i64: 2, 1>, groups = 2 : i64} : (tensor<?x4x?x?xf32>, tensor<8x2x3x3xf32>) -> tensor<?x8x?x?xf32>
    %2 = tcc.add %1, %e : (tensor<?x8x?x?xf32>, tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>
    fusion.yield %2 : tensor<?x8x?x?xf32>
  }
  return %0 : tensor<?x8x?x?xf32>
}

// -----

// A broadcast residual ([1, C, H, W]) is not cuDNN's z: the add stays in
// the group, which reads the convolution's result.
// CHECK-LABEL: func.func @broadcast_residual
//       CHECK:   tcc_lib.conv2d %{{.+}}, %{{.+}} into %{{.+}} :
//       CHECK:   fusion.group "pointwise"
//       CHECK:     tcc.add
//       CHECK:     tcc.relu
func.func @broadcast_residual(%x: tensor<2x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %r: tensor<1x4x6x6xf32>) -> tensor<2x4x6x6xf32> {
  %0 = fusion.group "conv"(%x, %w, %r : tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<1x4x6x6xf32>) -> tensor<2x4x6x6xf32> {
  ^bb0(%a: tensor<2x4x8x8xf32>, %c: tensor<4x4x3x3xf32>, %e: tensor<1x4x6x6xf32>):
    %1 = tcc.conv2d %a, %c : (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x6x6xf32>
    %2 = tcc.add %1, %e : (tensor<2x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<2x4x6x6xf32>
    %3 = tcc.relu %2 : (tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32>
    fusion.yield %3 : tensor<2x4x6x6xf32>
  }
  return %0 : tensor<2x4x6x6xf32>
}

// -----

// Left to generated code: asymmetric padding (cuDNN pads both sides
// alike), f64, and a convolution whose input is computed in its group.
// CHECK-LABEL: func.func @not_library
//   CHECK-NOT:   tcc_lib.conv2d
//       CHECK:   fusion.group "conv"
//       CHECK:     tcc.conv2d
//       CHECK:   fusion.group "conv"
//       CHECK:     tcc.conv2d
//       CHECK:   fusion.group "conv"
//       CHECK:     tcc.relu
//       CHECK:     tcc.conv2d
func.func @not_library(%x: tensor<2x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %xd: tensor<2x4x8x8xf64>, %wd: tensor<4x4x3x3xf64>) -> (tensor<2x4x7x7xf32>, tensor<2x4x6x6xf64>, tensor<2x4x6x6xf32>) {
  %0 = fusion.group "conv"(%x, %w : tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x7x7xf32> {
  ^bb0(%a: tensor<2x4x8x8xf32>, %c: tensor<4x4x3x3xf32>):
    %1 = tcc.conv2d %a, %c {padding = array<i64: 1, 1, 0, 0>} : (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x7x7xf32>
    fusion.yield %1 : tensor<2x4x7x7xf32>
  }
  %2 = fusion.group "conv"(%xd, %wd : tensor<2x4x8x8xf64>, tensor<4x4x3x3xf64>) -> tensor<2x4x6x6xf64> {
  ^bb0(%a: tensor<2x4x8x8xf64>, %c: tensor<4x4x3x3xf64>):
    %3 = tcc.conv2d %a, %c : (tensor<2x4x8x8xf64>, tensor<4x4x3x3xf64>) -> tensor<2x4x6x6xf64>
    fusion.yield %3 : tensor<2x4x6x6xf64>
  }
  %4 = fusion.group "conv"(%x, %w : tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x6x6xf32> {
  ^bb0(%a: tensor<2x4x8x8xf32>, %c: tensor<4x4x3x3xf32>):
    %5 = tcc.relu %a : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %6 = tcc.conv2d %5, %c : (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x6x6xf32>
    fusion.yield %6 : tensor<2x4x6x6xf32>
  }
  return %0, %2, %4 : tensor<2x4x7x7xf32>, tensor<2x4x6x6xf64>, tensor<2x4x6x6xf32>
}

// -----

// A channels-last convolution (--select-layout chose NHWC): the library
// gets NCHW-ordered views of the NHWC input, OHWI weight, residual and
// output buffers (memref.transpose: their strides say how they lie), and
// the result stays NHWC.
// CHECK-LABEL: func.func @channels_last
//       CHECK:   %[[XB:.+]] = bufferization.to_buffer %arg0 read_only : tensor<?x9x9x16xbf16> to memref<?x9x9x16xbf16, strided<[?, ?, ?, ?], offset: ?>>
//       CHECK:   %[[WB:.+]] = bufferization.to_buffer %arg1 read_only
//       CHECK:   %[[RB:.+]] = bufferization.to_buffer %arg2 read_only
//       CHECK:   %[[XT:.+]] = memref.transpose %[[XB]] (d0, d1, d2, d3) -> (d0, d3, d1, d2)
//       CHECK:   %[[WT:.+]] = memref.transpose %[[WB]] (d0, d1, d2, d3) -> (d0, d3, d1, d2)
//       CHECK:   %[[RT:.+]] = memref.transpose %[[RB]] (d0, d1, d2, d3) -> (d0, d3, d1, d2)
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?x9x9x32xbf16>
//       CHECK:   %[[OT:.+]] = memref.transpose %[[OUT]] (d0, d1, d2, d3) -> (d0, d3, d1, d2) : memref<?x9x9x32xbf16> to memref<?x32x9x9xbf16, strided<[2592, 1, 288, 32]>>
//       CHECK:   tcc_lib.conv2d %[[XT]], %[[WT]] residual %[[RT]] into %[[OT]] {activation = "relu", padding = array<i64: 1, 1>}
//       CHECK:   %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
//       CHECK:   return %[[R]] : tensor<?x9x9x32xbf16>
func.func @channels_last(%x: tensor<?x9x9x16xbf16>, %w: tensor<32x3x3x16xbf16>, %r: tensor<?x9x9x32xbf16>) -> tensor<?x9x9x32xbf16> {
  %0 = fusion.group "conv"(%x, %w, %r : tensor<?x9x9x16xbf16>, tensor<32x3x3x16xbf16>, tensor<?x9x9x32xbf16>) -> tensor<?x9x9x32xbf16> {
  ^bb0(%a: tensor<?x9x9x16xbf16>, %b: tensor<32x3x3x16xbf16>, %c: tensor<?x9x9x32xbf16>):
    %1 = tcc.conv2d %a, %b {padding = array<i64: 1, 1>, layout = "NHWC"} : (tensor<?x9x9x16xbf16>, tensor<32x3x3x16xbf16>) -> tensor<?x9x9x32xbf16>
    %2 = tcc.add %1, %c : (tensor<?x9x9x32xbf16>, tensor<?x9x9x32xbf16>) -> tensor<?x9x9x32xbf16>
    %3 = tcc.relu %2 : (tensor<?x9x9x32xbf16>) -> tensor<?x9x9x32xbf16>
    fusion.yield %3 : tensor<?x9x9x32xbf16>
  }
  return %0 : tensor<?x9x9x32xbf16>
}
