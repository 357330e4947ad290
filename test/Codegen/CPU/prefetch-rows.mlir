// RUN: tcc-opt %s --tcc-prefetch-rows --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-prefetch-rows="distance=2 locality=3 busiest=false" --split-input-file | FileCheck %s --check-prefix=OPTS

// A row loop over tiles of 2 rows of 1024 f32 that reads each tile in two
// passes (a sum, then a scaled and shifted copy) and writes another
// buffer: the pass with more arithmetic per column (the second) prefetches
// the same columns of the next tile's rows, one per cache line, clamped to
// the last row; the result is not prefetched.
// CHECK-LABEL: func.func @tile_rows
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<512x1024xf32>
//       CHECK:   scf.parallel (%[[I:.+]]) =
//       CHECK:     %[[LAST:.+]] = arith.subi %{{.+}}, %{{.+}} : index
//       CHECK:     %[[NEXT:.+]] = arith.addi %[[I]], %{{.+}} : index
//       CHECK:     %[[R0:.+]] = arith.minsi %{{.+}}, %[[LAST]] : index
//       CHECK:     %[[R1:.+]] = arith.minsi %{{.+}}, %[[LAST]] : index
//       CHECK:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args
//   CHECK-NOT:       memref.prefetch
//       CHECK:       arith.addf
//       CHECK:     scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step
//       CHECK:       %[[C0:.+]] = arith.addi %[[J]], %{{.+}} : index
//       CHECK:       memref.prefetch %[[X]][%[[R0]], %[[C0]]], read, locality<2>, data
//       CHECK:       %[[C1:.+]] = arith.addi %[[J]], %{{.+}} : index
//       CHECK:       memref.prefetch %[[X]][%[[R0]], %[[C1]]], read, locality<2>, data
//       CHECK:       memref.prefetch %[[X]][%[[R1]], %{{.+}}], read, locality<2>, data
//       CHECK:       memref.prefetch %[[X]][%[[R1]], %{{.+}}], read, locality<2>, data
//   CHECK-NOT:       memref.prefetch
//       CHECK:       vector.transfer_read
//       CHECK:     scf.reduce
// Options: two tiles ahead, into L1, in the first pass reading the tile.
// OPTS-LABEL: func.func @tile_rows
//       OPTS:   scf.parallel (%[[I:.+]]) =
//       OPTS:     %[[TWO:.+]] = arith.constant 2 : index
//       OPTS:     arith.muli %{{.+}}, %[[TWO]] : index
//       OPTS:     scf.for
//       OPTS:       memref.prefetch %{{.+}}, read, locality<3>, data
//       OPTS:     scf.for
//   OPTS-NOT:       memref.prefetch
//       OPTS:     scf.reduce
func.func @tile_rows(%x: memref<512x1024xf32>, %y: memref<512x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<32xf32>
  scf.parallel (%i) = (%c0) to (%c512) step (%c2) {
    %tile = memref.subview %x[%i, 0] [2, 1024] [1, 1] : memref<512x1024xf32> to memref<2x1024xf32, strided<[1024, 1], offset: ?>>
    %out = memref.subview %y[%i, 0] [2, 1024] [1, 1] : memref<512x1024xf32> to memref<2x1024xf32, strided<[1024, 1], offset: ?>>
    %sum = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %chunk = memref.subview %tile[0, %j] [2, 32] [1, 1] : memref<2x1024xf32, strided<[1024, 1], offset: ?>> to memref<2x32xf32, strided<[1024, 1], offset: ?>>
      %v = vector.transfer_read %chunk[%c0, %c0], %pad {in_bounds = [true]} : memref<2x32xf32, strided<[1024, 1], offset: ?>>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    scf.for %j = %c0 to %c1024 step %c32 {
      %chunk = memref.subview %tile[0, %j] [2, 32] [1, 1] : memref<2x1024xf32, strided<[1024, 1], offset: ?>> to memref<2x32xf32, strided<[1024, 1], offset: ?>>
      %v = vector.transfer_read %chunk[%c0, %c0], %pad {in_bounds = [true]} : memref<2x32xf32, strided<[1024, 1], offset: ?>>, vector<32xf32>
      %s = arith.mulf %v, %sum : vector<32xf32>
      %t = arith.addf %s, %sum : vector<32xf32>
      %u = arith.mulf %t, %v : vector<32xf32>
      vector.transfer_write %u, %out[%c0, %j] {in_bounds = [true]} : vector<32xf32>, memref<2x1024xf32, strided<[1024, 1], offset: ?>>
    }
    scf.reduce
  }
  return
}

// -----

// The busiest pass need not read the tile: here the exp-like pass reads a
// scratch row the max pass filled and streams the result out. It runs
// over [0, 1024) like the tile's columns, so it carries the next row's
// lines (column j); a loop over other columns ([0, 512)) does not qualify.
// CHECK-LABEL: func.func @scratch_pass
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<512x1024xf32>
//       CHECK:   scf.parallel
//       CHECK:     %[[ROW:.+]] = arith.minsi
//       CHECK:     scf.for
//   CHECK-NOT:       memref.prefetch
//       CHECK:       vector.transfer_write
//       CHECK:     scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step
//       CHECK:       %[[COL:.+]] = arith.addi %[[J]], %{{.+}} : index
//       CHECK:       memref.prefetch %[[X]][%[[ROW]], %[[COL]]], read, locality<2>, data
//       CHECK:     scf.for
//   CHECK-NOT:       memref.prefetch
//       CHECK:     scf.reduce
// OPTS-LABEL: func.func @scratch_pass
//       OPTS:     scf.for
//       OPTS:       memref.prefetch
//       OPTS:     scf.for
//   OPTS-NOT:       memref.prefetch
//       OPTS:     scf.reduce
func.func @scratch_pass(%x: memref<512x1024xf32>, %y: memref<512x1024xf32>, %scratch: memref<1x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    %tile = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<512x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    scf.for %j = %c0 to %c1024 step %c16 {
      %v = vector.transfer_read %tile[%c0, %j], %pad {in_bounds = [true]} : memref<1x1024xf32, strided<[1024, 1], offset: ?>>, vector<16xf32>
      vector.transfer_write %v, %scratch[%c0, %j] {in_bounds = [true]} : vector<16xf32>, memref<1x1024xf32>
    }
    scf.for %j = %c0 to %c1024 step %c16 {
      %v = vector.transfer_read %scratch[%c0, %j], %pad {in_bounds = [true]} : memref<1x1024xf32>, vector<16xf32>
      %e = arith.mulf %v, %v : vector<16xf32>
      %f = arith.addf %e, %v : vector<16xf32>
      %g = arith.mulf %f, %e : vector<16xf32>
      vector.transfer_write %g, %y[%i, %j] {in_bounds = [true]} : vector<16xf32>, memref<512x1024xf32>
    }
    scf.for %j = %c0 to %c512 step %c16 {
      %v = vector.transfer_read %scratch[%c0, %j], %pad {in_bounds = [true]} : memref<1x1024xf32>, vector<16xf32>
      %e = arith.mulf %v, %v : vector<16xf32>
      %f = arith.addf %e, %v : vector<16xf32>
      %g = arith.mulf %f, %e : vector<16xf32>
      %h = arith.mulf %g, %e : vector<16xf32>
      vector.transfer_write %h, %y[%i, %j] {in_bounds = [true]} : vector<16xf32>, memref<512x1024xf32>
    }
    scf.reduce
  }
  return
}

// -----

// A tile of one row read without a column loop (scalar loads): its next
// row is prefetched at the top of the iteration, a line at a time.
// CHECK-LABEL: func.func @no_column_loop
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<512x1024xf32>
//       CHECK:   scf.parallel (%[[I:.+]]) =
//       CHECK:     %[[ROW:.+]] = arith.minsi
//       CHECK:     scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
//       CHECK:       memref.prefetch %[[X]][%[[ROW]], %[[J]]], read, locality<2>, data : memref<512x1024xf32>
//       CHECK:     memref.subview %[[X]][%[[I]], 0] [1, 1024] [1, 1]
func.func @no_column_loop(%x: memref<512x1024xf32>, %out: memref<512xf32>) {
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

// Not prefetched: short rows (under 1 KiB), a loop that is not a row loop
// (no tcc.parallel marker), rows the loop itself writes, and a dynamic
// number of columns.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   memref.prefetch
func.func @left_alone(%x: memref<512x128xf32>, %y: memref<512x1024xf32>, %z: memref<512x?xf32>, %n: index, %v: vector<16xf32>) {
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
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    %row = memref.subview %z[%i, 0] [1, %n] [1, 1] : memref<512x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    scf.reduce
  }
  return
}
