// RUN: tcc-opt %s --convert-tcc-to-linalg --split-input-file | FileCheck %s

// Layout-only ops become tensor ops where MLIR has a metadata form, so
// bufferization can alias instead of copying.

// CHECK-LABEL: func.func @transpose
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x3x4xf32>
//       CHECK:   %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3x4xf32>
//       CHECK:   %[[E:.+]] = tensor.empty(%[[D]]) : tensor<4x?x3xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<?x3x4xf32>) outs(%[[E]] : tensor<4x?x3xf32>) permutation = [2, 0, 1]
//       CHECK:   return %[[T]]
func.func @transpose(%x: tensor<?x3x4xf32>) -> tensor<4x?x3xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 2, 0, 1>} : (tensor<?x3x4xf32>) -> tensor<4x?x3xf32>
  return %0 : tensor<4x?x3xf32>
}

// -----

// Static reshapes that only regroup dims: collapse_shape / expand_shape.
// CHECK-LABEL: func.func @reshape_static
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3x4xf32>
//       CHECK:   %[[C:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
//       CHECK:   %[[E:.+]] = tensor.expand_shape %[[C]] {{\[}}[0], [1, 2]] output_shape [6, 2, 2] : tensor<6x4xf32> into tensor<6x2x2xf32>
//   CHECK-NOT:   tensor.reshape
//       CHECK:   return %[[E]]
func.func @reshape_static(%x: tensor<2x3x4xf32>) -> tensor<6x2x2xf32> {
  %0 = tcc.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = tcc.reshape %0 : (tensor<6x4xf32>) -> tensor<6x2x2xf32>
  return %1 : tensor<6x2x2xf32>
}

// -----

// A static reshape that is not a regrouping (2x3 -> 3x2) uses
// tensor.reshape with a constant shape.
// CHECK-LABEL: func.func @reshape_static_general
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3xf32>
//   CHECK-NOT:   tensor.collapse_shape
//   CHECK-NOT:   tensor.expand_shape
//       CHECK:   %[[S:.+]] = tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xi64>
//       CHECK:   %[[R:.+]] = tensor.reshape %[[X]](%[[S]]) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
//       CHECK:   return %[[R]]
func.func @reshape_static_general(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = tcc.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Dynamic reshape: the dynamic result dim is inferred from the element
// count (total / product of the known dims), the count is checked at
// runtime, and tensor.reshape takes the computed shape.
// CHECK-LABEL: func.func @reshape_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>
//       CHECK:   %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x8xf32>
//       CHECK:   %[[M:.+]] = arith.muli %{{.+}}, %[[D]] : index
//       CHECK:   %[[TOTAL:.+]] = arith.muli %[[M]], %{{.+}} : index
//       CHECK:   %[[INF:.+]] = arith.divui %[[TOTAL]], %{{.+}} : index
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %{{.+}}, %[[TOTAL]] : index
//       CHECK:   cf.assert %[[EQ]], "tcc.reshape: the element count changes at runtime"
//       CHECK:   %[[S:.+]] = tensor.from_elements %{{.+}}, %{{.+}}, %{{.+}} : tensor<3xi64>
//       CHECK:   %[[R:.+]] = tensor.reshape %[[X]](%[[S]]) : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x2x4xf32>
//       CHECK:   return %[[R]]
func.func @reshape_dynamic(%x: tensor<?x8xf32>) -> tensor<?x2x4xf32> {
  %0 = tcc.reshape %x : (tensor<?x8xf32>) -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}

// -----

// With a shape operand, dynamic dims read its entries.
// CHECK-LABEL: func.func @reshape_shape_operand
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<2xi64>
//       CHECK:   %[[E0:.+]] = tensor.extract %[[S]][%{{.+}}] : tensor<2xi64>
//       CHECK:   arith.index_cast %[[E0]] : i64 to index
//       CHECK:   %[[E1:.+]] = tensor.extract %[[S]][%{{.+}}] : tensor<2xi64>
//       CHECK:   arith.index_cast %[[E1]] : i64 to index
//       CHECK:   cf.assert
//       CHECK:   %[[SHAPE:.+]] = tensor.from_elements
//       CHECK:   tensor.reshape %[[X]](%[[SHAPE]]) : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
func.func @reshape_shape_operand(%x: tensor<?x8xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = tcc.reshape %x, %s : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// broadcast_to: a generic that reads the input with a broadcasting map;
// dynamic result dims come from the shape operand, static ones must agree
// with it, and a dynamic input dim must equal its target at runtime.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_to
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x1xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<3xi64>
// The static dim 2 (4) must agree with the shape operand's entry.
//       CHECK:   tensor.extract %[[S]][%{{.+}}] : tensor<3xi64>
//       CHECK:   cf.assert %{{.+}}, "tcc.broadcast_to: the shape operand disagrees with the result's static size (dim 2)"
//       CHECK:   %[[E0:.+]] = tensor.extract %[[S]][%{{.+}}] : tensor<3xi64>
//       CHECK:   %[[D0:.+]] = arith.index_cast %[[E0]] : i64 to index
//       CHECK:   %[[E1:.+]] = tensor.extract %[[S]][%{{.+}}] : tensor<3xi64>
//       CHECK:   %[[D1:.+]] = arith.index_cast %[[E1]] : i64 to index
//       CHECK:   %[[XD:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x1xf32>
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[XD]], %[[D1]] : index
//       CHECK:   cf.assert %[[EQ]], "tcc.broadcast_to: a dynamic dim differs from the target"
//       CHECK:   %[[INIT:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?x4xf32>
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[IN]], #[[ID]]]
//  CHECK-SAME:     ins(%[[X]] : tensor<?x1xf32>) outs(%[[INIT]] : tensor<?x?x4xf32>)
//       CHECK:   ^bb0(%[[V:.+]]: f32, %{{.+}}: f32):
//       CHECK:     linalg.yield %[[V]] : f32
//       CHECK:   return %[[R]]
func.func @broadcast_to(%x: tensor<?x1xf32>, %s: tensor<3xi64>) -> tensor<?x?x4xf32> {
  %0 = tcc.broadcast_to %x, %s : (tensor<?x1xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

// slice: static dims clamp at compile time into extract_slice's offsets,
// sizes and strides.
// CHECK-LABEL: func.func @slice_static
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<8x10xf32>
//       CHECK:   %[[R:.+]] = tensor.extract_slice %[[X]][1, 6] [3, 4] [2, 1] : tensor<8x10xf32> to tensor<3x4xf32>
//       CHECK:   return %[[R]]
func.func @slice_static(%x: tensor<8x10xf32>) -> tensor<3x4xf32> {
  %0 = tcc.slice %x {starts = array<i64: 1, -4>, ends = array<i64: 7, 100>, steps = array<i64: 2, 1>} : (tensor<8x10xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// A dynamic dim clamps at runtime: negative starts add the dim, huge ends
// clamp to it.
// CHECK-LABEL: func.func @slice_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<8x?xf32>
//       CHECK:   %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<8x?xf32>
//       CHECK:   %[[ZERO:.+]] = arith.constant 0 : index
//       CHECK:   %[[M4:.+]] = arith.constant -4 : index
//       CHECK:   %[[SH:.+]] = arith.addi %[[M4]], %[[D]] : index
//       CHECK:   %[[START:.+]] = arith.maxsi %[[SH]], %[[ZERO]] : index
//       CHECK:   %[[END:.+]] = arith.minsi %{{.+}}, %[[D]] : index
//       CHECK:   %[[LEN:.+]] = arith.subi %[[END]], %[[START]] : index
//       CHECK:   %[[SIZE:.+]] = arith.divui
//       CHECK:   %[[R:.+]] = tensor.extract_slice %[[X]][1, %[[START]]] [3, %[[SIZE]]] [2, 1] : tensor<8x?xf32> to tensor<3x?xf32>
//       CHECK:   return %[[R]]
func.func @slice_dynamic(%x: tensor<8x?xf32>) -> tensor<3x?xf32> {
  %0 = tcc.slice %x {starts = array<i64: 1, -4>, ends = array<i64: 7, 9223372036854775807>, steps = array<i64: 2, 1>}
      : (tensor<8x?xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

// concat: insert_slice each input into an empty result at running offsets.
// CHECK-LABEL: func.func @concat
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<2x4xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<?x4xf32>
//       CHECK:   %[[DB:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<?x4xf32>
//       CHECK:   %[[TOTAL:.+]] = arith.addi %{{.+}}, %[[DB]] : index
//       CHECK:   %[[E:.+]] = tensor.empty(%[[TOTAL]]) : tensor<?x4xf32>
//       CHECK:   %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[E]][%{{.+}}, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<?x4xf32>
//       CHECK:   %[[OFF:.+]] = arith.addi
//       CHECK:   %[[DB2:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<?x4xf32>
//       CHECK:   %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][%[[OFF]], 0] [%[[DB2]], 4] [1, 1] : tensor<?x4xf32> into tensor<?x4xf32>
//       CHECK:   return %[[I1]]
func.func @concat(%a: tensor<2x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// concat along the last axis, static.
// CHECK-LABEL: func.func @concat_last_axis
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x7xi32>
//       CHECK:   %[[I0:.+]] = tensor.insert_slice %{{.+}} into %[[E]][0, %{{.+}}] [2, 3] [1, 1]
//       CHECK:   tensor.insert_slice %{{.+}} into %[[I0]][0, %{{.+}}] [2, 4] [1, 1]
func.func @concat_last_axis(%a: tensor<2x3xi32>, %b: tensor<2x4xi32>) -> tensor<2x7xi32> {
  %0 = tcc.concat %a, %b {axis = -1 : i64} : (tensor<2x3xi32>, tensor<2x4xi32>) -> tensor<2x7xi32>
  return %0 : tensor<2x7xi32>
}

// -----

// gather: one reduction over the indices checks they are all in
// [-dim, dim) (cf.assert), then a generic over the result extracts from x
// with negative indices wrapped and clamped.
// CHECK-DAG: #[[IDX:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ALL:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @gather
//  CHECK-SAME:   %[[T:[a-zA-Z0-9_]+]]: tensor<100x16xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<?x3xi64>
//       CHECK:   %[[DIM:.+]] = arith.constant 100 : index
//       CHECK:   %[[DIMI:.+]] = arith.index_cast %[[DIM]] : index to i64
//       CHECK:   %[[OK:.+]] = linalg.generic {{.*}}#[[ALL]]], iterator_types = ["reduction", "reduction"]} ins(%[[I]] : tensor<?x3xi64>) outs(%{{.+}} : tensor<i1>)
//       CHECK:     arith.cmpi sge
//       CHECK:     arith.cmpi slt, %{{.+}}, %[[DIMI]] : i64
//       CHECK:     arith.andi
//       CHECK:   %[[ALLOK:.+]] = tensor.extract %[[OK]][] : tensor<i1>
//       CHECK:   cf.assert %[[ALLOK]], "tcc.gather: index out of range"
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}}#[[IDX]]{{.*}} ins(%[[I]] : tensor<?x3xi64>) outs(%{{.+}} : tensor<?x3x16xf32>)
//       CHECK:     %[[IX:.+]] = arith.index_cast %{{.+}} : i64 to index
//       CHECK:     arith.cmpi slt, %[[IX]]
//       CHECK:     arith.addi %[[IX]], %[[DIM]] : index
//       CHECK:     arith.minsi
//       CHECK:     %[[CL:.+]] = arith.maxsi
//       CHECK:     %[[J:.+]] = linalg.index 2 : index
//       CHECK:     %[[V:.+]] = tensor.extract %[[T]][%[[CL]], %[[J]]] : tensor<100x16xf32>
//       CHECK:     linalg.yield %[[V]] : f32
//       CHECK:   return %[[R]]
func.func @gather(%t: tensor<100x16xf32>, %i: tensor<?x3xi64>) -> tensor<?x3x16xf32> {
  %0 = tcc.gather %t, %i : (tensor<100x16xf32>, tensor<?x3xi64>) -> tensor<?x3x16xf32>
  return %0 : tensor<?x3x16xf32>
}

// -----

// Gather along an inner axis with i32 indices.
// CHECK-LABEL: func.func @gather_axis1
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4x5x6xf32>
//       CHECK:   cf.assert
//       CHECK:   linalg.generic
//       CHECK:     arith.index_cast %{{.+}} : i32 to index
//       CHECK:     %[[A:.+]] = linalg.index 0 : index
//       CHECK:     %[[C:.+]] = linalg.index 2 : index
//       CHECK:     tensor.extract %[[X]][%[[A]], %{{.+}}, %[[C]]] : tensor<4x5x6xf32>
func.func @gather_axis1(%x: tensor<4x5x6xf32>, %i: tensor<3xi32>) -> tensor<4x3x6xf32> {
  %0 = tcc.gather %x, %i {axis = 1 : i64} : (tensor<4x5x6xf32>, tensor<3xi32>) -> tensor<4x3x6xf32>
  return %0 : tensor<4x3x6xf32>
}

// -----

// CHECK-LABEL: func.func @constant
//       CHECK:   %[[C:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
//   CHECK-NOT:   tcc.constant
//       CHECK:   return %[[C]]
func.func @constant() -> tensor<2xf32> {
  %0 = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// gather_elements: the same range check, then every dim of the indices
// but `axis` checked against x's, then one identity-mapped generic whose
// element reads x at its own coordinates with the wrapped index at `axis`.
// CHECK-LABEL: func.func @gather_elements
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x9xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<?x1xi64>
//       CHECK:   cf.assert %{{.+}}, "tcc.gather_elements: index out of range"
//       CHECK:   arith.cmpi ule
//       CHECK:   cf.assert %{{.+}}, "tcc.gather_elements: indices dim 0 exceeds x's"
//   CHECK-NOT:   indices dim 1
//       CHECK:   linalg.generic {{.*}} ins(%[[I]] : tensor<?x1xi64>) outs(%{{.+}} : tensor<?x1xf32>)
//       CHECK:     %[[ROW:.+]] = linalg.index 0 : index
//       CHECK:     tensor.extract %[[X]][%[[ROW]], %{{.+}}] : tensor<?x9xf32>
func.func @gather_elements(%x: tensor<?x9xf32>, %i: tensor<?x1xi64>) -> tensor<?x1xf32> {
  %0 = tcc.gather_elements %x, %i {axis = 1 : i64} : (tensor<?x9xf32>, tensor<?x1xi64>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}
