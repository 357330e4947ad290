// RUN: tcc-opt %s --convert-tcc-to-linalg --canonicalize --cse --split-input-file | FileCheck %s

// A dynamic row: P, the power of two >= n, from ctlz(n - 1); keys and
// positions from one generic (~0 past n); then the network, log2 P phases
// of 1..s steps, each step one parallel generic reading its partner
// (i xor 2^t) from a copy and writing the carried buffers; the first n
// positions are the indices, and the values are x read at them.
// CHECK-LABEL: func.func @dynamic_descending
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf32>
//       CHECK:   %[[N:.+]] = tensor.dim %[[X]], %c1
//       CHECK:   math.ctlz
//       CHECK:   %[[INIT:.+]]:2 = linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel"]
//       CHECK:     arith.cmpi ult, %{{.+}}, %[[N]] : index
//       CHECK:     tensor.extract %[[X]]
//       CHECK:     arith.bitcast %{{.+}} : f32 to i32
//       CHECK:     arith.xori %{{.+}}, %c-1_i64 : i64
//       CHECK:   %[[NET:.+]]:2 = scf.for %[[S:.+]] = %c1 to %{{.+}} step %c1 iter_args(%{{.+}} = %[[INIT]]#0, %{{.+}} = %[[INIT]]#1)
//       CHECK:     scf.for %{{.+}} = %c0 to %[[S]] step %c1 iter_args(%[[K:.+]] = %{{.+}}, %[[P:.+]] = %{{.+}})
//       CHECK:       %[[KC:.+]] = bufferization.alloc_tensor() copy(%[[K]])
//       CHECK:       %[[PC:.+]] = bufferization.alloc_tensor() copy(%[[P]])
//       CHECK:       linalg.generic
//  CHECK-SAME:         ins(%[[KC]], %[[PC]] : tensor<?x?xi64>, tensor<?x?xi64>) outs(%[[K]], %[[P]] : tensor<?x?xi64>, tensor<?x?xi64>)
//       CHECK:         %[[PARTNER:.+]] = arith.xori
//       CHECK:         tensor.extract %[[KC]][%{{.+}}, %[[PARTNER]]]
//       CHECK:         tensor.extract %[[PC]][%{{.+}}, %[[PARTNER]]]
//       CHECK:   %[[IDX:.+]] = tensor.extract_slice %[[NET]]#1[0, 0] [%{{.+}}, %[[N]]] [1, 1]
//       CHECK:   %[[VAL:.+]] = linalg.generic {{.*}} ins(%[[IDX]] : tensor<?x?xi64>)
//       CHECK:     tensor.extract %[[X]]
//       CHECK:   return %[[VAL]], %[[IDX]]
func.func @dynamic_descending(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>) {
  %v, %i = tcc.sort %x {axis = 1 : i64, descending = true} : (tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  return %v, %i : tensor<?x?xf32>, tensor<?x?xi64>
}

// -----

// A static axis of 4 needs no padding and no slice: two phases (1 to 3);
// integer keys are the sign-extended values with the sign bit flipped.
// CHECK-LABEL: func.func @static_integers
//   CHECK-NOT:   math.ctlz
//       CHECK:   linalg.generic
//       CHECK:     arith.extsi %{{.+}} : i32 to i64
//       CHECK:     arith.xori %{{.+}}, %c-9223372036854775808_i64
//       CHECK:   %[[NET:.+]]:2 = scf.for %{{.+}} = %c1 to %c3 step %c1
//   CHECK-NOT:   tensor.extract_slice
//       CHECK:   return %[[NET]]#1 : tensor<4x6xi64>
func.func @static_integers(%x: tensor<4x6xi32>) -> tensor<4x6xi64> {
  %v, %i = tcc.sort %x {axis = 0 : i64} : (tensor<4x6xi32>) -> (tensor<4x6xi32>, tensor<4x6xi64>)
  return %i : tensor<4x6xi64>
}
