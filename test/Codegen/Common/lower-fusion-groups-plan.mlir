// RUN: tcc-opt %s --fuse --plan-memory --verify-memory-plan --convert-tcc-to-linalg --tcc-lower-fusion-groups=vectorize=false | FileCheck %s

// When a group is inlined, its memory plan entry (tcc.buffer) moves to the
// op that now produces the group's result.
// CHECK-LABEL: func.func @buffer_moves_to_result
//   CHECK-NOT:   fusion.group
//       CHECK:   %[[G:.+]] = linalg.generic
//  CHECK-SAME:     attrs = {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 128 : i64}}
//       CHECK:     math.exp
//       CHECK:   } -> tensor<4x8xf32>
//   CHECK-NOT:   fusion.group
//       CHECK:   linalg.transpose ins(%[[G]]
func.func @buffer_moves_to_result(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = tcc.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = tcc.neg %1 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
