// RUN: tcc-opt %s --fuse --split-input-file | FileCheck %s --check-prefix=FUSE
// RUN: tcc-opt %s --fuse --plan-memory --verify-memory-plan --split-input-file | FileCheck %s --check-prefix=PLAN

// mask_select and nonzero stay outside fusion groups (they lower to loops of
// their own), and the memory plan gives their result, and everything whose
// size follows from it, no arena offset: the count is only known once the
// op has run. Their operands are planned as usual and stay alive up to them.

// FUSE-LABEL: func.func @keep_boxes
//       FUSE:   %[[E:.+]] = fusion.group "pointwise"
//       FUSE:     tcc.exp
//       FUSE:   %[[K:.+]] = fusion.group "pointwise"
//       FUSE:     tcc.cmp
//   FUSE-NOT:   fusion.group
//       FUSE:   %[[S:.+]] = tcc.mask_select %[[E]], %[[K]] : (tensor<64x4xf32>, tensor<64xi1>) -> tensor<?x4xf32>
//       FUSE:   %[[T:.+]] = fusion.group "copy"(%[[S]] : tensor<?x4xf32>) -> tensor<4x?xf32>
//       FUSE:   fusion.group "reduction"(%[[T]], %{{.+}} : tensor<4x?xf32>, tensor<f32>) -> tensor<?xf32>
//       FUSE:     tcc.mul
//       FUSE:     tcc.reduce_sum
//   FUSE-NOT:   fusion.group
//       FUSE:   tcc.nonzero %[[E]] : (tensor<64x4xf32>) -> tensor<?x2xi64>

// The exp result lives until nonzero reads it, so the cmp result gets its own
// offset; the transpose of the selected rows (4 x count) is not planned.
// PLAN-LABEL: func.func @keep_boxes
//  PLAN-SAME:   tcc.arena = [{naive = 1088 : i64, scale = {{[^,]+}}, size = 1088 : i64}]
//       PLAN:   fusion.group "pointwise"{{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 1024 : i64}}
//       PLAN:   fusion.group "pointwise"{{.*}} attributes {tcc.buffer = {offset = 1024 : i64, region = 0 : i64, size = 64 : i64}}
//       PLAN:   tcc.mask_select
//   PLAN-NOT:   tcc.buffer
//  PLAN-SAME:   -> tensor<?x4xf32>
//       PLAN:   fusion.group "copy"
//   PLAN-NOT:   tcc.buffer
//  PLAN-SAME:   -> tensor<4x?xf32> {
//       PLAN:   fusion.group "reduction"
//   PLAN-NOT:   tcc.buffer
//       PLAN:   tcc.nonzero
//   PLAN-NOT:   tcc.buffer
//  PLAN-SAME:   -> tensor<?x2xi64>
func.func @keep_boxes(%boxes: tensor<64x4xf32>, %scores: tensor<64xf32>) -> (tensor<?xf32>, tensor<?x2xi64>) {
  %e = tcc.exp %boxes : (tensor<64x4xf32>) -> tensor<64x4xf32>
  %t = tcc.constant dense<0.5> : tensor<f32>
  %keep = tcc.cmp %scores, %t {predicate = "gt"} : (tensor<64xf32>, tensor<f32>) -> tensor<64xi1>
  %kept = tcc.mask_select %e, %keep : (tensor<64x4xf32>, tensor<64xi1>) -> tensor<?x4xf32>
  %tr = tcc.transpose %kept {permutation = array<i64: 1, 0>} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  %two = tcc.constant dense<2.0> : tensor<f32>
  %d = tcc.mul %tr, %two : (tensor<4x?xf32>, tensor<f32>) -> tensor<4x?xf32>
  %s = tcc.reduce_sum %d {axes = array<i64: 0>} : (tensor<4x?xf32>) -> tensor<?xf32>
  %nz = tcc.nonzero %e : (tensor<64x4xf32>) -> tensor<?x2xi64>
  return %s, %nz : tensor<?xf32>, tensor<?x2xi64>
}

// -----

// A static count in the declared type is a promise checked at runtime; the
// result still lives in the buffer the lowering allocates at the bound, so it
// gets no offset either, while the static consumer does.
// PLAN-LABEL: func.func @static_count
//       PLAN:   tcc.mask_select
//   PLAN-NOT:   tcc.buffer
//  PLAN-SAME:   -> tensor<3x4xf32>
//       PLAN:   fusion.group "pointwise"{{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 48 : i64}}
func.func @static_count(%x: tensor<8x4xf32>, %m: tensor<8xi1>) -> tensor<3x4xf32> {
  %0 = tcc.mask_select %x, %m : (tensor<8x4xf32>, tensor<8xi1>) -> tensor<3x4xf32>
  %1 = tcc.exp %0 : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = tcc.neg %1 : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %3 = tcc.transpose %2 {permutation = array<i64: 0, 1>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %3 : tensor<3x4xf32>
}
