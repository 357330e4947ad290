// RUN: tcc-opt %s --tcc-lower-vectors --split-input-file | FileCheck %s

// A per-row value used across its row (a row's max in softmax, read by the
// vectorizer as a broadcast to [cols, rows] and a transpose) becomes a
// broadcast down the rows: one splat per row, no transpose. Lowered as a
// transpose, the [64, 100] block was shuffles over a flattened
// vector<6400xf32> (masks 6400 entries long).
// CHECK-LABEL: func.func @row_value_across_row
//  CHECK-SAME:   %[[M:[a-zA-Z0-9_]+]]: vector<64xf32>
//   CHECK-NOT:   vector.transpose
//   CHECK-NOT:   vector.shuffle
//   CHECK-NOT:   vector<6400xf32>
//       CHECK:   %[[E0:.+]] = vector.extract %[[M]][0] : f32 from vector<64xf32>
//       CHECK:   %[[R0:.+]] = vector.broadcast %[[E0]] : f32 to vector<100xf32>
//       CHECK:   vector.insert %[[R0]], %{{.+}} [0] : vector<100xf32> into vector<64x100xf32>
//       CHECK:   %[[E63:.+]] = vector.extract %[[M]][63] : f32 from vector<64xf32>
//       CHECK:   %[[R63:.+]] = vector.broadcast %[[E63]] : f32 to vector<100xf32>
//       CHECK:   vector.insert %[[R63]], %{{.+}} [63] : vector<100xf32> into vector<64x100xf32>
//   CHECK-NOT:   vector.transpose
//       CHECK:   return
func.func @row_value_across_row(%m: vector<64xf32>) -> vector<64x100xf32> {
  %b = vector.broadcast %m : vector<64xf32> to vector<100x64xf32>
  %t = vector.transpose %b, [1, 0] : vector<100x64xf32> to vector<64x100xf32>
  return %t : vector<64x100xf32>
}

// -----

// The same from a [1, 64] source.
// CHECK-LABEL: func.func @row_value_from_2d
//   CHECK-NOT:   vector.transpose
//   CHECK-NOT:   vector.shuffle
//       CHECK:   return
func.func @row_value_from_2d(%m: vector<1x64xf32>) -> vector<64x100xf32> {
  %b = vector.broadcast %m : vector<1x64xf32> to vector<100x64xf32>
  %t = vector.transpose %b, [1, 0] : vector<100x64xf32> to vector<64x100xf32>
  return %t : vector<64x100xf32>
}

// -----

// A transpose of data (not of a broadcast) is left to the transpose
// lowering (16x16 shuffles).
// CHECK-LABEL: func.func @data_transpose
//       CHECK:   vector.shuffle
//       CHECK:   return
func.func @data_transpose(%x: vector<16x16xf32>) -> vector<16x16xf32> {
  %t = vector.transpose %x, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  return %t : vector<16x16xf32>
}

// -----

// A broadcast that also stretches the transposed dim ([1] to [100, 64])
// is not a per-row value: left alone (here the transpose of a splat,
// which folds).
// CHECK-LABEL: func.func @stretched_source
//   CHECK-NOT:   vector.transpose
//       CHECK:   return
func.func @stretched_source(%m: vector<1xf32>) -> vector<64x100xf32> {
  %b = vector.broadcast %m : vector<1xf32> to vector<100x64xf32>
  %t = vector.transpose %b, [1, 0] : vector<100x64xf32> to vector<64x100xf32>
  return %t : vector<64x100xf32>
}
