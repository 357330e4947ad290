// RUN: tcc-opt %s --convert-tcc-to-linalg --canonicalize --cse --split-input-file | FileCheck %s

// A dynamic row of f32: at most 2^32 elements (asserted), so each key
// shares one i64 word with its position (key << 32 | position). P, the
// power of two >= n, comes from ctlz(n - 1); keys from one generic (all
// ones past n); then the network, log2 P phases of 1..s steps, each step
// one parallel generic reading its partner (i xor 2^t) from a copy,
// keeping the smaller or larger word (one unsigned compare), writing the
// carried buffer; the first n words give the indices (low 32 bits) and
// the values (x read at them).
// CHECK-LABEL: func.func @dynamic_descending
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf32>
//       CHECK:   %[[N:.+]] = tensor.dim %[[X]], %c1
//       CHECK:   cf.assert %{{.+}}, "tcc.sort: more than 2^32 elements along the axis"
//       CHECK:   math.ctlz
//       CHECK:   %[[INIT:.+]] = linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel"]
//       CHECK:     arith.cmpi ult, %{{.+}}, %[[N]] : index
//       CHECK:     tensor.extract %[[X]]
//       CHECK:     arith.bitcast %{{.+}} : f32 to i32
//       CHECK:     arith.xori %{{.+}}, %c-1_i32 : i32
//       CHECK:     arith.shli %{{.+}}, %c32_i64 : i64
//       CHECK:   %[[NET:.+]] = scf.for %[[S:.+]] = %c1 to %{{.+}} step %c1 iter_args(%{{.+}} = %[[INIT]])
//       CHECK:     scf.for %{{.+}} = %c0 to %[[S]] step %c1 iter_args(%[[W:.+]] = %{{.+}})
//       CHECK:       %[[WC:.+]] = bufferization.alloc_tensor() copy(%[[W]])
//       CHECK:       linalg.generic
//  CHECK-SAME:         ins(%[[WC]] : tensor<?x?xi64>) outs(%[[W]] : tensor<?x?xi64>)
//       CHECK:         %[[PARTNER:.+]] = arith.xori
//       CHECK:         %[[THEIRS:.+]] = tensor.extract %[[WC]][%{{.+}}, %[[PARTNER]]]
//       CHECK:         arith.cmpi ult, %[[THEIRS]], %{{.+}} : i64
//       CHECK:   %[[ORDER:.+]] = tensor.extract_slice %[[NET]][0, 0] [%{{.+}}, %[[N]]] [1, 1]
//       CHECK:   %[[OUT:.+]]:2 = linalg.generic {{.*}} ins(%[[ORDER]] : tensor<?x?xi64>)
//       CHECK:     arith.andi %{{.+}}, %c4294967295_i64
//       CHECK:     tensor.extract %[[X]]
//       CHECK:   return %[[OUT]]#0, %[[OUT]]#1
func.func @dynamic_descending(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>) {
  %v, %i = tcc.sort %x {axis = 1 : i64, descending = true} : (tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  return %v, %i : tensor<?x?xf32>, tensor<?x?xi64>
}

// -----

// A static axis of 4 needs no padding, no size check and no slice: two
// phases (1 to 3); i32 keys are the values with the sign bit flipped.
// CHECK-LABEL: func.func @static_integers
//   CHECK-NOT:   cf.assert
//   CHECK-NOT:   math.ctlz
//       CHECK:   linalg.generic
//       CHECK:     arith.xori %{{.+}}, %c-2147483648_i32 : i32
//       CHECK:   %[[NET:.+]] = scf.for %{{.+}} = %c1 to %c3 step %c1
//   CHECK-NOT:   tensor.extract_slice
//       CHECK:   %[[OUT:.+]]:2 = linalg.generic {{.*}} ins(%[[NET]] : tensor<4x6xi64>)
//       CHECK:   return %[[OUT]]#1 : tensor<4x6xi64>
func.func @static_integers(%x: tensor<4x6xi32>) -> tensor<4x6xi64> {
  %v, %i = tcc.sort %x {axis = 0 : i64} : (tensor<4x6xi32>) -> (tensor<4x6xi32>, tensor<4x6xi64>)
  return %i : tensor<4x6xi64>
}

// -----

// 64-bit keys (f64) keep a word of their own next to the position: two
// carried buffers, two copies per step, and (key, position) compared in
// order.
// CHECK-LABEL: func.func @wide_keys
//   CHECK-NOT:   cf.assert
//       CHECK:   arith.bitcast %{{.+}} : f64 to i64
//       CHECK:   scf.for
//       CHECK:     scf.for %{{.+}} iter_args(%[[K:.+]] = %{{.+}}, %[[P:.+]] = %{{.+}}) -> (tensor<?xi64>, tensor<?xi64>)
//       CHECK:       %[[KC:.+]] = bufferization.alloc_tensor() copy(%[[K]])
//       CHECK:       %[[PC:.+]] = bufferization.alloc_tensor() copy(%[[P]])
//       CHECK:       linalg.generic
//  CHECK-SAME:         ins(%[[KC]], %[[PC]] : tensor<?xi64>, tensor<?xi64>) outs(%[[K]], %[[P]] : tensor<?xi64>, tensor<?xi64>)
//       CHECK:         arith.cmpi slt
func.func @wide_keys(%x: tensor<?xf64>) -> tensor<?xi64> {
  %v, %i = tcc.sort %x : (tensor<?xf64>) -> (tensor<?xf64>, tensor<?xi64>)
  return %i : tensor<?xi64>
}

// -----

// tcc.topk with k = 2: a check that k fits the dynamic dim, then two
// selection passes, each a reduction over the axis of the packed words
// built from x (the second keeps only words above the first's result),
// inserted at their position of the [?, 2] words; then the values and
// indices from the words' low halves.
// CHECK-LABEL: func.func @topk_selection
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4x?xf32>
//       CHECK:   cf.assert %{{.+}}, "tcc.topk: k = 2 exceeds the dim along the axis"
//       CHECK:   %[[FIRST:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[X]] : tensor<4x?xf32>)
//       CHECK:     arith.shli %{{.+}}, %c32_i64
//       CHECK:     arith.minui
//       CHECK:   tensor.insert_slice %[[FIRST]] into %{{.+}}[0, 0] [4, 1] [1, 1]
//       CHECK:   %[[SECOND:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[X]], %[[FIRST]] : tensor<4x?xf32>, tensor<4xi64>)
//       CHECK:     arith.cmpi ugt
//       CHECK:     arith.minui
//       CHECK:   %[[WORDS:.+]] = tensor.insert_slice %[[SECOND]] into %{{.+}}[0, 1] [4, 1] [1, 1]
//       CHECK:   %[[OUT:.+]]:2 = linalg.generic {{.*}} ins(%[[WORDS]] : tensor<4x2xi64>)
//       CHECK:     arith.andi %{{.+}}, %c4294967295_i64
//       CHECK:   return %[[OUT]]#0, %[[OUT]]#1
func.func @topk_selection(%x: tensor<4x?xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>) {
  %v, %i = tcc.topk %x {k = 2 : i64} : (tensor<4x?xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi64>
}

// -----

// A k above the selection limit (17) is the first k of the sort's network.
// CHECK-LABEL: func.func @topk_by_sort
//       CHECK:   scf.for
//       CHECK:   tensor.extract_slice %{{.+}}[0, 0] [4, 17] [1, 1]
func.func @topk_by_sort(%x: tensor<4x100xf32>) -> tensor<4x17xi64> {
  %v, %i = tcc.topk %x {k = 17 : i64} : (tensor<4x100xf32>) -> (tensor<4x17xf32>, tensor<4x17xi64>)
  return %i : tensor<4x17xi64>
}
