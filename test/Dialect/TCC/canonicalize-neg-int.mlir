// RUN: tcc-opt %s --canonicalize --split-input-file | FileCheck %s

// neg of an integer constant (tcc.neg accepts integer tensors). The folder
// used to read integer splats as APFloat and crash
// (/tmp/bugs2/neg_fold_integer_constant_crash.mlir).

// CHECK-LABEL: func.func @neg_int_splat
//   CHECK-NOT:   tcc.neg
//       CHECK:   %[[C:.+]] = tcc.constant dense<-3> : tensor<4xi32>
//       CHECK:   return %[[C]]
func.func @neg_int_splat() -> tensor<4xi32> {
  %c = tcc.constant dense<3> : tensor<4xi32>
  %0 = tcc.neg %c : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @neg_int_dense
//   CHECK-NOT:   tcc.neg
//       CHECK:   %[[C:.+]] = tcc.constant dense<[-3, 4]> : tensor<2xi8>
//       CHECK:   return %[[C]]
func.func @neg_int_dense() -> tensor<2xi8> {
  %c = tcc.constant dense<[3, -4]> : tensor<2xi8>
  %0 = tcc.neg %c : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
