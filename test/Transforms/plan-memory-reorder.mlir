// RUN: tcc-opt %s --fuse=horizontal=false --plan-memory=reorder=true --verify-memory-plan | FileCheck %s
// RUN: tcc-opt %s --fuse=horizontal=false --plan-memory --verify-memory-plan | FileCheck %s --check-prefix=ORDER

// Two independent branches, each a 4 KiB transpose reduced to 16 bytes: in
// program order both transposes are live at once (8 KiB); with reordering
// the first branch's reduction runs before the second transpose, and the
// two transposes share 4 KiB.
// CHECK-LABEL: func.func @branches
//  CHECK-SAME:   tcc.arena = [{naive = 8448 : i64, scale = "1", size = 4352 : i64}]
//       CHECK:   %[[A:.+]] = fusion.group "copy"(%arg0
//       CHECK:   fusion.group "reduction"(%[[A]]
//       CHECK:   %[[B:.+]] = fusion.group "copy"(%arg1
//       CHECK:   fusion.group "reduction"(%[[B]]
// ORDER-LABEL: func.func @branches
//  ORDER-SAME:   tcc.arena = [{naive = 8448 : i64, scale = "1", size = 8320 : i64}]
//       ORDER:   fusion.group "copy"(%arg0
//       ORDER:   fusion.group "copy"(%arg1
func.func @branches(%x: tensor<32x32xf32>, %y: tensor<32x32xf32>) -> tensor<4xf32> {
  %a = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = tcc.transpose %y {permutation = array<i64: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %ra = tcc.reduce_sum %a {axes = array<i64: 1>} : (tensor<32x32xf32>) -> tensor<32xf32>
  %rb = tcc.reduce_sum %b {axes = array<i64: 1>} : (tensor<32x32xf32>) -> tensor<32xf32>
  %sa = tcc.slice %ra {starts = array<i64: 0>, ends = array<i64: 4>, steps = array<i64: 1>} : (tensor<32xf32>) -> tensor<4xf32>
  %sb = tcc.slice %rb {starts = array<i64: 0>, ends = array<i64: 4>, steps = array<i64: 1>} : (tensor<32xf32>) -> tensor<4xf32>
  %s = tcc.add %sa, %sb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
