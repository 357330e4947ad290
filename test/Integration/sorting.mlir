// tcc.sort through the CPU pipeline: compiled code vs orders worked out by
// hand (--expected_output) and vs the reference evaluator (a stable sort
// written apart from the lowering's sorting network), static and dynamic
// shapes, every element type, rows that are and are not powers of two.

// The total order: -inf < -0.0 = 0.0 < ... < +inf < NaN, equal values by
// position in both directions. x = [3, nan, -0, 1, 0, -inf, 1, inf]:
// ascending  -inf(5) -0(2) 0(4) 1(3) 1(6) 3(0) inf(7) nan(1);
// descending nan(1) inf(7) 3(0) 1(3) 1(6) -0(2) 0(4) -inf(5).
// RUN: tcc-run %s --function=special --input="8xf32=3 nan -0 1 0 -inf 1 inf" --expected_output="8xf32=-inf -0 0 1 1 3 inf nan" --expected_output="8xi64=5 2 4 3 6 0 7 1" --expected_output="8xf32=nan inf 3 1 1 -0 0 -inf" --expected_output="8xi64=1 7 0 3 6 2 4 5" | FileCheck %s --check-prefix=SPECIAL
// RUN: tcc-run %s --function=special --reference --input="8xf32=3 nan -0 1 0 -inf 1 inf" --expected_output="8xf32=-inf -0 0 1 1 3 inf nan" --expected_output="8xi64=5 2 4 3 6 0 7 1" --expected_output="8xf32=nan inf 3 1 1 -0 0 -inf" --expected_output="8xi64=1 7 0 3 6 2 4 5" | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: [SUCCESS] result[3] matches (8xi64)
func.func @special(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xi64>, tensor<8xf32>, tensor<8xi64>) {
  %v, %i = tcc.sort %x : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xi64>)
  %w, %j = tcc.sort %x {descending = true} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xi64>)
  return %v, %i, %w, %j : tensor<8xf32>, tensor<8xi64>, tensor<8xf32>, tensor<8xi64>
}

// Dynamic rows of any length (1000 pads to 1024, 5000 to 8192; 1 and 2 are
// the smallest networks, 0 the empty one), the last axis, descending.
// RUN: tcc-run %s --function=rows --input=37x1000xf32=random --check-reference | FileCheck %s --check-prefix=ROWS
// RUN: tcc-run %s --function=rows --input=3x5000xf32=random --check-reference | FileCheck %s --check-prefix=ROWS
// RUN: tcc-run %s --function=rows --input=4x1xf32=random --check-reference | FileCheck %s --check-prefix=ROWS
// RUN: tcc-run %s --function=rows --input=4x2xf32=random --check-reference | FileCheck %s --check-prefix=ROWS
// RUN: tcc-run %s --function=rows --input=4x0xf32 --expected_output=4x0xf32 --expected_output=4x0xi64 | FileCheck %s --check-prefix=EMPTY
// RUN: tcc-run %s --function=rows --no-fuse --no-plan-memory --no-vectorize --no-parallel --input=9x77xf32=random --check-reference | FileCheck %s --check-prefix=ROWS
// ROWS: [SUCCESS] result[1] matches the reference
// EMPTY: [SUCCESS] result[1] matches (4x0xi64)
func.func @rows(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>) {
  %v, %i = tcc.sort %x {axis = 1 : i64, descending = true} : (tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  return %v, %i : tensor<?x?xf32>, tensor<?x?xi64>
}

// Ties in integers: x = [2, 1, 2, 1, 2] along axis 0 sorts to
// [1, 1, 2, 2, 2] at [1, 3, 0, 2, 4]; descending [2, 2, 2, 1, 1] at
// [0, 2, 4, 1, 3]. The extremes of i64 keep their order.
// RUN: tcc-run %s --function=ties --input="5xi32=2 1 2 1 2" --input="3xi64=9223372036854775807 -9223372036854775808 0" --expected_output="5xi32=1 1 2 2 2" --expected_output="5xi64=1 3 0 2 4" --expected_output="5xi64=0 2 4 1 3" --expected_output="3xi64=-9223372036854775808 0 9223372036854775807" | FileCheck %s --check-prefix=TIES
// TIES: [SUCCESS] result[3] matches (3xi64)
func.func @ties(%x: tensor<5xi32>, %y: tensor<3xi64>) -> (tensor<5xi32>, tensor<5xi64>, tensor<5xi64>, tensor<3xi64>) {
  %v, %i = tcc.sort %x : (tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi64>)
  %w, %j = tcc.sort %x {descending = true} : (tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi64>)
  %y1, %k = tcc.sort %y : (tensor<3xi64>) -> (tensor<3xi64>, tensor<3xi64>)
  return %v, %i, %j, %y1 : tensor<5xi32>, tensor<5xi64>, tensor<5xi64>, tensor<3xi64>
}

// The middle axis of a rank-3 tensor, every element type against the
// reference: f16 and bf16 (ordered through f32), f64, i8, i1.
// RUN: tcc-run %s --function=types --input=3x300x5xf16=random --input=2x33x3xbf16=random --input=4x17x2xf64=random --input=2x40x3xi8=random --input=2x9x2xi1=random --check-reference | FileCheck %s --check-prefix=TYPES
// TYPES: [SUCCESS] result[9] matches the reference
func.func @types(%a: tensor<3x300x5xf16>, %b: tensor<?x?x3xbf16>, %c: tensor<4x17x2xf64>, %d: tensor<2x40x3xi8>, %e: tensor<2x9x2xi1>)
    -> (tensor<3x300x5xf16>, tensor<3x300x5xi64>, tensor<?x?x3xbf16>, tensor<?x?x3xi64>, tensor<4x17x2xf64>, tensor<4x17x2xi64>,
        tensor<2x40x3xi8>, tensor<2x40x3xi64>, tensor<2x9x2xi1>, tensor<2x9x2xi64>) {
  %a0, %a1 = tcc.sort %a {axis = 1 : i64} : (tensor<3x300x5xf16>) -> (tensor<3x300x5xf16>, tensor<3x300x5xi64>)
  %b0, %b1 = tcc.sort %b {axis = 1 : i64, descending = true} : (tensor<?x?x3xbf16>) -> (tensor<?x?x3xbf16>, tensor<?x?x3xi64>)
  %c0, %c1 = tcc.sort %c {axis = -2 : i64} : (tensor<4x17x2xf64>) -> (tensor<4x17x2xf64>, tensor<4x17x2xi64>)
  %d0, %d1 = tcc.sort %d {axis = 1 : i64, descending = true} : (tensor<2x40x3xi8>) -> (tensor<2x40x3xi8>, tensor<2x40x3xi64>)
  %e0, %e1 = tcc.sort %e {axis = 1 : i64} : (tensor<2x9x2xi1>) -> (tensor<2x9x2xi1>, tensor<2x9x2xi64>)
  return %a0, %a1, %b0, %b1, %c0, %c1, %d0, %d1, %e0, %e1
      : tensor<3x300x5xf16>, tensor<3x300x5xi64>, tensor<?x?x3xbf16>, tensor<?x?x3xi64>, tensor<4x17x2xf64>, tensor<4x17x2xi64>,
        tensor<2x40x3xi8>, tensor<2x40x3xi64>, tensor<2x9x2xi1>, tensor<2x9x2xi64>
}

// A top-k head as importers write it: the sort, then its first k by a
// slice, fused with the softmax before it. x = [[1, 3, 2, 3]]: the top 2 of
// its softmax are the two 3s, positions 1 and 3.
// RUN: tcc-run %s --function=top2 --input="1x4xf32=1 3 2 3" --expected_output="1x2xi64=1 3" | FileCheck %s --check-prefix=TOP2
// RUN: tcc-run %s --function=top2 --input=8x1000xf32=random --check-reference | FileCheck %s --check-prefix=TOP2REF
// TOP2: [SUCCESS] result[0] matches (1x2xi64)
// TOP2REF: [SUCCESS] result[0] matches the reference
func.func @top2(%x: tensor<?x?xf32>) -> tensor<?x2xi64> {
  %p = tcc.softmax %x {axis = -1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %v, %i = tcc.sort %p {descending = true} : (tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  %k = tcc.slice %i {starts = array<i64: 0, 0>, ends = array<i64: 9223372036854775807, 2>} : (tensor<?x?xi64>) -> tensor<?x2xi64>
  return %k : tensor<?x2xi64>
}

// tcc.topk: k selection passes for a small k (here 3 and 16), the first k
// of a sort otherwise (k = 40; and f64, whose keys do not pack), against
// hand values and the reference. x = [1, 3, 2, 3, nan]: the largest 3 are
// nan(4), 3(1), 3(3); the smallest 3: 1(0), 2(2), 3(1).
// RUN: tcc-run %s --function=topk_small --input="1x5xf32=1 3 2 3 nan" --expected_output="1x3xf32=nan 3 3" --expected_output="1x3xi64=4 1 3" --expected_output="1x3xf32=1 2 3" --expected_output="1x3xi64=0 2 1" | FileCheck %s --check-prefix=TOPK
// RUN: tcc-run %s --function=topk_small --reference --input="1x5xf32=1 3 2 3 nan" --expected_output="1x3xf32=nan 3 3" --expected_output="1x3xi64=4 1 3" --expected_output="1x3xf32=1 2 3" --expected_output="1x3xi64=0 2 1" | FileCheck %s --check-prefix=TOPK
// RUN: tcc-run %s --function=topk_small --input=37x1000xf32=random --check-reference | FileCheck %s --check-prefix=TOPKREF
// RUN: tcc-run %s --function=topk_kinds --input=5x300xf32=random --input=40x300xf32=random --input=3x50xf64=random --input=4x64xi32=random --check-reference | FileCheck %s --check-prefix=KINDS
// RUN: not tcc-run %s --function=topk_small --input=2x2xf32=random 2>&1 | FileCheck %s --check-prefix=BIGK
// TOPK: [SUCCESS] result[3] matches (1x3xi64)
// TOPKREF: [SUCCESS] result[3] matches the reference
// KINDS: [SUCCESS] result[7] matches the reference
// BIGK: tcc.topk: k = 3 exceeds the dim along the axis
func.func @topk_small(%x: tensor<?x?xf32>) -> (tensor<?x3xf32>, tensor<?x3xi64>, tensor<?x3xf32>, tensor<?x3xi64>) {
  %v, %i = tcc.topk %x {k = 3 : i64} : (tensor<?x?xf32>) -> (tensor<?x3xf32>, tensor<?x3xi64>)
  %w, %j = tcc.topk %x {k = 3 : i64, largest = false} : (tensor<?x?xf32>) -> (tensor<?x3xf32>, tensor<?x3xi64>)
  return %v, %i, %w, %j : tensor<?x3xf32>, tensor<?x3xi64>, tensor<?x3xf32>, tensor<?x3xi64>
}
func.func @topk_kinds(%x: tensor<?x300xf32>, %w: tensor<40x300xf32>, %y: tensor<3x50xf64>, %z: tensor<4x64xi32>)
    -> (tensor<?x16xf32>, tensor<?x16xi64>, tensor<40x300xf32>, tensor<40x300xi64>, tensor<3x5xf64>, tensor<3x5xi64>, tensor<4x7xi32>, tensor<4x7xi64>) {
  %a, %ai = tcc.topk %x {k = 16 : i64, axis = 1 : i64} : (tensor<?x300xf32>) -> (tensor<?x16xf32>, tensor<?x16xi64>)
  %b, %bi = tcc.topk %w {k = 40 : i64, axis = 0 : i64, largest = false} : (tensor<40x300xf32>) -> (tensor<40x300xf32>, tensor<40x300xi64>)
  %c, %ci = tcc.topk %y {k = 5 : i64} : (tensor<3x50xf64>) -> (tensor<3x5xf64>, tensor<3x5xi64>)
  %d, %di = tcc.topk %z {k = 7 : i64} : (tensor<4x64xi32>) -> (tensor<4x7xi32>, tensor<4x7xi64>)
  return %a, %ai, %b, %bi, %c, %ci, %d, %di : tensor<?x16xf32>, tensor<?x16xi64>, tensor<40x300xf32>, tensor<40x300xi64>, tensor<3x5xf64>, tensor<3x5xi64>, tensor<4x7xi32>, tensor<4x7xi64>
}
