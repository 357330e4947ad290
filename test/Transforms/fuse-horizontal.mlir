// RUN: tcc-opt %s --fuse --split-input-file | FileCheck %s
// RUN: tcc-opt %s --fuse=target=cuda --split-input-file | FileCheck %s --check-prefix=CUDA

// Horizontal fusion: contractions that read the same input become one wider
// op over concatenated weights (packed inside the group) plus one slice per
// original result, when the cost model says the saved reads of the input
// and the saved launches outweigh packing the weights on every call.

// Two matmuls of one input: one group, one matmul over [32, 20].
// CHECK-LABEL: func.func @matmuls
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<8x32xf32>, %[[A:[a-zA-Z0-9_]+]]: tensor<32x16xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<32x4xf32>
//       CHECK:   %[[G:.+]] = fusion.group "matmul"(%[[A]], %[[B]], %[[X]] : {{.*}}) -> tensor<8x20xf32> {
//       CHECK:     %[[W:.+]] = tcc.concat %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<32x16xf32>, tensor<32x4xf32>) -> tensor<32x20xf32>
//       CHECK:     tcc.matmul %{{.+}}, %[[W]] : (tensor<8x32xf32>, tensor<32x20xf32>) -> tensor<8x20xf32>
//   CHECK-NOT:   fusion.group
//       CHECK:   %[[S0:.+]] = tcc.slice %[[G]] {ends = array<i64: 9223372036854775807, 16>, starts = array<i64: 0, 0>
//       CHECK:   %[[S1:.+]] = tcc.slice %[[G]] {ends = array<i64: 9223372036854775807, 20>, starts = array<i64: 0, 16>
//       CHECK:   return %[[S0]], %[[S1]]
func.func @matmuls(%x: tensor<8x32xf32>, %a: tensor<32x16xf32>, %b: tensor<32x4xf32>) -> (tensor<8x16xf32>, tensor<8x4xf32>) {
  %0 = tcc.matmul %x, %a : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = tcc.matmul %x, %b : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x4xf32>
}

// -----

// Policy and value heads (seed 001's RobotPolicy) with biases and a dynamic
// batch: weights and biases are both packed; the epilogue of each head
// stays with its own slice.
// CHECK-LABEL: func.func @heads
//       CHECK:   %[[G:.+]] = fusion.group "matmul"({{.*}}) -> tensor<?x13xf32> {
//       CHECK:     tcc.concat {{.*}} {axis = 0 : i64} : (tensor<12x256xf32>, tensor<1x256xf32>) -> tensor<13x256xf32>
//       CHECK:     tcc.concat {{.*}} {axis = 0 : i64} : (tensor<12xf32>, tensor<1xf32>) -> tensor<13xf32>
//       CHECK:     tcc.linear {{.*}} -> tensor<?x13xf32>
//       CHECK:   tcc.slice %[[G]]{{.*}} -> tensor<?x12xf32>
//       CHECK:   %[[V:.+]] = tcc.slice %[[G]]{{.*}} -> tensor<?x1xf32>
//       CHECK:   fusion.group "pointwise"(%[[V]] : tensor<?x1xf32>)
//       CHECK:     tcc.tanh
func.func @heads(%f: tensor<?x256xf32>, %pw: tensor<12x256xf32>, %pb: tensor<12xf32>, %vw: tensor<1x256xf32>, %vb: tensor<1xf32>) -> (tensor<?x12xf32>, tensor<?x1xf32>) {
  %a = tcc.linear %f, %pw, %pb : (tensor<?x256xf32>, tensor<12x256xf32>, tensor<12xf32>) -> tensor<?x12xf32>
  %v = tcc.linear %f, %vw, %vb : (tensor<?x256xf32>, tensor<1x256xf32>, tensor<1xf32>) -> tensor<?x1xf32>
  %t = tcc.tanh %v : (tensor<?x1xf32>) -> tensor<?x1xf32>
  return %a, %t : tensor<?x12xf32>, tensor<?x1xf32>
}

// -----

// Q/K/V projections of 64 features: packing 48 KiB of weights per call
// costs more than the CPU saves (two reads of a 16 KiB input and two
// ~2 us launches). On CUDA a launch is worth ~14 MB of traffic, but
// packing is not part of the group there: each of the six weights and
// biases would be a copy kernel of its own on every call, for two launches
// saved: not merged either.
// CHECK-LABEL: func.func @qkv
//       CHECK-COUNT-3: fusion.group "matmul"
//   CHECK-NOT:   tcc.concat
// CUDA-LABEL: func.func @qkv
//   CUDA-NOT:   tcc.concat
//       CUDA-COUNT-3: fusion.group "matmul"
func.func @qkv(%x: tensor<?x64xf32>, %wq: tensor<64x64xf32>, %bq: tensor<64xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %wv: tensor<64x64xf32>, %bv: tensor<64xf32>) -> (tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>) {
  %q = tcc.linear %x, %wq, %bq : (tensor<?x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %k = tcc.linear %x, %wk, %bk : (tensor<?x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %v = tcc.linear %x, %wv, %bv : (tensor<?x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  return %q, %k, %v : tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>
}

// -----

// Constant weights are packed at compile time: merged on CUDA (two launches
// saved, nothing packed per call).
// CUDA-LABEL: func.func @qkv_constant_weights
//       CUDA:   %[[G:.+]] = fusion.group "matmul"(%{{.+}}, %{{.+}} : tensor<?x64xf32>, tensor<192x64xf32>) -> tensor<?x192xf32> {
//   CUDA-NOT:     tcc.concat
//       CUDA:     tcc.linear {{.*}} -> tensor<?x192xf32>
//   CUDA-NOT:   fusion.group "matmul"
//       CUDA:   tcc.slice %[[G]]
//       CUDA:   tcc.slice %[[G]]
//       CUDA:   tcc.slice %[[G]]
func.func @qkv_constant_weights(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>) {
  %wq = tcc.constant dense<0.5> : tensor<64x64xf32>
  %wk = tcc.constant dense<0.25> : tensor<64x64xf32>
  %wv = tcc.constant dense<0.125> : tensor<64x64xf32>
  %q = tcc.linear %x, %wq : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %k = tcc.linear %x, %wk : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %v = tcc.linear %x, %wv : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  return %q, %k, %v : tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>
}

// -----

// Not merged: 8 MiB of weights to pack for 16 KiB of input (either target).
// CHECK-LABEL: func.func @big_weights
//   CHECK-NOT:   tcc.concat
//       CHECK-COUNT-2: fusion.group "matmul"
// CUDA-LABEL: func.func @big_weights
//   CUDA-NOT:   tcc.concat
func.func @big_weights(%x: tensor<4x1024xf32>, %w1: tensor<1024x1024xf32>, %w2: tensor<1024x1024xf32>) -> (tensor<4x1024xf32>, tensor<4x1024xf32>) {
  %0 = tcc.linear %x, %w1 : (tensor<4x1024xf32>, tensor<1024x1024xf32>) -> tensor<4x1024xf32>
  %1 = tcc.linear %x, %w2 : (tensor<4x1024xf32>, tensor<1024x1024xf32>) -> tensor<4x1024xf32>
  return %0, %1 : tensor<4x1024xf32>, tensor<4x1024xf32>
}

// -----

// Not merged: one linear has a bias and the other has none.
// CHECK-LABEL: func.func @mixed_bias
//   CHECK-NOT:   tcc.concat
//       CHECK-COUNT-2: fusion.group "matmul"
func.func @mixed_bias(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %b1: tensor<8xf32>, %w2: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tcc.linear %x, %w1, %b1 : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = tcc.linear %x, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Not merged: the second contraction's weight is the first one's result.
// CHECK-LABEL: func.func @dependent
//       CHECK:   %[[A:.+]] = fusion.group "matmul"
//       CHECK:   fusion.group "matmul"(%{{.+}}, %[[A]] :
func.func @dependent(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>) -> tensor<4x4xf32> {
  %0 = tcc.linear %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.linear %x, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// Constant weights are packed at compile time: the merged linear reads one
// constant, and large weights are no obstacle (nothing to pack per call).
// CHECK-LABEL: func.func @constant_weights
//   CHECK-NOT:   tcc.concat
//       CHECK:   %[[W:.+]] = tcc.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
//       CHECK:   %[[B:.+]] = tcc.constant dense<[5.000000e-01, 5.000000e-01, 2.500000e-01]> : tensor<3xf32>
//       CHECK:   fusion.group "matmul"(%{{.+}}, %[[W]], %[[B]] : tensor<?x2xf32>, tensor<3x2xf32>, tensor<3xf32>) -> tensor<?x3xf32>
//   CHECK-NOT:   tcc.concat
func.func @constant_weights(%x: tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?x1xf32>) {
  %w1 = tcc.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b1 = tcc.constant dense<0.5> : tensor<2xf32>
  %w2 = tcc.constant dense<[[5.0, 6.0]]> : tensor<1x2xf32>
  %b2 = tcc.constant dense<0.25> : tensor<1xf32>
  %0 = tcc.linear %x, %w1, %b1 : (tensor<?x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
  %1 = tcc.linear %x, %w2, %b2 : (tensor<?x2xf32>, tensor<1x2xf32>, tensor<1xf32>) -> tensor<?x1xf32>
  return %0, %1 : tensor<?x2xf32>, tensor<?x1xf32>
}

// -----

// Constant weights placed next to their uses (after the first linear)
// move up to it: merged as above.
// CHECK-LABEL: func.func @constants_after_first
//   CHECK-NOT:   tcc.concat
//       CHECK:   %[[W:.+]] = tcc.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
//       CHECK:   %[[B:.+]] = tcc.constant dense<[5.000000e-01, 5.000000e-01, 2.500000e-01]> : tensor<3xf32>
//       CHECK:   fusion.group "matmul"(%{{.+}}, %[[W]], %[[B]] : tensor<?x2xf32>, tensor<3x2xf32>, tensor<3xf32>) -> tensor<?x3xf32>
//   CHECK-NOT:   fusion.group "matmul"
func.func @constants_after_first(%x: tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?x1xf32>) {
  %w1 = tcc.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b1 = tcc.constant dense<0.5> : tensor<2xf32>
  %0 = tcc.linear %x, %w1, %b1 : (tensor<?x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
  %w2 = tcc.constant dense<[[5.0, 6.0]]> : tensor<1x2xf32>
  %b2 = tcc.constant dense<0.25> : tensor<1xf32>
  %1 = tcc.linear %x, %w2, %b2 : (tensor<?x2xf32>, tensor<1x2xf32>, tensor<1xf32>) -> tensor<?x1xf32>
  return %0, %1 : tensor<?x2xf32>, tensor<?x1xf32>
}

// -----

// A weight computed after the first linear (not a constant) still keeps
// them apart.
// CHECK-LABEL: func.func @computed_weight_after_first
//   CHECK-NOT:   tcc.concat
//       CHECK-COUNT-2: fusion.group "matmul"
func.func @computed_weight_after_first(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tcc.linear %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %n = tcc.neg %w2 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = tcc.linear %x, %n : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// The same weight computed before the first linear: merged (packed in the
// group).
// CHECK-LABEL: func.func @computed_weight_before_first
//       CHECK:   fusion.group "matmul"
//       CHECK:     tcc.concat
//   CHECK-NOT:   fusion.group "matmul"
func.func @computed_weight_before_first(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %n = tcc.neg %w2 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = tcc.linear %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.linear %x, %n : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}
