// RUN: tcc-opt %s --convert-tcc-to-linalg --canonicalize --cse --split-input-file | FileCheck %s

// tcc.cumsum: an scf.for over the axis carrying the result and the running
// sum of the other dims; each step adds the axis slice to the sum with one
// elementwise generic, in place on the carried sum, and stores it into the
// result.

// CHECK-LABEL: func.func @cumsum_last_dim
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xi64>
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//   CHECK-DAG:   %[[Z:.+]] = arith.constant 0 : i64
//       CHECK:   %[[R:.+]] = tensor.dim %[[X]], %[[C0]]
//       CHECK:   %[[N:.+]] = tensor.dim %[[X]], %[[C1]]
//       CHECK:   %[[OUT:.+]] = tensor.empty(%[[R]], %[[N]]) : tensor<?x?xi64>
//       CHECK:   %[[ROW:.+]] = tensor.empty(%[[R]]) : tensor<?xi64>
//       CHECK:   %[[SUM0:.+]] = linalg.fill ins(%[[Z]] : i64) outs(%[[ROW]] : tensor<?xi64>)
//       CHECK:   %[[LOOP:.+]]:2 = scf.for %[[K:.+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[OUT]], %[[SUM:.+]] = %[[SUM0]])
//       CHECK:     %[[COL:.+]] = tensor.extract_slice %[[X]][0, %[[K]]] [%[[R]], 1] [1, 1] : tensor<?x?xi64> to tensor<?xi64>
//       CHECK:     %[[NEXT:.+]] = linalg.generic {{.*}} ins(%[[COL]] : tensor<?xi64>) outs(%[[SUM]] : tensor<?xi64>)
//       CHECK:       arith.addi
//       CHECK:     %[[INS:.+]] = tensor.insert_slice %[[NEXT]] into %[[ACC]][0, %[[K]]] [%[[R]], 1] [1, 1]
//       CHECK:     scf.yield %[[INS]], %[[NEXT]]
//       CHECK:   return %[[LOOP]]#0
func.func @cumsum_last_dim(%x: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %0 = tcc.cumsum %x {axis = -1 : i64} : (tensor<?x?xi64>) -> tensor<?x?xi64>
  return %0 : tensor<?x?xi64>
}

// -----

// Reverse and exclusive, f16: the position runs from the end, the sum is in
// f32 and the value stored is the sum before the step's add, rounded to f16.
// CHECK-LABEL: func.func @cumsum_reverse_exclusive_f16
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//       CHECK:   scf.for %[[K:.+]] = {{.*}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[SUM:.+]] = %{{.+}}) -> (tensor<5x3xf16>, tensor<3xf32>)
//       CHECK:     %[[POS:.+]] = arith.subi %[[C4]], %[[K]] : index
//       CHECK:     %[[ROW:.+]] = tensor.extract_slice %{{.+}}[%[[POS]], 0] [1, 3] [1, 1] : tensor<5x3xf16> to tensor<3xf16>
//       CHECK:     %[[OLD:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>)
//       CHECK:       arith.truncf
//       CHECK:     %[[INS:.+]] = tensor.insert_slice %[[OLD]] into %[[ACC]][%[[POS]], 0] [1, 3] [1, 1]
//       CHECK:     %[[NEXT:.+]] = linalg.generic {{.*}} ins(%[[ROW]] : tensor<3xf16>) outs(%[[SUM]] : tensor<3xf32>)
//       CHECK:       arith.extf
//       CHECK:       arith.addf
//       CHECK:     scf.yield %[[INS]], %[[NEXT]]
func.func @cumsum_reverse_exclusive_f16(%x: tensor<5x3xf16>) -> tensor<5x3xf16> {
  %0 = tcc.cumsum %x {axis = 0 : i64, exclusive = true, reverse = true} : (tensor<5x3xf16>) -> tensor<5x3xf16>
  return %0 : tensor<5x3xf16>
}

// -----

// tcc.iota with a run-time length: checked to be non-negative, then a
// generic with no inputs writes linalg.index converted to the element type.
// CHECK-LABEL: func.func @iota_dynamic
//  CHECK-SAME:   %[[N:[a-zA-Z0-9_]+]]: tensor<1xi64>
//       CHECK:   %[[LEN:.+]] = tensor.extract %[[N]][%{{.+}}] : tensor<1xi64>
//       CHECK:   %[[OK:.+]] = arith.cmpi sge, %[[LEN]], %{{.+}} : i64
//       CHECK:   cf.assert %[[OK]], "tcc.iota: negative length"
//       CHECK:   %[[SIZE:.+]] = arith.index_cast %[[LEN]] : i64 to index
//       CHECK:   %[[E:.+]] = tensor.empty(%[[SIZE]]) : tensor<?xf32>
//       CHECK:   linalg.generic {{.*}} outs(%[[E]] : tensor<?xf32>)
//       CHECK:     %[[I:.+]] = linalg.index 0 : index
//       CHECK:     %[[I64:.+]] = arith.index_cast %[[I]] : index to i64
//       CHECK:     arith.sitofp %[[I64]] : i64 to f32
func.func @iota_dynamic(%n: tensor<1xi64>) -> tensor<?xf32> {
  %0 = tcc.iota %n : (tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A static length needs no operand and no check.
// CHECK-LABEL: func.func @iota_static
//   CHECK-NOT:   cf.assert
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<6xi32>
//       CHECK:   linalg.generic {{.*}} outs(%[[E]] : tensor<6xi32>)
//       CHECK:     linalg.index 0
//       CHECK:     arith.trunci
func.func @iota_static() -> tensor<6xi32> {
  %0 = tcc.iota : () -> tensor<6xi32>
  return %0 : tensor<6xi32>
}
