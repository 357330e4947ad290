// Hand-written softmax, log_softmax, layer_norm, rms_norm and attention
// (as captured graphs spell them) against the composite ops that
// --tcc-recognize-composites makes of them. Per function:
//  1. the rewrite happens (REWRITE);
//  2. the reference evaluator runs the hand-written ops and saves the
//     results (and the compiled hand-written ops match the reference);
//  3. the recognized IR, compiled, matches those saved results. The
//     reference there evaluated the original ops, not the composite, so a
//     wrong axis, epsilon, scale or operand in the rewrite fails here. The
//     epsilons are large (0.5, 0.25, 0.1) and the axes distinct so that a
//     default epsilon or a neighbouring axis would be far outside the
//     tolerance.

// RUN: tcc-opt %s --tcc-recognize-composites | FileCheck %s --check-prefix=REWRITE

// RUN: tcc-run %s --function=softmaxes --input=4x3x20xf32=random --reference --output=@%t.softmaxes.0.npy --output=@%t.softmaxes.1.npy --output=@%t.softmaxes.2.npy
// RUN: tcc-run %s --function=softmaxes --input=4x3x20xf32=random --check-reference | FileCheck %s --check-prefix=SOFTMAXES_HAND
// RUN: tcc-opt %s --tcc-recognize-composites | tcc-run - --function=softmaxes --input=4x3x20xf32=random --expected_output=@%t.softmaxes.0.npy --expected_output=@%t.softmaxes.1.npy --expected_output=@%t.softmaxes.2.npy | FileCheck %s --check-prefix=SOFTMAXES
// SOFTMAXES: [SUCCESS] result[0] matches (4x3x20xf32)
// SOFTMAXES: [SUCCESS] result[1] matches (4x3x20xf32)
// SOFTMAXES: [SUCCESS] result[2] matches (4x3x20xf32)
// SOFTMAXES_HAND: [SUCCESS] result[0] matches the reference (4x3x20xf32)
// SOFTMAXES_HAND: [SUCCESS] result[1] matches the reference (4x3x20xf32)
// SOFTMAXES_HAND: [SUCCESS] result[2] matches the reference (4x3x20xf32)

// REWRITE-LABEL: func.func @softmaxes
//  REWRITE-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x3x20xf32>
//   REWRITE-DAG:   %[[S:.+]] = tcc.softmax %[[X]] {axis = 1 : i64}
//   REWRITE-DAG:   %[[U:.+]] = tcc.softmax %[[X]] {axis = 2 : i64}
//   REWRITE-DAG:   %[[L:.+]] = tcc.log_softmax %[[X]] {axis = 2 : i64}
//   REWRITE-NOT:   tcc.exp
//       REWRITE:   return
func.func @softmaxes(%x: tensor<?x3x20xf32>) -> (tensor<?x3x20xf32>, tensor<?x3x20xf32>, tensor<?x3x20xf32>) {
  // softmax over the middle axis, max-subtracted.
  %m = tcc.reduce_max %x {axes = array<i64: -2>, keep_dims = true} : (tensor<?x3x20xf32>) -> tensor<?x1x20xf32>
  %d = tcc.sub %x, %m : (tensor<?x3x20xf32>, tensor<?x1x20xf32>) -> tensor<?x3x20xf32>
  %e = tcc.exp %d : (tensor<?x3x20xf32>) -> tensor<?x3x20xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<?x3x20xf32>) -> tensor<?x1x20xf32>
  %sm = tcc.div %e, %s : (tensor<?x3x20xf32>, tensor<?x1x20xf32>) -> tensor<?x3x20xf32>
  // softmax over the last axis, not max-subtracted.
  %e2 = tcc.exp %x : (tensor<?x3x20xf32>) -> tensor<?x3x20xf32>
  %s2 = tcc.reduce_sum %e2 {axes = array<i64: 2>, keep_dims = true} : (tensor<?x3x20xf32>) -> tensor<?x3x1xf32>
  %sm2 = tcc.div %e2, %s2 : (tensor<?x3x20xf32>, tensor<?x3x1xf32>) -> tensor<?x3x20xf32>
  // log_softmax over the last axis.
  %m3 = tcc.reduce_max %x {axes = array<i64: -1>, keep_dims = true} : (tensor<?x3x20xf32>) -> tensor<?x3x1xf32>
  %d3 = tcc.sub %x, %m3 : (tensor<?x3x20xf32>, tensor<?x3x1xf32>) -> tensor<?x3x20xf32>
  %e3 = tcc.exp %d3 : (tensor<?x3x20xf32>) -> tensor<?x3x20xf32>
  %s3 = tcc.reduce_sum %e3 {axes = array<i64: -1>, keep_dims = true} : (tensor<?x3x20xf32>) -> tensor<?x3x1xf32>
  %l3 = tcc.log %s3 : (tensor<?x3x1xf32>) -> tensor<?x3x1xf32>
  %ls = tcc.sub %d3, %l3 : (tensor<?x3x20xf32>, tensor<?x3x1xf32>) -> tensor<?x3x20xf32>
  return %sm, %sm2, %ls : tensor<?x3x20xf32>, tensor<?x3x20xf32>, tensor<?x3x20xf32>
}

// RUN: tcc-run %s --function=norms --input=3x5x16xf32=random --input=5x16xf32=random --input=5x16xf32=random --input=16xf32=random --reference --output=@%t.norms.0.npy --output=@%t.norms.1.npy --output=@%t.norms.2.npy
// RUN: tcc-run %s --function=norms --input=3x5x16xf32=random --input=5x16xf32=random --input=5x16xf32=random --input=16xf32=random --check-reference | FileCheck %s --check-prefix=NORMS_HAND
// RUN: tcc-opt %s --tcc-recognize-composites | tcc-run - --function=norms --input=3x5x16xf32=random --input=5x16xf32=random --input=5x16xf32=random --input=16xf32=random --expected_output=@%t.norms.0.npy --expected_output=@%t.norms.1.npy --expected_output=@%t.norms.2.npy | FileCheck %s --check-prefix=NORMS
// NORMS: [SUCCESS] result[0] matches (3x5x16xf32)
// NORMS: [SUCCESS] result[1] matches (3x5x16xf32)
// NORMS: [SUCCESS] result[2] matches (3x5x16xf32)
// NORMS_HAND: [SUCCESS] result[0] matches the reference (3x5x16xf32)
// NORMS_HAND: [SUCCESS] result[1] matches the reference (3x5x16xf32)
// NORMS_HAND: [SUCCESS] result[2] matches the reference (3x5x16xf32)

// REWRITE-LABEL: func.func @norms
//  REWRITE-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x5x16xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<5x16xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<5x16xf32>, %[[G:[a-zA-Z0-9_]+]]: tensor<16xf32>
//   REWRITE-DAG:   %[[ONES:.+]] = tcc.constant dense<1.000000e+00> : tensor<16xf32>
//   REWRITE-DAG:   %[[ZEROS:.+]] = tcc.constant dense<0.000000e+00> : tensor<16xf32>
//   REWRITE-DAG:   tcc.layer_norm %[[X]], %[[W]], %[[B]] {axis = 1 : i64, epsilon = 5.000000e-01 : f32}
//   REWRITE-DAG:   tcc.layer_norm %[[X]], %[[ONES]], %[[ZEROS]] {axis = 2 : i64, epsilon = 1.000000e-01 : f32}
//   REWRITE-DAG:   tcc.rms_norm %[[X]], %[[G]] {axis = 2 : i64, epsilon = 2.500000e-01 : f32}
//   REWRITE-NOT:   tcc.rsqrt
//   REWRITE-NOT:   tcc.sqrt
//       REWRITE:   return
func.func @norms(%x: tensor<?x5x16xf32>, %w: tensor<5x16xf32>, %b: tensor<5x16xf32>, %g: tensor<16xf32>) -> (tensor<?x5x16xf32>, tensor<?x5x16xf32>, tensor<?x5x16xf32>) {
  %half = tcc.constant dense<0.5> : tensor<f32>
  %tenth = tcc.constant dense<0.1> : tensor<1x1x1xf32>
  %quarter = tcc.constant dense<0.25> : tensor<f32>
  %two = tcc.constant dense<2.0> : tensor<f32>
  // layer_norm over the last two dims with weight and bias.
  %mean = tcc.reduce_mean %x {axes = array<i64: 1, 2>, keep_dims = true} : (tensor<?x5x16xf32>) -> tensor<?x1x1xf32>
  %dx = tcc.sub %x, %mean : (tensor<?x5x16xf32>, tensor<?x1x1xf32>) -> tensor<?x5x16xf32>
  %sq = tcc.mul %dx, %dx : (tensor<?x5x16xf32>, tensor<?x5x16xf32>) -> tensor<?x5x16xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: -2, -1>, keep_dims = true} : (tensor<?x5x16xf32>) -> tensor<?x1x1xf32>
  %ve = tcc.add %var, %half : (tensor<?x1x1xf32>, tensor<f32>) -> tensor<?x1x1xf32>
  %r = tcc.rsqrt %ve : (tensor<?x1x1xf32>) -> tensor<?x1x1xf32>
  %n = tcc.mul %dx, %r : (tensor<?x5x16xf32>, tensor<?x1x1xf32>) -> tensor<?x5x16xf32>
  %nw = tcc.mul %n, %w : (tensor<?x5x16xf32>, tensor<5x16xf32>) -> tensor<?x5x16xf32>
  %ln = tcc.add %nw, %b : (tensor<?x5x16xf32>, tensor<5x16xf32>) -> tensor<?x5x16xf32>
  // layer_norm over the last dim, pow and sqrt, no weight or bias.
  %mean2 = tcc.reduce_mean %x {axes = array<i64: 2>, keep_dims = true} : (tensor<?x5x16xf32>) -> tensor<?x5x1xf32>
  %dx2 = tcc.sub %x, %mean2 : (tensor<?x5x16xf32>, tensor<?x5x1xf32>) -> tensor<?x5x16xf32>
  %sq2 = tcc.pow %dx2, %two : (tensor<?x5x16xf32>, tensor<f32>) -> tensor<?x5x16xf32>
  %var2 = tcc.reduce_mean %sq2 {axes = array<i64: 2>, keep_dims = true} : (tensor<?x5x16xf32>) -> tensor<?x5x1xf32>
  %ve2 = tcc.add %tenth, %var2 : (tensor<1x1x1xf32>, tensor<?x5x1xf32>) -> tensor<?x5x1xf32>
  %s2 = tcc.sqrt %ve2 : (tensor<?x5x1xf32>) -> tensor<?x5x1xf32>
  %ln2 = tcc.div %dx2, %s2 : (tensor<?x5x16xf32>, tensor<?x5x1xf32>) -> tensor<?x5x16xf32>
  // rms_norm over the last dim with a weight.
  %xx = tcc.mul %x, %x : (tensor<?x5x16xf32>, tensor<?x5x16xf32>) -> tensor<?x5x16xf32>
  %ms = tcc.reduce_mean %xx {axes = array<i64: -1>, keep_dims = true} : (tensor<?x5x16xf32>) -> tensor<?x5x1xf32>
  %me = tcc.add %ms, %quarter : (tensor<?x5x1xf32>, tensor<f32>) -> tensor<?x5x1xf32>
  %rr = tcc.rsqrt %me : (tensor<?x5x1xf32>) -> tensor<?x5x1xf32>
  %rn = tcc.mul %rr, %x : (tensor<?x5x1xf32>, tensor<?x5x16xf32>) -> tensor<?x5x16xf32>
  %rms = tcc.mul %rn, %g : (tensor<?x5x16xf32>, tensor<16xf32>) -> tensor<?x5x16xf32>
  return %ln, %ln2, %rms : tensor<?x5x16xf32>, tensor<?x5x16xf32>, tensor<?x5x16xf32>
}

// RUN: tcc-run %s --function=attentions --input=2x2x6x8xf32=random --input=2x2x9x8xf32=random --input=2x2x9x4xf32=random --input=2x1x6x9xf32=random --reference --output=@%t.attentions.0.npy --output=@%t.attentions.1.npy
// RUN: tcc-run %s --function=attentions --input=2x2x6x8xf32=random --input=2x2x9x8xf32=random --input=2x2x9x4xf32=random --input=2x1x6x9xf32=random --check-reference | FileCheck %s --check-prefix=ATTENTIONS_HAND
// RUN: tcc-opt %s --tcc-recognize-composites | tcc-run - --function=attentions --input=2x2x6x8xf32=random --input=2x2x9x8xf32=random --input=2x2x9x4xf32=random --input=2x1x6x9xf32=random --expected_output=@%t.attentions.0.npy --expected_output=@%t.attentions.1.npy | FileCheck %s --check-prefix=ATTENTIONS
// ATTENTIONS: [SUCCESS] result[0] matches (2x2x6x4xf32)
// ATTENTIONS: [SUCCESS] result[1] matches (2x2x6x4xf32)
// ATTENTIONS_HAND: [SUCCESS] result[0] matches the reference (2x2x6x4xf32)
// ATTENTIONS_HAND: [SUCCESS] result[1] matches the reference (2x2x6x4xf32)

// REWRITE-LABEL: func.func @attentions
//  REWRITE-SAME:   %[[Q:[a-zA-Z0-9_]+]]: tensor<?x2x6x8xf32>, %[[K:[a-zA-Z0-9_]+]]: tensor<?x2x9x8xf32>, %[[V:[a-zA-Z0-9_]+]]: tensor<?x2x9x4xf32>, %[[M:[a-zA-Z0-9_]+]]: tensor<?x1x6x9xf32>
//   REWRITE-DAG:   tcc.attention %[[Q]], %[[K]], %[[V]] {scale = 2.500000e-01 : f32}
//   REWRITE-DAG:   tcc.attention %[[Q]], %[[K]], %[[V]], %[[M]] {scale = 1.500000e+00 : f32}
//   REWRITE-NOT:   tcc.matmul
//   REWRITE-NOT:   tcc.softmax
//       REWRITE:   return
func.func @attentions(%q: tensor<?x2x6x8xf32>, %k: tensor<?x2x9x8xf32>, %v: tensor<?x2x9x4xf32>, %mask: tensor<?x1x6x9xf32>) -> (tensor<?x2x6x4xf32>, tensor<?x2x6x4xf32>) {
  // NaiveAttention: softmax(q k^T / 4) v.
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x9x8xf32>) -> tensor<?x2x8x9xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x2x6x8xf32>, tensor<?x2x8x9xf32>) -> tensor<?x2x6x9xf32>
  %four = tcc.constant dense<4.0> : tensor<f32>
  %ss = tcc.div %s, %four : (tensor<?x2x6x9xf32>, tensor<f32>) -> tensor<?x2x6x9xf32>
  %p = tcc.softmax %ss {axis = -1 : i64} : (tensor<?x2x6x9xf32>) -> tensor<?x2x6x9xf32>
  %o = tcc.matmul %p, %v : (tensor<?x2x6x9xf32>, tensor<?x2x9x4xf32>) -> tensor<?x2x6x4xf32>
  // softmax(1.5 q k^T + mask) v with the softmax written out.
  %kt2 = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x2x9x8xf32>) -> tensor<?x2x8x9xf32>
  %s2 = tcc.matmul %q, %kt2 : (tensor<?x2x6x8xf32>, tensor<?x2x8x9xf32>) -> tensor<?x2x6x9xf32>
  %c = tcc.constant dense<1.5> : tensor<1x1x1x1xf32>
  %ss2 = tcc.mul %s2, %c : (tensor<?x2x6x9xf32>, tensor<1x1x1x1xf32>) -> tensor<?x2x6x9xf32>
  %t = tcc.add %ss2, %mask : (tensor<?x2x6x9xf32>, tensor<?x1x6x9xf32>) -> tensor<?x2x6x9xf32>
  %m = tcc.reduce_max %t {axes = array<i64: -1>, keep_dims = true} : (tensor<?x2x6x9xf32>) -> tensor<?x2x6x1xf32>
  %d = tcc.sub %t, %m : (tensor<?x2x6x9xf32>, tensor<?x2x6x1xf32>) -> tensor<?x2x6x9xf32>
  %e = tcc.exp %d : (tensor<?x2x6x9xf32>) -> tensor<?x2x6x9xf32>
  %sum = tcc.reduce_sum %e {axes = array<i64: 3>, keep_dims = true} : (tensor<?x2x6x9xf32>) -> tensor<?x2x6x1xf32>
  %p2 = tcc.div %e, %sum : (tensor<?x2x6x9xf32>, tensor<?x2x6x1xf32>) -> tensor<?x2x6x9xf32>
  %o2 = tcc.matmul %p2, %v : (tensor<?x2x6x9xf32>, tensor<?x2x9x4xf32>) -> tensor<?x2x6x4xf32>
  return %o, %o2 : tensor<?x2x6x4xf32>, tensor<?x2x6x4xf32>
}
