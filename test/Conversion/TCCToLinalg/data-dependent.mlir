// RUN: tcc-opt %s --convert-tcc-to-linalg --canonicalize --cse --split-input-file | FileCheck %s

// Data-dependent result sizes: the output is allocated at the bound (every
// row or element selected), filled by an scf.for nest that carries a running
// count, and cut to that count with tensor.extract_slice. (Canonicalized so
// that the bound's arithmetic folds.)

// boxes[keep]: one loop over the rows; a kept row is copied to row `count`
// under scf.if, and the count advances by the mask bit.
// CHECK-LABEL: func.func @keep_rows
//  CHECK-SAME:   %[[B:[a-zA-Z0-9_]+]]: tensor<?x4xf32>, %[[K:[a-zA-Z0-9_]+]]: tensor<?xi1>
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//       CHECK:   %[[N:.+]] = tensor.dim %[[B]], %[[C0]]
//       CHECK:   %[[NK:.+]] = tensor.dim %[[K]], %[[C0]]
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[NK]], %[[N]]
//       CHECK:   cf.assert %[[EQ]], "tcc.mask_select: mask dim 0 differs from x's"
//       CHECK:   %[[INIT:.+]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
//       CHECK:   %[[LOOP:.+]]:2 = scf.for %[[I:.+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[OUT:.+]] = %[[INIT]], %[[COUNT:.+]] = %[[C0]]) -> (tensor<?x4xf32>, index) {
//       CHECK:     %[[KEEP:.+]] = tensor.extract %[[K]][%[[I]]] : tensor<?xi1>
//       CHECK:     %[[INC:.+]] = arith.index_castui %[[KEEP]] : i1 to index
//       CHECK:     %[[NEXT:.+]] = arith.addi %[[COUNT]], %[[INC]] : index
//       CHECK:     %[[IF:.+]] = scf.if %[[KEEP]] -> (tensor<?x4xf32>) {
//       CHECK:       %[[ROW:.+]] = tensor.extract_slice %[[B]][%[[I]], 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<4xf32>
//       CHECK:       %[[INS:.+]] = tensor.insert_slice %[[ROW]] into %[[OUT]][%[[COUNT]], 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<?x4xf32>
//       CHECK:       scf.yield %[[INS]] : tensor<?x4xf32>
//       CHECK:     } else {
//       CHECK:       scf.yield %[[OUT]] : tensor<?x4xf32>
//       CHECK:     }
//       CHECK:     scf.yield %[[IF]], %[[NEXT]] : tensor<?x4xf32>, index
//       CHECK:   }
//       CHECK:   %[[R:.+]] = tensor.extract_slice %[[LOOP]]#0[0, 0] [%[[LOOP]]#1, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
//       CHECK:   return %[[R]]
func.func @keep_rows(%boxes: tensor<?x4xf32>, %keep: tensor<?xi1>) -> tensor<?x4xf32> {
  %0 = tcc.mask_select %boxes, %keep : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A flat mask: a loop per dim; every element is stored at `count` without a
// branch and the count advances by the mask bit. A static x gives a static
// bound (6 elements).
// CHECK-LABEL: func.func @flat
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3xf32>, %[[M:[a-zA-Z0-9_]+]]: tensor<2x3xi1>
//   CHECK-NOT:   cf.assert
//       CHECK:   %[[INIT:.+]] = tensor.empty() : tensor<6xf32>
//       CHECK:   %[[OUTER:.+]]:2 = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[O1:.+]] = %[[INIT]], %[[C1:.+]] = %{{.+}})
//       CHECK:     %[[INNER:.+]]:2 = scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[O2:.+]] = %[[O1]], %[[C2:.+]] = %[[C1]])
//       CHECK:       %[[KEEP:.+]] = tensor.extract %[[M]][%[[I]], %[[J]]] : tensor<2x3xi1>
//       CHECK:       %[[INC:.+]] = arith.index_castui %[[KEEP]] : i1 to index
//       CHECK:       %[[NEXT:.+]] = arith.addi %[[C2]], %[[INC]] : index
//       CHECK:       %[[V:.+]] = tensor.extract %[[X]][%[[I]], %[[J]]] : tensor<2x3xf32>
//   CHECK-NOT:       scf.if
//       CHECK:       %[[INS:.+]] = tensor.insert %[[V]] into %[[O2]][%[[C2]]] : tensor<6xf32>
//       CHECK:       scf.yield %[[INS]], %[[NEXT]]
//       CHECK:     scf.yield %[[INNER]]#0, %[[INNER]]#1
//       CHECK:   %[[R:.+]] = tensor.extract_slice %[[OUTER]]#0[0] [%[[OUTER]]#1] [1] : tensor<6xf32> to tensor<?xf32>
//       CHECK:   return %[[R]]
func.func @flat(%x: tensor<2x3xf32>, %m: tensor<2x3xi1>) -> tensor<?xf32> {
  %0 = tcc.mask_select %x, %m : (tensor<2x3xf32>, tensor<2x3xi1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A declared row dim more static than x's is checked before the loop (not
// after it, when the data has been copied into a buffer of the wrong size).
// CHECK-LABEL: func.func @refined_row
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf32>
//       CHECK:   cf.assert %{{.+}}, "tcc.mask_select: mask dim 0 differs from x's"
//       CHECK:   %[[K:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?xf32>
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[K]], %{{.+}} : index
//       CHECK:   cf.assert %[[EQ]], "tcc: a dim differs from the static size in the op's result type (dim 1)"
//       CHECK:   tensor.empty(%{{.+}}) : tensor<?x4xf32>
//       CHECK:   scf.for
//       CHECK:     tensor.extract_slice %[[X]][%{{.+}}, 0] [1, 4] [1, 1] : tensor<?x?xf32> to tensor<4xf32>
//       CHECK:   %[[R:.+]] = tensor.extract_slice %{{.+}}[0, 0] [%{{.+}}, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
//       CHECK:   return %[[R]] : tensor<?x4xf32>
func.func @refined_row(%x: tensor<?x?xf32>, %m: tensor<?xi1>) -> tensor<?x4xf32> {
  %0 = tcc.mask_select %x, %m : (tensor<?x?xf32>, tensor<?xi1>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A declared static count is a promise checked on the count itself, before
// the slice is taken with that static size.
// CHECK-LABEL: func.func @static_count
//       CHECK:   %[[LOOP:.+]]:2 = scf.for
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[LOOP]]#1, %{{.+}} : index
//       CHECK:   cf.assert %[[EQ]], "tcc.mask_select: the number of selected rows differs from the static size 3 of the result's dim 0"
//       CHECK:   %[[R:.+]] = tensor.extract_slice %[[LOOP]]#0[0, 0] [3, 4] [1, 1] : tensor<?x4xf32> to tensor<3x4xf32>
//       CHECK:   return %[[R]]
func.func @static_count(%x: tensor<?x4xf32>, %m: tensor<?xi1>) -> tensor<3x4xf32> {
  %0 = tcc.mask_select %x, %m : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// A declared type less static than x's: the slice keeps x's static row dims
// and a tensor.cast gives the declared type.
// CHECK-LABEL: func.func @less_static
//       CHECK:   %[[R:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0] [%{{.+}}, 2, 3] [1, 1, 1] : tensor<5x2x3xi32> to tensor<?x2x3xi32>
//       CHECK:   %[[C:.+]] = tensor.cast %[[R]] : tensor<?x2x3xi32> to tensor<?x?x3xi32>
//       CHECK:   return %[[C]]
func.func @less_static(%x: tensor<5x2x3xi32>, %m: tensor<5xi1>) -> tensor<?x?x3xi32> {
  %0 = tcc.mask_select %x, %m : (tensor<5x2x3xi32>, tensor<5xi1>) -> tensor<?x?x3xi32>
  return %0 : tensor<?x?x3xi32>
}

// -----

// nonzero: bound = numel(x) rows of rank(x) indices; each element's indices
// go to row `count`, which advances when the element is non-zero (x != 0,
// unordered, so NaN counts).
// CHECK-LABEL: func.func @nonzero
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x4xf32>
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//       CHECK:   %[[N:.+]] = tensor.dim %[[X]], %[[C0]]
//       CHECK:   %[[BOUND:.+]] = arith.muli %[[N]], %[[C4]] : index
//       CHECK:   %[[INIT:.+]] = tensor.empty(%[[BOUND]]) : tensor<?x2xi64>
//       CHECK:   %[[OUTER:.+]]:2 = scf.for %[[I:.+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[O1:.+]] = %[[INIT]], %[[CNT1:.+]] = %[[C0]])
//       CHECK:     %[[INNER:.+]]:2 = scf.for %[[J:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[O2:.+]] = %[[O1]], %[[CNT2:.+]] = %[[CNT1]])
//       CHECK:       %[[V:.+]] = tensor.extract %[[X]][%[[I]], %[[J]]] : tensor<?x4xf32>
//       CHECK:       %[[NZ:.+]] = arith.cmpf une, %[[V]], %[[ZERO]] : f32
//       CHECK:       %[[INC:.+]] = arith.index_castui %[[NZ]] : i1 to index
//       CHECK:       %[[NEXT:.+]] = arith.addi %[[CNT2]], %[[INC]] : index
//       CHECK:       %[[I64:.+]] = arith.index_cast %[[I]] : index to i64
//       CHECK:       %[[W0:.+]] = tensor.insert %[[I64]] into %[[O2]][%[[CNT2]], %[[C0]]] : tensor<?x2xi64>
//       CHECK:       %[[J64:.+]] = arith.index_cast %[[J]] : index to i64
//       CHECK:       %[[W1:.+]] = tensor.insert %[[J64]] into %[[W0]][%[[CNT2]], %[[C1]]] : tensor<?x2xi64>
//       CHECK:       scf.yield %[[W1]], %[[NEXT]]
//       CHECK:   %[[R:.+]] = tensor.extract_slice %[[OUTER]]#0[0, 0] [%[[OUTER]]#1, 2] [1, 1] : tensor<?x2xi64> to tensor<?x2xi64>
//       CHECK:   return %[[R]]
func.func @nonzero(%x: tensor<?x4xf32>) -> tensor<?x2xi64> {
  %0 = tcc.nonzero %x : (tensor<?x4xf32>) -> tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// -----

// A scalar: at most one row of zero indices; no loop, no data, only the
// count (tensor slices cannot address a static size-0 dim).
// CHECK-LABEL: func.func @nonzero_scalar
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<i1>
//   CHECK-NOT:   scf.for
//       CHECK:   %[[V:.+]] = tensor.extract %[[X]][] : tensor<i1>
//       CHECK:   %[[N:.+]] = arith.index_castui %[[V]] : i1 to index
//       CHECK:   %[[R:.+]] = tensor.empty(%[[N]]) : tensor<?x0xi64>
//       CHECK:   return %[[R]]
func.func @nonzero_scalar(%x: tensor<i1>) -> tensor<?x0xi64> {
  %0 = tcc.nonzero %x : (tensor<i1>) -> tensor<?x0xi64>
  return %0 : tensor<?x0xi64>
}

// -----

// Rows of size 0: the loop only counts the kept rows.
// CHECK-LABEL: func.func @empty_rows
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x0xf32>, %[[M:[a-zA-Z0-9_]+]]: tensor<?xi1>
//       CHECK:   %[[N:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[C:.+]] = %{{.+}}) -> (index) {
//       CHECK:     tensor.extract %[[M]]
//   CHECK-NOT:     tensor.insert
//       CHECK:     scf.yield %{{.+}} : index
//       CHECK:   %[[R:.+]] = tensor.empty(%[[N]]) : tensor<?x0xf32>
//       CHECK:   return %[[R]]
func.func @empty_rows(%x: tensor<?x0xf32>, %m: tensor<?xi1>) -> tensor<?x0xf32> {
  %0 = tcc.mask_select %x, %m : (tensor<?x0xf32>, tensor<?xi1>) -> tensor<?x0xf32>
  return %0 : tensor<?x0xf32>
}

// -----

// No rows at all (a static 0): an empty result, nothing runs.
// CHECK-LABEL: func.func @no_rows
//   CHECK-NOT:   scf.for
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<0x4xf32>
//       CHECK:   %[[C:.+]] = tensor.cast %[[E]] : tensor<0x4xf32> to tensor<?x4xf32>
//       CHECK:   return %[[C]]
func.func @no_rows(%x: tensor<0x4xf32>, %m: tensor<0xi1>) -> tensor<?x4xf32> {
  %0 = tcc.mask_select %x, %m : (tensor<0x4xf32>, tensor<0xi1>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// tcc.nms: corners and areas once ([B, N, 5]), the scores' descending
// sort (its bitonic network), then per (b, c) row a loop over the order
// carrying the output at its bound (B * C * min(N, max)), the count and
// the row's selections: a candidate above the score threshold and below
// the limit scans the row's selected boxes (rows start..count) for an
// overlap, and is stored at the count unless one is found. The result is
// the first `count` rows.
// CHECK-LABEL: func.func @nms
//       CHECK:   cf.assert %{{.+}}, "tcc.nms: boxes dim 1 differs from scores dim 2 (the boxes)"
//       CHECK:   linalg.generic {{.*}} outs(%{{.+}} : tensor<1x?x5xf32>)
//       CHECK:   scf.for
//       CHECK:     scf.for
//       CHECK:   %[[BOUND:.+]] = arith.minsi %{{.+}}, %c4 : index
//       CHECK:   tensor.empty(%[[BOUND]]) : tensor<?x3xi64>
//       CHECK:   %[[ROWS:.+]]:3 = scf.for %{{.+}} = %c0 to %{{.+}} step %c1 iter_args(%[[OUT:.+]] = %{{.+}}, %[[COUNT:.+]] = %c0, %[[TAKEN:.+]] = %c0) -> (tensor<?x3xi64>, index, index)
//       CHECK:     arith.cmpf ogt, %{{.+}}, %{{.+}} : f32
//       CHECK:     arith.cmpi slt, %[[TAKEN]], %c4 : index
//       CHECK:     %[[KEEP:.+]] = scf.if %{{.+}} -> (i1) {
//       CHECK:       scf.for %{{.+}} = %c0 to %[[COUNT]] step %c1 iter_args(%{{.+}} = %false) -> (i1)
//       CHECK:         tensor.extract %[[OUT]][%{{.+}}, %c2] : tensor<?x3xi64>
//       CHECK:         arith.divf
//       CHECK:     scf.if %[[KEEP]] -> (tensor<?x3xi64>, index, index) {
//       CHECK:       tensor.insert %{{.+}} into %{{.+}}[%[[COUNT]], %c2] : tensor<?x3xi64>
//       CHECK:   tensor.extract_slice %[[ROWS]]#0[0, 0] [%[[ROWS]]#1, 3] [1, 1] : tensor<?x3xi64> to tensor<?x3xi64>
func.func @nms(%b: tensor<1x?x4xf32>, %s: tensor<1x1x?xf32>) -> tensor<?x3xi64> {
  %0 = tcc.nms %b, %s {iou_threshold = 5.000000e-01 : f64, max_output_per_class = 4 : i64, score_threshold = 1.0e-01 : f64} : (tensor<1x?x4xf32>, tensor<1x1x?xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}
