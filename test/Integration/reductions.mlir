// reduce_sum / reduce_mean / reduce_max / reduce_min: keep_dims true and
// false, negative axes, several axes, empty axes (reduce everything), static
// and dynamic shapes, floats and integers.

// RUN: tcc-run %s --function=sum_last_keep --input=4x16xf32=random --check-reference | FileCheck %s --check-prefix=SUM_LAST_KEEP
// SUM_LAST_KEEP: [SUCCESS] result[0] matches the reference (4x1xf32)
func.func @sum_last_keep(%x: tensor<?x16xf32>) -> tensor<?x1xf32> {
  %0 = tcc.reduce_sum %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// RUN: tcc-run %s --function=all_four_axis0 --input=5x7xf32=random --check-reference | FileCheck %s --check-prefix=ALL_AXIS0
// ALL_AXIS0-COUNT-4: [SUCCESS] result[{{[0-3]}}] matches the reference (7xf32)
func.func @all_four_axis0(%x: tensor<5x7xf32>) -> (tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: 0>} : (tensor<5x7xf32>) -> tensor<7xf32>
  %1 = tcc.reduce_mean %x {axes = array<i64: 0>} : (tensor<5x7xf32>) -> tensor<7xf32>
  %2 = tcc.reduce_max %x {axes = array<i64: 0>} : (tensor<5x7xf32>) -> tensor<7xf32>
  %3 = tcc.reduce_min %x {axes = array<i64: 0>} : (tensor<5x7xf32>) -> tensor<7xf32>
  return %0, %1, %2, %3 : tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<7xf32>
}

// Negative axis, keep_dims = false, dynamic reduced dim.
// RUN: tcc-run %s --function=all_four_neg_axis --input=2x3x9xf32=random --check-reference | FileCheck %s --check-prefix=ALL_NEG
// ALL_NEG-COUNT-4: [SUCCESS] result[{{[0-3]}}] matches the reference (2x3xf32)
func.func @all_four_neg_axis(%x: tensor<?x3x?xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: -1>, keep_dims = false} : (tensor<?x3x?xf32>) -> tensor<?x3xf32>
  %1 = tcc.reduce_mean %x {axes = array<i64: -1>} : (tensor<?x3x?xf32>) -> tensor<?x3xf32>
  %2 = tcc.reduce_max %x {axes = array<i64: -1>} : (tensor<?x3x?xf32>) -> tensor<?x3xf32>
  %3 = tcc.reduce_min %x {axes = array<i64: -1>} : (tensor<?x3x?xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>
}

// Middle axis with keep_dims = true.
// RUN: tcc-run %s --function=all_four_mid_keep --input=2x6x5xf32=random --check-reference | FileCheck %s --check-prefix=ALL_MID
// ALL_MID-COUNT-4: [SUCCESS] result[{{[0-3]}}] matches the reference (2x1x5xf32)
func.func @all_four_mid_keep(%x: tensor<?x6x5xf32>) -> (tensor<?x1x5xf32>, tensor<?x1x5xf32>, tensor<?x1x5xf32>, tensor<?x1x5xf32>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: -2>, keep_dims = true} : (tensor<?x6x5xf32>) -> tensor<?x1x5xf32>
  %1 = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x6x5xf32>) -> tensor<?x1x5xf32>
  %2 = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x6x5xf32>) -> tensor<?x1x5xf32>
  %3 = tcc.reduce_min %x {axes = array<i64: -2>, keep_dims = true} : (tensor<?x6x5xf32>) -> tensor<?x1x5xf32>
  return %0, %1, %2, %3 : tensor<?x1x5xf32>, tensor<?x1x5xf32>, tensor<?x1x5xf32>, tensor<?x1x5xf32>
}

// Several (non-adjacent, unsorted, mixed-sign) axes.
// RUN: tcc-run %s --function=multi_axes --input=2x3x4x5xf32=random --check-reference | FileCheck %s --check-prefix=MULTI_AXES
// MULTI_AXES: [SUCCESS] result[0] matches the reference (3x5xf32)
// MULTI_AXES: [SUCCESS] result[1] matches the reference (1x3x1x5xf32)
// MULTI_AXES: [SUCCESS] result[2] matches the reference (2x4xf32)
// MULTI_AXES: [SUCCESS] result[3] matches the reference (2x1x4x1xf32)
func.func @multi_axes(%x: tensor<?x3x4x5xf32>) -> (tensor<3x5xf32>, tensor<1x3x1x5xf32>, tensor<?x4xf32>, tensor<?x1x4x1xf32>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: 2, 0>} : (tensor<?x3x4x5xf32>) -> tensor<3x5xf32>
  %1 = tcc.reduce_mean %x {axes = array<i64: 0, -2>, keep_dims = true} : (tensor<?x3x4x5xf32>) -> tensor<1x3x1x5xf32>
  %2 = tcc.reduce_max %x {axes = array<i64: 1, 3>} : (tensor<?x3x4x5xf32>) -> tensor<?x4xf32>
  %3 = tcc.reduce_min %x {axes = array<i64: -1, 1>, keep_dims = true} : (tensor<?x3x4x5xf32>) -> tensor<?x1x4x1xf32>
  return %0, %1, %2, %3 : tensor<3x5xf32>, tensor<1x3x1x5xf32>, tensor<?x4xf32>, tensor<?x1x4x1xf32>
}

// Empty axes reduce every dim: rank-0 result, or all ones with keep_dims.
// RUN: tcc-run %s --function=empty_axes --input=3x4x5xf32=random --check-reference | FileCheck %s --check-prefix=EMPTY_AXES
// EMPTY_AXES: [SUCCESS] result[0] matches the reference (f32)
// EMPTY_AXES: [SUCCESS] result[1] matches the reference (1x1x1xf32)
// EMPTY_AXES: [SUCCESS] result[2] matches the reference (f32)
// EMPTY_AXES: [SUCCESS] result[3] matches the reference (1x1x1xf32)
func.func @empty_axes(%x: tensor<?x4x?xf32>) -> (tensor<f32>, tensor<1x1x1xf32>, tensor<f32>, tensor<1x1x1xf32>) {
  %0 = tcc.reduce_sum %x {axes = array<i64>} : (tensor<?x4x?xf32>) -> tensor<f32>
  %1 = tcc.reduce_mean %x {axes = array<i64>, keep_dims = true} : (tensor<?x4x?xf32>) -> tensor<1x1x1xf32>
  %2 = tcc.reduce_max %x {axes = array<i64>} : (tensor<?x4x?xf32>) -> tensor<f32>
  %3 = tcc.reduce_min %x {axes = array<i64>, keep_dims = true} : (tensor<?x4x?xf32>) -> tensor<1x1x1xf32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<1x1x1xf32>, tensor<f32>, tensor<1x1x1xf32>
}

// A longer row (128) to exercise vector/tiled reduction paths.
// RUN: tcc-run %s --function=long_row --input=3x128xf32=random --check-reference | FileCheck %s --check-prefix=LONG_ROW
// LONG_ROW: [SUCCESS] result[0] matches the reference (3xf32)
// LONG_ROW: [SUCCESS] result[1] matches the reference (3xf32)
func.func @long_row(%x: tensor<?x128xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: 1>} : (tensor<?x128xf32>) -> tensor<?xf32>
  %1 = tcc.reduce_max %x {axes = array<i64: 1>} : (tensor<?x128xf32>) -> tensor<?xf32>
  return %0, %1 : tensor<?xf32>, tensor<?xf32>
}

// Integer reductions (sum/max/min; mean is float-only).
// RUN: tcc-run %s --function=int_reductions --input=4x6xi32=random --check-reference | FileCheck %s --check-prefix=INT_RED
// INT_RED: [SUCCESS] result[0] matches the reference (4xi32)
// INT_RED: [SUCCESS] result[1] matches the reference (1x6xi32)
// INT_RED: [SUCCESS] result[2] matches the reference (i32)
// INT_RED: [SUCCESS] result[3] matches the reference (4xi64)
func.func @int_reductions(%x: tensor<?x6xi32>) -> (tensor<?xi32>, tensor<1x6xi32>, tensor<i32>, tensor<?xi64>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: 1>} : (tensor<?x6xi32>) -> tensor<?xi32>
  %1 = tcc.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : (tensor<?x6xi32>) -> tensor<1x6xi32>
  %2 = tcc.reduce_min %x {axes = array<i64>} : (tensor<?x6xi32>) -> tensor<i32>
  %w = tcc.cast %x : (tensor<?x6xi32>) -> tensor<?x6xi64>
  %3 = tcc.reduce_sum %w {axes = array<i64: -1>} : (tensor<?x6xi64>) -> tensor<?xi64>
  return %0, %1, %2, %3 : tensor<?xi32>, tensor<1x6xi32>, tensor<i32>, tensor<?xi64>
}

// Reductions feeding elementwise ops (a hand-written variance).
// RUN: tcc-run %s --function=variance --input=3x10xf32=random --check-reference | FileCheck %s --check-prefix=VARIANCE
// VARIANCE: [SUCCESS] result[0] matches the reference (3x1xf32)
func.func @variance(%x: tensor<?x10xf32>) -> tensor<?x1xf32> {
  %m = tcc.reduce_mean %x {axes = array<i64: -1>, keep_dims = true} : (tensor<?x10xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %m : (tensor<?x10xf32>, tensor<?x1xf32>) -> tensor<?x10xf32>
  %sq = tcc.mul %d, %d : (tensor<?x10xf32>, tensor<?x10xf32>) -> tensor<?x10xf32>
  %v = tcc.reduce_mean %sq {axes = array<i64: -1>, keep_dims = true} : (tensor<?x10xf32>) -> tensor<?x1xf32>
  return %v : tensor<?x1xf32>
}

// f64 reductions.
// RUN: tcc-run %s --function=f64_reductions --input=4x5xf64=random --check-reference | FileCheck %s --check-prefix=F64_RED
// F64_RED: [SUCCESS] result[0] matches the reference (5xf64)
// F64_RED: [SUCCESS] result[1] matches the reference (4x1xf64)
func.func @f64_reductions(%x: tensor<?x5xf64>) -> (tensor<5xf64>, tensor<?x1xf64>) {
  %0 = tcc.reduce_mean %x {axes = array<i64: 0>} : (tensor<?x5xf64>) -> tensor<5xf64>
  %1 = tcc.reduce_min %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x5xf64>) -> tensor<?x1xf64>
  return %0, %1 : tensor<5xf64>, tensor<?x1xf64>
}

// Special values: NaN propagates through max/min/sum (PyTorch), an all -inf
// row gives -inf for max/sum and NaN for softmax.
// RUN: tcc-run %s --function=special_values --input="2x4xf32=1 nan 3 -1 -inf -inf -inf -inf" --check-reference | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: [SUCCESS] result[0] matches the reference (2xf32)
// SPECIAL: [SUCCESS] result[1] matches the reference (2xf32)
// SPECIAL: [SUCCESS] result[2] matches the reference (2xf32)
// SPECIAL: [SUCCESS] result[3] matches the reference (2x4xf32)
func.func @special_values(%x: tensor<2x4xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x4xf32>) {
  %0 = tcc.reduce_max %x {axes = array<i64: 1>} : (tensor<2x4xf32>) -> tensor<2xf32>
  %1 = tcc.reduce_min %x {axes = array<i64: 1>} : (tensor<2x4xf32>) -> tensor<2xf32>
  %2 = tcc.reduce_sum %x {axes = array<i64: 1>} : (tensor<2x4xf32>) -> tensor<2xf32>
  %3 = tcc.softmax %x {axis = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x4xf32>
}

// reduce_prod: floats over a static and a dynamic axis, integers (which
// wrap), keep_dims, all axes.
// RUN: tcc-run %s --function=prod --input=6x5xf32=random --input=3x4xi32=random --check-reference | FileCheck %s --check-prefix=PROD
// PROD-COUNT-3: [SUCCESS] result[{{[0-2]}}] matches the reference
// PROD-NOT: FAILURE
func.func @prod(%x: tensor<?x5xf32>, %y: tensor<3x?xi32>) -> (tensor<?xf32>, tensor<1x5xf32>, tensor<i32>) {
  %0 = tcc.reduce_prod %x {axes = array<i64: 1>} : (tensor<?x5xf32>) -> tensor<?xf32>
  %1 = tcc.reduce_prod %x {axes = array<i64: 0>, keep_dims = true} : (tensor<?x5xf32>) -> tensor<1x5xf32>
  %2 = tcc.reduce_prod %y {axes = array<i64>} : (tensor<3x?xi32>) -> tensor<i32>
  return %0, %1, %2 : tensor<?xf32>, tensor<1x5xf32>, tensor<i32>
}
