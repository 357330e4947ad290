// RUN: tcc-opt %s --symbolic-shapes --fuse --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-to-linalg=vectorize=false --split-input-file | FileCheck %s --check-prefix=LOWER

// The fused-QKV form of seed 000's ViT attention: one linear writes q, k
// and v side by side; reshape, transpose and slices pick each out, and the
// result is transposed back. Transposes sink below the slices and unit-dim
// reshapes (which become views of the linear's result) and the attention
// group takes them, q/k/v and result: the lowering folds them into the
// attention's indexing maps, so nothing is copied. Moving a transpose past
// a reshape of dynamic dims needs their size expressions (--symbolic-shapes,
// which the pipelines run first) or a shape operand that reads those dims.
// CHECK-LABEL: func.func @vit_attention
//   CHECK-NOT:   fusion.group "copy"
//       CHECK:   %[[QKV:.+]] = tcc.reshape
//       CHECK:   %[[Q:.+]] = tcc.slice %[[QKV]] {{.*}}starts = array<i64: 0, 0, 0, 0, 0>{{.*}} -> tensor<?x8x1x2x4xf32>
//       CHECK:   %[[Q2:.+]] = tcc.reshape %[[Q]], %{{.+}} {{.*}}: (tensor<?x8x1x2x4xf32>, tensor<4xi64>) -> tensor<?x8x2x4xf32>
//       CHECK:   %[[A:.+]] = fusion.group "attention"(%[[Q2]], %{{.+}}, %{{.+}} : tensor<?x8x2x4xf32>, tensor<?x8x2x4xf32>, tensor<?x8x2x4xf32>) -> tensor<?x8x2x4xf32> {
//       CHECK:     tcc.transpose %{{.+}} {permutation = array<i64: 0, 2, 1, 3>{{.*}}} : (tensor<?x8x2x4xf32>) -> tensor<?x2x8x4xf32>
//       CHECK:     tcc.transpose
//       CHECK:     tcc.transpose
//       CHECK:     %[[AT:.+]] = tcc.attention
//       CHECK:     %[[OUT:.+]] = tcc.transpose %[[AT]] {permutation = array<i64: 0, 2, 1, 3>
//       CHECK:     fusion.yield %[[OUT]]
//       CHECK:   tcc.reshape %[[A]]
// After lowering, q, k and v are read straight from the reshaped linear
// output through permuted indexing maps, and the result is written in
// [B, S, heads, dim] order: no transpose is left.
// LOWER-LABEL: func.func @vit_attention
//   LOWER-NOT:   linalg.transpose
//       LOWER:   return
func.func @vit_attention(%qkv: tensor<?x8x24xf32>) -> tensor<?x8x8xf32> {
  %c0 = arith.constant 0 : index
  %bi = tensor.dim %qkv, %c0 : tensor<?x8x24xf32>
  %b = arith.index_cast %bi : index to i64
  %n8 = arith.constant 8 : i64
  %n3 = arith.constant 3 : i64
  %n2 = arith.constant 2 : i64
  %n4 = arith.constant 4 : i64
  %s5 = tensor.from_elements %b, %n8, %n3, %n2, %n4 : tensor<5xi64>
  %s4 = tensor.from_elements %b, %n2, %n8, %n4 : tensor<4xi64>
  %s3 = tensor.from_elements %b, %n8, %n8 : tensor<3xi64>
  %r = tcc.reshape %qkv, %s5 : (tensor<?x8x24xf32>, tensor<5xi64>) -> tensor<?x8x3x2x4xf32>
  %t = tcc.transpose %r {permutation = array<i64: 2, 0, 3, 1, 4>} : (tensor<?x8x3x2x4xf32>) -> tensor<3x?x2x8x4xf32>
  %q1 = tcc.slice %t {starts = array<i64: 0, 0, 0, 0, 0>, ends = array<i64: 1, 9223372036854775807, 2, 8, 4>, steps = array<i64: 1, 1, 1, 1, 1>} : (tensor<3x?x2x8x4xf32>) -> tensor<1x?x2x8x4xf32>
  %k1 = tcc.slice %t {starts = array<i64: 1, 0, 0, 0, 0>, ends = array<i64: 2, 9223372036854775807, 2, 8, 4>, steps = array<i64: 1, 1, 1, 1, 1>} : (tensor<3x?x2x8x4xf32>) -> tensor<1x?x2x8x4xf32>
  %v1 = tcc.slice %t {starts = array<i64: 2, 0, 0, 0, 0>, ends = array<i64: 3, 9223372036854775807, 2, 8, 4>, steps = array<i64: 1, 1, 1, 1, 1>} : (tensor<3x?x2x8x4xf32>) -> tensor<1x?x2x8x4xf32>
  %q = tcc.reshape %q1, %s4 : (tensor<1x?x2x8x4xf32>, tensor<4xi64>) -> tensor<?x2x8x4xf32>
  %k = tcc.reshape %k1, %s4 : (tensor<1x?x2x8x4xf32>, tensor<4xi64>) -> tensor<?x2x8x4xf32>
  %v = tcc.reshape %v1, %s4 : (tensor<1x?x2x8x4xf32>, tensor<4xi64>) -> tensor<?x2x8x4xf32>
  %a = tcc.attention %q, %k, %v : (tensor<?x2x8x4xf32>, tensor<?x2x8x4xf32>, tensor<?x2x8x4xf32>) -> tensor<?x2x8x4xf32>
  %at = tcc.transpose %a {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x2x8x4xf32>) -> tensor<?x8x2x4xf32>
  %m = tcc.reshape %at, %s3 : (tensor<?x8x2x4xf32>, tensor<3xi64>) -> tensor<?x8x8xf32>
  return %m : tensor<?x8x8xf32>
}

// -----

// Attention written by hand (seed 000's NaiveAttention: q kᵀ, scale,
// softmax, times v) is recognized and becomes one attention group.
// CHECK-LABEL: func.func @naive_attention
//       CHECK:   fusion.group "attention"
//       CHECK:     tcc.attention %{{.+}}, %{{.+}}, %{{.+}} {scale = 5.000000e-01 : f32}
//   CHECK-NOT:     tcc.matmul
//   CHECK-NOT:   fusion.group
func.func @naive_attention(%q: tensor<?x2x8x4xf32>, %k: tensor<?x2x8x4xf32>, %v: tensor<?x2x8x4xf32>) -> tensor<?x2x8x4xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x8x4xf32>) -> tensor<?x2x4x8xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x2x8x4xf32>, tensor<?x2x4x8xf32>) -> tensor<?x2x8x8xf32>
  %c = tcc.constant dense<2.0> : tensor<f32>
  %ss = tcc.div %s, %c : (tensor<?x2x8x8xf32>, tensor<f32>) -> tensor<?x2x8x8xf32>
  %p = tcc.softmax %ss {axis = -1 : i64} : (tensor<?x2x8x8xf32>) -> tensor<?x2x8x8xf32>
  %o = tcc.matmul %p, %v : (tensor<?x2x8x8xf32>, tensor<?x2x8x4xf32>) -> tensor<?x2x8x4xf32>
  return %o : tensor<?x2x8x4xf32>
}

// -----

// A transposed operand that is also returned is not taken (it must exist
// as a buffer anyway), nor the transpose of a result that is also used as
// it is.
// CHECK-LABEL: func.func @shared_transposes
//       CHECK:   %[[QT:.+]] = fusion.group "copy"
//       CHECK:     tcc.transpose
//       CHECK:   %[[A:.+]] = fusion.group "attention"(%[[QT]], {{.*}}) -> tensor<2x8x4xf32> {
//   CHECK-NOT:     tcc.transpose
//       CHECK:     tcc.attention
//       CHECK:   %[[AT:.+]] = fusion.group "copy"(%[[A]]
//       CHECK:     tcc.transpose
//       CHECK:   return %[[QT]], %[[A]], %[[AT]]
// LOWER-LABEL: func.func @shared_transposes
// LOWER-COUNT-2: linalg.transpose
func.func @shared_transposes(%q: tensor<8x2x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<8x2x4xf32>) {
  %qt = tcc.transpose %q {permutation = array<i64: 1, 0, 2>} : (tensor<8x2x4xf32>) -> tensor<2x8x4xf32>
  %a = tcc.attention %qt, %k, %v : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %at = tcc.transpose %a {permutation = array<i64: 1, 0, 2>} : (tensor<2x8x4xf32>) -> tensor<8x2x4xf32>
  return %qt, %a, %at : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<8x2x4xf32>
}

// -----

// Not sunk: the reshape does more than drop a unit dim ([d2, 1, d0] to
// [d0, d2] regroups elements), and nothing proves dynamic dims equal.
// CHECK-LABEL: func.func @reshape_not_a_squeeze
//       CHECK:   fusion.group "copy"
//       CHECK:     tcc.transpose
//       CHECK:   tcc.reshape
// CHECK-LABEL: func.func @reshape_not_a_squeeze_static
//       CHECK:   fusion.group "copy"
//       CHECK:     tcc.transpose
//       CHECK:   tcc.reshape
func.func @reshape_not_a_squeeze(%x: tensor<?x1x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x1x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x1x?xf32>
  %a = arith.index_cast %d0 : index to i64
  %b = arith.index_cast %d2 : index to i64
  %s = tensor.from_elements %a, %b : tensor<2xi64>
  %t = tcc.transpose %x {permutation = array<i64: 2, 1, 0>} : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %r = tcc.reshape %t, %s : (tensor<?x1x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @reshape_not_a_squeeze_static(%x: tensor<?x2x1xf32>) -> tensor<?x2xf32> {
  %t = tcc.transpose %x {permutation = array<i64: 1, 0, 2>} : (tensor<?x2x1xf32>) -> tensor<2x?x1xf32>
  %r = tcc.reshape %t : (tensor<2x?x1xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
