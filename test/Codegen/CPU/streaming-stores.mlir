// RUN: tcc-opt %s --tcc-streaming-stores --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-streaming-stores=min-bytes=1 --split-input-file | FileCheck %s --check-prefix=SMALL

// A row loop writing a 256 MiB result in whole, aligned vectors through
// subviews: the writes stream past the caches, addressed on the allocation.
// CHECK-LABEL: func.func @large_result
//       CHECK:   %[[A:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16384x4096xf32>
//       CHECK:   scf.for %[[I:.+]] =
//       CHECK:     scf.for %[[J:.+]] =
//   CHECK-NOT:       vector.transfer_write
//       CHECK:       vector.store %{{.+}}, %[[A]][%[[I]], %[[J]]] {alignment = 64 : i64, nontemporal = true} : memref<16384x4096xf32>, vector<64xf32>
func.func @large_result(%v: vector<64xf32>) -> memref<16384x4096xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %c16384 = arith.constant 16384 : index
  %a = memref.alloc() {alignment = 64 : i64} : memref<16384x4096xf32>
  scf.for %i = %c0 to %c16384 step %c1 {
    %row = memref.subview %a[%i, 0] [1, 4096] [1, 1] : memref<16384x4096xf32> to memref<1x4096xf32, strided<[4096, 1], offset: ?>>
    scf.for %j = %c0 to %c4096 step %c64 {
      %chunk = memref.subview %row[0, %j] [1, 64] [1, 1] : memref<1x4096xf32, strided<[4096, 1], offset: ?>> to memref<1x64xf32, strided<[4096, 1], offset: ?>>
      vector.transfer_write %v, %chunk[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, memref<1x64xf32, strided<[4096, 1], offset: ?>>
    }
  }
  return %a : memref<16384x4096xf32>
}

// -----

// Not changed: the column index steps by 8 lanes, so a vector may straddle
// a 64-byte line (no aligned streaming store exists for it).
// CHECK-LABEL: func.func @unaligned_columns
//   CHECK-NOT:   nontemporal
//       CHECK:   vector.transfer_write
func.func @unaligned_columns(%v: vector<16xf32>) -> memref<4096x4096xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c4080 = arith.constant 4080 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.alloc() {alignment = 64 : i64} : memref<4096x4096xf32>
  scf.for %i = %c0 to %c4096 step %c1 {
    scf.for %j = %c0 to %c4080 step %c8 {
      vector.transfer_write %v, %a[%i, %j] {in_bounds = [true]} : vector<16xf32>, memref<4096x4096xf32>
    }
  }
  return %a : memref<4096x4096xf32>
}

// -----

// Not changed: a 4 KiB buffer stays in cache for its reader (the default
// threshold is 64 MiB); with min-bytes=1 it streams.
// CHECK-LABEL: func.func @small_result
//   CHECK-NOT:   nontemporal
// SMALL-LABEL: func.func @small_result
//       SMALL:   vector.store {{.*}}nontemporal = true
func.func @small_result(%v: vector<16xf32>) -> memref<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c64 step %c16 {
      vector.transfer_write %v, %a[%i, %j] {in_bounds = [true]} : vector<16xf32>, memref<16x64xf32>
    }
  }
  return %a : memref<16x64xf32>
}

// -----

// Not changed: an allocation without 64-byte alignment, a row length that
// is not a whole number of vectors, and a masked (out-of-bounds) write.
// SMALL-LABEL: func.func @not_provably_aligned
//   SMALL-NOT:   nontemporal
func.func @not_provably_aligned(%v: vector<16xf32>, %i: index) -> (memref<16x64xf32>, memref<16x72xf32>, memref<16x64xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16x64xf32>
  vector.transfer_write %v, %a[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<16x64xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<16x72xf32>
  vector.transfer_write %v, %b[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<16x72xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  vector.transfer_write %v, %c[%i, %i] : vector<16xf32>, memref<16x64xf32>
  return %a, %b, %c : memref<16x64xf32>, memref<16x72xf32>, memref<16x64xf32>
}

// -----

// Not changed: (16 i + 1) * 2 is even but not a multiple of 16, whatever i
// is (regression: the constant inside the product was overlooked).
// SMALL-LABEL: func.func @unflattened_index
//   SMALL-NOT:   nontemporal
func.func @unflattened_index(%v: vector<16xf32>) -> memref<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  scf.for %i = %c0 to %c1 step %c16 {
    %j = affine.apply affine_map<(d0) -> ((d0 * 16 + 1) * 2)>(%i)
    vector.transfer_write %v, %a[%c0, %j] {in_bounds = [true]} : vector<16xf32>, memref<16x64xf32>
  }
  return %a : memref<16x64xf32>
}

// -----

// Changed: 16 * i + 32 with i a loop index is a multiple of 16.
// SMALL-LABEL: func.func @affine_index
//       SMALL:   vector.store {{.*}}nontemporal = true
func.func @affine_index(%v: vector<16xf32>) -> memref<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    %j = affine.apply affine_map<(d0) -> (d0 * 16 + 32)>(%i)
    vector.transfer_write %v, %a[%c0, %j] {in_bounds = [true]} : vector<16xf32>, memref<16x64xf32>
  }
  return %a : memref<16x64xf32>
}
