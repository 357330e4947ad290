// RUN: tcc-opt %s --tcc-recognize-composites --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-recognize-composites --split-input-file | tcc-opt --tcc-recognize-composites --split-input-file | FileCheck %s

// Hand-written softmax, log_softmax, layer_norm, rms_norm and attention
// become the composite ops; chains whose intermediates are used elsewhere,
// or whose axes, constants or shapes differ, stay as they are.

// Max-subtracted softmax on the last axis of a dynamic tensor.
// CHECK-LABEL: func.func @softmax_stable
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x768xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.softmax %[[X]] {axis = 1 : i64} : (tensor<?x768xf32>) -> tensor<?x768xf32>
//  CHECK-NEXT:   return %[[Y]]
func.func @softmax_stable(%x: tensor<?x768xf32>) -> tensor<?x768xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %m : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
  %e = tcc.exp %d : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %y = tcc.div %e, %s : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

// -----

// exp(x) / sum(exp(x)) is the same softmax (the composite is the stable one).
// CHECK-LABEL: func.func @softmax_unstable_axis0
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4x8xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.softmax %[[X]] {axis = 0 : i64}
//  CHECK-NEXT:   return %[[Y]]
func.func @softmax_unstable_axis0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tcc.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 0>, keep_dims = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %y = tcc.div %e, %s : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// exp is also returned: still needed, nothing changes.
// CHECK-LABEL: func.func @softmax_exp_used_elsewhere
//   CHECK-NOT:   tcc.softmax
//       CHECK:   tcc.reduce_max
//       CHECK:   tcc.sub
//       CHECK:   tcc.exp
//       CHECK:   tcc.reduce_sum
//       CHECK:   tcc.div
//   CHECK-NOT:   tcc.softmax
//       CHECK:   return
func.func @softmax_exp_used_elsewhere(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %m : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  %e = tcc.exp %d : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %y = tcc.div %e, %s : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  return %y, %e : tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// The maximum is also returned: the subtraction stays and the rest is the
// softmax of the difference (the same values).
// CHECK-LABEL: func.func @softmax_max_used_elsewhere
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x16xf32>
//  CHECK-NEXT:   %[[M:.+]] = tcc.reduce_max %[[X]]
//  CHECK-NEXT:   %[[D:.+]] = tcc.sub %[[X]], %[[M]]
//  CHECK-NEXT:   %[[Y:.+]] = tcc.softmax %[[D]] {axis = 1 : i64}
//  CHECK-NEXT:   return %[[Y]], %[[M]]
func.func @softmax_max_used_elsewhere(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x1xf32>) {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %m : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  %e = tcc.exp %d : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %y = tcc.div %e, %s : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  return %y, %m : tensor<?x16xf32>, tensor<?x1xf32>
}

// -----

// Maximum and sum over different axes: the maximum is not the softmax's
// own, so it stays; softmax of the difference along the sum's axis.
// CHECK-LABEL: func.func @softmax_max_other_axis
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4x8xf32>
//  CHECK-NEXT:   %[[M:.+]] = tcc.reduce_max %[[X]] {axes = array<i64: 1>, keep_dims = true}
//  CHECK-NEXT:   %[[D:.+]] = tcc.sub %[[X]], %[[M]]
//  CHECK-NEXT:   %[[Y:.+]] = tcc.softmax %[[D]] {axis = 0 : i64}
//  CHECK-NEXT:   return %[[Y]]
func.func @softmax_max_other_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = tcc.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = tcc.exp %d : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 0>, keep_dims = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %y = tcc.div %e, %s : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Without keep_dims the row sums broadcast along the wrong dim: not a softmax.
// CHECK-LABEL: func.func @softmax_sum_without_keep_dims
//   CHECK-NOT:   tcc.softmax
//       CHECK:   tcc.div
//   CHECK-NOT:   tcc.softmax
//       CHECK:   return
func.func @softmax_sum_without_keep_dims(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tcc.exp %x : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<8xf32>
  %y = tcc.div %e, %s : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// A sum over two axes is not a softmax (which has one axis).
// CHECK-LABEL: func.func @softmax_two_axes
//   CHECK-NOT:   tcc.softmax
//       CHECK:   tcc.div
//   CHECK-NOT:   tcc.softmax
//       CHECK:   return
func.func @softmax_two_axes(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %e = tcc.exp %x : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1, 2>, keep_dims = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
  %y = tcc.div %e, %s : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// The difference x - max is used twice (exp and the outer sub); axes -1 and 1
// are the same axis.
// CHECK-LABEL: func.func @log_softmax_stable
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.log_softmax %[[X]] {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
//  CHECK-NEXT:   return %[[Y]]
func.func @log_softmax_stable(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %m : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %e = tcc.exp %d : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: -1>, keep_dims = true} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %l = tcc.log %s : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %y = tcc.sub %d, %l : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// x - log(sum(exp(x))), f64.
// CHECK-LABEL: func.func @log_softmax_unstable
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<3x5xf64>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.log_softmax %[[X]] {axis = 0 : i64}
//  CHECK-NEXT:   return %[[Y]]
func.func @log_softmax_unstable(%x: tensor<3x5xf64>) -> tensor<3x5xf64> {
  %e = tcc.exp %x : (tensor<3x5xf64>) -> tensor<3x5xf64>
  %s = tcc.reduce_sum %e {axes = array<i64: 0>, keep_dims = true} : (tensor<3x5xf64>) -> tensor<1x5xf64>
  %l = tcc.log %s : (tensor<1x5xf64>) -> tensor<1x5xf64>
  %y = tcc.sub %x, %l : (tensor<3x5xf64>, tensor<1x5xf64>) -> tensor<3x5xf64>
  return %y : tensor<3x5xf64>
}

// -----

// x - log(sum(exp(x - max))): the outer sub does not subtract from the
// exponentiated value, not a log_softmax.
// CHECK-LABEL: func.func @log_softmax_other_lhs
//   CHECK-NOT:   tcc.log_softmax
//       CHECK:   tcc.log
//   CHECK-NOT:   tcc.log_softmax
//       CHECK:   return
func.func @log_softmax_other_lhs(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %m : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  %e = tcc.exp %d : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %l = tcc.log %s : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %y = tcc.sub %x, %l : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// The log-sum is also returned.
// CHECK-LABEL: func.func @log_softmax_log_used_elsewhere
//   CHECK-NOT:   tcc.log_softmax
//       CHECK:   tcc.log
//   CHECK-NOT:   tcc.log_softmax
//       CHECK:   return
func.func @log_softmax_log_used_elsewhere(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x1xf32>) {
  %e = tcc.exp %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %l = tcc.log %s : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %y = tcc.sub %x, %l : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  return %y, %l : tensor<?x16xf32>, tensor<?x1xf32>
}

// -----

// nn.LayerNorm written out: d used by the square and the normalization,
// then weight and bias of the normalized shape.
// CHECK-LABEL: func.func @layer_norm_affine
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x768xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<768xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<768xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.layer_norm %[[X]], %[[W]], %[[B]] {axis = 1 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<?x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x768xf32>
//  CHECK-NEXT:   return %[[Y]]
func.func @layer_norm_affine(%x: tensor<?x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %eps = tcc.constant dense<1.0e-06> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %mean : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
  %sq = tcc.mul %d, %d : (tensor<?x768xf32>, tensor<?x768xf32>) -> tensor<?x768xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %ve = tcc.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %ve : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %d, %r : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
  %nw = tcc.mul %n, %w : (tensor<?x768xf32>, tensor<768xf32>) -> tensor<?x768xf32>
  %y = tcc.add %nw, %b : (tensor<?x768xf32>, tensor<768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

// -----

// Every commutative op with its operands swapped; epsilon as a 1x1 tensor
// (1e-5 is the op's default, so it is not printed).
// CHECK-LABEL: func.func @layer_norm_commuted
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x768xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<768xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<768xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.layer_norm %[[X]], %[[W]], %[[B]] {axis = 1 : i64}
//  CHECK-NEXT:   return %[[Y]]
func.func @layer_norm_commuted(%x: tensor<?x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<1x1xf32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %mean : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
  %sq = tcc.mul %d, %d : (tensor<?x768xf32>, tensor<?x768xf32>) -> tensor<?x768xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %ve = tcc.add %eps, %var : (tensor<1x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %ve : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %r, %d : (tensor<?x1xf32>, tensor<?x768xf32>) -> tensor<?x768xf32>
  %nw = tcc.mul %w, %n : (tensor<768xf32>, tensor<?x768xf32>) -> tensor<?x768xf32>
  %y = tcc.add %b, %nw : (tensor<768xf32>, tensor<?x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

// -----

// pow(d, 2) and d / sqrt(var + eps) over the last two dims; no weight or
// bias: constant ones and zeros of the normalized shape.
// CHECK-LABEL: func.func @layer_norm_pow_sqrt_two_dims
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x5x16xf32>
//   CHECK-DAG:   %[[ONES:.+]] = tcc.constant dense<1.000000e+00> : tensor<5x16xf32>
//   CHECK-DAG:   %[[ZEROS:.+]] = tcc.constant dense<0.000000e+00> : tensor<5x16xf32>
//       CHECK:   %[[Y:.+]] = tcc.layer_norm %[[X]], %[[ONES]], %[[ZEROS]] {axis = 1 : i64, epsilon = 1.000000e-03 : f32}
//   CHECK-NOT:   tcc.pow
//       CHECK:   return %[[Y]]
func.func @layer_norm_pow_sqrt_two_dims(%x: tensor<2x5x16xf32>) -> tensor<2x5x16xf32> {
  %two = tcc.constant dense<2.0> : tensor<f32>
  %eps = tcc.constant dense<1.0e-03> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: -2, -1>, keep_dims = true} : (tensor<2x5x16xf32>) -> tensor<2x1x1xf32>
  %d = tcc.sub %x, %mean : (tensor<2x5x16xf32>, tensor<2x1x1xf32>) -> tensor<2x5x16xf32>
  %sq = tcc.pow %d, %two : (tensor<2x5x16xf32>, tensor<f32>) -> tensor<2x5x16xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1, 2>, keep_dims = true} : (tensor<2x5x16xf32>) -> tensor<2x1x1xf32>
  %ve = tcc.add %var, %eps : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %s = tcc.sqrt %ve : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %y = tcc.div %d, %s : (tensor<2x5x16xf32>, tensor<2x1x1xf32>) -> tensor<2x5x16xf32>
  return %y : tensor<2x5x16xf32>
}

// -----

// A [1, 768] weight is not of the normalized shape [768]: the match stops
// before the multiply (and so before the bias).
// CHECK-LABEL: func.func @layer_norm_weight_broadcasts
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x768xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<1x768xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<768xf32>
//   CHECK-DAG:   %[[ONES:.+]] = tcc.constant dense<1.000000e+00> : tensor<768xf32>
//   CHECK-DAG:   %[[ZEROS:.+]] = tcc.constant dense<0.000000e+00> : tensor<768xf32>
//       CHECK:   %[[N:.+]] = tcc.layer_norm %[[X]], %[[ONES]], %[[ZEROS]] {axis = 1 : i64}
//  CHECK-NEXT:   %[[NW:.+]] = tcc.mul %[[N]], %[[W]]
//  CHECK-NEXT:   %[[Y:.+]] = tcc.add %[[NW]], %[[B]]
//  CHECK-NEXT:   return %[[Y]]
func.func @layer_norm_weight_broadcasts(%x: tensor<?x768xf32>, %w: tensor<1x768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %mean : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
  %sq = tcc.mul %d, %d : (tensor<?x768xf32>, tensor<?x768xf32>) -> tensor<?x768xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %ve = tcc.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %ve : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %d, %r : (tensor<?x768xf32>, tensor<?x1xf32>) -> tensor<?x768xf32>
  %nw = tcc.mul %n, %w : (tensor<?x768xf32>, tensor<1x768xf32>) -> tensor<?x768xf32>
  %y = tcc.add %nw, %b : (tensor<?x768xf32>, tensor<768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

// -----

// Dynamic normalized dim and no weight: the ones cannot be a constant, so
// nothing changes.
// CHECK-LABEL: func.func @layer_norm_dynamic_dims_no_weight
//   CHECK-NOT:   tcc.layer_norm
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   tcc.rsqrt
//   CHECK-NOT:   tcc.layer_norm
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   return
func.func @layer_norm_dynamic_dims_no_weight(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %mean : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %sq = tcc.mul %d, %d : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %ve = tcc.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %ve : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %d, %r : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  return %n : tensor<?x?xf32>
}

// -----

// Dynamic normalized dim with weight and bias of type tensor<?xf32>.
// CHECK-LABEL: func.func @layer_norm_dynamic_dims_affine
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<?xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<?xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.layer_norm %[[X]], %[[W]], %[[B]] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
//  CHECK-NEXT:   return %[[Y]]
func.func @layer_norm_dynamic_dims_affine(%x: tensor<?x?xf32>, %w: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %mean : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %sq = tcc.mul %d, %d : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %ve = tcc.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %ve : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %d, %r : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %nw = tcc.mul %n, %w : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %y = tcc.add %nw, %b : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// d = x - mean is also returned: no layer_norm. What remains is exactly an
// rms_norm of d.
// CHECK-LABEL: func.func @layer_norm_centered_used_elsewhere
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x16xf32>
//   CHECK-NOT:   tcc.layer_norm
//  CHECK-NEXT:   %[[MEAN:.+]] = tcc.reduce_mean %[[X]]
//  CHECK-NEXT:   %[[D:.+]] = tcc.sub %[[X]], %[[MEAN]]
//  CHECK-NEXT:   %[[ONES:.+]] = tcc.constant dense<1.000000e+00> : tensor<16xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.rms_norm %[[D]], %[[ONES]] {axis = 1 : i64}
//  CHECK-NEXT:   return %[[Y]], %[[D]]
func.func @layer_norm_centered_used_elsewhere(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %mean : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  %sq = tcc.mul %d, %d : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %ve = tcc.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %ve : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %d, %r : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  return %n, %d : tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// Rank 1, the "weight" is d itself, which the layer_norm chain computes: no
// layer_norm (d would be erased). What remains is rms_norm(d) * d, with d
// kept.
// CHECK-LABEL: func.func @layer_norm_weight_from_chain
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<16xf32>
//   CHECK-NOT:   tcc.layer_norm
//  CHECK-NEXT:   %[[MEAN:.+]] = tcc.reduce_mean %[[X]]
//  CHECK-NEXT:   %[[D:.+]] = tcc.sub %[[X]], %[[MEAN]]
//  CHECK-NEXT:   %[[Y:.+]] = tcc.rms_norm %[[D]], %[[D]] {axis = 0 : i64}
//  CHECK-NEXT:   return %[[Y]]
func.func @layer_norm_weight_from_chain(%x: tensor<16xf32>) -> tensor<16xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 0>, keep_dims = true} : (tensor<16xf32>) -> tensor<1xf32>
  %d = tcc.sub %x, %mean : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
  %sq = tcc.mul %d, %d : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 0>, keep_dims = true} : (tensor<16xf32>) -> tensor<1xf32>
  %ve = tcc.add %var, %eps : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
  %r = tcc.rsqrt %ve : (tensor<1xf32>) -> tensor<1xf32>
  %n = tcc.mul %d, %r : (tensor<16xf32>, tensor<1xf32>) -> tensor<16xf32>
  %nw = tcc.mul %n, %d : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %nw : tensor<16xf32>
}

// -----

// Statistics over dim 0 of a rank-2 tensor: not the trailing dims that
// layer_norm normalizes.
// CHECK-LABEL: func.func @layer_norm_leading_axis
//   CHECK-NOT:   tcc.layer_norm
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   tcc.rsqrt
//   CHECK-NOT:   tcc.layer_norm
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   return
func.func @layer_norm_leading_axis(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 0>, keep_dims = true} : (tensor<8x16xf32>) -> tensor<1x16xf32>
  %d = tcc.sub %x, %mean : (tensor<8x16xf32>, tensor<1x16xf32>) -> tensor<8x16xf32>
  %sq = tcc.mul %d, %d : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 0>, keep_dims = true} : (tensor<8x16xf32>) -> tensor<1x16xf32>
  %ve = tcc.add %var, %eps : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %r = tcc.rsqrt %ve : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %n = tcc.mul %d, %r : (tensor<8x16xf32>, tensor<1x16xf32>) -> tensor<8x16xf32>
  return %n : tensor<8x16xf32>
}

// -----

// Epsilon of shape [16] (it widens the variance) and epsilon as an
// argument: no match.
// CHECK-LABEL: func.func @layer_norm_epsilon_not_scalar
//   CHECK-NOT:   tcc.layer_norm
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   return
func.func @layer_norm_epsilon_not_scalar(%x: tensor<?x16xf32>, %e: tensor<f32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  %eps = tcc.constant dense<1.0e-05> : tensor<16xf32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %mean : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  %sq = tcc.mul %d, %d : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %ve = tcc.add %var, %eps : (tensor<?x1xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %r = tcc.rsqrt %ve : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %n = tcc.mul %d, %r : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  %mean2 = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %d2 = tcc.sub %x, %mean2 : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  %sq2 = tcc.mul %d2, %d2 : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  %var2 = tcc.reduce_mean %sq2 {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %ve2 = tcc.add %var2, %e : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r2 = tcc.rsqrt %ve2 : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n2 = tcc.mul %d2, %r2 : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  return %n, %n2 : tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// f16: the epsilon is the f16 constant's exact value.
// CHECK-LABEL: func.func @layer_norm_f16
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x64xf16>, %[[W:[a-zA-Z0-9_]+]]: tensor<64xf16>, %[[B:[a-zA-Z0-9_]+]]: tensor<64xf16>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.layer_norm %[[X]], %[[W]], %[[B]] {axis = 1 : i64, epsilon = 0.00100040436 : f32} : (tensor<?x64xf16>, tensor<64xf16>, tensor<64xf16>) -> tensor<?x64xf16>
//  CHECK-NEXT:   return %[[Y]]
func.func @layer_norm_f16(%x: tensor<?x64xf16>, %w: tensor<64xf16>, %b: tensor<64xf16>) -> tensor<?x64xf16> {
  %eps = tcc.constant dense<1.0e-03> : tensor<f16>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x64xf16>) -> tensor<?x1xf16>
  %d = tcc.sub %x, %mean : (tensor<?x64xf16>, tensor<?x1xf16>) -> tensor<?x64xf16>
  %sq = tcc.mul %d, %d : (tensor<?x64xf16>, tensor<?x64xf16>) -> tensor<?x64xf16>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x64xf16>) -> tensor<?x1xf16>
  %ve = tcc.add %var, %eps : (tensor<?x1xf16>, tensor<f16>) -> tensor<?x1xf16>
  %r = tcc.rsqrt %ve : (tensor<?x1xf16>) -> tensor<?x1xf16>
  %n = tcc.mul %d, %r : (tensor<?x64xf16>, tensor<?x1xf16>) -> tensor<?x64xf16>
  %nw = tcc.mul %n, %w : (tensor<?x64xf16>, tensor<64xf16>) -> tensor<?x64xf16>
  %y = tcc.add %nw, %b : (tensor<?x64xf16>, tensor<64xf16>) -> tensor<?x64xf16>
  return %y : tensor<?x64xf16>
}

// -----

// RMSNorm with a weight; x (the input) has another user, which is fine.
// CHECK-LABEL: func.func @rms_norm_weight
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x64xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<64xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.rms_norm %[[X]], %[[W]] {axis = 1 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
//  CHECK-NEXT:   %[[Z:.+]] = tcc.relu %[[X]]
//  CHECK-NEXT:   return %[[Y]], %[[Z]]
func.func @rms_norm_weight(%x: tensor<?x64xf32>, %w: tensor<64xf32>) -> (tensor<?x64xf32>, tensor<?x64xf32>) {
  %eps = tcc.constant dense<1.0e-06> : tensor<f32>
  %sq = tcc.mul %x, %x : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %ms = tcc.reduce_mean %sq {axes = array<i64: -1>, keep_dims = true} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %me = tcc.add %ms, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %me : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %x, %r : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  %y = tcc.mul %n, %w : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %z = tcc.relu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y, %z : tensor<?x64xf32>, tensor<?x64xf32>
}

// -----

// pow(x, 2) with the exponent as tensor<1xf32>, x / sqrt(...), two
// normalized dims, no weight: constant ones.
// CHECK-LABEL: func.func @rms_norm_pow_sqrt_no_weight
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3x4x8xf32>
//  CHECK-NEXT:   %[[ONES:.+]] = tcc.constant dense<1.000000e+00> : tensor<4x8xf32>
//  CHECK-NEXT:   %[[Y:.+]] = tcc.rms_norm %[[X]], %[[ONES]] {axis = 2 : i64}
//  CHECK-NEXT:   return %[[Y]]
func.func @rms_norm_pow_sqrt_no_weight(%x: tensor<2x3x4x8xf32>) -> tensor<2x3x4x8xf32> {
  %two = tcc.constant dense<2.0> : tensor<1xf32>
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %sq = tcc.pow %x, %two : (tensor<2x3x4x8xf32>, tensor<1xf32>) -> tensor<2x3x4x8xf32>
  %ms = tcc.reduce_mean %sq {axes = array<i64: 2, 3>, keep_dims = true} : (tensor<2x3x4x8xf32>) -> tensor<2x3x1x1xf32>
  %me = tcc.add %ms, %eps : (tensor<2x3x1x1xf32>, tensor<f32>) -> tensor<2x3x1x1xf32>
  %s = tcc.sqrt %me : (tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
  %y = tcc.div %x, %s : (tensor<2x3x4x8xf32>, tensor<2x3x1x1xf32>) -> tensor<2x3x4x8xf32>
  return %y : tensor<2x3x4x8xf32>
}

// -----

// The statistic of x normalizes z: no match.
// CHECK-LABEL: func.func @rms_norm_other_numerator
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   tcc.rsqrt
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   return
func.func @rms_norm_other_numerator(%x: tensor<?x64xf32>, %z: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %eps = tcc.constant dense<1.0e-06> : tensor<f32>
  %sq = tcc.mul %x, %x : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %ms = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %me = tcc.add %ms, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %me : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %z, %r : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  return %n : tensor<?x64xf32>
}

// -----

// The mean square is also returned.
// CHECK-LABEL: func.func @rms_norm_mean_used_elsewhere
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   tcc.rsqrt
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   return
func.func @rms_norm_mean_used_elsewhere(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>, tensor<?x1xf32>) {
  %eps = tcc.constant dense<1.0e-06> : tensor<f32>
  %sq = tcc.mul %x, %x : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %ms = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %me = tcc.add %ms, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %me : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %x, %r : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  return %n, %ms : tensor<?x64xf32>, tensor<?x1xf32>
}

// -----

// pow(x, 3) is not a square.
// CHECK-LABEL: func.func @rms_norm_cube
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   tcc.pow
//   CHECK-NOT:   tcc.rms_norm
//       CHECK:   return
func.func @rms_norm_cube(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %three = tcc.constant dense<3.0> : tensor<f32>
  %eps = tcc.constant dense<1.0e-06> : tensor<f32>
  %sq = tcc.pow %x, %three : (tensor<?x64xf32>, tensor<f32>) -> tensor<?x64xf32>
  %ms = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %me = tcc.add %ms, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = tcc.rsqrt %me : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %x, %r : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  return %n : tensor<?x64xf32>
}

// -----

// The seeds' NaiveAttention: softmax(q k^T / c) v, scale = 1 / c.
// CHECK-LABEL: func.func @naive_attention
//  CHECK-SAME:   %[[Q:[a-zA-Z0-9_]+]]: tensor<?x2x6x8xf32>, %[[K:[a-zA-Z0-9_]+]]: tensor<?x2x6x8xf32>, %[[V:[a-zA-Z0-9_]+]]: tensor<?x2x6x8xf32>
//  CHECK-NEXT:   %[[O:.+]] = tcc.attention %[[Q]], %[[K]], %[[V]] {scale = 5.000000e-01 : f32} : (tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
//  CHECK-NEXT:   return %[[O]]
func.func @naive_attention(%q: tensor<?x2x6x8xf32>, %k: tensor<?x2x6x8xf32>, %v: tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x6x8xf32>) -> tensor<?x2x8x6xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x2x6x8xf32>, tensor<?x2x8x6xf32>) -> tensor<?x2x6x6xf32>
  %d = tcc.constant dense<2.0> : tensor<f32>
  %ss = tcc.div %s, %d : (tensor<?x2x6x6xf32>, tensor<f32>) -> tensor<?x2x6x6xf32>
  %w = tcc.softmax %ss {axis = -1 : i64} : (tensor<?x2x6x6xf32>) -> tensor<?x2x6x6xf32>
  %o = tcc.matmul %w, %v : (tensor<?x2x6x6xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
  return %o : tensor<?x2x6x8xf32>
}

// -----

// Scale on the left of the mul, a float mask broadcast over heads, the
// softmax written out, Sq != Sk, Dv != D.
// CHECK-LABEL: func.func @attention_written_softmax_mask
//  CHECK-SAME:   %[[Q:[a-zA-Z0-9_]+]]: tensor<?x4x8x16xf32>, %[[K:[a-zA-Z0-9_]+]]: tensor<?x4x10x16xf32>, %[[V:[a-zA-Z0-9_]+]]: tensor<?x4x10x12xf32>, %[[M:[a-zA-Z0-9_]+]]: tensor<?x1x8x10xf32>
//  CHECK-NEXT:   %[[O:.+]] = tcc.attention %[[Q]], %[[K]], %[[V]], %[[M]] {scale = 2.500000e-01 : f32} : (tensor<?x4x8x16xf32>, tensor<?x4x10x16xf32>, tensor<?x4x10x12xf32>, tensor<?x1x8x10xf32>) -> tensor<?x4x8x12xf32>
//  CHECK-NEXT:   return %[[O]]
func.func @attention_written_softmax_mask(%q: tensor<?x4x8x16xf32>, %k: tensor<?x4x10x16xf32>, %v: tensor<?x4x10x12xf32>, %mask: tensor<?x1x8x10xf32>) -> tensor<?x4x8x12xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x4x10x16xf32>) -> tensor<?x4x16x10xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x4x8x16xf32>, tensor<?x4x16x10xf32>) -> tensor<?x4x8x10xf32>
  %c = tcc.constant dense<0.25> : tensor<f32>
  %ss = tcc.mul %c, %s : (tensor<f32>, tensor<?x4x8x10xf32>) -> tensor<?x4x8x10xf32>
  %t = tcc.add %ss, %mask : (tensor<?x4x8x10xf32>, tensor<?x1x8x10xf32>) -> tensor<?x4x8x10xf32>
  %m = tcc.reduce_max %t {axes = array<i64: 3>, keep_dims = true} : (tensor<?x4x8x10xf32>) -> tensor<?x4x8x1xf32>
  %dd = tcc.sub %t, %m : (tensor<?x4x8x10xf32>, tensor<?x4x8x1xf32>) -> tensor<?x4x8x10xf32>
  %e = tcc.exp %dd : (tensor<?x4x8x10xf32>) -> tensor<?x4x8x10xf32>
  %sum = tcc.reduce_sum %e {axes = array<i64: -1>, keep_dims = true} : (tensor<?x4x8x10xf32>) -> tensor<?x4x8x1xf32>
  %p = tcc.div %e, %sum : (tensor<?x4x8x10xf32>, tensor<?x4x8x1xf32>) -> tensor<?x4x8x10xf32>
  %o = tcc.matmul %p, %v : (tensor<?x4x8x10xf32>, tensor<?x4x10x12xf32>) -> tensor<?x4x8x12xf32>
  return %o : tensor<?x4x8x12xf32>
}

// -----

// Rank 3, no scaling (scale 1, not the op's default 1/sqrt(D)), the mask
// on the left of the add.
// CHECK-LABEL: func.func @attention_unscaled_3d
//  CHECK-SAME:   %[[Q:[a-zA-Z0-9_]+]]: tensor<2x5x8xf32>, %[[K:[a-zA-Z0-9_]+]]: tensor<2x7x8xf32>, %[[V:[a-zA-Z0-9_]+]]: tensor<2x7x3xf32>
//  CHECK-NEXT:   %[[M:.+]] = tcc.constant dense<-1.000000e+00> : tensor<7xf32>
//  CHECK-NEXT:   %[[O:.+]] = tcc.attention %[[Q]], %[[K]], %[[V]], %[[M]] {scale = 1.000000e+00 : f32}
//  CHECK-NEXT:   return %[[O]]
func.func @attention_unscaled_3d(%q: tensor<2x5x8xf32>, %k: tensor<2x7x8xf32>, %v: tensor<2x7x3xf32>) -> tensor<2x5x3xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 2, 1>} : (tensor<2x7x8xf32>) -> tensor<2x8x7xf32>
  %s = tcc.matmul %q, %kt : (tensor<2x5x8xf32>, tensor<2x8x7xf32>) -> tensor<2x5x7xf32>
  %mask = tcc.constant dense<-1.0> : tensor<7xf32>
  %t = tcc.add %mask, %s : (tensor<7xf32>, tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %w = tcc.softmax %t {axis = 2 : i64} : (tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %o = tcc.matmul %w, %v : (tensor<2x5x7xf32>, tensor<2x7x3xf32>) -> tensor<2x5x3xf32>
  return %o : tensor<2x5x3xf32>
}

// -----

// k transposed on dims 1 and 2, not the last two.
// CHECK-LABEL: func.func @attention_wrong_transpose
//   CHECK-NOT:   tcc.attention
//       CHECK:   tcc.softmax
//   CHECK-NOT:   tcc.attention
//       CHECK:   return
func.func @attention_wrong_transpose(%q: tensor<2x4x4x4xf32>, %k: tensor<2x4x4x4xf32>, %v: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %s = tcc.matmul %q, %kt : (tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %w = tcc.softmax %s {axis = -1 : i64} : (tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %o = tcc.matmul %w, %v : (tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %o : tensor<2x4x4x4xf32>
}

// -----

// Scores times a [6] vector: not a scale.
// CHECK-LABEL: func.func @attention_scale_not_scalar
//   CHECK-NOT:   tcc.attention
//       CHECK:   tcc.softmax
//   CHECK-NOT:   tcc.attention
//       CHECK:   return
func.func @attention_scale_not_scalar(%q: tensor<?x2x6x8xf32>, %k: tensor<?x2x6x8xf32>, %v: tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x6x8xf32>) -> tensor<?x2x8x6xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x2x6x8xf32>, tensor<?x2x8x6xf32>) -> tensor<?x2x6x6xf32>
  %c = tcc.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %ss = tcc.mul %s, %c : (tensor<?x2x6x6xf32>, tensor<6xf32>) -> tensor<?x2x6x6xf32>
  %w = tcc.softmax %ss {axis = -1 : i64} : (tensor<?x2x6x6xf32>) -> tensor<?x2x6x6xf32>
  %o = tcc.matmul %w, %v : (tensor<?x2x6x6xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
  return %o : tensor<?x2x6x8xf32>
}

// -----

// Softmax over the query axis.
// CHECK-LABEL: func.func @attention_softmax_wrong_axis
//   CHECK-NOT:   tcc.attention
//       CHECK:   tcc.softmax
//   CHECK-NOT:   tcc.attention
//       CHECK:   return
func.func @attention_softmax_wrong_axis(%q: tensor<?x2x6x8xf32>, %k: tensor<?x2x6x8xf32>, %v: tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x6x8xf32>) -> tensor<?x2x8x6xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x2x6x8xf32>, tensor<?x2x8x6xf32>) -> tensor<?x2x6x6xf32>
  %w = tcc.softmax %s {axis = 2 : i64} : (tensor<?x2x6x6xf32>) -> tensor<?x2x6x6xf32>
  %o = tcc.matmul %w, %v : (tensor<?x2x6x6xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
  return %o : tensor<?x2x6x8xf32>
}

// -----

// The scores are also returned.
// CHECK-LABEL: func.func @attention_scores_used_elsewhere
//   CHECK-NOT:   tcc.attention
//       CHECK:   tcc.softmax
//   CHECK-NOT:   tcc.attention
//       CHECK:   return
func.func @attention_scores_used_elsewhere(%q: tensor<?x2x6x8xf32>, %k: tensor<?x2x6x8xf32>, %v: tensor<?x2x6x8xf32>) -> (tensor<?x2x6x8xf32>, tensor<?x2x6x6xf32>) {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x6x8xf32>) -> tensor<?x2x8x6xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x2x6x8xf32>, tensor<?x2x8x6xf32>) -> tensor<?x2x6x6xf32>
  %w = tcc.softmax %s {axis = -1 : i64} : (tensor<?x2x6x6xf32>) -> tensor<?x2x6x6xf32>
  %o = tcc.matmul %w, %v : (tensor<?x2x6x6xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
  return %o, %s : tensor<?x2x6x8xf32>, tensor<?x2x6x6xf32>
}

// -----

// q's batch of 1 broadcasts in the matmul; tcc.attention needs equal
// leading dims.
// CHECK-LABEL: func.func @attention_broadcast_batch
//   CHECK-NOT:   tcc.attention
//       CHECK:   tcc.softmax
//   CHECK-NOT:   tcc.attention
//       CHECK:   return
func.func @attention_broadcast_batch(%q: tensor<1x2x6x8xf32>, %k: tensor<3x2x6x8xf32>, %v: tensor<3x2x6x8xf32>) -> tensor<3x2x6x8xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<3x2x6x8xf32>) -> tensor<3x2x8x6xf32>
  %s = tcc.matmul %q, %kt : (tensor<1x2x6x8xf32>, tensor<3x2x8x6xf32>) -> tensor<3x2x6x6xf32>
  %w = tcc.softmax %s {axis = -1 : i64} : (tensor<3x2x6x6xf32>) -> tensor<3x2x6x6xf32>
  %o = tcc.matmul %w, %v : (tensor<3x2x6x6xf32>, tensor<3x2x6x8xf32>) -> tensor<3x2x6x8xf32>
  return %o : tensor<3x2x6x8xf32>
}

// -----

// Rank 2 (no batch dims) is left alone.
// CHECK-LABEL: func.func @attention_rank2
//   CHECK-NOT:   tcc.attention
//       CHECK:   tcc.softmax
//   CHECK-NOT:   tcc.attention
//       CHECK:   return
func.func @attention_rank2(%q: tensor<5x8xf32>, %k: tensor<9x8xf32>, %v: tensor<9x3xf32>) -> tensor<5x3xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 1, 0>} : (tensor<9x8xf32>) -> tensor<8x9xf32>
  %s = tcc.matmul %q, %kt : (tensor<5x8xf32>, tensor<8x9xf32>) -> tensor<5x9xf32>
  %w = tcc.softmax %s {axis = 1 : i64} : (tensor<5x9xf32>) -> tensor<5x9xf32>
  %o = tcc.matmul %w, %v : (tensor<5x9xf32>, tensor<9x3xf32>) -> tensor<5x3xf32>
  return %o : tensor<5x3xf32>
}

// -----

// (scores + mask) * c scales the mask too: not tcc.attention's order.
// CHECK-LABEL: func.func @attention_mask_before_scale
//   CHECK-NOT:   tcc.attention
//       CHECK:   tcc.softmax
//   CHECK-NOT:   tcc.attention
//       CHECK:   return
func.func @attention_mask_before_scale(%q: tensor<?x2x6x8xf32>, %k: tensor<?x2x6x8xf32>, %v: tensor<?x2x6x8xf32>, %mask: tensor<6x6xf32>) -> tensor<?x2x6x8xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x6x8xf32>) -> tensor<?x2x8x6xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x2x6x8xf32>, tensor<?x2x8x6xf32>) -> tensor<?x2x6x6xf32>
  %t = tcc.add %s, %mask : (tensor<?x2x6x6xf32>, tensor<6x6xf32>) -> tensor<?x2x6x6xf32>
  %c = tcc.constant dense<0.5> : tensor<f32>
  %ss = tcc.mul %t, %c : (tensor<?x2x6x6xf32>, tensor<f32>) -> tensor<?x2x6x6xf32>
  %w = tcc.softmax %ss {axis = -1 : i64} : (tensor<?x2x6x6xf32>) -> tensor<?x2x6x6xf32>
  %o = tcc.matmul %w, %v : (tensor<?x2x6x6xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
  return %o : tensor<?x2x6x8xf32>
}
