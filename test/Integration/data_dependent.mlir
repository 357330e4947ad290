// Data-dependent result sizes: tcc.mask_select and tcc.nonzero. Compiled
// code vs the reference evaluator, and both vs values worked out by hand
// (--expected_output), with inputs that keep nothing, some and everything.

// ---- boxes[scores > 0.5], then ops on the kept rows ---------------------------

// Hand-worked: rows 0, 3 and 4 have a score > 0.5 (row 2 is exactly 0.5, not
// kept); the row sums of 2 * kept are 2*10, 2*58, 2*(-10).
// RUN: tcc-run %s --function=keep_boxes --input="5x4xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 -1 -2 -3 -4" --input="5xf32=0.9 0.1 0.5 0.75 0.51" --expected_output="3x4xf32=1 2 3 4 13 14 15 16 -1 -2 -3 -4" --expected_output="3xf32=20 116 -20" | FileCheck %s --check-prefix=SOME
// RUN: tcc-run %s --function=keep_boxes --reference --input="5x4xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 -1 -2 -3 -4" --input="5xf32=0.9 0.1 0.5 0.75 0.51" --expected_output="3x4xf32=1 2 3 4 13 14 15 16 -1 -2 -3 -4" --expected_output="3xf32=20 116 -20" | FileCheck %s --check-prefix=SOME
// RUN: tcc-run %s --function=keep_boxes --input="5x4xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 -1 -2 -3 -4" --input="5xf32=0.9 0.1 0.5 0.75 0.51" --check-reference | FileCheck %s --check-prefix=REF_SOME
// SOME: [SUCCESS] result[0] matches (3x4xf32)
// SOME: [SUCCESS] result[1] matches (3xf32)
// REF_SOME: [SUCCESS] result[0] matches the reference (3x4xf32)
// REF_SOME: [SUCCESS] result[1] matches the reference (3xf32)

// Nothing kept: 0x4 and 0 rows.
// RUN: tcc-run %s --function=keep_boxes --input="5x4xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 -1 -2 -3 -4" --input="5xf32=0 0.5 -1 0.2 0.3" --expected_output="0x4xf32" --expected_output="0xf32" | FileCheck %s --check-prefix=NONE
// RUN: tcc-run %s --function=keep_boxes --input="5x4xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 -1 -2 -3 -4" --input="5xf32=0 0.5 -1 0.2 0.3" --check-reference | FileCheck %s --check-prefix=REF_NONE
// NONE: [SUCCESS] result[0] matches (0x4xf32)
// NONE: [SUCCESS] result[1] matches (0xf32)
// REF_NONE: [SUCCESS] result[0] matches the reference (0x4xf32)
// REF_NONE: [SUCCESS] result[1] matches the reference (0xf32)

// Everything kept: the boxes unchanged, row sums 2*10, 2*26, 2*42, 2*58, 2*(-10).
// RUN: tcc-run %s --function=keep_boxes --input="5x4xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 -1 -2 -3 -4" --input="5xf32=0.6 0.7 0.8 0.9 1" --expected_output="5x4xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 -1 -2 -3 -4" --expected_output="5xf32=20 52 84 116 -20" | FileCheck %s --check-prefix=ALL
// RUN: tcc-run %s --function=keep_boxes --input="5x4xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 -1 -2 -3 -4" --input="5xf32=0.6 0.7 0.8 0.9 1" --check-reference | FileCheck %s --check-prefix=REF_ALL
// ALL: [SUCCESS] result[0] matches (5x4xf32)
// ALL: [SUCCESS] result[1] matches (5xf32)
// REF_ALL: [SUCCESS] result[0] matches the reference (5x4xf32)
// REF_ALL: [SUCCESS] result[1] matches the reference (5xf32)

// No boxes at all.
// RUN: tcc-run %s --function=keep_boxes --input="0x4xf32" --input="0xf32" --expected_output="0x4xf32" --expected_output="0xf32" | FileCheck %s --check-prefix=NONE

// Random scores in [-1, 1): about a quarter kept, a different count per seed.
// The same with every compile option off (no fusion, no memory plan, no
// tiling, one thread).
// RUN: tcc-run %s --function=keep_boxes --input=200x4xf32=random --input=200xf32=random --check-reference | FileCheck %s --check-prefix=RANDOM
// RUN: tcc-run %s --function=keep_boxes --seed=7 --input=1000x4xf32=random --input=1000xf32=random --check-reference | FileCheck %s --check-prefix=RANDOM
// RUN: tcc-run %s --function=keep_boxes --no-fuse --no-plan-memory --no-vectorize --no-parallel --input=200x4xf32=random --input=200xf32=random --check-reference | FileCheck %s --check-prefix=RANDOM
// RANDOM: [SUCCESS] result[0] matches the reference ({{[0-9]+}}x4xf32)
// RANDOM: [SUCCESS] result[1] matches the reference ({{[0-9]+}}xf32)
func.func @keep_boxes(%boxes: tensor<?x4xf32>, %scores: tensor<?xf32>) -> (tensor<?x4xf32>, tensor<?xf32>) {
  %threshold = tcc.constant dense<0.5> : tensor<f32>
  %keep = tcc.cmp %scores, %threshold {predicate = "gt"} : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
  %kept = tcc.mask_select %boxes, %keep : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<?x4xf32>
  %two = tcc.constant dense<2.0> : tensor<f32>
  %doubled = tcc.mul %kept, %two : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %sums = tcc.reduce_sum %doubled {axes = array<i64: 1>} : (tensor<?x4xf32>) -> tensor<?xf32>
  return %kept, %sums : tensor<?x4xf32>, tensor<?xf32>
}

// Static input shapes: only the result's leading dim is dynamic. The kept
// rows then feed a matmul (a contraction over a data-dependent M).
// RUN: tcc-run %s --function=keep_boxes_static --input=64x4xf32=random --input=64xf32=random --input=4x8xf32=random --check-reference | FileCheck %s --check-prefix=STATIC
// RUN: tcc-run %s --function=keep_boxes_static --seed=3 --input=64x4xf32=random --input=64xf32=random --input=4x8xf32=random --check-reference | FileCheck %s --check-prefix=STATIC
// STATIC: [SUCCESS] result[0] matches the reference ({{[0-9]+}}x4xf32)
// STATIC: [SUCCESS] result[1] matches the reference ({{[0-9]+}}x8xf32)
func.func @keep_boxes_static(%boxes: tensor<64x4xf32>, %scores: tensor<64xf32>, %w: tensor<4x8xf32>) -> (tensor<?x4xf32>, tensor<?x8xf32>) {
  %threshold = tcc.constant dense<0.5> : tensor<f32>
  %keep = tcc.cmp %scores, %threshold {predicate = "gt"} : (tensor<64xf32>, tensor<f32>) -> tensor<64xi1>
  %kept = tcc.mask_select %boxes, %keep : (tensor<64x4xf32>, tensor<64xi1>) -> tensor<?x4xf32>
  %y = tcc.matmul %kept, %w : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
  %r = tcc.relu %y : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %kept, %r : tensor<?x4xf32>, tensor<?x8xf32>
}

// Planned buffers around unplanned ones: exp and cmp results live in the
// arena, the selected rows, their transpose (a copy group over a dynamic
// dim) and nonzero's indices do not.
// RUN: tcc-run %s --function=planned_around --input=64x4xf32=random --input=64xf32=random --check-reference | FileCheck %s --check-prefix=AROUND
// RUN: tcc-run %s --function=planned_around --seed=11 --input=64x4xf32=random --input=64xf32=random --check-reference | FileCheck %s --check-prefix=AROUND
// AROUND: [SUCCESS] result[0] matches the reference ({{[0-9]+}}xf32)
// AROUND: [SUCCESS] result[1] matches the reference ({{[0-9]+}}x2xi64)
func.func @planned_around(%boxes: tensor<64x4xf32>, %scores: tensor<64xf32>) -> (tensor<?xf32>, tensor<?x2xi64>) {
  %e = tcc.exp %boxes : (tensor<64x4xf32>) -> tensor<64x4xf32>
  %t = tcc.constant dense<0.5> : tensor<f32>
  %keep = tcc.cmp %scores, %t {predicate = "gt"} : (tensor<64xf32>, tensor<f32>) -> tensor<64xi1>
  %kept = tcc.mask_select %e, %keep : (tensor<64x4xf32>, tensor<64xi1>) -> tensor<?x4xf32>
  %tr = tcc.transpose %kept {permutation = array<i64: 1, 0>} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  %two = tcc.constant dense<2.0> : tensor<f32>
  %d = tcc.mul %tr, %two : (tensor<4x?xf32>, tensor<f32>) -> tensor<4x?xf32>
  %s = tcc.reduce_sum %d {axes = array<i64: 0>} : (tensor<4x?xf32>) -> tensor<?xf32>
  %one = tcc.constant dense<1.5> : tensor<f32>
  %big = tcc.cmp %e, %one {predicate = "gt"} : (tensor<64x4xf32>, tensor<f32>) -> tensor<64x4xi1>
  %nz = tcc.nonzero %big : (tensor<64x4xi1>) -> tensor<?x2xi64>
  return %s, %nz : tensor<?xf32>, tensor<?x2xi64>
}

// ---- flat mask_select (torch.masked_select) ----------------------------------

// x[x > 0] in row-major order; and x[m] with the mask given.
// RUN: tcc-run %s --function=flat --input="2x3xf32=1 -2 3 -4 5 -6" --input="2x3xi1=1 0 0 1 1 0" --expected_output="3xf32=1 3 5" --expected_output="3xf32=1 -4 5" | FileCheck %s --check-prefix=FLAT
// RUN: tcc-run %s --function=flat --input="2x3xf32=1 -2 3 -4 5 -6" --input="2x3xi1=1 0 0 1 1 0" --check-reference | FileCheck %s --check-prefix=REF_FLAT
// RUN: tcc-run %s --function=flat --input=17x33xf32=random --input=17x33xi1=random --check-reference | FileCheck %s --check-prefix=REF_FLAT
// RUN: tcc-run %s --function=flat --input=0x5xf32 --input=0x5xi1 --expected_output="0xf32" --expected_output="0xf32" | FileCheck %s --check-prefix=EMPTY_FLAT
// FLAT: [SUCCESS] result[0] matches (3xf32)
// FLAT: [SUCCESS] result[1] matches (3xf32)
// REF_FLAT: [SUCCESS] result[0] matches the reference ({{[0-9]+}}xf32)
// REF_FLAT: [SUCCESS] result[1] matches the reference ({{[0-9]+}}xf32)
// EMPTY_FLAT: [SUCCESS] result[0] matches (0xf32)
// EMPTY_FLAT: [SUCCESS] result[1] matches (0xf32)
func.func @flat(%x: tensor<?x?xf32>, %m: tensor<?x?xi1>) -> (tensor<?xf32>, tensor<?xf32>) {
  %zero = tcc.constant dense<0.0> : tensor<f32>
  %pos = tcc.cmp %x, %zero {predicate = "gt"} : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xi1>
  %0 = tcc.mask_select %x, %pos : (tensor<?x?xf32>, tensor<?x?xi1>) -> tensor<?xf32>
  %1 = tcc.mask_select %x, %m : (tensor<?x?xf32>, tensor<?x?xi1>) -> tensor<?xf32>
  return %0, %1 : tensor<?xf32>, tensor<?xf32>
}

// Integers and a 2-D mask over a 3-D x (rows of the last dim); a rank-0 mask
// keeps all of x (as a 1 x ... tensor) or nothing.
// RUN: tcc-run %s --function=rows_2d_mask --input=4x5x3xi32=random --input=4x5xi1=random --input="1xi1=1" --check-reference | FileCheck %s --check-prefix=ROWS2D
// RUN: tcc-run %s --function=rows_2d_mask --input="2x2x2xi32=1 2 3 4 5 6 7 8" --input="2x2xi1=0 1 1 0" --input="1xi1=0" --expected_output="2x2xi32=3 4 5 6" --expected_output="0x2x2x2xi32" | FileCheck %s --check-prefix=HAND_ROWS2D
// ROWS2D: [SUCCESS] result[0] matches the reference ({{[0-9]+}}x3xi32)
// ROWS2D: [SUCCESS] result[1] matches the reference (1x4x5x3xi32)
// HAND_ROWS2D: [SUCCESS] result[0] matches (2x2xi32)
// HAND_ROWS2D: [SUCCESS] result[1] matches (0x2x2x2xi32)
func.func @rows_2d_mask(%x: tensor<?x?x?xi32>, %m: tensor<?x?xi1>, %b: tensor<1xi1>) -> (tensor<?x?xi32>, tensor<?x?x?x?xi32>) {
  %0 = tcc.mask_select %x, %m : (tensor<?x?x?xi32>, tensor<?x?xi1>) -> tensor<?x?xi32>
  %s = tcc.reshape %b : (tensor<1xi1>) -> tensor<i1>
  %1 = tcc.mask_select %x, %s : (tensor<?x?x?xi32>, tensor<i1>) -> tensor<?x?x?x?xi32>
  return %0, %1 : tensor<?x?xi32>, tensor<?x?x?x?xi32>
}

// A dynamic mask dim that differs from x's at runtime: --symbolic-shapes
// ties the two, so the entry guard rejects the call (host check or the
// compiled guard).
// RUN: not tcc-run %s --function=keep_boxes --input=5x4xf32=random --input=6xf32=random 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not tcc-run %s --function=keep_boxes --input=5x4xf32=random --input=6xf32=random --no-host-shape-checks 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not tcc-run %s --function=keep_boxes --reference --input=5x4xf32=random --input=6xf32=random 2>&1 | FileCheck %s --check-prefix=REF_MISMATCH
// MISMATCH: tcc-run: error: input 1 dim 0 must equal input 0 dim 0 (s0): 6 vs 5
// REF_MISMATCH: 'tcc.mask_select' {{.*}}mask 6xi1 has neither the shape of x 5x4xf32 nor that of its leading dims

// ---- nonzero -------------------------------------------------------------------

// Hand-worked: non-zero at (0,1), (0,3), (1,2) (NaN counts), (2,0), (2,3).
// RUN: tcc-run %s --function=nonzero_f32 --input="3x4xf32=0 1 0 2 0 -0 nan 0 3 0 0 -1" --expected_output="5x2xi64=0 1 0 3 1 2 2 0 2 3" | FileCheck %s --check-prefix=NZ_HAND
// RUN: tcc-run %s --function=nonzero_f32 --reference --input="3x4xf32=0 1 0 2 0 -0 nan 0 3 0 0 -1" --expected_output="5x2xi64=0 1 0 3 1 2 2 0 2 3" | FileCheck %s --check-prefix=NZ_HAND
// RUN: tcc-run %s --function=nonzero_f32 --input="3x4xf32=0 1 0 2 0 -0 nan 0 3 0 0 -1" --check-reference | FileCheck %s --check-prefix=NZ_REF
// RUN: tcc-run %s --function=nonzero_f32 --input="2x4xf32=0 0 0 -0 0 0 0 0" --expected_output="0x2xi64" | FileCheck %s --check-prefix=NZ_NONE
// NZ_HAND: [SUCCESS] result[0] matches (5x2xi64)
// NZ_REF: [SUCCESS] result[0] matches the reference (5x2xi64)
// NZ_NONE: [SUCCESS] result[0] matches (0x2xi64)
func.func @nonzero_f32(%x: tensor<?x4xf32>) -> tensor<?x2xi64> {
  %0 = tcc.nonzero %x : (tensor<?x4xf32>) -> tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// i1 and i32 inputs of rank 3 and 1; the indices of a mask feed a gather.
// RUN: tcc-run %s --function=nonzero_mixed --input=3x4x5xi1=random --input=9xi32=random --check-reference | FileCheck %s --check-prefix=NZ_MIXED
// RUN: tcc-run %s --function=nonzero_mixed --input="1x1x3xi1=0 1 1" --input="4xi32=0 3 0 -2" --expected_output="2x3xi64=0 0 1 0 0 2" --expected_output="2x1xi64=1 3" --expected_output="2xi32=3 -2" | FileCheck %s --check-prefix=HAND_NZ_MIXED
// NZ_MIXED: [SUCCESS] result[0] matches the reference ({{[0-9]+}}x3xi64)
// NZ_MIXED: [SUCCESS] result[1] matches the reference ({{[0-9]+}}x1xi64)
// NZ_MIXED: [SUCCESS] result[2] matches the reference ({{[0-9]+}}xi32)
// HAND_NZ_MIXED: [SUCCESS] result[0] matches (2x3xi64)
// HAND_NZ_MIXED: [SUCCESS] result[1] matches (2x1xi64)
// HAND_NZ_MIXED: [SUCCESS] result[2] matches (2xi32)
func.func @nonzero_mixed(%m: tensor<?x?x?xi1>, %v: tensor<?xi32>) -> (tensor<?x3xi64>, tensor<?x1xi64>, tensor<?xi32>) {
  %0 = tcc.nonzero %m : (tensor<?x?x?xi1>) -> tensor<?x3xi64>
  %1 = tcc.nonzero %v : (tensor<?xi32>) -> tensor<?x1xi64>
  %idx = tcc.reshape %1 : (tensor<?x1xi64>) -> tensor<?xi64>
  %2 = tcc.gather %v, %idx : (tensor<?xi32>, tensor<?xi64>) -> tensor<?xi32>
  return %0, %1, %2 : tensor<?x3xi64>, tensor<?x1xi64>, tensor<?xi32>
}

// ---- static size-0 dims and scalars ----------------------------------------------

// Rows of size 0 (only the count of kept rows matters), nonzero of a scalar
// (one row of no indices when it is non-zero) and of a tensor without
// elements.
// RUN: tcc-run %s --function=zero_sizes --input=3x0xf32 --input="3xi1=1 0 1" --input="i32=7" --input=2x0xf32 --expected_output=2x0xf32 --expected_output=1x0xi64 --expected_output=0x2xi64 | FileCheck %s --check-prefix=ZERO
// RUN: tcc-run %s --function=zero_sizes --input=3x0xf32 --input="3xi1=1 0 1" --input="i32=0" --input=2x0xf32 --check-reference | FileCheck %s --check-prefix=REF_ZERO
// ZERO: [SUCCESS] result[0] matches (2x0xf32)
// ZERO: [SUCCESS] result[1] matches (1x0xi64)
// ZERO: [SUCCESS] result[2] matches (0x2xi64)
// REF_ZERO: [SUCCESS] result[0] matches the reference (2x0xf32)
// REF_ZERO: [SUCCESS] result[1] matches the reference (0x0xi64)
// REF_ZERO: [SUCCESS] result[2] matches the reference (0x2xi64)
func.func @zero_sizes(%x: tensor<3x0xf32>, %m: tensor<3xi1>, %s: tensor<i32>, %e: tensor<2x0xf32>)
    -> (tensor<?x0xf32>, tensor<?x0xi64>, tensor<?x2xi64>) {
  %0 = tcc.mask_select %x, %m : (tensor<3x0xf32>, tensor<3xi1>) -> tensor<?x0xf32>
  %1 = tcc.nonzero %s : (tensor<i32>) -> tensor<?x0xi64>
  %2 = tcc.nonzero %e : (tensor<2x0xf32>) -> tensor<?x2xi64>
  return %0, %1, %2 : tensor<?x0xf32>, tensor<?x0xi64>, tensor<?x2xi64>
}

// ---- a declared static count ---------------------------------------------------

// A static dim 0 in the result type is a promise about the count, checked
// when the op runs.
// RUN: tcc-run %s --function=static_count --input="4x2xf32=1 2 3 4 5 6 7 8" --input="4xi1=1 0 1 1" --expected_output="3x2xf32=1 2 5 6 7 8" --expected_output="3x1xi64=0 2 3" | FileCheck %s --check-prefix=COUNT
// RUN: tcc-run %s --function=static_count --input="4x2xf32=1 2 3 4 5 6 7 8" --input="4xi1=1 0 1 1" --check-reference | FileCheck %s --check-prefix=REF_COUNT
// RUN: not tcc-run %s --function=static_count --input="4x2xf32=1 2 3 4 5 6 7 8" --input="4xi1=1 0 0 1" 2>&1 | FileCheck %s --check-prefix=BAD_COUNT
// RUN: not tcc-run %s --function=static_count --reference --input="4x2xf32=1 2 3 4 5 6 7 8" --input="4xi1=1 0 0 1" 2>&1 | FileCheck %s --check-prefix=REF_BAD_COUNT
// COUNT: [SUCCESS] result[0] matches (3x2xf32)
// COUNT: [SUCCESS] result[1] matches (3x1xi64)
// REF_COUNT: [SUCCESS] result[0] matches the reference (3x2xf32)
// REF_COUNT: [SUCCESS] result[1] matches the reference (3x1xi64)
// BAD_COUNT: tcc.mask_select: the number of selected rows differs from the static size 3 of the result's dim 0
// REF_BAD_COUNT: 'tcc.mask_select' at {{.*}}: computed result 2x2 does not match the result type: expected shape 3x2xf32, got 2x2xf32
func.func @static_count(%x: tensor<4x2xf32>, %m: tensor<4xi1>) -> (tensor<3x2xf32>, tensor<3x1xi64>) {
  %0 = tcc.mask_select %x, %m : (tensor<4x2xf32>, tensor<4xi1>) -> tensor<3x2xf32>
  %1 = tcc.nonzero %m : (tensor<4xi1>) -> tensor<3x1xi64>
  return %0, %1 : tensor<3x2xf32>, tensor<3x1xi64>
}
