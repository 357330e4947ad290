// RUN: tcc-opt %s --convert-tcc-to-linalg --split-input-file | FileCheck %s

// Dynamic dims that must agree at runtime get a cf.assert, so a mismatch
// fails cleanly instead of reading or writing out of bounds (see
// /tmp/bugs2/missing_runtime_dim_checks.mlir).

// q·kᵀ contracts over the head dim; p·v over the key sequence.
// CHECK-LABEL: func.func @attention_dynamic
//   CHECK-COUNT-2:   cf.assert
//       CHECK:   linalg.generic
func.func @attention_dynamic(%q: tensor<4x?xf32>, %k: tensor<?x?xf32>, %v: tensor<?x8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.attention %q, %k, %v : (tensor<4x?xf32>, tensor<?x?xf32>, tensor<?x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The non-concatenated dims of the inputs must agree.
// CHECK-LABEL: func.func @concat_dynamic
//       CHECK:   cf.assert
//       CHECK:   tensor.insert_slice
func.func @concat_dynamic(%a: tensor<2x?xf32>, %b: tensor<3x?xf32>) -> tensor<5x?xf32> {
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x?xf32>, tensor<3x?xf32>) -> tensor<5x?xf32>
  return %0 : tensor<5x?xf32>
}

// -----

// linear's bias length must equal the weight's output features.
// CHECK-LABEL: func.func @linear_dynamic_bias
//       CHECK:   cf.assert
//       CHECK:   return
func.func @linear_dynamic_bias(%x: tensor<4x16xf32>, %w: tensor<?x16xf32>, %b: tensor<?xf32>) -> tensor<4x?xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<4x16xf32>, tensor<?x16xf32>, tensor<?xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// layer_norm's weight and bias cover x's trailing dims.
// CHECK-LABEL: func.func @layer_norm_dynamic_weight
//       CHECK:   cf.assert
//       CHECK:   return
func.func @layer_norm_dynamic_weight(%x: tensor<2x?xf32>, %w: tensor<?xf32>) -> tensor<2x?xf32> {
  %0 = tcc.layer_norm %x, %w, %w : (tensor<2x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// batch_norm's parameters have one entry per channel.
// CHECK-LABEL: func.func @batch_norm_dynamic_channels
//       CHECK:   cf.assert
//       CHECK:   return
func.func @batch_norm_dynamic_channels(%x: tensor<2x?xf32>, %c: tensor<?xf32>) -> tensor<2x?xf32> {
  %0 = tcc.batch_norm %x, %c, %c, %c, %c : (tensor<2x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
