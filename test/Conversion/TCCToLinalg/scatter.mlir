// RUN: tcc-opt %s --convert-tcc-to-linalg --canonicalize --cse --split-input-file | FileCheck %s

// tcc.scatter_nd of rows: the range check first, then one scf.for over the
// tuples carrying the result, a copy of x in a buffer of its own;
// each step reads the tuple's index, clamps it, and combines the addressed
// row with the update in one elementwise generic, inserted back in place.
// CHECK-LABEL: func.func @scatter_nd_rows
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x64xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<?x1xi64>, %[[U:[a-zA-Z0-9_]+]]: tensor<?x64xf32>
//       CHECK:   cf.assert %{{.+}}, "tcc.scatter_nd: updates differ from indices in dim 0"
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["reduction", "reduction"]
//  CHECK-SAME:     ins(%[[I]] : tensor<?x1xi64>)
//       CHECK:   cf.assert %{{.+}}, "tcc.scatter_nd: index out of range"
//       CHECK:   %[[OWN:.+]] = bufferization.alloc_tensor() copy(%[[X]]) : tensor<?x64xf32>
//       CHECK:   %[[R:.+]] = scf.for %[[Q:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[OWN]]) -> (tensor<?x64xf32>)
//       CHECK:     %[[RAW:.+]] = tensor.extract %[[I]][%{{.+}}, %{{.+}}] : tensor<?x1xi64>
//       CHECK:     %[[UPD:.+]] = tensor.extract_slice %[[U]][%{{.+}}, 0] [1, 64] [1, 1] : tensor<?x64xf32> to tensor<64xf32>
//       CHECK:     %[[OLD:.+]] = tensor.extract_slice %[[ACC]][%{{.+}}, 0] [1, 64] [1, 1] : tensor<?x64xf32> to tensor<64xf32>
//       CHECK:     %[[NEW:.+]] = linalg.generic {{.*}} ins(%[[UPD]] : tensor<64xf32>) outs(%[[OLD]] : tensor<64xf32>)
//       CHECK:       arith.addf
//       CHECK:     %[[INS:.+]] = tensor.insert_slice %[[NEW]] into %[[ACC]][%{{.+}}, 0] [1, 64] [1, 1]
//       CHECK:     scf.yield %[[INS]]
//       CHECK:   return %[[R]]
func.func @scatter_nd_rows(%x: tensor<?x64xf32>, %i: tensor<?x1xi64>, %u: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = tcc.scatter_nd %x, %i, %u {reduction = "add"} : (tensor<?x64xf32>, tensor<?x1xi64>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// Whole tuples (k = rank): each step is one element, extracted and inserted.
// CHECK-LABEL: func.func @scatter_nd_elements
//       CHECK:   scf.for {{.*}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<4x3xi32>)
//       CHECK:     %[[V:.+]] = tensor.extract %{{.+}}[%{{.+}}] : tensor<?xi32>
//       CHECK:     %[[INS:.+]] = tensor.insert %[[V]] into %[[ACC]][%{{.+}}, %{{.+}}] : tensor<4x3xi32>
//       CHECK:     scf.yield %[[INS]]
func.func @scatter_nd_elements(%x: tensor<4x3xi32>, %i: tensor<?x2xi64>, %u: tensor<?xi32>) -> tensor<4x3xi32> {
  %0 = tcc.scatter_nd %x, %i, %u : (tensor<4x3xi32>, tensor<?x2xi64>, tensor<?xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// -----

// tcc.scatter_elements: a loop per dim of the updates carrying the
// result; the innermost reads index and update, replaces the axis
// coordinate with the clamped index and combines (max) in place.
// CHECK-LABEL: func.func @scatter_elements_max
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<?x3xi64>, %[[U:[a-zA-Z0-9_]+]]: tensor<?x3xf32>
//       CHECK:   cf.assert %{{.+}}, "tcc.scatter_elements: indices dim 0 exceeds x's"
//       CHECK:   cf.assert %{{.+}}, "tcc.scatter_elements: index out of range"
//       CHECK:   %[[OWN:.+]] = bufferization.alloc_tensor() copy(%[[X]])
//       CHECK:   scf.for %[[A:.+]] = {{.*}} iter_args(%[[ACC0:.+]] = %[[OWN]])
//       CHECK:     scf.for %[[B:.+]] = {{.*}} iter_args(%[[ACC:.+]] = %[[ACC0]])
//       CHECK:       %[[RAW:.+]] = tensor.extract %[[I]][%[[A]], %[[B]]]
//       CHECK:       %[[V:.+]] = tensor.extract %[[U]][%[[A]], %[[B]]]
//       CHECK:       %[[OLD:.+]] = tensor.extract %[[ACC]][%[[A]], %[[J:.+]]]
//       CHECK:       %[[M:.+]] = arith.maximumf %[[OLD]], %[[V]]
//       CHECK:       tensor.insert %[[M]] into %[[ACC]][%[[A]], %[[J]]]
func.func @scatter_elements_max(%x: tensor<?x8xf32>, %i: tensor<?x3xi64>, %u: tensor<?x3xf32>) -> tensor<?x8xf32> {
  %0 = tcc.scatter_elements %x, %i, %u {axis = 1 : i64, reduction = "max"} : (tensor<?x8xf32>, tensor<?x3xi64>, tensor<?x3xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// tcc.grid_sample: one parallel generic over [N, C, Ho, Wo] reading the
// grid's x and y through two maps into its last dim; bilinear reads four
// pixels of x with clamped indices.
// CHECK-DAG: #[[GX:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, 0)>
// CHECK-DAG: #[[GY:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, 1)>
// CHECK-LABEL: func.func @grid_sample_bilinear
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x3x8x8xf32>, %[[G:[a-zA-Z0-9_]+]]: tensor<?x4x4x2xf32>
//       CHECK:   cf.assert %{{.+}}, "tcc.grid_sample: x and grid differ in batch size"
//       CHECK:   linalg.generic {indexing_maps = [#[[GX]], #[[GY]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
//  CHECK-SAME:     ins(%[[G]], %[[G]] : tensor<?x4x4x2xf32>, tensor<?x4x4x2xf32>)
//       CHECK:     math.floor
//       CHECK:     tensor.extract %[[X]]
//       CHECK:     tensor.extract %[[X]]
//       CHECK:     tensor.extract %[[X]]
//       CHECK:     tensor.extract %[[X]]
//   CHECK-NOT:     tensor.extract %[[X]]
//       CHECK:     linalg.yield
func.func @grid_sample_bilinear(%x: tensor<?x3x8x8xf32>, %g: tensor<?x4x4x2xf32>) -> tensor<?x3x4x4xf32> {
  %0 = tcc.grid_sample %x, %g : (tensor<?x3x8x8xf32>, tensor<?x4x4x2xf32>) -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
}
