// RUN: tcc-opt %s --tcc-place-scratch-buffers --canonicalize --split-input-file | FileCheck %s

// Function-level temporaries placed in an arena of their own share bytes
// only where their live spans do not meet, and a span runs to the last use
// of any memref that may alias the buffer, not only of its views. (A conv
// output written through a memref.transpose of its buffer, with no plan,
// shared the bytes of the next conv's output: the detector's wrong boxes.)

// Disjoint spans: both 1 MiB buffers at offset 0 of a 1 MiB arena.
// CHECK-LABEL: func.func @disjoint
//       CHECK:   %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<1048576xi8>
//       CHECK:   memref.view %[[ARENA]][%[[C0:.+]]][] : memref<1048576xi8> to memref<512x512xf32>
//       CHECK:   memref.view %[[ARENA]][%[[C0]]][] : memref<1048576xi8> to memref<512x512xf32>
func.func @disjoint(%out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %w1 = memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
  %v1 = memref.load %w1[%c0, %c0] : memref<512x512xf32>
  memref.store %v1, %out[] : memref<f32>
  %w2 = memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
  %v2 = memref.load %w2[%c0, %c0] : memref<512x512xf32>
  memref.store %v2, %out[] : memref<f32>
  memref.dealloc %w1 : memref<512x512xf32>
  memref.dealloc %w2 : memref<512x512xf32>
  return
}

// -----

// The first buffer is read through a transpose after the second is
// allocated: two slices.
// CHECK-LABEL: func.func @through_transpose
//       CHECK:   memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<2097152xi8>
func.func @through_transpose(%out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %w1 = memref.alloc() : memref<512x512xf32>
  %t = memref.transpose %w1 (d0, d1) -> (d1, d0) : memref<512x512xf32> to memref<512x512xf32, strided<[1, 512]>>
  %w2 = memref.alloc() : memref<512x512xf32>
  memref.store %f, %w2[%c0, %c0] : memref<512x512xf32>
  %v = memref.load %t[%c0, %c1] : memref<512x512xf32, strided<[1, 512]>>
  memref.store %v, %out[] : memref<f32>
  memref.dealloc %w1 : memref<512x512xf32>
  memref.dealloc %w2 : memref<512x512xf32>
  return
}

// -----

// Through a memref.cast, and through a value yielded by an scf.if.
// CHECK-LABEL: func.func @through_cast_and_yield
//       CHECK:   memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<3145728xi8>
func.func @through_cast_and_yield(%c: i1, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %w1 = memref.alloc() : memref<512x512xf32>
  %cast = memref.cast %w1 : memref<512x512xf32> to memref<512x512xf32, strided<[?, ?], offset: ?>>
  %w2 = memref.alloc() : memref<512x512xf32>
  %y = scf.if %c -> memref<512x512xf32, strided<[?, ?], offset: ?>> {
    %cast2 = memref.cast %w2 : memref<512x512xf32> to memref<512x512xf32, strided<[?, ?], offset: ?>>
    scf.yield %cast2 : memref<512x512xf32, strided<[?, ?], offset: ?>>
  } else {
    scf.yield %cast : memref<512x512xf32, strided<[?, ?], offset: ?>>
  }
  %w3 = memref.alloc() : memref<512x512xf32>
  memref.store %f, %w3[%c0, %c0] : memref<512x512xf32>
  %a = memref.load %cast[%c0, %c0] : memref<512x512xf32, strided<[?, ?], offset: ?>>
  %b = memref.load %y[%c0, %c0] : memref<512x512xf32, strided<[?, ?], offset: ?>>
  %s = arith.addf %a, %b : f32
  memref.store %s, %out[] : memref<f32>
  memref.dealloc %w1 : memref<512x512xf32>
  memref.dealloc %w2 : memref<512x512xf32>
  memref.dealloc %w3 : memref<512x512xf32>
  return
}
