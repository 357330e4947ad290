// tcc.scatter_elements and tcc.scatter_nd through the CPU pipeline: compiled
// code and the reference evaluator vs values worked out by hand, static and
// dynamic shapes, every reduction, duplicates, negative indices, and the
// runtime errors of indices out of range.

// scatter_elements along dim 1 of x = [[1 2 3 4], [5 6 7 8]] at
// [[1 3], [0 -1]] with [[5 6], [7 8]]: "none" writes them,
// [[1 5 3 6], [7 6 7 8]]; "add" adds them, [[1 7 3 10], [12 6 7 16]].
// RUN: tcc-run %s --function=elements_dim1 --input="2x4xf32=1 2 3 4 5 6 7 8" --input="2x2xi64=1 3 0 -1" --input="2x2xf32=5 6 7 8" --expected_output="2x4xf32=1 5 3 6 7 6 7 8" --expected_output="2x4xf32=1 7 3 10 12 6 7 16" | FileCheck %s --check-prefix=EL
// RUN: tcc-run %s --function=elements_dim1 --reference --input="2x4xf32=1 2 3 4 5 6 7 8" --input="2x2xi64=1 3 0 -1" --input="2x2xf32=5 6 7 8" --expected_output="2x4xf32=1 5 3 6 7 6 7 8" --expected_output="2x4xf32=1 7 3 10 12 6 7 16" | FileCheck %s --check-prefix=EL
// Duplicates, [[1 1], [2 2]]: the last write wins ([[1 6 3 4], [5 6 8 8]]),
// the sum takes both ([[1 13 3 4], [5 6 22 8]]).
// RUN: tcc-run %s --function=elements_dim1 --input="2x4xf32=1 2 3 4 5 6 7 8" --input="2x2xi64=1 1 2 2" --input="2x2xf32=5 6 7 8" --expected_output="2x4xf32=1 6 3 4 5 6 8 8" --expected_output="2x4xf32=1 13 3 4 5 6 22 8" | FileCheck %s --check-prefix=EL
// Fewer rows of indices than x has: row 1 is left as it is.
// RUN: tcc-run %s --function=elements_dim1 --input="2x4xf32=1 2 3 4 5 6 7 8" --input="1x1xi64=2" --input="1x1xf32=9" --expected_output="2x4xf32=1 2 9 4 5 6 7 8" --expected_output="2x4xf32=1 2 12 4 5 6 7 8" | FileCheck %s --check-prefix=EL
// EL: [SUCCESS] result[1] matches (2x4xf32)
func.func @elements_dim1(%x: tensor<?x?xf32>, %i: tensor<?x?xi64>, %u: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %a = tcc.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %b = tcc.scatter_elements %x, %i, %u {axis = -1 : i64, reduction = "add"} : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %a, %b : tensor<?x?xf32>, tensor<?x?xf32>
}

// Along dim 0, static, i64: x = [[1 2], [3 4], [5 6]], indices [[2 0]],
// updates [[10 20]]: mul [[1 40], [3 4], [50 6]]; max [[1 20], [3 4],
// [10 6]]; min [[1 2], [3 4], [5 6]].
// RUN: tcc-run %s --function=elements_dim0 --input="3x2xi64=1 2 3 4 5 6" --input="1x2xi64=2 0" --input="1x2xi64=10 20" --expected_output="3x2xi64=1 40 3 4 50 6" --expected_output="3x2xi64=1 20 3 4 10 6" --expected_output="3x2xi64=1 2 3 4 5 6" | FileCheck %s --check-prefix=EL0
// RUN: tcc-run %s --function=elements_dim0 --reference --input="3x2xi64=1 2 3 4 5 6" --input="1x2xi64=2 0" --input="1x2xi64=10 20" --expected_output="3x2xi64=1 40 3 4 50 6" --expected_output="3x2xi64=1 20 3 4 10 6" --expected_output="3x2xi64=1 2 3 4 5 6" | FileCheck %s --check-prefix=EL0
// EL0: [SUCCESS] result[2] matches (3x2xi64)
func.func @elements_dim0(%x: tensor<3x2xi64>, %i: tensor<1x2xi64>, %u: tensor<1x2xi64>) -> (tensor<3x2xi64>, tensor<3x2xi64>, tensor<3x2xi64>) {
  %a = tcc.scatter_elements %x, %i, %u {axis = 0 : i64, reduction = "mul"} : (tensor<3x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>) -> tensor<3x2xi64>
  %b = tcc.scatter_elements %x, %i, %u {axis = 0 : i64, reduction = "max"} : (tensor<3x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>) -> tensor<3x2xi64>
  %c = tcc.scatter_elements %x, %i, %u {axis = 0 : i64, reduction = "min"} : (tensor<3x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>) -> tensor<3x2xi64>
  return %a, %b, %c : tensor<3x2xi64>, tensor<3x2xi64>, tensor<3x2xi64>
}

// scatter_nd of rows (k = 1) into x = 1..12 as [4, 3] at [[3], [1]] with
// [[10 11 12], [20 21 22]]: "none" [[1 2 3], [20 21 22], [7 8 9],
// [10 11 12]]; "add" rows 1 and 3 become [24 26 28] and [20 22 24].
// RUN: tcc-run %s --function=nd_rows --input="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="2x1xi64=3 1" --input="2x3xf32=10 11 12 20 21 22" --expected_output="4x3xf32=1 2 3 20 21 22 7 8 9 10 11 12" --expected_output="4x3xf32=1 2 3 24 26 28 7 8 9 20 22 24" | FileCheck %s --check-prefix=ND
// RUN: tcc-run %s --function=nd_rows --reference --input="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="2x1xi64=3 1" --input="2x3xf32=10 11 12 20 21 22" --expected_output="4x3xf32=1 2 3 20 21 22 7 8 9 10 11 12" --expected_output="4x3xf32=1 2 3 24 26 28 7 8 9 20 22 24" | FileCheck %s --check-prefix=ND
// The same row twice ([[1], [-3]]: -3 wraps to 1): last write, and both summed.
// RUN: tcc-run %s --function=nd_rows --input="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="2x1xi64=1 -3" --input="2x3xf32=1 1 1 2 2 2" --expected_output="4x3xf32=1 2 3 2 2 2 7 8 9 10 11 12" --expected_output="4x3xf32=1 2 3 7 8 9 7 8 9 10 11 12" | FileCheck %s --check-prefix=ND
// No tuples at all: x unchanged.
// RUN: tcc-run %s --function=nd_rows --input="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="0x1xi64" --input="0x3xf32" --expected_output="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --expected_output="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" | FileCheck %s --check-prefix=ND
// ND: [SUCCESS] result[1] matches (4x3xf32)
func.func @nd_rows(%x: tensor<?x3xf32>, %i: tensor<?x1xi64>, %u: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %a = tcc.scatter_nd %x, %i, %u : (tensor<?x3xf32>, tensor<?x1xi64>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %b = tcc.scatter_nd %x, %i, %u {reduction = "add"} : (tensor<?x3xf32>, tensor<?x1xi64>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %a, %b : tensor<?x3xf32>, tensor<?x3xf32>
}

// Whole tuples (k = rank) from a [1, 2, 2] batch of indices: elements (0, 0)
// and (3, -1) = (3, 2) of the same x become 100 and 200.
// RUN: tcc-run %s --function=nd_elements --input="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x2x2xi32=0 0 3 -1" --input="1x2xf32=100 200" --expected_output="4x3xf32=100 2 3 4 5 6 7 8 9 10 11 200" | FileCheck %s --check-prefix=NDE
// RUN: tcc-run %s --function=nd_elements --reference --input="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x2x2xi32=0 0 3 -1" --input="1x2xf32=100 200" --expected_output="4x3xf32=100 2 3 4 5 6 7 8 9 10 11 200" | FileCheck %s --check-prefix=NDE
// NDE: [SUCCESS] result[0] matches (4x3xf32)
func.func @nd_elements(%x: tensor<4x3xf32>, %i: tensor<?x2x2xi32>, %u: tensor<?x2xf32>) -> tensor<4x3xf32> {
  %0 = tcc.scatter_nd %x, %i, %u {reduction = "none"} : (tensor<4x3xf32>, tensor<?x2x2xi32>, tensor<?x2xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Fused neighbours: a scatter between elementwise ops, large enough for the
// vectorized and parallel paths around it, against the reference.
// RUN: tcc-run %s --function=nd_between_ops --input=64x256xf32=random --input="3x1xi64=5 63 5" --input=3x256xf32=random --check-reference | FileCheck %s --check-prefix=NDF
// RUN: tcc-run %s --function=nd_between_ops --no-fuse --no-plan-memory --no-vectorize --no-parallel --input=64x256xf32=random --input="3x1xi64=5 63 5" --input=3x256xf32=random --check-reference | FileCheck %s --check-prefix=NDF
// NDF: [SUCCESS] result[0] matches the reference
func.func @nd_between_ops(%x: tensor<?x256xf32>, %i: tensor<?x1xi64>, %u: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %e = tcc.exp %x : (tensor<?x256xf32>) -> tensor<?x256xf32>
  %t = tcc.tanh %u : (tensor<?x256xf32>) -> tensor<?x256xf32>
  %s = tcc.scatter_nd %e, %i, %t {reduction = "add"} : (tensor<?x256xf32>, tensor<?x1xi64>, tensor<?x256xf32>) -> tensor<?x256xf32>
  %r = tcc.mul %s, %x : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// Indices out of range are a runtime error in compiled code and in the
// reference, never a write outside the buffer.
// RUN: not tcc-run %s --function=nd_rows --input="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x1xi64=4" --input="1x3xf32=1 1 1" 2>&1 | FileCheck %s --check-prefix=ND_RANGE
// RUN: not tcc-run %s --function=nd_rows --reference --input="4x3xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x1xi64=-5" --input="1x3xf32=1 1 1" 2>&1 | FileCheck %s --check-prefix=ND_RANGE_REF
// ND_RANGE: tcc.scatter_nd: index out of range
// ND_RANGE_REF: index -5 is out of range for axis 0 of size 4
// RUN: not tcc-run %s --function=elements_dim1 --input="2x4xf32=1 2 3 4 5 6 7 8" --input="1x1xi64=4" --input="1x1xf32=9" 2>&1 | FileCheck %s --check-prefix=EL_RANGE
// RUN: not tcc-run %s --function=elements_dim1 --input="2x4xf32=1 2 3 4 5 6 7 8" --input="3x1xi64=0 0 0" --input="3x1xf32=9 9 9" 2>&1 | FileCheck %s --check-prefix=EL_ROWS
// RUN: not tcc-run %s --function=elements_dim1 --input="2x4xf32=1 2 3 4 5 6 7 8" --input="1x2xi64=0 0" --input="1x1xf32=9" 2>&1 | FileCheck %s --check-prefix=EL_SHAPES
// EL_RANGE: tcc.scatter_elements: index out of range
// EL_ROWS: tcc.scatter_elements: indices dim 0 exceeds x's
// EL_SHAPES: tcc.scatter_elements: indices dim 1 exceeds the updates'
// Updates larger than the indices: only their leading corner is read
// (torch.scatter's src): [[5 6 7], [8 9 10]] at [[1 3], [0 -1]] writes
// 5, 6, 8, 9 as before.
// RUN: tcc-run %s --function=elements_dim1 --input="2x4xf32=1 2 3 4 5 6 7 8" --input="2x2xi64=1 3 0 -1" --input="2x3xf32=5 6 7 8 9 10" --expected_output="2x4xf32=1 5 3 6 8 6 7 9" --expected_output="2x4xf32=1 7 3 10 13 6 7 17" | FileCheck %s --check-prefix=EL
// RUN: tcc-run %s --function=elements_dim1 --reference --input="2x4xf32=1 2 3 4 5 6 7 8" --input="2x2xi64=1 3 0 -1" --input="2x3xf32=5 6 7 8 9 10" --expected_output="2x4xf32=1 5 3 6 8 6 7 9" --expected_output="2x4xf32=1 7 3 10 13 6 7 17" | FileCheck %s --check-prefix=EL
