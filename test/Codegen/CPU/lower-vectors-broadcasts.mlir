// RUN: tcc-opt %s --tcc-lower-vectors=avx512=off --split-input-file | FileCheck %s

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

// -----

// A transfer_read that broadcasts its innermost dim (a row's mean read
// across a row of a dynamic [?, 1030] tile): one element per row and a
// broadcast, not a scalar load and insert per lane.
// CHECK-LABEL: func.func @row_value_read
//  CHECK-SAME:   %[[M:[a-zA-Z0-9_]+]]: memref<1x1xf32
//       CHECK:   %[[V:.+]] = vector.transfer_read %[[M]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true, true]} : memref<1x1xf32, strided<[1, 1], offset: ?>>, vector<1x1xf32>
//   CHECK-NOT:   permutation_map
//       CHECK:   %[[E:.+]] = vector.extract %[[V]][0, 0]
//       CHECK:   vector.broadcast %[[E]] : f32 to vector<1030xf32>
//   CHECK-NOT:   vector.transfer_read
//       CHECK:   return
func.func @row_value_read(%m: memref<1x1xf32, strided<[1, 1], offset: ?>>) -> vector<1x1030xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %r = vector.transfer_read %m[%c0, %c0], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<1x1xf32, strided<[1, 1], offset: ?>>, vector<1x1030xf32>
  return %r : vector<1x1030xf32>
}

// -----

// A broadcast of the leading dim is not a per-row value: left to MLIR's
// permutation-map lowering.
// CHECK-LABEL: func.func @column_value_read
//   CHECK-NOT:   vector<1x1xf32>
//       CHECK:   return
func.func @column_value_read(%m: memref<1x8xf32>) -> vector<4x8xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %r = vector.transfer_read %m[%c0, %c0], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<1x8xf32>, vector<4x8xf32>
  return %r : vector<4x8xf32>
}
