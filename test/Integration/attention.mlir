// tcc.attention (scaled_dot_product_attention): no mask, causal, i1 mask,
// float mask, explicit scale, Sq != Sk, Dv != D, static and dynamic shapes.

// RUN: tcc-run %s --function=attn_basic --input=2x3x5x8xf32=random --input=2x3x5x8xf32=random --input=2x3x5x8xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_BASIC
// ATTN_BASIC: [SUCCESS] result[0] matches the reference (2x3x5x8xf32)
func.func @attn_basic(%q: tensor<?x3x5x8xf32>, %k: tensor<?x3x5x8xf32>, %v: tensor<?x3x5x8xf32>) -> tensor<?x3x5x8xf32> {
  %0 = tcc.attention %q, %k, %v : (tensor<?x3x5x8xf32>, tensor<?x3x5x8xf32>, tensor<?x3x5x8xf32>) -> tensor<?x3x5x8xf32>
  return %0 : tensor<?x3x5x8xf32>
}

// Static, Sq != Sk, Dv != D, explicit scale.
// RUN: tcc-run %s --function=attn_static_scale --input=1x2x4x8xf32=random --input=1x2x7x8xf32=random --input=1x2x7x6xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_SCALE
// ATTN_SCALE: [SUCCESS] result[0] matches the reference (1x2x4x6xf32)
func.func @attn_static_scale(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x6xf32>) -> tensor<1x2x4x6xf32> {
  %0 = tcc.attention %q, %k, %v {scale = 2.5 : f32} : (tensor<1x2x4x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x6xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// Causal, square.
// RUN: tcc-run %s --function=attn_causal --input=2x2x6x4xf32=random --input=2x2x6x4xf32=random --input=2x2x6x4xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_CAUSAL
// ATTN_CAUSAL: [SUCCESS] result[0] matches the reference (2x2x6x4xf32)
func.func @attn_causal(%q: tensor<?x2x6x4xf32>, %k: tensor<?x2x6x4xf32>, %v: tensor<?x2x6x4xf32>) -> tensor<?x2x6x4xf32> {
  %0 = tcc.attention %q, %k, %v {is_causal = true} : (tensor<?x2x6x4xf32>, tensor<?x2x6x4xf32>, tensor<?x2x6x4xf32>) -> tensor<?x2x6x4xf32>
  return %0 : tensor<?x2x6x4xf32>
}

// Causal with Sq < Sk (key j kept for query i when j <= i) and dynamic lengths.
// RUN: tcc-run %s --function=attn_causal_rect --input=2x4x8xf32=random --input=2x6x8xf32=random --input=2x6x8xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_CAUSAL_RECT
// ATTN_CAUSAL_RECT: [SUCCESS] result[0] matches the reference (2x4x8xf32)
func.func @attn_causal_rect(%q: tensor<?x?x8xf32>, %k: tensor<?x?x8xf32>, %v: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %0 = tcc.attention %q, %k, %v {is_causal = true} : (tensor<?x?x8xf32>, tensor<?x?x8xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %0 : tensor<?x?x8xf32>
}

// i1 mask [Sq, Sk] broadcast over batch and heads; every row keeps at least
// one key.
// RUN: tcc-run %s --function=attn_bool_mask --input=2x2x4x8xf32=random --input=2x2x5x8xf32=random --input=2x2x5x8xf32=random --input="4x5xi1=1 0 1 0 0  0 1 1 0 1  0 0 0 0 1  1 1 1 1 1" --check-reference | FileCheck %s --check-prefix=ATTN_BOOL
// ATTN_BOOL: [SUCCESS] result[0] matches the reference (2x2x4x8xf32)
func.func @attn_bool_mask(%q: tensor<?x2x4x8xf32>, %k: tensor<?x2x5x8xf32>, %v: tensor<?x2x5x8xf32>, %m: tensor<4x5xi1>) -> tensor<?x2x4x8xf32> {
  %0 = tcc.attention %q, %k, %v, %m : (tensor<?x2x4x8xf32>, tensor<?x2x5x8xf32>, tensor<?x2x5x8xf32>, tensor<4x5xi1>) -> tensor<?x2x4x8xf32>
  return %0 : tensor<?x2x4x8xf32>
}

// A query row whose keys are all masked out gives NaN (PyTorch's math
// kernel does the same); the other rows are unaffected.
// RUN: tcc-run %s --function=attn_fully_masked_row --input=1x3x4xf32=random --input=1x5x4xf32=random --input=1x5x4xf32=random --input="3x5xi1=1 0 0 0 0  0 0 0 0 0  1 1 1 1 1" --check-reference | FileCheck %s --check-prefix=ATTN_MASKED_ROW
// ATTN_MASKED_ROW: [SUCCESS] result[0] matches the reference (1x3x4xf32)
func.func @attn_fully_masked_row(%q: tensor<1x3x4xf32>, %k: tensor<1x5x4xf32>, %v: tensor<1x5x4xf32>, %m: tensor<3x5xi1>) -> tensor<1x3x4xf32> {
  %0 = tcc.attention %q, %k, %v, %m : (tensor<1x3x4xf32>, tensor<1x5x4xf32>, tensor<1x5x4xf32>, tensor<3x5xi1>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// i1 padding mask [B, 1, 1, Sk] built with cmp (keys with index < length).
// RUN: tcc-run %s --function=attn_bool_mask_cmp --input=2x2x3x8xf32=random --input=2x2x6x8xf32=random --input=2x2x6x8xf32=random --input="2x1x1x1xi32=4 6" --check-reference | FileCheck %s --check-prefix=ATTN_BOOL_CMP
// ATTN_BOOL_CMP: [SUCCESS] result[0] matches the reference (2x2x3x8xf32)
func.func @attn_bool_mask_cmp(%q: tensor<2x2x3x8xf32>, %k: tensor<2x2x6x8xf32>, %v: tensor<2x2x6x8xf32>, %len: tensor<2x1x1x1xi32>) -> tensor<2x2x3x8xf32> {
  %pos = tcc.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi32>
  %m = tcc.cmp %pos, %len {predicate = "lt"} : (tensor<6xi32>, tensor<2x1x1x1xi32>) -> tensor<2x1x1x6xi1>
  %0 = tcc.attention %q, %k, %v, %m : (tensor<2x2x3x8xf32>, tensor<2x2x6x8xf32>, tensor<2x2x6x8xf32>, tensor<2x1x1x6xi1>) -> tensor<2x2x3x8xf32>
  return %0 : tensor<2x2x3x8xf32>
}

// Float (additive) mask [?, 1, Sq, Sk] broadcast over heads.
// RUN: tcc-run %s --function=attn_float_mask --input=2x3x5x8xf32=random --input=2x3x5x8xf32=random --input=2x3x5x8xf32=random --input=2x1x5x5xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_FLOAT
// ATTN_FLOAT: [SUCCESS] result[0] matches the reference (2x3x5x8xf32)
func.func @attn_float_mask(%q: tensor<?x3x5x8xf32>, %k: tensor<?x3x5x8xf32>, %v: tensor<?x3x5x8xf32>, %m: tensor<?x1x5x5xf32>) -> tensor<?x3x5x8xf32> {
  %c = tcc.constant dense<4.0> : tensor<f32>
  %ms = tcc.mul %m, %c : (tensor<?x1x5x5xf32>, tensor<f32>) -> tensor<?x1x5x5xf32>
  %0 = tcc.attention %q, %k, %v, %ms : (tensor<?x3x5x8xf32>, tensor<?x3x5x8xf32>, tensor<?x3x5x8xf32>, tensor<?x1x5x5xf32>) -> tensor<?x3x5x8xf32>
  return %0 : tensor<?x3x5x8xf32>
}

// Float mask together with is_causal and a scale.
// RUN: tcc-run %s --function=attn_float_mask_causal --input=1x2x6x4xf32=random --input=1x2x6x4xf32=random --input=1x2x6x4xf32=random --input=6xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_FLOAT_CAUSAL
// ATTN_FLOAT_CAUSAL: [SUCCESS] result[0] matches the reference (1x2x6x4xf32)
func.func @attn_float_mask_causal(%q: tensor<1x2x6x4xf32>, %k: tensor<1x2x6x4xf32>, %v: tensor<1x2x6x4xf32>, %m: tensor<6xf32>) -> tensor<1x2x6x4xf32> {
  %0 = tcc.attention %q, %k, %v, %m {is_causal = true, scale = 0.75 : f32} : (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<6xf32>) -> tensor<1x2x6x4xf32>
  return %0 : tensor<1x2x6x4xf32>
}

// Longer sequences and D = 64 (crosses key/query tile boundaries).
// RUN: tcc-run %s --function=attn_long --input=1x2x70x64xf32=random --input=1x2x100x64xf32=random --input=1x2x100x32xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_LONG
// ATTN_LONG: [SUCCESS] result[0] matches the reference (1x2x70x32xf32)
func.func @attn_long(%q: tensor<?x2x?x64xf32>, %k: tensor<?x2x?x64xf32>, %v: tensor<?x2x?x32xf32>) -> tensor<?x2x?x32xf32> {
  %0 = tcc.attention %q, %k, %v : (tensor<?x2x?x64xf32>, tensor<?x2x?x64xf32>, tensor<?x2x?x32xf32>) -> tensor<?x2x?x32xf32>
  return %0 : tensor<?x2x?x32xf32>
}

// Causal on a longer sequence.
// RUN: tcc-run %s --function=attn_long_causal --input=1x1x65x16xf32=random --input=1x1x65x16xf32=random --input=1x1x65x16xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_LONG_CAUSAL
// ATTN_LONG_CAUSAL: [SUCCESS] result[0] matches the reference (1x1x65x16xf32)
func.func @attn_long_causal(%q: tensor<?x1x?x16xf32>, %k: tensor<?x1x?x16xf32>, %v: tensor<?x1x?x16xf32>) -> tensor<?x1x?x16xf32> {
  %0 = tcc.attention %q, %k, %v {is_causal = true} : (tensor<?x1x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x16xf32>) -> tensor<?x1x?x16xf32>
  return %0 : tensor<?x1x?x16xf32>
}

// 2-D q/k/v (no batch dims).
// RUN: tcc-run %s --function=attn_2d --input=5x8xf32=random --input=9x8xf32=random --input=9x3xf32=random --check-reference | FileCheck %s --check-prefix=ATTN_2D
// ATTN_2D: [SUCCESS] result[0] matches the reference (5x3xf32)
func.func @attn_2d(%q: tensor<5x8xf32>, %k: tensor<9x8xf32>, %v: tensor<9x3xf32>) -> tensor<5x3xf32> {
  %0 = tcc.attention %q, %k, %v : (tensor<5x8xf32>, tensor<9x8xf32>, tensor<9x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// The unfused NaiveAttention next to tcc.attention on the same inputs:
// softmax(q k^T / sqrt(d)) v.
// RUN: tcc-run %s --function=naive_attention --input=2x2x6x8xf32=random --input=2x2x6x8xf32=random --input=2x2x6x8xf32=random --check-reference | FileCheck %s --check-prefix=NAIVE_ATTN
// NAIVE_ATTN: [SUCCESS] result[0] matches the reference (2x2x6x8xf32)
// NAIVE_ATTN: [SUCCESS] result[1] matches the reference (2x2x6x8xf32)
func.func @naive_attention(%q: tensor<?x2x6x8xf32>, %k: tensor<?x2x6x8xf32>, %v: tensor<?x2x6x8xf32>) -> (tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>) {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x6x8xf32>) -> tensor<?x2x8x6xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x2x6x8xf32>, tensor<?x2x8x6xf32>) -> tensor<?x2x6x6xf32>
  %d = tcc.constant dense<2.82842712> : tensor<f32>
  %ss = tcc.div %s, %d : (tensor<?x2x6x6xf32>, tensor<f32>) -> tensor<?x2x6x6xf32>
  %w = tcc.softmax %ss {axis = -1 : i64} : (tensor<?x2x6x6xf32>) -> tensor<?x2x6x6xf32>
  %o = tcc.matmul %w, %v : (tensor<?x2x6x6xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
  %f = tcc.attention %q, %k, %v : (tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
  return %o, %f : tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>
}
