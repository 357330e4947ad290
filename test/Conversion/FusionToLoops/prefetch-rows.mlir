// RUN: tcc-opt %s --tcc-prefetch-rows --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-prefetch-rows=distance=1 --split-input-file | FileCheck %s --check-prefix=ONE

// A row loop (one scf.parallel row per iteration) reading whole rows of its
// input: the row two iterations ahead is prefetched, one cache line (16
// f32) at a time, when it exists.
// CHECK-LABEL: func.func @row_loop
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<512x1024xf32>
//       CHECK:   scf.parallel (%[[I:.+]]) =
//       CHECK:     %[[AHEAD:.+]] = arith.muli %{{.+}}, %[[TWO:.+]] : index
//       CHECK:     %[[NEXT:.+]] = arith.addi %[[I]], %[[AHEAD]] : index
//       CHECK:     %[[IN:.+]] = arith.cmpi slt, %[[NEXT]], %{{.+}} : index
//       CHECK:     scf.if %[[IN]] {
//       CHECK:       scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %[[LINE:.+]] {
//       CHECK:         memref.prefetch %[[X]][%[[NEXT]], %[[J]]], read, locality<3>, data : memref<512x1024xf32>
//       CHECK:     memref.subview %[[X]][%[[I]], 0] [1, 1024] [1, 1]
// ONE-LABEL: func.func @row_loop
//       ONE:     arith.constant 1 : index
//       ONE:     memref.prefetch
func.func @row_loop(%x: memref<512x1024xf32>, %out: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    %row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<512x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %v = memref.load %row[%c0, %c0] : memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    memref.store %v, %out[%i] : memref<512xf32>
    scf.reduce
  }
  return
}

// -----

// Not prefetched: short rows (fewer than 256 elements), a loop that is not a row loop (no tcc.parallel
// marker), and a row loop that writes with streaming stores.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   memref.prefetch
func.func @left_alone(%x: memref<512x128xf32>, %y: memref<512x1024xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    %row = memref.subview %x[%i, 0] [1, 128] [1, 1] : memref<512x128xf32> to memref<1x128xf32, strided<[128, 1], offset: ?>>
    scf.reduce
  }
  scf.for %i = %c0 to %c512 step %c1 {
    %row = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<512x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
  }
  scf.for %i = %c0 to %c512 step %c1 {
    %row = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<512x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    vector.store %v, %y[%i, %c0] {nontemporal = true} : memref<512x1024xf32>, vector<16xf32>
  } {tcc.parallel}
  return
}
