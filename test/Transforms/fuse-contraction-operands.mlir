// RUN: tcc-opt %s --fuse --split-input-file | FileCheck %s

// A value that feeds a contraction operand stays out of the contraction's
// group even when the epilogue uses it too, whatever the epilogue's operand
// order (see /tmp/bugs2/fuse_matmul_operand_via_epilogue.mlir).

// CHECK-LABEL: func.func @epilogue_uses_operand_rhs
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"
//       CHECK:     tcc.relu
//       CHECK:   %[[M:.+]] = fusion.group "matmul"(%[[P]], %{{.*}} :
//   CHECK-NOT:     tcc.relu
//       CHECK:     tcc.linear
//       CHECK:     tcc.add
//       CHECK:   return %[[M]]
func.func @epilogue_uses_operand_rhs(%y: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %p = tcc.relu %y : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %l = tcc.linear %p, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %o = tcc.add %l, %p : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %o : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @epilogue_uses_operand_lhs
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"
//       CHECK:     tcc.relu
//       CHECK:   %[[M:.+]] = fusion.group "matmul"(%[[P]], %{{.*}} :
//   CHECK-NOT:     tcc.relu
//       CHECK:     tcc.linear
//       CHECK:     tcc.add
//       CHECK:   return %[[M]]
func.func @epilogue_uses_operand_lhs(%y: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %p = tcc.relu %y : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %l = tcc.linear %p, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %o = tcc.add %p, %l : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %o : tensor<4x16xf32>
}

// -----

// The same for a convolution's input.
// CHECK-LABEL: func.func @conv_epilogue_uses_input
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"
//       CHECK:     tcc.relu
//       CHECK:   %[[C:.+]] = fusion.group "conv"(%[[P]], %{{.*}} :
//   CHECK-NOT:     tcc.relu
//       CHECK:     tcc.conv2d
//       CHECK:     tcc.add
//       CHECK:   return %[[C]]
func.func @conv_epilogue_uses_input(%y: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %p = tcc.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c = tcc.conv2d %p, %w {padding = array<i64: 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %o = tcc.add %c, %p : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %o : tensor<1x4x8x8xf32>
}
