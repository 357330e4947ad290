// tcc.cumsum and tcc.iota through the CPU pipeline: compiled code vs values
// worked out by hand (--expected_output) and vs the reference evaluator,
// static and dynamic shapes, with the ops around them fused.

// Position ids from an attention mask (HF's `mask.cumsum(-1) * mask - 1`,
// then +1 so that padding reads 0): rows [1 1 1 0] and [1 1 0 0] give
// cumsums [1 2 3 3], [1 2 2 2]; times the mask: [1 2 3 0], [1 2 0 0].
// RUN: tcc-run %s --function=positions --input="2x4xi64=1 1 1 0 1 1 0 0" --expected_output="2x4xi64=1 2 3 0 1 2 0 0" | FileCheck %s --check-prefix=POS
// RUN: tcc-run %s --function=positions --reference --input="2x4xi64=1 1 1 0 1 1 0 0" --expected_output="2x4xi64=1 2 3 0 1 2 0 0" | FileCheck %s --check-prefix=POS
// RUN: tcc-run %s --function=positions --input="3x1xi64=1 0 1" --expected_output="3x1xi64=1 0 1" | FileCheck %s --check-prefix=POS
// POS: [SUCCESS] result[0] matches (
func.func @positions(%mask: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %c = tcc.cumsum %mask {axis = -1 : i64} : (tensor<?x?xi64>) -> tensor<?x?xi64>
  %p = tcc.mul %c, %mask : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
  return %p : tensor<?x?xi64>
}

// Along dim 0 of a 3x2 f32, inclusive, exclusive, reversed:
// x = [[1, 2], [3, 4], [5, 6]]: inclusive [[1,2],[4,6],[9,12]];
// exclusive [[0,0],[1,2],[4,6]]; reverse [[9,12],[8,10],[5,6]];
// reverse exclusive [[8,10],[5,6],[0,0]].
// RUN: tcc-run %s --function=cumsums --input="3x2xf32=1 2 3 4 5 6" --expected_output="3x2xf32=1 2 4 6 9 12" --expected_output="3x2xf32=0 0 1 2 4 6" --expected_output="3x2xf32=9 12 8 10 5 6" --expected_output="3x2xf32=8 10 5 6 0 0" | FileCheck %s --check-prefix=ALL4
// RUN: tcc-run %s --function=cumsums --input=37x19xf32=random --check-reference | FileCheck %s --check-prefix=REF4
// RUN: tcc-run %s --function=cumsums --no-fuse --no-plan-memory --no-vectorize --no-parallel --input=5x300xf32=random --check-reference | FileCheck %s --check-prefix=REF4
// ALL4: [SUCCESS] result[3] matches (3x2xf32)
// REF4: [SUCCESS] result[3] matches the reference
func.func @cumsums(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %a = tcc.cumsum %x {axis = 0 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %b = tcc.cumsum %x {axis = 0 : i64, exclusive = true} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = tcc.cumsum %x {axis = 0 : i64, reverse = true} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %d = tcc.cumsum %x {axis = 0 : i64, exclusive = true, reverse = true} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %a, %b, %c, %d : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

// Static rank 3, the middle axis, bf16 (summed in f32, rounded once per
// element): x = 1..8 as [2, 2, 2] gives [[1,2],[4,6]], [[5,6],[12,14]].
// RUN: tcc-run %s --function=middle_bf16 --input="2x2x2xbf16=1 2 3 4 5 6 7 8" --expected_output="2x2x2xbf16=1 2 4 6 5 6 12 14" | FileCheck %s --check-prefix=BF16
// BF16: [SUCCESS] result[0] matches (2x2x2xbf16)
func.func @middle_bf16(%x: tensor<2x2x2xbf16>) -> tensor<2x2x2xbf16> {
  %0 = tcc.cumsum %x {axis = 1 : i64} : (tensor<2x2x2xbf16>) -> tensor<2x2x2xbf16>
  return %0 : tensor<2x2x2xbf16>
}

// An empty axis: nothing to sum, an empty result.
// RUN: tcc-run %s --function=positions --input="2x0xi64" --expected_output="2x0xi64" | FileCheck %s --check-prefix=POS

// tcc.iota: 0..n-1 with n from the input's dim (torch.arange(x.size(1))),
// scaled and shifted as arange(start, end, step) is: 3 + 2*i, added to x.
// x = [[10, 20, 30], [40, 50, 60]]: + [3, 5, 7].
// RUN: tcc-run %s --function=arange_like --input="2x3xf32=10 20 30 40 50 60" --expected_output="2x3xf32=13 25 37 43 55 67" --expected_output="3xi64=0 1 2" | FileCheck %s --check-prefix=IOTA
// RUN: tcc-run %s --function=arange_like --reference --input="2x3xf32=10 20 30 40 50 60" --expected_output="2x3xf32=13 25 37 43 55 67" --expected_output="3xi64=0 1 2" | FileCheck %s --check-prefix=IOTA
// RUN: tcc-run %s --function=arange_like --input=7x1000xf32=random --check-reference | FileCheck %s --check-prefix=IOTA_REF
// IOTA: [SUCCESS] result[1] matches (3xi64)
// IOTA_REF: [SUCCESS] result[1] matches the reference (1000xi64)
func.func @arange_like(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xi64>) {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %n64 = arith.index_cast %n : index to i64
  %shape = tensor.from_elements %n64 : tensor<1xi64>
  %i = tcc.iota %shape : (tensor<1xi64>) -> tensor<?xf32>
  %two = tcc.constant dense<2.0> : tensor<f32>
  %three = tcc.constant dense<3.0> : tensor<f32>
  %s = tcc.mul %i, %two : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  %t = tcc.add %s, %three : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  %y = tcc.add %x, %t : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %ids = tcc.iota %shape : (tensor<1xi64>) -> tensor<?xi64>
  return %y, %ids : tensor<?x?xf32>, tensor<?xi64>
}

// A static iota.
// RUN: tcc-run %s --function=iota5 --expected_output="5xi32=0 1 2 3 4" | FileCheck %s --check-prefix=IOTA5
// IOTA5: [SUCCESS] result[0] matches (5xi32)
func.func @iota5() -> tensor<5xi32> {
  %0 = tcc.iota : () -> tensor<5xi32>
  return %0 : tensor<5xi32>
}
