// RUN: tcc-opt %s --tcc-pipeline-row-stores --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-pipeline-row-stores="chunk-rows=8" --split-input-file | FileCheck %s --check-prefix=CHUNK

// A softmax-like row loop (static rows): an exp pass writes the row's
// scratch and its sum; the last pass scales the scratch and streams it
// into the result. The last pass moves into the next row's exp pass: a
// parallel loop over chunks of rows, a serial row loop per chunk carrying
// the previous row's index, the scratch parity and 1 / sum; two scratch
// rows; the first row of a chunk runs the exp pass alone; the chunk's
// last row is scaled after the loop. In the fused loop the previous row's
// stores come after the current row's work.
// CHECK-LABEL: func.func @softmax_like
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<256x1024xf32>
//       CHECK:   %[[Y:.+]] = memref.alloc() {alignment = 64 : i64} : memref<256x1024xf32>
//       CHECK:   %[[PER:.+]] = arith.maxsi
//       CHECK:   %[[CSTEP:.+]] = arith.muli %{{.+}}, %[[PER]] : index
//       CHECK:   scf.parallel (%[[FIRST:.+]]) = (%{{.+}}) to (%{{.+}}) step (%[[CSTEP]]) {
//       CHECK:     %[[END:.+]] = arith.minsi
//       CHECK:     %[[A0:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
//       CHECK:     %[[A1:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
//       CHECK:     %[[POISON:.+]] = ub.poison : vector<32xf32>
//       CHECK:     %[[LOOP:.+]]:3 = scf.for %[[R:.+]] = %[[FIRST]] to %[[END]] step %{{.+}} iter_args(%[[PREV:.+]] = %[[FIRST]], %[[P:.+]] = %false, %[[INV:.+]] = %[[POISON]])
//       CHECK:       %[[CUR:.+]] = arith.select %[[P]], %[[A1]], %[[A0]]
//       CHECK:       %[[OLD:.+]] = arith.select %[[P]], %[[A0]], %[[A1]]
//       CHECK:       %[[HAS:.+]] = arith.cmpi ne, %[[R]], %[[FIRST]] : index
//       CHECK:       %[[SUM:.+]] = scf.if %[[HAS]] -> (vector<32xf32>) {
//       CHECK:         scf.for %[[J:[a-z0-9_]+]] = {{.+}} iter_args
//       CHECK:           vector.load %[[X]][%[[R]], %[[J]]]
//       CHECK:           math.exp
//       CHECK:           vector.store %{{.+}}, %[[CUR]][%[[J]]]
//       CHECK:           %[[E:.+]] = vector.load %[[OLD]][%[[J]]]
//       CHECK:           %[[S:.+]] = arith.mulf %[[E]], %[[INV]]
//       CHECK:           vector.store %[[S]], %[[Y]][%[[PREV]], %[[J]]] {nontemporal = true}
//       CHECK:           scf.yield
//       CHECK:       } else {
//       CHECK:         scf.for
//   CHECK-NOT:           nontemporal
//       CHECK:           math.exp
//       CHECK:       }
//       CHECK:       %[[NEWINV:.+]] = arith.divf %{{.+}}, %[[SUM]]
//       CHECK:       %[[FLIP:.+]] = arith.xori %[[P]], %true
//       CHECK:       scf.yield %[[R]], %[[FLIP]], %[[NEWINV]]
//       CHECK:     %[[LASTBUF:.+]] = arith.select %[[LOOP]]#1, %[[A0]], %[[A1]]
//       CHECK:     scf.for %[[J2:[a-z0-9_]+]] =
//       CHECK:       vector.load %[[LASTBUF]][%[[J2]]]
//       CHECK:       arith.mulf %{{.+}}, %[[LOOP]]#2
//       CHECK:       vector.store %{{.+}}, %[[Y]][%[[LOOP]]#0, %[[J2]]] {nontemporal = true}
//       CHECK:     scf.reduce
//   CHECK-NOT:   scf.parallel
//       CHECK:   return %[[Y]]
// CHUNK-LABEL: func.func @softmax_like
//       CHUNK:   %[[EIGHT:.+]] = arith.constant 8 : index
//       CHUNK:   arith.minsi %[[EIGHT]], %{{.+}} : index
func.func @softmax_like(%x: memref<256x1024xf32>) -> memref<256x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %one = arith.constant dense<1.0> : vector<32xf32>
  %y = memref.alloc() {alignment = 64 : i64} : memref<256x1024xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %scratch = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
    %sum = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %e = math.exp %v : vector<32xf32>
      vector.store %e, %scratch[%j] : memref<1024xf32>, vector<32xf32>
      %a = arith.addf %acc, %e : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    %inv = arith.divf %one, %sum : vector<32xf32>
    scf.for %j = %c0 to %c1024 step %c32 {
      %e = vector.load %scratch[%j] : memref<1024xf32>, vector<32xf32>
      %s = arith.mulf %e, %inv : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<256x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<256x1024xf32>
}

// -----

// A layer_norm-like loop with dynamic rows: the last pass reads the input
// row again (a view of the row, computed for the previous row) and carries
// the next row's prefetches, which keep pointing one row past the current
// one; its scalars (mean, 1 / std) are carried.
// CHECK-LABEL: func.func @norm_like
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<?x1024xf32>
//       CHECK:   scf.parallel (%[[FIRST:.+]]) =
//       CHECK:     scf.for %[[R:.+]] = %[[FIRST]] to %{{.+}} step %{{.+}} iter_args(%[[PREV:.+]] = %[[FIRST]], %{{.+}} = %false, %[[MEAN:.+]] = %{{.+}}, %[[RSTD:.+]] = %{{.+}})
//       CHECK:       %[[NEXT:.+]] = arith.addi %[[R]], %{{.+}} : index
//       CHECK:       %[[AHEAD:.+]] = arith.minsi %[[NEXT]]
//       CHECK:       %[[PVIEW:.+]] = memref.subview %[[X]][%[[PREV]], 0] [1, 1024]
//       CHECK:       scf.if
//       CHECK:         scf.for %[[J:[a-z0-9_]+]] =
//       CHECK:           memref.prefetch %[[X]][%[[AHEAD]], %[[J]]]
//       CHECK:           vector.load %[[PVIEW]][%c0, %[[J]]]
//       CHECK:           arith.subf %{{.+}}, %[[MEAN]]
//       CHECK:           arith.mulf %{{.+}}, %[[RSTD]]
//       CHECK:           vector.store {{.+}}[%[[PREV]], %[[J]]] {nontemporal = true}
func.func @norm_like(%x: memref<?x1024xf32>) -> memref<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %n = memref.dim %x, %c0 : memref<?x1024xf32>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x1024xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<?x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %lastRow = arith.subi %n, %c1 : index
    %next = arith.addi %i, %c1 : index
    %ahead = arith.minsi %next, %lastRow : index
    %sum = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %row[%c0, %j] : memref<1x1024xf32, strided<[1024, 1], offset: ?>>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    %sq = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %row[%c0, %j] : memref<1x1024xf32, strided<[1024, 1], offset: ?>>, vector<32xf32>
      %d = arith.subf %v, %sum : vector<32xf32>
      %m = arith.mulf %d, %d : vector<32xf32>
      %a = arith.addf %acc, %m : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    %rstd = math.rsqrt %sq : vector<32xf32>
    scf.for %j = %c0 to %c1024 step %c32 {
      memref.prefetch %x[%ahead, %j], read, locality<2>, data : memref<?x1024xf32>
      %v = vector.load %row[%c0, %j] : memref<1x1024xf32, strided<[1024, 1], offset: ?>>, vector<32xf32>
      %d = arith.subf %v, %sum : vector<32xf32>
      %s = arith.mulf %d, %rstd : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<?x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<?x1024xf32>
}

// -----

// Negative: ordinary stores (a result small enough to stay in cache).
// CHECK-LABEL: func.func @cached_result
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c1)
//   CHECK-NOT:   scf.if
func.func @cached_result(%x: memref<256x1024xf32>) -> memref<256x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %y = memref.alloc() {alignment = 64 : i64} : memref<256x1024xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %sum = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    scf.for %j = %c0 to %c1024 step %c32 {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %s = arith.mulf %v, %sum : vector<32xf32>
      vector.store %s, %y[%i, %j] : memref<256x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<256x1024xf32>
}

// -----

// Negative: the result is read by an earlier pass of the loop (moving its
// stores later would change what that pass reads), and one written into
// a function argument (it may alias the input).
// CHECK-LABEL: func.func @result_read_early
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c1)
//   CHECK-NOT:   scf.if
// CHECK-LABEL: func.func @into_argument
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c1)
//   CHECK-NOT:   scf.if
func.func @result_read_early(%x: memref<256x1024xf32>) -> memref<256x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %y = memref.alloc() {alignment = 64 : i64} : memref<256x1024xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %sum = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %y[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    scf.for %j = %c0 to %c1024 step %c32 {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %s = arith.mulf %v, %sum : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<256x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<256x1024xf32>
}
func.func @into_argument(%x: memref<256x1024xf32>, %y: memref<256x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %sum = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    scf.for %j = %c0 to %c1024 step %c32 {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %s = arith.mulf %v, %sum : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<256x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Negative: no other pass over the same columns (the first pass steps by
// 64, the store pass by 32), and a scratch row whose size is computed in
// the loop (it could not be hoisted out of the serial row loop).
// CHECK-LABEL: func.func @other_columns
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c1)
//   CHECK-NOT:   scf.if
// CHECK-LABEL: func.func @scratch_sized_in_loop
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c1)
//   CHECK-NOT:   scf.if
func.func @other_columns(%x: memref<256x1024xf32>) -> memref<256x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %y = memref.alloc() {alignment = 64 : i64} : memref<256x1024xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %sum = scf.for %j = %c0 to %c1024 step %c64 iter_args(%acc = %zero) -> (vector<64xf32>) {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<64xf32>
      %a = arith.addf %acc, %v : vector<64xf32>
      scf.yield %a : vector<64xf32>
    }
    %s0 = vector.extract_strided_slice %sum {offsets = [0], sizes = [32], strides = [1]} : vector<64xf32> to vector<32xf32>
    scf.for %j = %c0 to %c1024 step %c32 {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %s = arith.mulf %v, %s0 : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<256x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<256x1024xf32>
}
func.func @scratch_sized_in_loop(%x: memref<256x?xf32>) -> memref<256x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %n = memref.dim %x, %c1 : memref<256x?xf32>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<256x?xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %cols = memref.dim %x, %c1 : memref<256x?xf32>
    %scratch = memref.alloca(%cols) {alignment = 64 : i64} : memref<?xf32>
    %sum = scf.for %j = %c0 to %n step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %x[%i, %j] : memref<256x?xf32>, vector<32xf32>
      vector.store %v, %scratch[%j] : memref<?xf32>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    scf.for %j = %c0 to %n step %c32 {
      %v = vector.load %scratch[%j] : memref<?xf32>, vector<32xf32>
      %s = arith.mulf %v, %sum : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<256x?xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<256x?xf32>
}

// -----

// A host pass without results (it only fills the scratch), rows from 2 to
// 514 by 2, two scratch rows, and a host result-free last pass reading both:
// each scratch is double-buffered; the scf.if has no results.
// CHECK-LABEL: func.func @two_scratch_rows
//       CHECK:   scf.parallel (%[[FIRST:.+]]) = (%c2) to (%c514) step
//   CHECK-COUNT-4:     memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
//       CHECK:     scf.for %[[R:[a-z0-9_]+]] = %[[FIRST]] to %{{.+}} step %c2 iter_args(%{{.+}} = %[[FIRST]], %{{.+}} = %false) -> (index, i1)
//       CHECK:       scf.if %{{.+}} {
//       CHECK:         scf.for
//       CHECK:           math.exp
//       CHECK:           vector.store {{.+}} {nontemporal = true}
//       CHECK:       } else {
//       CHECK:         scf.for
//       CHECK:       }
//   CHECK-NOT:       scf.yield %{{.+}} : vector
//       CHECK:       scf.yield %[[R]], %{{.+}} : index, i1
func.func @two_scratch_rows(%x: memref<520x1024xf32>) -> memref<520x1024xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c514 = arith.constant 514 : index
  %c1024 = arith.constant 1024 : index
  %y = memref.alloc() {alignment = 64 : i64} : memref<520x1024xf32>
  scf.parallel (%i) = (%c2) to (%c514) step (%c2) {
    %a = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
    %b = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
    scf.for %j = %c0 to %c1024 step %c32 {
      %v = vector.load %x[%i, %j] : memref<520x1024xf32>, vector<32xf32>
      %e = math.exp %v : vector<32xf32>
      vector.store %e, %a[%j] : memref<1024xf32>, vector<32xf32>
      vector.store %v, %b[%j] : memref<1024xf32>, vector<32xf32>
    }
    scf.for %j = %c0 to %c1024 step %c32 {
      %e = vector.load %a[%j] : memref<1024xf32>, vector<32xf32>
      %v = vector.load %b[%j] : memref<1024xf32>, vector<32xf32>
      %s = arith.mulf %e, %v : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<520x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<520x1024xf32>
}

// -----

// Negative: column bounds computed in the row (ragged rows: the previous
// row's pass would get this row's columns); a stack buffer inside the last
// pass; too few rows for two chunks per thread.
// CHECK-LABEL: func.func @ragged_rows
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c1)
//   CHECK-NOT:   scf.if
// CHECK-LABEL: func.func @alloca_in_last_pass
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c1)
//   CHECK-NOT:   scf.if
// CHECK-LABEL: func.func @few_rows
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c1)
//   CHECK-NOT:   scf.if
func.func @ragged_rows(%x: memref<256x1024xf32>, %len: memref<256xindex>) -> memref<256x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %y = memref.alloc() {alignment = 64 : i64} : memref<256x1024xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %n = memref.load %len[%i] : memref<256xindex>
    %sum = scf.for %j = %c0 to %n step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    scf.for %j = %c0 to %n step %c32 {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %s = arith.mulf %v, %sum : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<256x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<256x1024xf32>
}
func.func @alloca_in_last_pass(%x: memref<256x1024xf32>) -> memref<256x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %y = memref.alloc() {alignment = 64 : i64} : memref<256x1024xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %sum = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    scf.for %j = %c0 to %c1024 step %c32 {
      %t = memref.alloca() : memref<32xf32>
      %v = vector.load %x[%i, %j] : memref<256x1024xf32>, vector<32xf32>
      vector.store %v, %t[%c0] : memref<32xf32>, vector<32xf32>
      %w = vector.load %t[%c0] : memref<32xf32>, vector<32xf32>
      %s = arith.mulf %w, %sum : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<256x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<256x1024xf32>
}
func.func @few_rows(%x: memref<100x1024xf32>) -> memref<100x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %y = memref.alloc() {alignment = 64 : i64} : memref<100x1024xf32>
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %sum = scf.for %j = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %x[%i, %j] : memref<100x1024xf32>, vector<32xf32>
      %a = arith.addf %acc, %v : vector<32xf32>
      scf.yield %a : vector<32xf32>
    }
    scf.for %j = %c0 to %c1024 step %c32 {
      %v = vector.load %x[%i, %j] : memref<100x1024xf32>, vector<32xf32>
      %s = arith.mulf %v, %sum : vector<32xf32>
      vector.store %s, %y[%i, %j] {nontemporal = true} : memref<100x1024xf32>, vector<32xf32>
    }
    scf.reduce
  }
  return %y : memref<100x1024xf32>
}
