// Fusion never changes results: each function runs fused (the default),
// unfused (--no-fuse) and in the reference evaluator, at two batch sizes.
//
// RUN: tcc-run %s --function=multi_output --random-inputs --dim-size=3 --check-reference | FileCheck %s --check-prefix=MO
// RUN: tcc-run %s --function=multi_output --random-inputs --dim-size=17 --check-reference --no-fuse | FileCheck %s --check-prefix=MO
// MO-COUNT-2: [SUCCESS]
//
// RUN: tcc-run %s --function=recompute --random-inputs --dim-size=5 --check-reference | FileCheck %s --check-prefix=RC
// RUN: tcc-run %s --function=recompute --random-inputs --dim-size=1 --check-reference --no-fuse | FileCheck %s --check-prefix=RC
// RC-COUNT-2: [SUCCESS]
//
// RUN: tcc-run %s --function=heads --random-inputs --dim-size=1 --check-reference | FileCheck %s --check-prefix=HEADS
// RUN: tcc-run %s --function=heads --random-inputs --dim-size=33 --check-reference | FileCheck %s --check-prefix=HEADS
// RUN: tcc-run %s --function=heads --random-inputs --dim-size=33 --check-reference --no-fuse | FileCheck %s --check-prefix=HEADS
// HEADS-COUNT-2: [SUCCESS]
//
// RUN: tcc-run %s --function=vit_attention --random-inputs --dim-size=2 --check-reference | FileCheck %s --check-prefix=ATT
// RUN: tcc-run %s --function=vit_attention --random-inputs --dim-size=3 --check-reference --no-fuse | FileCheck %s --check-prefix=ATT
// ATT: [SUCCESS]
//
// RUN: tcc-run %s --function=residual_epilogue --random-inputs --dim-size=7 --check-reference | FileCheck %s --check-prefix=RES
// RUN: tcc-run %s --function=residual_epilogue --random-inputs --dim-size=7 --check-reference --no-fuse | FileCheck %s --check-prefix=RES
// RES: [SUCCESS]
//
// RUN: tcc-run %s --function=softmax_inside_and_out --random-inputs --dim-size=4 --check-reference | FileCheck %s --check-prefix=SM
// RUN: tcc-run %s --function=softmax_inside_and_out --random-inputs --dim-size=4 --check-reference --no-fuse | FileCheck %s --check-prefix=SM
// SM-COUNT-2: [SUCCESS]
//
// RUN: tcc-run %s --function=small_independent --random-inputs --check-reference | FileCheck %s --check-prefix=IND
// RUN: tcc-run %s --function=small_independent --random-inputs --check-reference --no-fuse | FileCheck %s --check-prefix=IND
// IND-COUNT-2: [SUCCESS]
//
// A transpose before a reshape that regroups dims (not a unit-dim squeeze)
// stays where it is (regression: it was once sunk as if it were one).
// RUN: tcc-run %s --function=transpose_then_regroup --input="2x1x3xf32=0 1 2 3 4 5" --check-reference | FileCheck %s --check-prefix=REGROUP
// RUN: tcc-run %s --function=transpose_then_flatten --random-inputs --dim-size=3 --check-reference | FileCheck %s --check-prefix=REGROUP
// REGROUP: [SUCCESS]
//
// A softmax over a long leading axis stays loops (regression: it became
// one 8192-lane vector that LLVM took minutes to compile).
// RUN: tcc-run %s --function=softmax_leading_axis --random-inputs --check-reference | FileCheck %s --check-prefix=LEADING
// LEADING: [SUCCESS] result[0] matches the reference (1024x8xf32)
//
// A whole reduction of a high-rank tensor with a short innermost dim stays
// loops too (regression: 1620 vectors of 4 lanes, minutes in LLVM).
// RUN: tcc-run %s --function=high_rank_short_rows --random-inputs --check-reference | FileCheck %s --check-prefix=SHORT_ROWS
// SHORT_ROWS: [SUCCESS] result[0] matches the reference (f32)
//
// The groups these runs use:
// RUN: tcc-opt %s --symbolic-shapes --fuse=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=GROUPS
// GROUPS: @multi_output kernels 4 -> 1
// GROUPS: @recompute group 0 (reduction): tcc.exp tcc.reduce_sum
// GROUPS: @recompute group 1 (reduction): tcc.exp tcc.reduce_max [tcc.exp recomputed here (cheaper than a buffer)]
// GROUPS: @recompute kernels 3 -> 2
// GROUPS: @heads group 0 (matmul): tcc.concat tcc.concat tcc.linear
// GROUPS: @heads kernels 3 -> 2
// GROUPS: @vit_attention group 0 (attention): tcc.transpose tcc.transpose tcc.transpose tcc.attention tcc.transpose
// GROUPS: @vit_attention kernels 3 -> 1
// GROUPS: @residual_epilogue group 0 (matmul): tcc.matmul tcc.add tcc.mul tcc.add tcc.cast
// GROUPS: @softmax_inside_and_out group 0 (reduction): tcc.softmax tcc.mul [tcc.softmax is also an output (used after the group)]
// GROUPS: @small_independent group 0 (reduction): tcc.tanh tcc.sigmoid tcc.softmax [horizontal: an independent pointwise group over the same iteration space merged]

// A broadcast add used by the rest of the chain and returned: one group,
// two outputs.
func.func @multi_output(%x: tensor<?x96xf32>, %b: tensor<96xf32>) -> (tensor<?x96xf32>, tensor<?x96xf32>) {
  %0 = tcc.add %x, %b : (tensor<?x96xf32>, tensor<96xf32>) -> tensor<?x96xf32>
  %1 = tcc.relu %0 : (tensor<?x96xf32>) -> tensor<?x96xf32>
  %2 = tcc.mul %1, %x : (tensor<?x96xf32>, tensor<?x96xf32>) -> tensor<?x96xf32>
  %3 = tcc.sigmoid %2 : (tensor<?x96xf32>) -> tensor<?x96xf32>
  return %0, %3 : tensor<?x96xf32>, tensor<?x96xf32>
}

// exp read by two reductions: recomputed in each.
func.func @recompute(%x: tensor<?x40xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %e = tcc.exp %x : (tensor<?x40xf32>) -> tensor<?x40xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>} : (tensor<?x40xf32>) -> tensor<?xf32>
  %m = tcc.reduce_max %e {axes = array<i64: 1>} : (tensor<?x40xf32>) -> tensor<?xf32>
  return %s, %m : tensor<?xf32>, tensor<?xf32>
}

// Policy and value heads sharing their input: one linear, two slices.
func.func @heads(%f: tensor<?x256xf32>, %pw: tensor<12x256xf32>, %pb: tensor<12xf32>, %vw: tensor<1x256xf32>, %vb: tensor<1xf32>) -> (tensor<?x12xf32>, tensor<?x1xf32>) {
  %a = tcc.linear %f, %pw, %pb : (tensor<?x256xf32>, tensor<12x256xf32>, tensor<12xf32>) -> tensor<?x12xf32>
  %v = tcc.linear %f, %vw, %vb : (tensor<?x256xf32>, tensor<1x256xf32>, tensor<1xf32>) -> tensor<?x1xf32>
  %t = tcc.tanh %v : (tensor<?x1xf32>) -> tensor<?x1xf32>
  return %a, %t : tensor<?x12xf32>, tensor<?x1xf32>
}

// The ViT's fused-QKV attention (2 heads of 4, 8 tokens): q, k, v and the
// result transposes fold into the attention's reads and writes.
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

// matmul + bias + scale + residual + cast: one matmul group.
func.func @residual_epilogue(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>, %s: tensor<64xf32>) -> tensor<?x64xf16> {
  %0 = tcc.matmul %x, %w : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %1 = tcc.add %0, %b : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %2 = tcc.mul %1, %s : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %3 = tcc.add %2, %x : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %4 = tcc.cast %3 : (tensor<?x64xf32>) -> tensor<?x64xf16>
  return %4 : tensor<?x64xf16>
}

// A softmax that is returned and also scaled: one group, two outputs.
func.func @softmax_inside_and_out(%x: tensor<?x50xf32>, %s: tensor<50xf32>) -> (tensor<?x50xf32>, tensor<?x50xf32>) {
  %0 = tcc.softmax %x {axis = -1 : i64} : (tensor<?x50xf32>) -> tensor<?x50xf32>
  %1 = tcc.mul %0, %s : (tensor<?x50xf32>, tensor<50xf32>) -> tensor<?x50xf32>
  return %0, %1 : tensor<?x50xf32>, tensor<?x50xf32>
}

// Two small independent groups over [4, 24]: one kernel, two outputs.
func.func @small_independent(%a: tensor<4x24xf32>, %b: tensor<4x24xf32>) -> (tensor<4x24xf32>, tensor<4x24xf32>) {
  %0 = tcc.tanh %a : (tensor<4x24xf32>) -> tensor<4x24xf32>
  %1 = tcc.sigmoid %b : (tensor<4x24xf32>) -> tensor<4x24xf32>
  %2 = tcc.softmax %0 {axis = -1 : i64} : (tensor<4x24xf32>) -> tensor<4x24xf32>
  return %2, %1 : tensor<4x24xf32>, tensor<4x24xf32>
}

func.func @transpose_then_regroup(%x: tensor<?x1x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x1x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x1x?xf32>
  %a = arith.index_cast %d0 : index to i64
  %b = arith.index_cast %d2 : index to i64
  %s = tensor.from_elements %a, %b : tensor<2xi64>
  %t = tcc.transpose %x {permutation = array<i64: 2, 1, 0>} : (tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
  %r = tcc.reshape %t, %s : (tensor<?x1x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %e = tcc.neg %r : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

func.func @transpose_then_flatten(%x: tensor<?x2x1xf32>) -> tensor<?x2xf32> {
  %t = tcc.transpose %x {permutation = array<i64: 1, 0, 2>} : (tensor<?x2x1xf32>) -> tensor<2x?x1xf32>
  %r = tcc.reshape %t : (tensor<2x?x1xf32>) -> tensor<?x2xf32>
  %e = tcc.exp %r : (tensor<?x2xf32>) -> tensor<?x2xf32>
  return %e : tensor<?x2xf32>
}

func.func @softmax_leading_axis(%x: tensor<1024x8xf32>) -> tensor<1024x8xf32> {
  %0 = tcc.softmax %x {axis = 0 : i64} : (tensor<1024x8xf32>) -> tensor<1024x8xf32>
  return %0 : tensor<1024x8xf32>
}

func.func @high_rank_short_rows(%x: tensor<3x6x6x5x3x4xf32>) -> tensor<f32> {
  %0 = tcc.neg %x : (tensor<3x6x6x5x3x4xf32>) -> tensor<3x6x6x5x3x4xf32>
  %1 = tcc.reduce_sum %0 {axes = array<i64: 0, 1, 2, 3, 4, 5>} : (tensor<3x6x6x5x3x4xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}
