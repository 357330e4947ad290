// RUN: tcc-opt %s --canonicalize --split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// Identity operands fold away (only when no broadcasting happens)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @add_zero
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4x8xf32>
//   CHECK-NOT:   tcc.add
//       CHECK:   return %[[X]], %[[X]]
func.func @add_zero(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = tcc.constant dense<0.0> : tensor<4x8xf32>
  %0 = tcc.add %x, %zero : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.add %zero, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A rank-0 zero broadcasts to x's shape, so the result is still x.
// CHECK-LABEL: func.func @add_scalar_zero_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>
//   CHECK-NOT:   tcc.add
//       CHECK:   return %[[X]], %[[X]]
func.func @add_scalar_zero_dynamic(%x: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %zero = tcc.constant dense<0.0> : tensor<f32>
  %0 = tcc.add %x, %zero : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %1 = tcc.add %zero, %x : (tensor<f32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0, %1 : tensor<?x8xf32>, tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func.func @add_zero_int
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4xi32>
//   CHECK-NOT:   tcc.add
//       CHECK:   return %[[X]]
func.func @add_zero_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  %zero = tcc.constant dense<0> : tensor<4xi32>
  %0 = tcc.add %x, %zero : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @sub_zero
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4xf16>
//   CHECK-NOT:   tcc.sub
//       CHECK:   return %[[X]]
func.func @sub_zero(%x: tensor<4xf16>) -> tensor<4xf16> {
  %zero = tcc.constant dense<0.0> : tensor<1xf16>
  %0 = tcc.sub %x, %zero : (tensor<4xf16>, tensor<1xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// 0 - x is not x.
// CHECK-LABEL: func.func @zero_sub_stays
//       CHECK:   %[[ZERO:.+]] = tcc.constant dense<0.000000e+00> : tensor<4xf32>
//       CHECK:   %[[R:.+]] = tcc.sub %[[ZERO]], %{{.*}}
//       CHECK:   return %[[R]]
func.func @zero_sub_stays(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tcc.constant dense<0.0> : tensor<4xf32>
  %0 = tcc.sub %zero, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @mul_one
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3xbf16>
//   CHECK-NOT:   tcc.mul
//       CHECK:   return %[[X]], %[[X]]
func.func @mul_one(%x: tensor<2x3xbf16>) -> (tensor<2x3xbf16>, tensor<2x3xbf16>) {
  %one = tcc.constant dense<1.0> : tensor<3xbf16>
  %0 = tcc.mul %x, %one : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2x3xbf16>
  %1 = tcc.mul %one, %x : (tensor<3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  return %0, %1 : tensor<2x3xbf16>, tensor<2x3xbf16>
}

// -----

// CHECK-LABEL: func.func @mul_one_int
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4xi8>
//   CHECK-NOT:   tcc.mul
//       CHECK:   return %[[X]]
func.func @mul_one_int(%x: tensor<4xi8>) -> tensor<4xi8> {
  %one = tcc.constant dense<1> : tensor<4xi8>
  %0 = tcc.mul %one, %x : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// x * 0 is not 0 for NaN and infinity: it stays.
// CHECK-LABEL: func.func @mul_zero_stays
//       CHECK:   tcc.mul
func.func @mul_zero_stays(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = tcc.constant dense<0.0> : tensor<4xf32>
  %0 = tcc.mul %x, %zero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @div_one
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x4xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<4xi32>
//   CHECK-NOT:   tcc.div
//       CHECK:   return %[[X]], %[[I]]
func.func @div_one(%x: tensor<?x4xf32>, %i: tensor<4xi32>) -> (tensor<?x4xf32>, tensor<4xi32>) {
  %one = tcc.constant dense<1.0> : tensor<f32>
  %ione = tcc.constant dense<1> : tensor<4xi32>
  %0 = tcc.div %x, %one : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %1 = tcc.div %i, %ione : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<?x4xf32>, tensor<4xi32>
}

// -----

// 1 / x is not x.
// CHECK-LABEL: func.func @one_div_stays
//       CHECK:   tcc.div
func.func @one_div_stays(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = tcc.constant dense<1.0> : tensor<4xf32>
  %0 = tcc.div %one, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @pow_one
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4xf32>
//   CHECK-NOT:   tcc.pow
//       CHECK:   return %[[X]]
func.func @pow_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = tcc.constant dense<1.0> : tensor<f32>
  %0 = tcc.pow %x, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Squares and cubes are multiplications; other exponents, an exponent that
// is not a constant, and a pow that broadcasts its base stay.
// CHECK-LABEL: func.func @pow_small_integers
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>
//       CHECK:   %[[SQ:.+]] = tcc.mul %[[X]], %[[X]]
//       CHECK:   %[[SQ3:.+]] = tcc.mul %[[X]], %[[X]]
//       CHECK:   %[[CUBE:.+]] = tcc.mul %[[SQ3]], %[[X]]
//       CHECK:   %[[HALF:.+]] = tcc.pow %[[X]], %{{.+}} : (tensor<?x8xf32>, tensor<f32>)
//       CHECK:   %[[OPEN:.+]] = tcc.pow %[[X]], %{{.+}} : (tensor<?x8xf32>, tensor<?x8xf32>)
//       CHECK:   %[[BCAST:.+]] = tcc.pow %{{.+}}, %{{.+}} : (tensor<8xf32>, tensor<4x8xf32>)
//       CHECK:   return %[[SQ]], %[[CUBE]], %[[HALF]], %[[OPEN]], %[[BCAST]]
func.func @pow_small_integers(%x: tensor<?x8xf32>, %e: tensor<?x8xf32>, %v: tensor<8xf32>)
    -> (tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>, tensor<4x8xf32>) {
  %two = tcc.constant dense<2.0> : tensor<f32>
  %three = tcc.constant dense<3.0> : tensor<f32>
  %half = tcc.constant dense<0.5> : tensor<f32>
  %threes = tcc.constant dense<3.0> : tensor<4x8xf32>
  %0 = tcc.pow %x, %two : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %1 = tcc.pow %x, %three : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %2 = tcc.pow %x, %half : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %3 = tcc.pow %x, %e : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %4 = tcc.pow %v, %threes : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3, %4 : tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @max_min_self
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4xf32>
//   CHECK-NOT:   tcc.maximum
//   CHECK-NOT:   tcc.minimum
//       CHECK:   return %[[X]], %[[X]]
func.func @max_min_self(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tcc.maximum %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tcc.minimum %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Negative: adding a zero of a larger shape broadcasts x; the result has a
// different type than x and must not be replaced by it.
// CHECK-LABEL: func.func @add_zero_broadcasting_stays
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   %[[ZERO:.+]] = tcc.constant dense<0.000000e+00> : tensor<4x8xf32>
//       CHECK:   %[[R:.+]] = tcc.add %[[X]], %[[ZERO]] : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// add is commutative: canonicalization moves the constant to the right.
//       CHECK:   %[[R2:.+]] = tcc.add %[[X]], %[[ZERO]] : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       CHECK:   return %[[R]], %[[R2]]
func.func @add_zero_broadcasting_stays(%x: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = tcc.constant dense<0.0> : tensor<4x8xf32>
  %0 = tcc.add %x, %zero : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.add %zero, %x : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: x * 1 with x's dim 1 stretched by the constant stays.
// CHECK-LABEL: func.func @mul_one_broadcasting_stays
//       CHECK:   tcc.mul %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @mul_one_broadcasting_stays(%x: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %one = tcc.constant dense<1.0> : tensor<4x8xf32>
  %0 = tcc.mul %x, %one : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Negative: a non-splat constant that is not all zeros.
// CHECK-LABEL: func.func @add_nonzero_stays
//       CHECK:   tcc.add
func.func @add_nonzero_stays(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = tcc.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = tcc.add %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// neg
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @neg_neg
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x4xf32>
//   CHECK-NOT:   tcc.neg
//       CHECK:   return %[[X]]
func.func @neg_neg(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.neg %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = tcc.neg %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @neg_neg_int
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4xi32>
//   CHECK-NOT:   tcc.neg
//       CHECK:   return %[[X]]
func.func @neg_neg_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcc.neg %x : (tensor<4xi32>) -> tensor<4xi32>
  %1 = tcc.neg %0 : (tensor<4xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// A single neg stays.
// CHECK-LABEL: func.func @neg_once
//       CHECK:   %[[N:.+]] = tcc.neg
//       CHECK:   return %[[N]]
func.func @neg_once(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @neg_constant
//   CHECK-NOT:   tcc.neg
//       CHECK:   %[[C:.+]] = tcc.constant dense<[-1.000000e+00, 2.000000e+00]> : tensor<2xf32>
//       CHECK:   return %[[C]]
func.func @neg_constant() -> tensor<2xf32> {
  %c = tcc.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %0 = tcc.neg %c : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @add_constants
//   CHECK-NOT:   tcc.add
//       CHECK:   %[[C:.+]] = tcc.constant dense<[4.000000e+00, 6.000000e+00]> : tensor<2xf32>
//       CHECK:   return %[[C]]
func.func @add_constants() -> tensor<2xf32> {
  %a = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = tcc.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %0 = tcc.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @arith_int_constants
//   CHECK-NOT:   tcc.sub
//   CHECK-NOT:   tcc.mul
//   CHECK-DAG:   %[[S:.+]] = tcc.constant dense<[-2, 5]> : tensor<2xi32>
//   CHECK-DAG:   %[[M:.+]] = tcc.constant dense<[3, -6]> : tensor<2xi32>
//       CHECK:   return %[[S]], %[[M]]
func.func @arith_int_constants() -> (tensor<2xi32>, tensor<2xi32>) {
  %a = tcc.constant dense<[1, 3]> : tensor<2xi32>
  %b = tcc.constant dense<[3, -2]> : tensor<2xi32>
  %0 = tcc.sub %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %1 = tcc.mul %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1 : tensor<2xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @splat_constants
//   CHECK-NOT:   tcc.mul
//   CHECK-NOT:   tcc.div
//   CHECK-NOT:   tcc.maximum
//   CHECK-DAG:   %[[M:.+]] = tcc.constant dense<6.000000e+00> : tensor<2x2xf32>
//   CHECK-DAG:   %[[D:.+]] = tcc.constant dense<1.500000e+00> : tensor<2x2xf32>
//   CHECK-DAG:   %[[X:.+]] = tcc.constant dense<3.000000e+00> : tensor<2x2xf32>
//       CHECK:   return %[[M]], %[[D]], %[[X]]
func.func @splat_constants() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %a = tcc.constant dense<3.0> : tensor<2x2xf32>
  %b = tcc.constant dense<2.0> : tensor<2x2xf32>
  %0 = tcc.mul %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = tcc.div %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = tcc.maximum %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// Only small constants fold (at most 4096 elements): folding larger ones
// would duplicate big constants in the IR.
// CHECK-LABEL: func.func @large_constants_stay
//       CHECK:   %[[R:.+]] = tcc.add
//       CHECK:   return %[[R]]
func.func @large_constants_stay() -> tensor<64x65xf32> {
  %a = tcc.constant dense<1.0> : tensor<64x65xf32>
  %b = tcc.constant dense<2.0> : tensor<64x65xf32>
  %0 = tcc.add %a, %b : (tensor<64x65xf32>, tensor<64x65xf32>) -> tensor<64x65xf32>
  return %0 : tensor<64x65xf32>
}

// CHECK-LABEL: func.func @largest_folded_constant
//   CHECK-NOT:   tcc.add
//       CHECK:   tcc.constant dense<3.000000e+00> : tensor<64x64xf32>
func.func @largest_folded_constant() -> tensor<64x64xf32> {
  %a = tcc.constant dense<1.0> : tensor<64x64xf32>
  %b = tcc.constant dense<2.0> : tensor<64x64xf32>
  %0 = tcc.add %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Integer division by a constant zero is a runtime matter: it stays.
// CHECK-LABEL: func.func @int_div_constants_stays
//       CHECK:   tcc.div
func.func @int_div_constants_stays() -> tensor<2xi32> {
  %a = tcc.constant dense<[4, 6]> : tensor<2xi32>
  %b = tcc.constant dense<[0, 3]> : tensor<2xi32>
  %0 = tcc.div %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Constants of different shapes broadcast: not folded.
// CHECK-LABEL: func.func @broadcasting_constants_stay
//       CHECK:   tcc.add
func.func @broadcasting_constants_stay() -> tensor<2x2xf32> {
  %a = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = tcc.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = tcc.add %a, %b : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @transpose_inverse
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x197x12x64xf32>
//   CHECK-NOT:   tcc.transpose
//       CHECK:   return %[[X]]
func.func @transpose_inverse(%x: tensor<?x197x12x64xf32>) -> tensor<?x197x12x64xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x197x12x64xf32>) -> tensor<?x12x197x64xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x12x197x64xf32>) -> tensor<?x197x12x64xf32>
  return %1 : tensor<?x197x12x64xf32>
}

// -----

// [1, 2, 0] followed by its inverse [2, 0, 1].
// CHECK-LABEL: func.func @transpose_inverse_rotation
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3x4xf32>
//   CHECK-NOT:   tcc.transpose
//       CHECK:   return %[[X]]
func.func @transpose_inverse_rotation(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// Two rotations by one compose to a rotation by two:
// result dim i = x dim p1[p2[i]] = [1, 2, 0][[1, 2, 0][i]] = [2, 0, 1].
// CHECK-LABEL: func.func @transpose_compose
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3x4xf32>
//       CHECK:   %[[T:.+]] = tcc.transpose %[[X]] {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
//   CHECK-NOT:   tcc.transpose
//       CHECK:   return %[[T]]
func.func @transpose_compose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// A three-transpose chain collapses to one.
// CHECK-LABEL: func.func @transpose_chain
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3x4x5xf32>
//       CHECK:   %[[T:.+]] = tcc.transpose %[[X]] {permutation = array<i64: 1, 0, 3, 2>} : (tensor<2x3x4x5xf32>) -> tensor<3x2x5x4xf32>
//   CHECK-NOT:   tcc.transpose
//       CHECK:   return %[[T]]
func.func @transpose_chain(%x: tensor<2x3x4x5xf32>) -> tensor<3x2x5x4xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0, 2, 3>} : (tensor<2x3x4x5xf32>) -> tensor<3x2x4x5xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 0, 1, 3, 2>} : (tensor<3x2x4x5xf32>) -> tensor<3x2x5x4xf32>
  %2 = tcc.transpose %1 {permutation = array<i64: 0, 1, 2, 3>} : (tensor<3x2x5x4xf32>) -> tensor<3x2x5x4xf32>
  return %2 : tensor<3x2x5x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x4xi64>
//   CHECK-NOT:   tcc.transpose
//       CHECK:   return %[[X]]
func.func @transpose_identity(%x: tensor<?x4xi64>) -> tensor<?x4xi64> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 1>} : (tensor<?x4xi64>) -> tensor<?x4xi64>
  return %0 : tensor<?x4xi64>
}

// -----

// Negative: one transpose, nothing to compose with.
// CHECK-LABEL: func.func @transpose_single_stays
//       CHECK:   tcc.transpose %{{.*}} {permutation = array<i64: 1, 0>}
func.func @transpose_single_stays(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Negative: the inner transpose has another user, so it stays; the outer
// one still composes with it and does not cancel (the pair is not inverse).
// CHECK-LABEL: func.func @transposes_do_not_cancel
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3x4xf32>
//   CHECK-DAG:   %[[A:.+]] = tcc.transpose %[[X]] {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
//   CHECK-DAG:   %[[B:.+]] = tcc.transpose %[[X]] {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
//       CHECK:   return %[[A]], %[[B]]
func.func @transposes_do_not_cancel(%x: tensor<2x3x4xf32>) -> (tensor<3x4x2xf32>, tensor<4x2x3xf32>) {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %0, %1 : tensor<3x4x2xf32>, tensor<4x2x3xf32>
}

// -----

// Moving only unit dims keeps every element in place: a reshape (an SE
// block's [N, C, 1, 1] pooled vector to channels-last).
// CHECK-LABEL: func.func @transpose_unit_dims
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x240x1x1xf32>
//       CHECK:   %[[R:.+]] = tcc.reshape %[[X]] : (tensor<2x240x1x1xf32>) -> tensor<2x1x1x240xf32>
//   CHECK-NOT:   tcc.transpose
//       CHECK:   return %[[R]]
func.func @transpose_unit_dims(%x: tensor<2x240x1x1xf32>) -> tensor<2x1x1x240xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : (tensor<2x240x1x1xf32>) -> tensor<2x1x1x240xf32>
  return %0 : tensor<2x1x1x240xf32>
}

// -----

// The same with a dynamic batch (the reshape infers it).
// CHECK-LABEL: func.func @transpose_unit_dims_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x240x1x1xf32>
//       CHECK:   %[[R:.+]] = tcc.reshape %[[X]] : (tensor<?x240x1x1xf32>) -> tensor<?x1x1x240xf32>
//       CHECK:   return %[[R]]
func.func @transpose_unit_dims_dynamic(%x: tensor<?x240x1x1xf32>) -> tensor<?x1x1x240xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : (tensor<?x240x1x1xf32>) -> tensor<?x1x1x240xf32>
  return %0 : tensor<?x1x1x240xf32>
}

// -----

// Negative: a dynamic dim may be 1 or not; moving it past a dim of 240
// moves elements.
// CHECK-LABEL: func.func @transpose_dynamic_dim_is_not_unit
//       CHECK:   tcc.transpose %{{.+}} {permutation = array<i64: 1, 0, 2, 3>}
//   CHECK-NOT:   tcc.reshape
func.func @transpose_dynamic_dim_is_not_unit(%x: tensor<?x240x1x1xf32>) -> tensor<240x?x1x1xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0, 2, 3>} : (tensor<?x240x1x1xf32>) -> tensor<240x?x1x1xf32>
  return %0 : tensor<240x?x1x1xf32>
}

// -----

// Negative: two dynamic dims in order, but a reshape could infer only one.
// CHECK-LABEL: func.func @transpose_unit_dims_two_dynamic
//       CHECK:   tcc.transpose %{{.+}} {permutation = array<i64: 1, 0, 2>}
//   CHECK-NOT:   tcc.reshape
func.func @transpose_unit_dims_two_dynamic(%x: tensor<?x1x?xf32>) -> tensor<1x?x?xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0, 2>} : (tensor<?x1x?xf32>) -> tensor<1x?x?xf32>
  return %0 : tensor<1x?x?xf32>
}

//===----------------------------------------------------------------------===//
// reshape, broadcast_to, cast
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @reshape_chain
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3x4xf32>
//       CHECK:   %[[R:.+]] = tcc.reshape %[[X]] : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
//   CHECK-NOT:   tcc.reshape
//       CHECK:   return %[[R]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = tcc.reshape %x : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = tcc.reshape %0 : (tensor<24xf32>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// The outer reshape's shape operand is kept.
// CHECK-LABEL: func.func @reshape_chain_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<3xi64>
//       CHECK:   %[[R:.+]] = tcc.reshape %[[X]], %[[S]] : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x?x2xf32>
//   CHECK-NOT:   tcc.reshape
//       CHECK:   return %[[R]]
func.func @reshape_chain_dynamic(%x: tensor<?x8xf32>, %s: tensor<3xi64>) -> tensor<?x?x2xf32> {
  %0 = tcc.reshape %x : (tensor<?x8xf32>) -> tensor<?xf32>
  %1 = tcc.reshape %0, %s : (tensor<?xf32>, tensor<3xi64>) -> tensor<?x?x2xf32>
  return %1 : tensor<?x?x2xf32>
}

// -----

// A reshape chain back to the original type disappears.
// CHECK-LABEL: func.func @reshape_round_trip
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3xf32>
//   CHECK-NOT:   tcc.reshape
//       CHECK:   return %[[X]]
func.func @reshape_round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tcc.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = tcc.reshape %0 : (tensor<6xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_constant
//   CHECK-NOT:   tcc.reshape
//       CHECK:   %[[C:.+]] = tcc.constant dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
//       CHECK:   return %[[C]]
func.func @reshape_constant() -> tensor<2x3xi32> {
  %c = tcc.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %0 = tcc.reshape %c : (tensor<6xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @same_type_folds
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3xf32>
//   CHECK-NOT:   tcc.reshape
//   CHECK-NOT:   tcc.broadcast_to
//   CHECK-NOT:   tcc.cast
//       CHECK:   return %[[X]], %[[X]], %[[X]]
func.func @same_type_folds(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tcc.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tcc.broadcast_to %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = tcc.cast %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// cast to the same type folds whatever the shape; reshape and broadcast_to
// of a dynamic type do not (a dynamic reshape may still reorganize dims).
// CHECK-LABEL: func.func @same_type_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x3xf32>
//   CHECK-NOT:   tcc.cast
//       CHECK:   %[[R:.+]] = tcc.reshape %[[X]] : (tensor<?x3xf32>) -> tensor<?x3xf32>
//       CHECK:   return %[[X]], %[[R]]
func.func @same_type_dynamic(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %0 = tcc.cast %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = tcc.reshape %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0, %1 : tensor<?x3xf32>, tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_splat_constant
//   CHECK-NOT:   tcc.broadcast_to
//       CHECK:   %[[C:.+]] = tcc.constant dense<2.500000e+00> : tensor<3x4xf32>
//       CHECK:   return %[[C]]
func.func @broadcast_splat_constant() -> tensor<3x4xf32> {
  %c = tcc.constant dense<2.5> : tensor<1x4xf32>
  %0 = tcc.broadcast_to %c : (tensor<1x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Negative: a cast that changes the element type stays.
// CHECK-LABEL: func.func @cast_stays
//       CHECK:   tcc.cast %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf16>
func.func @cast_stays(%x: tensor<2x3xf32>) -> tensor<2x3xf16> {
  %0 = tcc.cast %x : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

//===----------------------------------------------------------------------===//
// concat, slice
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @concat_single
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x4xf32>
//   CHECK-NOT:   tcc.concat
//       CHECK:   return %[[X]]
func.func @concat_single(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.concat %x {axis = 0 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Negative: two inputs.
// CHECK-LABEL: func.func @concat_two_stays
//       CHECK:   tcc.concat
func.func @concat_two_stays(%x: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %0 = tcc.concat %x, %x {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Constants fold, along an inner axis too (splats expand).
// CHECK-LABEL: func.func @concat_constants
//   CHECK-NOT:   tcc.concat
//       CHECK:   tcc.constant dense<{{\[}}[1, 2, 7], [3, 4, 7]]> : tensor<2x3xi32>
func.func @concat_constants() -> tensor<2x3xi32> {
  %a = tcc.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = tcc.constant dense<7> : tensor<2x1xi32>
  %0 = tcc.concat %a, %b {axis = -1 : i64} : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// Negative: one input is not a constant.
// CHECK-LABEL: func.func @concat_constant_and_value
//       CHECK:   tcc.concat
func.func @concat_constant_and_value(%x: tensor<1x2xi32>) -> tensor<3x2xi32> {
  %a = tcc.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %0 = tcc.concat %a, %x {axis = 0 : i64} : (tensor<2x2xi32>, tensor<1x2xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// Ends past the dim clamp to it.
// CHECK-LABEL: func.func @slice_full
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4x8xf32>
//   CHECK-NOT:   tcc.slice
//       CHECK:   return %[[X]], %[[X]]
func.func @slice_full(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 8>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 9223372036854775807, 100>, steps = array<i64: 1, 1>}
      : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: a strict sub-range, and a strided slice.
// CHECK-LABEL: func.func @slice_partial_stays
//       CHECK:   tcc.slice %{{.*}} {ends = array<i64: 3, 8>, starts = array<i64: 1, 0>}
//       CHECK:   tcc.slice %{{.*}} {ends = array<i64: 4, 8>, starts = array<i64: 0, 0>, steps = array<i64: 1, 2>}
func.func @slice_partial_stays(%x: tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<4x4xf32>) {
  %0 = tcc.slice %x {starts = array<i64: 1, 0>, ends = array<i64: 3, 8>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  %1 = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 2>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<2x8xf32>, tensor<4x4xf32>
}

// -----

// A transpose of a constant (a weight's relayout) folds at compile time:
// dense constants element by element, dense_resource blobs into a new blob.
// CHECK-LABEL: func.func @transpose_constant
//   CHECK-NOT:   tcc.transpose
//       CHECK:   %[[C:.+]] = tcc.constant dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
//       CHECK:   return %[[C]]
func.func @transpose_constant() -> tensor<3x2xi32> {
  %0 = tcc.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  return %1 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @transpose_resource
//   CHECK-NOT:   tcc.transpose
//       CHECK:   %[[C:.+]] = tcc.constant dense_resource<w_t> : tensor<3x2xf32>
//       CHECK:   return %[[C]]
// The blob: [[1, 2, 3], [4, 5, 6]] transposed is 1, 4, 2, 5, 3, 6 (f32 LE).
//       CHECK:   w_t: "0x040000000000803F00008040000000400000A040000040400000C040"
func.func @transpose_resource() -> tensor<3x2xf32> {
  %0 = tcc.constant dense_resource<w> : tensor<2x3xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// A splat stays a splat; a non-constant transpose stays.
// CHECK-LABEL: func.func @transpose_splat
//       CHECK:   %[[C:.+]] = tcc.constant dense<2.500000e+00> : tensor<4x3xf32>
//       CHECK:   %[[T:.+]] = tcc.transpose %arg0
//       CHECK:   return %[[C]], %[[T]]
func.func @transpose_splat(%x: tensor<3x4xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = tcc.constant dense<2.5> : tensor<3x4xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %2 = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %1, %2 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// An exporter's LSTM gate reordering (ifgo -> iofc) undone by the
// importer's (iofc -> ifgo): slices of a concatenation are its inputs, and
// consecutive slices covering a value are the value. The weight is used as
// it is, not copied gate by gate on every call.
// CHECK-LABEL: func.func @gate_reorder_undone
//  CHECK-SAME:   (%[[W:.+]]: tensor<512x256xf32>)
//   CHECK-NOT:   tcc.slice
//   CHECK-NOT:   tcc.concat
//       CHECK:   return %[[W]]
func.func @gate_reorder_undone(%w: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %i = tcc.slice %w {starts = array<i64: 0, 0>, ends = array<i64: 128, 9223372036854775807>, steps = array<i64: 1, 1>} : (tensor<512x256xf32>) -> tensor<128x256xf32>
  %f = tcc.slice %w {starts = array<i64: 128, 0>, ends = array<i64: 256, 9223372036854775807>, steps = array<i64: 1, 1>} : (tensor<512x256xf32>) -> tensor<128x256xf32>
  %g = tcc.slice %w {starts = array<i64: 256, 0>, ends = array<i64: 384, 9223372036854775807>, steps = array<i64: 1, 1>} : (tensor<512x256xf32>) -> tensor<128x256xf32>
  %o = tcc.slice %w {starts = array<i64: 384, 0>, ends = array<i64: 512, 9223372036854775807>, steps = array<i64: 1, 1>} : (tensor<512x256xf32>) -> tensor<128x256xf32>
  %iofc = tcc.concat %i, %o, %f, %g {axis = 0 : i64} : (tensor<128x256xf32>, tensor<128x256xf32>, tensor<128x256xf32>, tensor<128x256xf32>) -> tensor<512x256xf32>
  %i2 = tcc.slice %iofc {starts = array<i64: 0, 0>, ends = array<i64: 128, 9223372036854775807>} : (tensor<512x256xf32>) -> tensor<128x256xf32>
  %o2 = tcc.slice %iofc {starts = array<i64: 128, 0>, ends = array<i64: 256, 9223372036854775807>} : (tensor<512x256xf32>) -> tensor<128x256xf32>
  %f2 = tcc.slice %iofc {starts = array<i64: 256, 0>, ends = array<i64: 384, 9223372036854775807>} : (tensor<512x256xf32>) -> tensor<128x256xf32>
  %g2 = tcc.slice %iofc {starts = array<i64: 384, 0>, ends = array<i64: 512, 9223372036854775807>} : (tensor<512x256xf32>) -> tensor<128x256xf32>
  %ifgo = tcc.concat %i2, %f2, %g2, %o2 {axis = 0 : i64} : (tensor<128x256xf32>, tensor<128x256xf32>, tensor<128x256xf32>, tensor<128x256xf32>) -> tensor<512x256xf32>
  return %ifgo : tensor<512x256xf32>
}

// -----

// The same along a dim after a dynamic batch dim, with negative bounds.
// CHECK-LABEL: func.func @halves_rejoined_dynamic
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x8xf32>)
//   CHECK-NOT:   tcc.concat
//       CHECK:   return %[[X]]
func.func @halves_rejoined_dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %a = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 9223372036854775807, 4>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
  %b = tcc.slice %x {starts = array<i64: 0, -4>, ends = array<i64: 9223372036854775807, 8>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
  %c = tcc.concat %a, %b {axis = 1 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  return %c : tensor<?x8xf32>
}

// -----

// Not folded: the slices are out of order, or do not cover the value, or
// take every other row, or only part of another dim; a slice that spans
// two inputs of a concatenation stays a slice.
// CHECK-LABEL: func.func @slices_kept
//       CHECK-COUNT-5: tcc.concat
//       CHECK:   tcc.slice %{{.+}} {ends = array<i64: 6, 9223372036854775807>, starts = array<i64: 2, 0>}
func.func @slices_kept(%x: tensor<8x4xf32>, %y: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>) {
  %lo = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 4>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
  %hi = tcc.slice %x {starts = array<i64: 4, 0>, ends = array<i64: 8, 4>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
  %swapped = tcc.concat %hi, %lo {axis = 0 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %a = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 2, 4>} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  %b = tcc.slice %x {starts = array<i64: 2, 0>, ends = array<i64: 4, 4>} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  %part = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %even = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 8, 4>, steps = array<i64: 2, 1>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
  %odd = tcc.slice %x {starts = array<i64: 1, 0>, ends = array<i64: 8, 4>, steps = array<i64: 2, 1>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
  %interleaved = tcc.concat %even, %odd {axis = 0 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 2>} : (tensor<8x4xf32>) -> tensor<4x2xf32>
  %r = tcc.slice %x {starts = array<i64: 4, 0>, ends = array<i64: 8, 2>} : (tensor<8x4xf32>) -> tensor<4x2xf32>
  %narrow = tcc.concat %l, %r, %l, %r {axis = 1 : i64} : (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  %wide = tcc.reshape %narrow : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %yy = tcc.concat %y, %y {axis = 0 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %mid = tcc.slice %yy {starts = array<i64: 2, 0>, ends = array<i64: 6, 9223372036854775807>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return %swapped, %part, %interleaved, %wide, %mid : tensor<8x4xf32>, tensor<4x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>
}
