// RUN: tcc-opt %s --tcc-lower-vectors=avx512=off --split-input-file | FileCheck %s

// A small static copy with short rows: one vector read and write.
// CHECK-LABEL: func.func @small_copy
//   CHECK-NOT:   memref.copy
//       CHECK:   %[[V:.+]] = vector.transfer_read {{.*}} : memref<4x64xf32>, vector<4x64xf32>
//       CHECK:   vector.transfer_write %[[V]], {{.*}} : vector<4x64xf32>, memref<4x64xf32>
//   CHECK-NOT:   scf.for
func.func @small_copy(%a: memref<4x64xf32>, %b: memref<4x64xf32>) {
  memref.copy %a, %b : memref<4x64xf32> to memref<4x64xf32>
  return
}

// -----

// A long row (an edge row of a 2048-wide tile) moves in 256-lane chunks in
// a loop, not as one vector<2048> (128 zmm loads and stores in a row).
// CHECK-LABEL: func.func @long_row_copy
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C256:.+]] = arith.constant 256 : index
//   CHECK-DAG:   %[[C2048:.+]] = arith.constant 2048 : index
//       CHECK:   scf.for %{{.+}} = %[[C0]] to %[[C2048]] step %[[C256]]
//       CHECK:     vector.transfer_read {{.*}} vector<256xf32>
//       CHECK:     vector.transfer_write {{.*}} vector<256xf32>
//   CHECK-NOT:   vector<2048xf32>
//   CHECK-NOT:   memref.copy
func.func @long_row_copy(%a: memref<1x2048xf32, strided<[2048, 1], offset: 131072>>, %b: memref<1x2048xf32>) {
  memref.copy %a, %b : memref<1x2048xf32, strided<[2048, 1], offset: 131072>> to memref<1x2048xf32>
  return
}

// -----

// Rows of 1030 from a padded buffer: four 256-lane chunks, then the last
// 6 lanes, per row.
// CHECK-LABEL: func.func @ragged_rows_copy
//   CHECK-DAG:   %[[C1024:.+]] = arith.constant 1024 : index
//   CHECK-DAG:   %[[C256:.+]] = arith.constant 256 : index
//       CHECK:   scf.for %[[R:.+]] =
//       CHECK:     scf.for %{{.+}} = %{{.+}} to %[[C1024]] step %[[C256]]
//       CHECK:       vector.transfer_read {{.*}} vector<256xf32>
//       CHECK:     vector.transfer_read %{{.+}}[%[[R]], %[[C1024]]]{{.*}} vector<6xf32>
//       CHECK:     vector.transfer_write {{.*}} vector<6xf32>
//   CHECK-NOT:   vector<1030xf32>
func.func @ragged_rows_copy(%a: memref<33x1030xf32, strided<[1040, 1]>>, %b: memref<33x1030xf32>) {
  memref.copy %a, %b : memref<33x1030xf32, strided<[1040, 1]>> to memref<33x1030xf32>
  return
}

// -----

// Dynamic rows of 200 lanes: a loop over rows, one vector per row.
// CHECK-LABEL: func.func @dynamic_rows_copy
//       CHECK:   scf.for
//       CHECK:     vector.transfer_read {{.*}} vector<200xf32>
//   CHECK-NOT:   scf.for
func.func @dynamic_rows_copy(%a: memref<?x200xf32>, %b: memref<?x200xf32>) {
  memref.copy %a, %b : memref<?x200xf32> to memref<?x200xf32>
  return
}

// -----

// A dynamic innermost dim is left to the runtime's copy.
// CHECK-LABEL: func.func @dynamic_columns_copy
//       CHECK:   memref.copy
func.func @dynamic_columns_copy(%a: memref<4x?xf32>, %b: memref<4x?xf32>) {
  memref.copy %a, %b : memref<4x?xf32> to memref<4x?xf32>
  return
}

// -----

// A column of a concatenation (400 rows of one lane, into a strided
// view): a loop over the rows, not 400 unrolled one-lane transfers.
// CHECK-LABEL: func.func @column_copy
//       CHECK:   scf.for
//       CHECK:     vector.transfer_read {{.*}} vector<1xf32>
//       CHECK:     vector.transfer_write {{.*}} vector<1xf32>
//   CHECK-NOT:   vector<400x1xf32>
func.func @column_copy(%a: memref<400x1xf32>, %b: memref<400x1xf32, strided<[12, 1], offset: 2>>) {
  memref.copy %a, %b : memref<400x1xf32> to memref<400x1xf32, strided<[12, 1], offset: 2>>
  return
}

// -----

// Many short rows between dense buffers: one flat row of 400 lanes in
// 256-lane chunks, then the last 144.
// CHECK-LABEL: func.func @dense_short_rows_copy
//       CHECK:   memref.collapse_shape {{.*}} into memref<400xf32>
//       CHECK:   memref.collapse_shape {{.*}} into memref<400xf32>
//       CHECK:   vector.transfer_read {{.*}} vector<256xf32>
//       CHECK:   vector.transfer_read {{.*}} vector<144xf32>
//   CHECK-NOT:   vector<100x4xf32>
func.func @dense_short_rows_copy(%a: memref<100x4xf32>, %b: memref<100x4xf32>) {
  memref.copy %a, %b : memref<100x4xf32> to memref<100x4xf32>
  return
}
