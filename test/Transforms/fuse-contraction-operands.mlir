// RUN: tcc-opt %s --fuse --split-input-file | FileCheck %s

// A value that feeds a contraction operand stays out of the contraction's
// group even when the epilogue uses it too, whatever the epilogue's operand
// order (see /tmp/bugs2/fuse_matmul_operand_via_epilogue.mlir): it is computed
// once, in a group of its own, and the group reads it as an input both for the
// contraction and for the epilogue.

// CHECK-LABEL: func.func @epilogue_uses_operand_rhs
//  CHECK-SAME:   %[[Y:[a-zA-Z0-9_]+]]: tensor<4x16xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<16x16xf32>
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"(%[[Y]] : tensor<4x16xf32>) -> tensor<4x16xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.relu
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[M:.+]] = fusion.group "matmul"(%[[P]], %[[W]] :
//  CHECK-NEXT:   ^bb0(%[[PP:[a-zA-Z0-9_]+]]: tensor<4x16xf32>, %[[WW:[a-zA-Z0-9_]+]]: tensor<16x16xf32>):
//  CHECK-NEXT:     %[[L:.+]] = tcc.linear %[[PP]], %[[WW]]
//  CHECK-NEXT:     %[[O:.+]] = tcc.add %[[L]], %[[PP]]
//  CHECK-NEXT:     fusion.yield %[[O]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[M]]
func.func @epilogue_uses_operand_rhs(%y: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %p = tcc.relu %y : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %l = tcc.linear %p, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %o = tcc.add %l, %p : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %o : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @epilogue_uses_operand_lhs
//  CHECK-SAME:   %[[Y:[a-zA-Z0-9_]+]]: tensor<4x16xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<16x16xf32>
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"(%[[Y]] : tensor<4x16xf32>) -> tensor<4x16xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.relu
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[M:.+]] = fusion.group "matmul"(%[[P]], %[[W]] :
//  CHECK-NEXT:   ^bb0(%[[PP:[a-zA-Z0-9_]+]]: tensor<4x16xf32>, %[[WW:[a-zA-Z0-9_]+]]: tensor<16x16xf32>):
//  CHECK-NEXT:     %[[L:.+]] = tcc.linear %[[PP]], %[[WW]]
//  CHECK-NEXT:     %[[O:.+]] = tcc.add %[[PP]], %[[L]]
//  CHECK-NEXT:     fusion.yield %[[O]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[M]]
func.func @epilogue_uses_operand_lhs(%y: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %p = tcc.relu %y : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %l = tcc.linear %p, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %o = tcc.add %p, %l : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %o : tensor<4x16xf32>
}

// -----

// The same for a convolution's input.
// CHECK-LABEL: func.func @conv_epilogue_uses_input
//  CHECK-SAME:   %[[Y:[a-zA-Z0-9_]+]]: tensor<1x4x8x8xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<4x4x3x3xf32>
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"(%[[Y]] : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.relu
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[C:.+]] = fusion.group "conv"(%[[P]], %[[W]] :
//  CHECK-NEXT:   ^bb0(%[[PP:[a-zA-Z0-9_]+]]: tensor<1x4x8x8xf32>, %[[WW:[a-zA-Z0-9_]+]]: tensor<4x4x3x3xf32>):
//  CHECK-NEXT:     %[[CV:.+]] = tcc.conv2d %[[PP]], %[[WW]]
//  CHECK-NEXT:     %[[O:.+]] = tcc.add %[[CV]], %[[PP]]
//  CHECK-NEXT:     fusion.yield %[[O]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[C]]
func.func @conv_epilogue_uses_input(%y: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %p = tcc.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c = tcc.conv2d %p, %w {padding = array<i64: 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %o = tcc.add %c, %p : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %o : tensor<1x4x8x8xf32>
}

// -----

// The same for attention operands, in both orders: the scaled q (lhs of the
// first epilogue) and the exp'd k (rhs of the second) each stay in a
// pointwise group of their own.
// CHECK-LABEL: func.func @attention_epilogue_uses_operand
//  CHECK-SAME:   %[[Q:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<f32>
//       CHECK:   %[[QS:.+]] = fusion.group "pointwise"(%[[Q]], %[[S]] :
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.mul
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[A1:.+]] = fusion.group "attention"(%[[QS]], %[[Q]] :
//  CHECK-NEXT:   ^bb0(%[[QQ:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xf32>, %[[KK:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xf32>):
//  CHECK-NEXT:     %[[AT:.+]] = tcc.attention %[[QQ]], %[[KK]], %[[KK]]
//  CHECK-NEXT:     %[[R:.+]] = tcc.add %[[QQ]], %[[AT]]
//  CHECK-NEXT:     fusion.yield %[[R]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[K:.+]] = fusion.group "pointwise"(%[[Q]] :
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.exp
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[A2:.+]] = fusion.group "attention"(%[[Q]], %[[K]] :
//  CHECK-NEXT:   ^bb0(%[[Q2:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xf32>, %[[K2:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xf32>):
//  CHECK-NEXT:     %[[AT2:.+]] = tcc.attention %[[Q2]], %[[K2]], %[[Q2]]
//  CHECK-NEXT:     %[[R2:.+]] = tcc.sub %[[AT2]], %[[K2]]
//  CHECK-NEXT:     fusion.yield %[[R2]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[A1]], %[[A2]]
func.func @attention_epilogue_uses_operand(%q: tensor<?x12x197x64xf32>, %s: tensor<f32>) -> (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) {
  %0 = tcc.mul %q, %s : (tensor<?x12x197x64xf32>, tensor<f32>) -> tensor<?x12x197x64xf32>
  %1 = tcc.attention %0, %q, %q : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %2 = tcc.add %0, %1 : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %3 = tcc.exp %q : (tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %4 = tcc.attention %q, %3, %q : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %5 = tcc.sub %4, %3 : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  return %2, %5 : tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>
}

// -----

// The same for a pooling input (a 1x1 window keeps the shape, so the epilogue
// can add the input back).
// CHECK-LABEL: func.func @pool_epilogue_uses_input
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<1x4x8x8xf32>
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"(%[[X]] :
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.relu
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[G:.+]] = fusion.group "pool"(%[[P]] :
//  CHECK-NEXT:   ^bb0(%[[PP:[a-zA-Z0-9_]+]]: tensor<1x4x8x8xf32>):
//  CHECK-NEXT:     %[[MP:.+]] = tcc.max_pool2d %[[PP]]
//  CHECK-NEXT:     %[[O:.+]] = tcc.add %[[PP]], %[[MP]]
//  CHECK-NEXT:     fusion.yield %[[O]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[G]]
func.func @pool_epilogue_uses_input(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %p = tcc.relu %x : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %a = tcc.max_pool2d %p {kernel_size = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %o = tcc.add %p, %a : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %o : tensor<1x4x8x8xf32>
}
