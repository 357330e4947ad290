// RUN: tcc-opt %s --split-input-file --verify-diagnostics

// One case per verifier and type inference message of the tcc dialect.
// Messages from inferReturnTypes are followed by the generic
// "failed to infer returned types" error of the InferTypeOpInterface
// verifier, so those cases expect both.

//===----------------------------------------------------------------------===//
// Elementwise binaries, cmp, select
//===----------------------------------------------------------------------===//

func.func @broadcast_mismatch(%a: tensor<4x8xf32>, %b: tensor<3xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'tcc.add' op operands are not broadcast-compatible: lhs has size 8 at dim 1, rhs has size 3 at dim 0}}
  // expected-error @+1 {{'tcc.add' op failed to infer returned types}}
  %0 = tcc.add %a, %b : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Each operand's own dim index is reported (ranks differ here).
func.func @broadcast_mismatch_rank_difference(%a: tensor<5x1xf32>, %b: tensor<2x6x3xf32>) -> tensor<2x6x3xf32> {
  // expected-error @+2 {{'tcc.mul' op operands are not broadcast-compatible: lhs has size 6 at dim 1, rhs has size 5 at dim 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.mul %b, %a : (tensor<2x6x3xf32>, tensor<5x1xf32>) -> tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}

// -----

func.func @binary_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+2 {{'tcc.sub' op expects lhs and rhs to have the same element type, got f32 and f16}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.sub %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @add_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'tcc.add' op does not accept i1 operands}}
  %0 = tcc.add %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @maximum_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'tcc.maximum' op does not accept i1 operands}}
  %0 = tcc.maximum %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @rem_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'tcc.rem' op does not accept i1 operands}}
  %0 = tcc.rem %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @sin_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tcc.sin' op operand #0 must be}}
  %0 = tcc.sin %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @floor_shape(%a: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'tcc.floor' op all non-scalar operands/results must have the same shape}}
  %0 = tcc.floor %a : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @pow_integer(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tcc.pow' op expects floating-point operands, got 'i32'}}
  %0 = tcc.pow %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @cmp_bad_predicate(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'tcc.cmp' op expects predicate to be one of eq, ne, lt, le, gt, ge, got 'olt'}}
  %0 = tcc.cmp %a, %a {predicate = "olt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @cmp_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+2 {{'tcc.cmp' op expects lhs and rhs to have the same element type, got f32 and i32}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.cmp %a, %b {predicate = "eq"} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @cmp_broadcast_mismatch(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xi1> {
  // expected-error @+2 {{'tcc.cmp' op operands are not broadcast-compatible: lhs has size 4 at dim 0, rhs has size 5 at dim 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.cmp %a, %b {predicate = "eq"} : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @select_element_type_mismatch(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tcc.select' op expects on_true and on_false to have the same element type, got f32 and i32}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_broadcast_mismatch(%c: tensor<4xi1>, %a: tensor<2x3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'tcc.select' op operands are not broadcast-compatible: cond has size 4 at dim 0, on_true has size 3 at dim 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.select %c, %a, %b : (tensor<4xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// The declared result type may refine the inferred one but not contradict it.
func.func @add_wrong_result_dim(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x9xf32> {
  // expected-error @+2 {{'tcc.add' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x9xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

func.func @add_wrong_result_rank(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'tcc.add' op inferred type(s) 'tensor<?x8xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @add_wrong_result_element_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+2 {{'tcc.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @cmp_result_not_bool(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcc.cmp' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = tcc.cmp %a, %a {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise unaries and cast
//===----------------------------------------------------------------------===//

// -----

func.func @exp_integer(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tcc.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = tcc.exp %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The unary ops carry MLIR's Elementwise trait, whose verifier speaks first.
func.func @unary_wrong_result(%a: tensor<2x8xf32>) -> tensor<2x9xf32> {
  // expected-error @+1 {{'tcc.relu' op all non-scalar operands/results must have the same shape and base type}}
  %0 = tcc.relu %a : (tensor<2x8xf32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// -----

func.func @gelu_bad_approximate(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcc.gelu' op expects approximate to be "none" or "tanh", got "fast"}}
  %0 = tcc.gelu %a {approximate = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cast_shape_change(%a: tensor<4xf32>) -> tensor<5xf16> {
  // expected-error @+1 {{'tcc.cast' op expects the result shape to equal the operand shape, got 'tensor<4xf32>' and 'tensor<5xf16>'}}
  %0 = tcc.cast %a : (tensor<4xf32>) -> tensor<5xf16>
  return %0 : tensor<5xf16>
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_axis_out_of_range(%a: tensor<2x8xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'tcc.reduce_sum' op axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_sum %a {axes = array<i64: 2>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_negative_axis_out_of_range(%a: tensor<2x8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'tcc.reduce_max' op axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_max %a {axes = array<i64: -3>} : (tensor<2x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// -1 and 1 name the same dim of a rank-2 tensor.
func.func @reduce_duplicate_axis(%a: tensor<2x8xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'tcc.reduce_mean' op axis -1 appears more than once}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_mean %a {axes = array<i64: 1, -1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_wrong_keep_dims_result(%a: tensor<2x8xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'tcc.reduce_min' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_min %a {axes = array<i64: 1>, keep_dims = true} : (tensor<2x8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @softmax_axis_out_of_range(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tcc.softmax' op axis 2 is out of range for rank 2}}
  %0 = tcc.softmax %a {axis = 2 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @log_softmax_axis_out_of_range(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tcc.log_softmax' op axis -3 is out of range for rank 2}}
  %0 = tcc.log_softmax %a {axis = -3 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_rank0(%a: tensor<f32>, %w: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tcc.layer_norm' op expects x of rank >= 1}}
  %0 = tcc.layer_norm %a, %w, %w : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @layer_norm_axis_out_of_range(%a: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tcc.layer_norm' op axis 2 is out of range for rank 2}}
  %0 = tcc.layer_norm %a, %w, %w {axis = 2 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_negative_epsilon(%a: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tcc.layer_norm' op expects a non-negative epsilon, got -1.000000e+00}}
  %0 = tcc.layer_norm %a, %w, %w {epsilon = -1.0 : f32} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// weight covers dims axis..rank-1: 8 here, not 2x8.
func.func @layer_norm_weight_shape(%a: tensor<2x8xf32>, %w: tensor<2x8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tcc.layer_norm' op expects weight of shape 8, got 2x8}}
  %0 = tcc.layer_norm %a, %w, %b : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_bias_shape(%a: tensor<2x3x8xf32>, %w: tensor<3x8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  // expected-error @+1 {{'tcc.layer_norm' op expects bias of shape 3x8, got 8}}
  %0 = tcc.layer_norm %a, %w, %b {axis = 1 : i64} : (tensor<2x3x8xf32>, tensor<3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

func.func @layer_norm_weight_scalar(%a: tensor<2x8xf32>, %w: tensor<f32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tcc.layer_norm' op expects weight of shape 8, got scalar}}
  %0 = tcc.layer_norm %a, %w, %w : (tensor<2x8xf32>, tensor<f32>, tensor<f32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_weight_element_type(%a: tensor<2x8xf32>, %w: tensor<8xf16>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tcc.layer_norm' op expects weight to have element type 'f32', got 'f16'}}
  %0 = tcc.layer_norm %a, %w, %b : (tensor<2x8xf32>, tensor<8xf16>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @rms_norm_weight_shape(%a: tensor<?x16xf16>, %w: tensor<8xf16>) -> tensor<?x16xf16> {
  // expected-error @+1 {{'tcc.rms_norm' op expects weight of shape 16, got 8}}
  %0 = tcc.rms_norm %a, %w : (tensor<?x16xf16>, tensor<8xf16>) -> tensor<?x16xf16>
  return %0 : tensor<?x16xf16>
}

// -----

func.func @rms_norm_axis_out_of_range(%a: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tcc.rms_norm' op axis -3 is out of range for rank 2}}
  %0 = tcc.rms_norm %a, %w {axis = -3 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @batch_norm_rank(%a: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tcc.batch_norm' op expects x of rank >= 2 (N, C, ...), got rank 1}}
  %0 = tcc.batch_norm %a, %c, %c, %c, %c : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @batch_norm_negative_epsilon(%a: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tcc.batch_norm' op expects a non-negative epsilon}}
  %0 = tcc.batch_norm %a, %c, %c, %c, %c {epsilon = -1.0e-5 : f32}
      : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_var_shape(%a: tensor<2x3x4x4xf32>, %c: tensor<3xf32>, %v: tensor<4xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'tcc.batch_norm' op expects var of shape 3, got 4}}
  %0 = tcc.batch_norm %a, %c, %c, %c, %v
      : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_mean_element_type(%a: tensor<2x3xf32>, %c: tensor<3xf32>, %m: tensor<3xf64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tcc.batch_norm' op expects mean to have element type 'f32', got 'f64'}}
  %0 = tcc.batch_norm %a, %c, %c, %m, %c
      : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf64>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// matmul, linear
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_rank(%a: tensor<8xf32>, %b: tensor<8x4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tcc.matmul' op expects operands of rank >= 2, got 1 and 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<8xf32>, tensor<8x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @matmul_element_type(%a: tensor<2x8xf32>, %b: tensor<8x4xf16>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'tcc.matmul' op expects a and b to have the same element type, got f32 and f16}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<2x8xf32>, tensor<8x4xf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_contracting_dims(%a: tensor<3x2x8xf32>, %b: tensor<4x5xf32>) -> tensor<3x2x5xf32> {
  // expected-error @+2 {{'tcc.matmul' op contracting dims differ: a has 8 columns (dim 2), b has 4 rows (dim 0)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<3x2x8xf32>, tensor<4x5xf32>) -> tensor<3x2x5xf32>
  return %0 : tensor<3x2x5xf32>
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x5xf32>) -> tensor<2x4x5xf32> {
  // expected-error @+2 {{'tcc.matmul' op operands are not broadcast-compatible: a's batch dims has size 2 at dim 0, b's batch dims has size 3 at dim 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

func.func @matmul_wrong_result(%a: tensor<?x4x8xf32>, %b: tensor<8x5xf32>) -> tensor<?x5x4xf32> {
  // expected-error @+2 {{'tcc.matmul' op inferred type(s) 'tensor<?x4x5xf32>' are incompatible with return type(s) of operation 'tensor<?x5x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<?x4x8xf32>, tensor<8x5xf32>) -> tensor<?x5x4xf32>
  return %0 : tensor<?x5x4xf32>
}

// -----

func.func @linear_weight_rank(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'tcc.linear' op expects x of rank >= 1 and weight of rank 2, got 2 and 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.linear %x, %w : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @linear_x_rank0(%x: tensor<f32>, %w: tensor<4x1xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tcc.linear' op expects x of rank >= 1 and weight of rank 2, got 0 and 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.linear %x, %w : (tensor<f32>, tensor<4x1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @linear_features(%x: tensor<?x256xf32>, %w: tensor<512x128xf32>) -> tensor<?x512xf32> {
  // expected-error @+2 {{'tcc.linear' op x has 256 input features (last dim) but weight has 128 (dim 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.linear %x, %w : (tensor<?x256xf32>, tensor<512x128xf32>) -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}

// -----

func.func @linear_weight_element_type(%x: tensor<2x8xf32>, %w: tensor<4x8xf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tcc.linear' op expects weight to have element type 'f32', got 'f16'}}
  %0 = tcc.linear %x, %w : (tensor<2x8xf32>, tensor<4x8xf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @linear_bias_shape(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tcc.linear' op expects bias of shape 4, got 8}}
  %0 = tcc.linear %x, %w, %b : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @linear_bias_element_type(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xbf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tcc.linear' op expects bias to have element type 'f32', got 'bf16'}}
  %0 = tcc.linear %x, %w, %b : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xbf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

//===----------------------------------------------------------------------===//
// conv2d, pooling
//===----------------------------------------------------------------------===//

// -----

func.func @conv_rank(%x: tensor<4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<8x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects x (NCHW) and weight (OIHW) of rank 4, got 3 and 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w : (tensor<4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<8x6x6xf32>
  return %0 : tensor<8x6x6xf32>
}

// -----

func.func @conv_strides_count(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects strides to have 2 values, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {strides = array<i64: 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_strides_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects strides values >= 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {strides = array<i64: 1, 0>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_dilations_count(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects dilations to have 2 values, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {dilations = array<i64: 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_dilations_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects dilations values >= 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {dilations = array<i64: 0, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_padding_count(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects padding to have 2 or 4 values (top, left, bottom, right), got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

func.func @conv_padding_negative(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects padding values >= 0, got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, -1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

func.func @conv_groups_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects groups >= 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {groups = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op x has 4 channels but weight expects 3 (dim 1 = 3 times groups = 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_channels_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x3x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op x has 4 channels but weight expects 6 (dim 1 = 3 times groups = 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_output_channels_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<5x2x3x3xf32>) -> tensor<1x5x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op output channels 5 are not divisible by groups 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<5x2x3x3xf32>) -> tensor<1x5x6x6xf32>
  return %0 : tensor<1x5x6x6xf32>
}

// -----

func.func @conv_kernel_too_large(%x: tensor<1x4x4x8xf32>, %w: tensor<8x4x5x3xf32>) -> tensor<1x8x1x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op the dilated kernel (5) is larger than the padded input along dim 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x4x8xf32>, tensor<8x4x5x3xf32>) -> tensor<1x8x1x6xf32>
  return %0 : tensor<1x8x1x6xf32>
}

// -----

// Dilation widens the kernel: 3 taps at dilation 4 span 9 > 8.
func.func @conv_dilated_kernel_too_large(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x1xf32> {
  // expected-error @+2 {{'tcc.conv2d' op the dilated kernel (9) is larger than the padded input along dim 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 4>}
      : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x1xf32>
  return %0 : tensor<1x8x6x1xf32>
}

// -----

func.func @conv_wrong_result(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+2 {{'tcc.conv2d' op inferred type(s) 'tensor<1x8x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

func.func @conv_weight_element_type(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf16>) -> tensor<1x8x6x6xf32> {
  // expected-error @+1 {{'tcc.conv2d' op expects weight to have element type 'f32'}}
  %0 = tcc.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf16>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_bias_shape(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+1 {{'tcc.conv2d' op expects bias of shape 8, got 4}}
  %0 = tcc.conv2d %x, %w, %b {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<4xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @pool_rank(%x: tensor<4x8x8xf32>) -> tensor<4x4x4xf32> {
  // expected-error @+2 {{'tcc.max_pool2d' op expects x of rank 4 (NCHW)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<4x8x8xf32>) -> tensor<4x4x4xf32>
  return %0 : tensor<4x4x4xf32>
}

// -----

func.func @pool_kernel_count(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+2 {{'tcc.avg_pool2d' op expects kernel_size to have 2 values, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+2 {{'tcc.max_pool2d' op expects kernel_size values >= 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 0>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

func.func @pool_strides_zero(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+2 {{'tcc.max_pool2d' op expects strides values >= 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, strides = array<i64: 0, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

func.func @pool_padding_count(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+2 {{'tcc.avg_pool2d' op expects padding to have 2 or 4 values (top, left, bottom, right), got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>, padding = array<i64: 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

func.func @pool_padding_negative(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+2 {{'tcc.avg_pool2d' op expects padding values >= 0, got -2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>, padding = array<i64: 0, 0, -2, 0>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// A window entirely in the padding would have no element to reduce.
func.func @pool_padding_not_smaller_than_kernel(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x6x4xf32> {
  // expected-error @+2 {{'tcc.max_pool2d' op padding 2 must be smaller than the kernel size 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, padding = array<i64: 2, 0>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x6x4xf32>
  return %0 : tensor<1x4x6x4xf32>
}

// -----

func.func @pool_bottom_padding_not_smaller_than_kernel(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x5x3xf32> {
  // expected-error @+2 {{'tcc.avg_pool2d' op padding 3 must be smaller than the kernel size 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 3, 3>, padding = array<i64: 0, 1, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x5x3xf32>
  return %0 : tensor<1x4x5x3xf32>
}

// -----

func.func @pool_window_too_large(%x: tensor<1x4x8x3xf32>) -> tensor<1x4x2x1xf32> {
  // expected-error @+2 {{'tcc.max_pool2d' op the window (4) is larger than the padded input along dim 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 4, 4>, padding = array<i64: 0, 0>} : (tensor<1x4x8x3xf32>) -> tensor<1x4x2x1xf32>
  return %0 : tensor<1x4x2x1xf32>
}

// -----

func.func @pool_wrong_result(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+2 {{'tcc.avg_pool2d' op inferred type(s) 'tensor<1x4x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

//===----------------------------------------------------------------------===//
// attention
//===----------------------------------------------------------------------===//

// -----

func.func @attention_ranks(%q: tensor<2x4x8xf32>, %k: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op expects q, k, v of equal rank >= 2, got 3, 2, 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %k, %q : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @attention_rank1(%q: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'tcc.attention' op expects q, k, v of equal rank >= 2, got 1, 1, 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %q, %q : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @attention_element_types(%q: tensor<4x8xf32>, %v: tensor<4x8xf16>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op expects q, k, v to have the same element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %q, %v : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf16>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_leading_dims(%q: tensor<2x4x8xf32>, %k: tensor<3x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op expects equal leading dims, got q 2x4x8, k 3x4x8, v 2x4x8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %k, %q : (tensor<2x4x8xf32>, tensor<3x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @attention_head_dims(%q: tensor<2x4x8xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x6x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op q and k head dims differ: 8 vs 16}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %k, %v : (tensor<2x4x8xf32>, tensor<2x6x16xf32>, tensor<2x6x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @attention_sequence_lengths(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op k and v sequence lengths differ: 6 vs 5}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %k, %v : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x5x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @attention_mask_element_type(%q: tensor<4x8xf32>, %m: tensor<4x4xi32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op expects an i1 mask or a mask of q's element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %q, %q, %m : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xi32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_mask_shape(%q: tensor<2x4x8xf32>, %m: tensor<3x4xi1>) -> tensor<2x4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op mask of shape 3x4 does not broadcast to the scores' shape 2x4x4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %q, %q, %m : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<3x4xi1>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// A mask may broadcast to the scores but not enlarge them.
func.func @attention_mask_larger_than_scores(%q: tensor<4x8xf32>, %m: tensor<2x4x4xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op mask of shape 2x4x4 does not broadcast to the scores' shape 4x4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %q, %q, %m : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x4x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_wrong_result(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x16xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+2 {{'tcc.attention' op inferred type(s) 'tensor<2x4x16xf32>' are incompatible with return type(s) of operation 'tensor<2x4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.attention %q, %k, %v : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_not_a_permutation(%x: tensor<2x3x4xf32>) -> tensor<2x2x3xf32> {
  // expected-error @+2 {{'tcc.transpose' op expects permutation to be a permutation of [0, 3), got [0, 0, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.transpose %x {permutation = array<i64: 0, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

func.func @transpose_wrong_length(%x: tensor<2x3x4xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'tcc.transpose' op expects permutation to be a permutation of [0, 3), got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_out_of_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'tcc.transpose' op expects permutation to be a permutation of [0, 2), got [2, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.transpose %x {permutation = array<i64: 2, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_wrong_result(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'tcc.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) -> tensor<6xf16> {
  // expected-error @+1 {{'tcc.reshape' op expects the result element type 'f16' to equal the operand's 'f32'}}
  %0 = tcc.reshape %x : (tensor<2x3xf32>) -> tensor<6xf16>
  return %0 : tensor<6xf16>
}

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tcc.reshape' op expects the same number of elements, got 6 (2x3) and 8 (2x4)}}
  %0 = tcc.reshape %x : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @reshape_element_count_scalar(%x: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tcc.reshape' op expects the same number of elements, got 2 (2) and 1 (scalar)}}
  %0 = tcc.reshape %x : (tensor<2xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reshape_shape_operand_entries(%x: tensor<?x8xf32>, %s: tensor<2xi64>) -> tensor<?x2x4xf32> {
  // expected-error @+1 {{'tcc.reshape' op expects the shape operand to have 3 entries (the result rank), got 2}}
  %0 = tcc.reshape %x, %s : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}

// -----

func.func @reshape_multiple_dynamic_dims(%x: tensor<?x8xf32>) -> tensor<?x?x4xf32> {
  // expected-error @+1 {{'tcc.reshape' op needs a shape operand when the result has more than one dynamic dim (2 here)}}
  %0 = tcc.reshape %x : (tensor<?x8xf32>) -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

func.func @reshape_not_divisible(%x: tensor<2x3xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'tcc.reshape' op cannot infer the dynamic result dim: 6 elements are not divisible by 4}}
  %0 = tcc.reshape %x : (tensor<2x3xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @reshape_zero_known(%x: tensor<2x3xf32>) -> tensor<?x0xf32> {
  // expected-error @+1 {{'tcc.reshape' op cannot infer the dynamic result dim: 6 elements are not divisible by 0}}
  %0 = tcc.reshape %x : (tensor<2x3xf32>) -> tensor<?x0xf32>
  return %0 : tensor<?x0xf32>
}

// -----

func.func @reshape_shape_operand_type(%x: tensor<?x8xf32>, %s: tensor<2xi32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'tcc.reshape' op operand #1 must be 1D tensor of 64-bit signless integer values}}
  %0 = tcc.reshape %x, %s : (tensor<?x8xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @broadcast_to_element_type(%x: tensor<1x4xf32>) -> tensor<3x4xf16> {
  // expected-error @+1 {{'tcc.broadcast_to' op expects the result element type to equal the operand's}}
  %0 = tcc.broadcast_to %x : (tensor<1x4xf32>) -> tensor<3x4xf16>
  return %0 : tensor<3x4xf16>
}

// -----

func.func @broadcast_to_lower_rank(%x: tensor<2x3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'tcc.broadcast_to' op cannot broadcast rank 3 to the lower rank 2}}
  %0 = tcc.broadcast_to %x : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @broadcast_to_incompatible_dim(%x: tensor<3x4xf32>) -> tensor<2x5x4xf32> {
  // expected-error @+1 {{'tcc.broadcast_to' op cannot broadcast operand dim 0 of size 3 to result dim 1 of size 5}}
  %0 = tcc.broadcast_to %x : (tensor<3x4xf32>) -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// -----

func.func @broadcast_to_shape_entries(%x: tensor<1x4xf32>, %s: tensor<2xi64>) -> tensor<?x3x4xf32> {
  // expected-error @+1 {{'tcc.broadcast_to' op expects the shape operand to have 3 entries, got 2}}
  %0 = tcc.broadcast_to %x, %s : (tensor<1x4xf32>, tensor<2xi64>) -> tensor<?x3x4xf32>
  return %0 : tensor<?x3x4xf32>
}

// -----

func.func @broadcast_to_new_dynamic_dim(%x: tensor<1x4xf32>) -> tensor<2x?x1x4xf32> {
  // expected-error @+1 {{'tcc.broadcast_to' op needs a shape operand for the new dynamic dim 1}}
  %0 = tcc.broadcast_to %x : (tensor<1x4xf32>) -> tensor<2x?x1x4xf32>
  return %0 : tensor<2x?x1x4xf32>
}

// -----

func.func @concat_no_inputs() -> tensor<3xf32> {
  // expected-error @+2 {{'tcc.concat' op expects at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "tcc.concat"() {axis = 0 : i64} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @concat_axis_out_of_range(%a: tensor<2x4xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'tcc.concat' op axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %a {axis = 2 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @concat_rank_mismatch(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'tcc.concat' op input 1 must have the rank and element type of input 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @concat_element_type_mismatch(%a: tensor<2x4xf32>, %b: tensor<2x4xi32>) -> tensor<2x12xf32> {
  // expected-error @+2 {{'tcc.concat' op input 2 must have the rank and element type of input 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %a, %b {axis = 1 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

func.func @concat_other_dim_mismatch(%a: tensor<2x4xf32>, %b: tensor<2x3xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'tcc.concat' op input 1 has size 3 at dim 1, input 0 has 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @concat_wrong_result(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+2 {{'tcc.concat' op inferred type(s) 'tensor<5x4xf32>' are incompatible with return type(s) of operation 'tensor<6x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

func.func @slice_entry_counts(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'tcc.slice' op expects starts, ends and steps with one entry per dim (2), got 1, 2, 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %x {starts = array<i64: 0>, ends = array<i64: 2, 8>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @slice_steps_count(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'tcc.slice' op expects starts, ends and steps with one entry per dim (2), got 2, 2, 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 2, 8>, steps = array<i64: 1, 1, 1>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'tcc.slice' op expects positive steps, got 0 at dim 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 2, 8>, steps = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @slice_negative_step(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'tcc.slice' op expects positive steps, got -1 at dim 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %x {starts = array<i64: 3, 0>, ends = array<i64: 1, 8>, steps = array<i64: -1, 1>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @slice_wrong_result(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'tcc.slice' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 2, 8>, steps = array<i64: 1, 2>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @gather_axis_out_of_range(%x: tensor<4x8xf32>, %i: tensor<3xi64>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'tcc.gather' op axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.gather %x, %i {axis = 2 : i64} : (tensor<4x8xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @gather_wrong_result(%x: tensor<4x8xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'tcc.gather' op inferred type(s) 'tensor<2x3x8xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.gather %x, %i : (tensor<4x8xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_float_indices(%x: tensor<4x8xf32>, %i: tensor<3xf32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'tcc.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = tcc.gather %x, %i : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @constant_wrong_type() -> tensor<3xf32> {
  // expected-error @+2 {{'tcc.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "tcc.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

//===----------------------------------------------------------------------===//
// mask_select, nonzero
//===----------------------------------------------------------------------===//

// -----

func.func @mask_select_mask_rank_too_high(%x: tensor<4xf32>, %m: tensor<4x2xi1>) -> tensor<?xf32> {
  // expected-error @+2 {{'tcc.mask_select' op expects mask of rank at most x's rank 1, got rank 2 (mask 4x2, x 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.mask_select %x, %m : (tensor<4xf32>, tensor<4x2xi1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @mask_select_dim_mismatch(%x: tensor<2x3xf32>, %m: tensor<2x4xi1>) -> tensor<?xf32> {
  // expected-error @+2 {{'tcc.mask_select' op expects mask dim 1 (size 4) to equal x dim 1 (size 3): the mask has x's shape or that of its leading dims, it does not broadcast (mask 2x4, x 2x3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.mask_select %x, %m : (tensor<2x3xf32>, tensor<2x4xi1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A size-1 mask dim does not stretch.
func.func @mask_select_no_broadcast(%boxes: tensor<5x4xf32>, %m: tensor<1xi1>) -> tensor<?x4xf32> {
  // expected-error @+2 {{'tcc.mask_select' op expects mask dim 0 (size 1) to equal x dim 0 (size 5)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.mask_select %boxes, %m : (tensor<5x4xf32>, tensor<1xi1>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @mask_select_float_mask(%x: tensor<4xf32>, %m: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'tcc.mask_select' op operand #1 must be ranked tensor of 1-bit signless integer values}}
  %0 = tcc.mask_select %x, %m : (tensor<4xf32>, tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Row select keeps the row dims: the result is ?x4, not 1-D.
func.func @mask_select_wrong_rank(%boxes: tensor<5x4xf32>, %m: tensor<5xi1>) -> tensor<?xf32> {
  // expected-error @+2 {{'tcc.mask_select' op inferred type(s) 'tensor<?x4xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.mask_select %boxes, %m : (tensor<5x4xf32>, tensor<5xi1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @mask_select_wrong_element_type(%x: tensor<4xf32>, %m: tensor<4xi1>) -> tensor<?xf16> {
  // expected-error @+2 {{'tcc.mask_select' op inferred type(s) 'tensor<?xf32>' are incompatible with return type(s) of operation 'tensor<?xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.mask_select %x, %m : (tensor<4xf32>, tensor<4xi1>) -> tensor<?xf16>
  return %0 : tensor<?xf16>
}

// -----

func.func @nonzero_wrong_rank_column(%x: tensor<3x4xf32>) -> tensor<?x3xi64> {
  // expected-error @+2 {{'tcc.nonzero' op inferred type(s) 'tensor<?x2xi64>' are incompatible with return type(s) of operation 'tensor<?x3xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.nonzero %x : (tensor<3x4xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nonzero_i32_result(%x: tensor<3x4xf32>) -> tensor<?x2xi32> {
  // expected-error @+1 {{'tcc.nonzero' op result #0 must be 2D tensor of 64-bit signless integer values}}
  %0 = tcc.nonzero %x : (tensor<3x4xf32>) -> tensor<?x2xi32>
  return %0 : tensor<?x2xi32>
}


// -----

func.func @gather_elements_rank(%x: tensor<4x5xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+2 {{'tcc.gather_elements' op expects indices of x's rank 2, got rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.gather_elements %x, %i : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_elements_larger(%x: tensor<4x5xf32>, %i: tensor<4x6xi64>) -> tensor<4x6xf32> {
  // expected-error @+2 {{'tcc.gather_elements' op indices dim 1 (6) exceeds x's (5)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.gather_elements %x, %i : (tensor<4x5xf32>, tensor<4x6xi64>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

func.func @conv_layout_unknown(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op expects layout NCHW or NHWC, got 'NCWH'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {layout = "NCWH"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// NHWC: the channels are the last dim of x and of the (OHWI) weight.
func.func @conv_nhwc_channels(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+2 {{'tcc.conv2d' op x has 3 channels but weight expects 2 (dim 1 = 2 times groups = 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {layout = "NHWC"} : (tensor<1x8x8x3xf32>, tensor<4x3x3x2xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// The result of an NHWC convolution is [N, OH, OW, O].
func.func @conv_nhwc_result(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+2 {{'tcc.conv2d' op inferred type(s) 'tensor<1x6x6x4xf32>' are incompatible with return type(s) of operation 'tensor<1x4x6x6xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {layout = "NHWC"} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @pool_layout_unknown(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{'tcc.max_pool2d' op expects layout NCHW or NHWC, got 'CHWN'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, layout = "CHWN"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @batch_norm_axis(%x: tensor<2x8x8x4xf32>, %c: tensor<4xf32>) -> tensor<2x8x8x4xf32> {
  // expected-error @+1 {{'tcc.batch_norm' op expects the channel axis in [1, 4), got 4}}
  %0 = tcc.batch_norm %x, %c, %c, %c, %c {axis = 4 : i64} : (tensor<2x8x8x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x8x8x4xf32>
  return %0 : tensor<2x8x8x4xf32>
}

// -----

// Channels-last batch norm: the parameters have the last dim's size.
func.func @batch_norm_axis_param(%x: tensor<2x8x8x4xf32>, %c: tensor<8xf32>) -> tensor<2x8x8x4xf32> {
  // expected-error @+1 {{'tcc.batch_norm' op expects scale of shape 4, got 8}}
  %0 = tcc.batch_norm %x, %c, %c, %c, %c {axis = 3 : i64} : (tensor<2x8x8x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x8x4xf32>
  return %0 : tensor<2x8x8x4xf32>
}

//===----------------------------------------------------------------------===//
// scatter_elements, scatter_nd
//===----------------------------------------------------------------------===//

// -----

func.func @scatter_unknown_reduction(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_elements' op expects reduction "none", "add", "mul", "max" or "min", got "mean"}}
  %0 = tcc.scatter_elements %x, %i, %u {axis = 1 : i64, reduction = "mean"} : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_elements_type_mismatch(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf16>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_elements' op expects updates of x's element type 'f32', got 'f16'}}
  %0 = tcc.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf16>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_elements_rank(%x: tensor<4x8xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_elements' op expects indices and updates of x's rank 2, got ranks 1 and 1}}
  %0 = tcc.scatter_elements %x, %i, %u : (tensor<4x8xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_elements_indices_exceed_updates(%x: tensor<4x8xf32>, %i: tensor<?x3xi64>, %u: tensor<?x2xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_elements' op indices dim 1 (3) exceeds the updates' (2)}}
  %0 = tcc.scatter_elements %x, %i, %u {axis = 0 : i64} : (tensor<4x8xf32>, tensor<?x3xi64>, tensor<?x2xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_elements_indices_too_large(%x: tensor<4x8xf32>, %i: tensor<5x2xi64>, %u: tensor<5x2xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_elements' op indices dim 0 (5) exceeds x's (4)}}
  %0 = tcc.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<4x8xf32>, tensor<5x2xi64>, tensor<5x2xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_elements_axis(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_elements' op axis 2 is out of range for rank 2}}
  %0 = tcc.scatter_elements %x, %i, %u {axis = 2 : i64} : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_elements_changes_shape(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf32>) -> tensor<4x9xf32> {
  // expected-error @+2 {{'tcc.scatter_elements' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x9xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

func.func @scatter_nd_dynamic_tuple(%x: tensor<4x8xf32>, %i: tensor<3x?xi64>, %u: tensor<3x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_nd' op expects a static last dim of indices (the index tuple's length k)}}
  %0 = tcc.scatter_nd %x, %i, %u : (tensor<4x8xf32>, tensor<3x?xi64>, tensor<3x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_nd_tuple_too_long(%x: tensor<4x8xf32>, %i: tensor<3x3xi64>, %u: tensor<3xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_nd' op expects index tuples of 1 to x's rank 2 entries, got 3}}
  %0 = tcc.scatter_nd %x, %i, %u : (tensor<4x8xf32>, tensor<3x3xi64>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_nd_updates_rank(%x: tensor<4x8xf32>, %i: tensor<3x1xi64>, %u: tensor<3xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_nd' op expects updates of rank 2 (indices.shape[:-1] + x.shape[1:]), got 1}}
  %0 = tcc.scatter_nd %x, %i, %u : (tensor<4x8xf32>, tensor<3x1xi64>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scatter_nd_updates_dim(%x: tensor<4x8xf32>, %i: tensor<?x1xi64>, %u: tensor<?x7xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tcc.scatter_nd' op expects updates dim 1 of size 8, got 7}}
  %0 = tcc.scatter_nd %x, %i, %u : (tensor<4x8xf32>, tensor<?x1xi64>, tensor<?x7xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

//===----------------------------------------------------------------------===//
// iota, cumsum
//===----------------------------------------------------------------------===//

// -----

func.func @iota_dynamic_without_shape() -> tensor<?xi64> {
  // expected-error @+1 {{'tcc.iota' op needs a shape operand for its dynamic length}}
  %0 = tcc.iota : () -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @iota_shape_of_two_entries(%s: tensor<2xi64>) -> tensor<?xi64> {
  // expected-error @+1 {{'tcc.iota' op expects a shape operand of 1 entry, got 2}}
  %0 = tcc.iota %s : (tensor<2xi64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @iota_rank_2() -> tensor<2x3xi64> {
  // expected-error @+1 {{'tcc.iota' op result #0 must be 1D tensor}}
  %0 = tcc.iota : () -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

func.func @iota_bool() -> tensor<4xi1> {
  // expected-error @+1 {{'tcc.iota' op result #0 must be 1D tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values}}
  %0 = tcc.iota : () -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @cumsum_axis_out_of_range(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'tcc.cumsum' op axis 2 is out of range for rank 2}}
  %0 = tcc.cumsum %x {axis = 2 : i64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @cumsum_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tcc.cumsum' op expects an operand of rank 1 or more}}
  %0 = tcc.cumsum %x {axis = 0 : i64} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// sort
//===----------------------------------------------------------------------===//

// -----

func.func @sort_axis_out_of_range(%x: tensor<?x8xf32>) -> tensor<?x8xi64> {
  // expected-error @+1 {{'tcc.sort' op axis -3 is out of range for rank 2}}
  %v, %i = tcc.sort %x {axis = -3 : i64} : (tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xi64>)
  return %i : tensor<?x8xi64>
}

// -----

func.func @sort_scalar(%x: tensor<f32>) -> tensor<i64> {
  // expected-error @+1 {{'tcc.sort' op expects an operand of rank 1 or more}}
  %v, %i = tcc.sort %x : (tensor<f32>) -> (tensor<f32>, tensor<i64>)
  return %i : tensor<i64>
}

// -----

func.func @sort_i32_indices(%x: tensor<8xf32>) -> tensor<8xi32> {
  // expected-error @+1 {{'tcc.sort' op result #1 must be ranked tensor of 64-bit signless integer values}}
  %v, %i = tcc.sort %x : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %i : tensor<8xi32>
}

// -----

func.func @sort_other_shape(%x: tensor<8xf32>) -> tensor<4xi64> {
  // expected-error @+2 {{'tcc.sort' op inferred type(s) 'tensor<8xf32>', 'tensor<8xi64>' are incompatible with return type(s) of operation 'tensor<8xf32>', 'tensor<4xi64>'}}
  // expected-error @+1 {{'tcc.sort' op failed to infer returned types}}
  %v, %i = tcc.sort %x : (tensor<8xf32>) -> (tensor<8xf32>, tensor<4xi64>)
  return %i : tensor<4xi64>
}

// -----

func.func @cumsum_changes_shape(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  // expected-error @+2 {{'tcc.cumsum' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x9xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.cumsum %x {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

//===----------------------------------------------------------------------===//
// lstm
//===----------------------------------------------------------------------===//

// -----

func.func @lstm_x_rank_2(%x: tensor<5x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>, %h: tensor<2x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.lstm' op expects x [T, B, I], w_ih [4H, I], w_hh [4H, H], bias [4H], h0 and c0 [B, H]}}
  %y, %hn, %cn = tcc.lstm %x, %wih, %whh, %b, %h, %h : (tensor<5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<2x16xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

// -----

func.func @lstm_wrong_gate_rows(%x: tensor<5x2x8xf32>, %wih: tensor<48x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>, %h: tensor<2x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.lstm' op expects w_ih dim 0 to be 64, got 48}}
  %y, %hn, %cn = tcc.lstm %x, %wih, %whh, %b, %h, %h : (tensor<5x2x8xf32>, tensor<48x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<2x16xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

// -----

func.func @lstm_state_batch(%x: tensor<5x2x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>, %h: tensor<3x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.lstm' op expects h0 dim 0 to be 2, got 3}}
  %y, %hn, %cn = tcc.lstm %x, %wih, %whh, %b, %h, %h : (tensor<5x2x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<3x16xf32>, tensor<3x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

// -----

func.func @lstm_dynamic_hidden(%x: tensor<5x2x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x?xf32>, %b: tensor<64xf32>, %h: tensor<2x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.lstm' op expects a static hidden size (w_hh dim 1)}}
  %y, %hn, %cn = tcc.lstm %x, %wih, %whh, %b, %h, %h : (tensor<5x2x8xf32>, tensor<64x8xf32>, tensor<64x?xf32>, tensor<64xf32>, tensor<2x16xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

//===----------------------------------------------------------------------===//
// gru, rnn
//===----------------------------------------------------------------------===//

// -----

func.func @gru_wrong_gate_rows(%x: tensor<5x2x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<48x16xf32>, %b: tensor<48xf32>, %h: tensor<2x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.gru' op expects w_ih dim 0 to be 48, got 64}}
  %y, %hn = tcc.gru %x, %wih, %whh, %b, %b, %h : (tensor<5x2x8xf32>, tensor<64x8xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

// -----

func.func @gru_bias_size(%x: tensor<5x2x8xf32>, %wih: tensor<48x8xf32>, %whh: tensor<48x16xf32>, %b: tensor<48xf32>, %bh: tensor<16xf32>, %h: tensor<2x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.gru' op expects b_hh dim 0 to be 48, got 16}}
  %y, %hn = tcc.gru %x, %wih, %whh, %b, %bh, %h : (tensor<5x2x8xf32>, tensor<48x8xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

// -----

func.func @gru_input_size(%x: tensor<?x?x8xf32>, %wih: tensor<48x9xf32>, %whh: tensor<48x16xf32>, %b: tensor<48xf32>, %h: tensor<?x16xf32>) -> tensor<?x?x16xf32> {
  // expected-error @+1 {{'tcc.gru' op expects w_ih dim 1 to be 8, got 9}}
  %y, %hn = tcc.gru %x, %wih, %whh, %b, %b, %h : (tensor<?x?x8xf32>, tensor<48x9xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>)
  return %y : tensor<?x?x16xf32>
}

// -----

func.func @gru_element_type(%x: tensor<5x2x8xf32>, %wih: tensor<48x8xf16>, %whh: tensor<48x16xf32>, %b: tensor<48xf32>, %h: tensor<2x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.gru' op expects w_ih of element type 'f32', got 'f16'}}
  %y, %hn = tcc.gru %x, %wih, %whh, %b, %b, %h : (tensor<5x2x8xf32>, tensor<48x8xf16>, tensor<48x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

// -----

func.func @rnn_nonlinearity(%x: tensor<5x2x8xf32>, %wih: tensor<16x8xf32>, %whh: tensor<16x16xf32>, %b: tensor<16xf32>, %h: tensor<2x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.rnn' op expects nonlinearity "tanh" or "relu", got "gelu"}}
  %y, %hn = tcc.rnn %x, %wih, %whh, %b, %h {nonlinearity = "gelu"} : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

// -----

func.func @rnn_state_batch(%x: tensor<5x2x8xf32>, %wih: tensor<16x8xf32>, %whh: tensor<16x16xf32>, %b: tensor<16xf32>, %h: tensor<3x16xf32>) -> tensor<5x2x16xf32> {
  // expected-error @+1 {{'tcc.rnn' op expects h0 dim 0 to be 2, got 3}}
  %y, %hn = tcc.rnn %x, %wih, %whh, %b, %h : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<3x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>)
  return %y : tensor<5x2x16xf32>
}

// -----

func.func @topk_k_above_dim(%x: tensor<?x8xf32>) -> tensor<?x9xi64> {
  // expected-error @+2 {{'tcc.topk' op k = 9 is outside [0, 8]}}
  // expected-error @+1 {{'tcc.topk' op failed to infer returned types}}
  %v, %i = tcc.topk %x {k = 9 : i64} : (tensor<?x8xf32>) -> (tensor<?x9xf32>, tensor<?x9xi64>)
  return %i : tensor<?x9xi64>
}

// -----

func.func @topk_axis_out_of_range(%x: tensor<?x8xf32>) -> tensor<?x8xi64> {
  // expected-error @+2 {{'tcc.topk' op axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'tcc.topk' op failed to infer returned types}}
  %v, %i = tcc.topk %x {k = 1 : i64, axis = 2 : i64} : (tensor<?x8xf32>) -> (tensor<?x1xf32>, tensor<?x1xi64>)
  return %i : tensor<?x1xi64>
}

// -----

func.func @topk_result_shape(%x: tensor<?x8xf32>) -> tensor<?x2xi64> {
  // expected-error @+2 {{'tcc.topk' op inferred type(s) 'tensor<?x3xf32>', 'tensor<?x3xi64>' are incompatible with return type(s) of operation 'tensor<?x3xf32>', 'tensor<?x2xi64>'}}
  // expected-error @+1 {{'tcc.topk' op failed to infer returned types}}
  %v, %i = tcc.topk %x {k = 3 : i64} : (tensor<?x8xf32>) -> (tensor<?x3xf32>, tensor<?x2xi64>)
  return %i : tensor<?x2xi64>
}

//===----------------------------------------------------------------------===//
// nms
//===----------------------------------------------------------------------===//

// -----

func.func @nms_three_coordinates(%b: tensor<1x8x3xf32>, %s: tensor<1x1x8xf32>) -> tensor<?x3xi64> {
  // expected-error @+2 {{'tcc.nms' op expects 4 coordinates per box, got 3}}
  // expected-error @+1 {{'tcc.nms' op failed to infer returned types}}
  %0 = tcc.nms %b, %s {iou_threshold = 5.0e-01 : f64} : (tensor<1x8x3xf32>, tensor<1x1x8xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nms_box_count_mismatch(%b: tensor<1x8x4xf32>, %s: tensor<1x2x9xf32>) -> tensor<?x3xi64> {
  // expected-error @+2 {{'tcc.nms' op expects scores [B, C, N] for boxes [B, N, 4], got 1x2x9 for 1x8x4}}
  // expected-error @+1 {{'tcc.nms' op failed to infer returned types}}
  %0 = tcc.nms %b, %s {iou_threshold = 5.0e-01 : f64} : (tensor<1x8x4xf32>, tensor<1x2x9xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nms_rank(%b: tensor<8x4xf32>, %s: tensor<8xf32>) -> tensor<?x3xi64> {
  // expected-error @+2 {{'tcc.nms' op expects boxes [B, N, 4] and scores [B, C, N], got 8x4 and 8}}
  // expected-error @+1 {{'tcc.nms' op failed to infer returned types}}
  %0 = tcc.nms %b, %s {iou_threshold = 5.0e-01 : f64} : (tensor<8x4xf32>, tensor<8xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nms_mixed_types(%b: tensor<1x8x4xf32>, %s: tensor<1x1x8xf16>) -> tensor<?x3xi64> {
  // expected-error @+2 {{'tcc.nms' op expects boxes and scores of one element type, got f32 and f16}}
  // expected-error @+1 {{'tcc.nms' op failed to infer returned types}}
  %0 = tcc.nms %b, %s {iou_threshold = 5.0e-01 : f64} : (tensor<1x8x4xf32>, tensor<1x1x8xf16>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nms_negative_max(%b: tensor<1x8x4xf32>, %s: tensor<1x1x8xf32>) -> tensor<?x3xi64> {
  // expected-error @+2 {{'tcc.nms' op expects max_output_per_class >= 0, got -1}}
  // expected-error @+1 {{'tcc.nms' op failed to infer returned types}}
  %0 = tcc.nms %b, %s {iou_threshold = 5.0e-01 : f64, max_output_per_class = -1 : i64} : (tensor<1x8x4xf32>, tensor<1x1x8xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @bitwise_on_floats(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcc.bitwise_and' op operand #0 must be ranked tensor of}}
  %0 = tcc.bitwise_and %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @shift_bools(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'tcc.shift_left' op does not accept i1 operands}}
  %0 = tcc.shift_left %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @mixed_signedness(%a: tensor<4xui8>, %b: tensor<4xi8>) -> tensor<4xui8> {
  // expected-error @+2 {{'tcc.add' op expects lhs and rhs to have the same element type, got ui8 and i8}}
  // expected-error @+1 {{'tcc.add' op failed to infer returned types}}
  %0 = tcc.add %a, %b : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @signed_integers(%a: tensor<4xsi8>) -> tensor<4xsi8> {
  // expected-error @+1 {{'tcc.neg' op operand #0 must be ranked tensor of}}
  %0 = tcc.neg %a : (tensor<4xsi8>) -> tensor<4xsi8>
  return %0 : tensor<4xsi8>
}
