// RUN: tcc-opt %s --resolve-ranked-shaped-type-result-dims --split-input-file | FileCheck %s

// tensor.dim of a tcc result resolves to the operands' dims
// (ReifyRankedShapedTypeOpInterface), without lowering the op.

// CHECK-LABEL: func.func @broadcast_add
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x8xf32>
//       CHECK:   %[[C0:.+]] = arith.constant 0 : index
//       CHECK:   %[[D:.+]] = tensor.dim %[[A]], %[[C0]]
//       CHECK:   return %[[D]]
func.func @broadcast_add(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> index {
  %0 = tcc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %0, %c0 : tensor<?x8xf32>
  return %d : index
}

// -----

// CHECK-LABEL: func.func @linear_out_features
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x16xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<?x16xf32>
//       CHECK:   %[[D:.+]] = tensor.dim %[[W]], %{{.+}} : tensor<?x16xf32>
//   CHECK-NOT:   tcc.linear
//       CHECK:   return %[[D]]
func.func @linear_out_features(%x: tensor<?x16xf32>, %w: tensor<?x16xf32>) -> index {
  %0 = tcc.linear %x, %w : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %d = tensor.dim %0, %c1 : tensor<?x?xf32>
  return %d : index
}

// -----

// Concat along a dynamic axis: the sum of the inputs' sizes.
// CHECK-LABEL: func.func @concat_axis
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x4xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<3x4xf32>
//       CHECK:   %[[DA:.+]] = tensor.dim %[[A]]
//       CHECK:   %[[SUM:.+]] = arith.addi %[[DA]], %{{.+}}
//       CHECK:   return %[[SUM]]
func.func @concat_axis(%a: tensor<?x4xf32>, %b: tensor<3x4xf32>) -> index {
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %0, %c0 : tensor<?x4xf32>
  return %d : index
}

// -----

// Conv with dynamic H: (H + 2 - 3) / 2 + 1.
// CHECK-LABEL: func.func @conv_height
//       CHECK:   %[[H:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<1x3x?x8xf32>
//       CHECK:   %[[N:.+]] = arith.addi %[[H]], %{{.+}}
//       CHECK:   %[[Q:.+]] = arith.divsi %[[N]], %{{.+}}
//       CHECK:   %[[R:.+]] = arith.addi %[[Q]], %{{.+}}
//       CHECK:   return %[[R]]
func.func @conv_height(%x: tensor<1x3x?x8xf32>, %w: tensor<4x3x3x3xf32>) -> index {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x?x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x?x4xf32>
  %c2 = arith.constant 2 : index
  %d = tensor.dim %0, %c2 : tensor<1x4x?x4xf32>
  return %d : index
}

// -----

// mask_select and nonzero have no reified shape (their dim 0 is a count
// known only once they have run): tensor.dim of it stays.
// CHECK-LABEL: func.func @data_dependent_dims_stay
//       CHECK:   %[[S:.+]] = tcc.mask_select
//       CHECK:   %[[N:.+]] = tcc.nonzero
//       CHECK:   %[[D0:.+]] = tensor.dim %[[S]], %{{.+}} : tensor<?x4xf32>
//       CHECK:   %[[D1:.+]] = tensor.dim %[[N]], %{{.+}} : tensor<?x1xi64>
//       CHECK:   return %[[D0]], %[[D1]]
func.func @data_dependent_dims_stay(%b: tensor<?x4xf32>, %k: tensor<?xi1>) -> (index, index) {
  %0 = tcc.mask_select %b, %k : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<?x4xf32>
  %1 = tcc.nonzero %k : (tensor<?xi1>) -> tensor<?x1xi64>
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x4xf32>
  %d1 = tensor.dim %1, %c0 : tensor<?x1xi64>
  return %d0, %d1 : index, index
}

// -----

// Both results of a sort are shaped as its operand.
// CHECK-LABEL: func.func @sort_indices_dim
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf16>
//       CHECK:   %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?xf16>
//   CHECK-NOT:   tcc.sort
//       CHECK:   return %[[D]]
func.func @sort_indices_dim(%x: tensor<?x?xf16>) -> index {
  %v, %i = tcc.sort %x : (tensor<?x?xf16>) -> (tensor<?x?xf16>, tensor<?x?xi64>)
  %c1 = arith.constant 1 : index
  %d = tensor.dim %i, %c1 : tensor<?x?xi64>
  return %d : index
}
