// RUN: tcc-opt %s --tcc-place-scratch-buffers --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-place-scratch-buffers="max-stack-bytes=64 max-scope-bytes=128" --split-input-file | FileCheck %s --check-prefix=SMALL

// A per-tile temporary of a parallel loop: one alloca at the start of the
// iteration (SCF-to-OpenMP frees it after each), reused by the inner
// loop's iterations; its frees are gone.
// CHECK-LABEL: func.func @per_tile
//       CHECK:   scf.parallel
//  CHECK-NEXT:     %[[A:.+]] = memref.alloca() {alignment = 64 : i64} : memref<4x64xf32>
//       CHECK:     scf.for
//       CHECK:       memref.store %{{.+}}, %[[A]]
//   CHECK-NOT:   memref.alloc(
//   CHECK-NOT:   memref.dealloc
// Over the budget (64 bytes per temporary): left on the heap.
// SMALL-LABEL: func.func @per_tile
//       SMALL:   memref.alloc() {alignment = 64 : i64} : memref<4x64xf32>
//       SMALL:   memref.dealloc
func.func @per_tile(%out: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c128) step (%c1) {
    scf.for %j = %c0 to %c4 step %c1 {
      %t = memref.alloc() {alignment = 64 : i64} : memref<4x64xf32>
      memref.store %f, %t[%j, %c0] : memref<4x64xf32>
      %v = memref.load %t[%j, %c0] : memref<4x64xf32>
      memref.store %v, %out[%i] : memref<128xf32>
      memref.dealloc %t : memref<4x64xf32>
    }
    scf.reduce
  }
  return
}

// -----

// A row's scratch of a page or more (softmax's exp row, 4096 f32) starts
// on a page, so that stores into it do not 4K-alias the loads of the input
// row that follow them; a smaller one stays on a cache line.
// CHECK-LABEL: func.func @row_scratch
//       CHECK:   scf.parallel
//   CHECK-DAG:     memref.alloca() {alignment = 4096 : i64} : memref<1x4096xf32>
//   CHECK-DAG:     memref.alloca() {alignment = 64 : i64} : memref<1x64xf32>
func.func @row_scratch(%x: memref<8x4096xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %row = memref.alloc() {alignment = 64 : i64} : memref<1x4096xf32>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<1x64xf32>
    %v = memref.load %x[%i, %c0] : memref<8x4096xf32>
    memref.store %v, %row[%c0, %c0] : memref<1x4096xf32>
    memref.store %v, %acc[%c0, %c0] : memref<1x64xf32>
    %a = memref.load %row[%c0, %c0] : memref<1x4096xf32>
    %b = memref.load %acc[%c0, %c0] : memref<1x64xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%i] : memref<8xf32>
    memref.dealloc %row : memref<1x4096xf32>
    memref.dealloc %acc : memref<1x64xf32>
    scf.reduce
  }
  return
}

// -----

// An edge tile's dynamic size with a constant bound (affine.min): a stack
// buffer of the bound, viewed at the tile's size.
// CHECK-LABEL: func.func @bounded_dynamic
//       CHECK:   scf.parallel
//  CHECK-NEXT:     %[[B:.+]] = memref.alloca() {alignment = 64 : i64} : memref<256xi8>
//       CHECK:     %[[N:.+]] = affine.min
//       CHECK:     memref.view %[[B]][%{{.+}}][%[[N]]] : memref<256xi8> to memref<?x16xf32>
//   CHECK-NOT:   memref.alloc(
func.func @bounded_dynamic(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c4) {
    %rows = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)[%n]
    %t = memref.alloc(%rows) {alignment = 64 : i64} : memref<?x16xf32>
    %v = memref.load %t[%c0, %c0] : memref<?x16xf32>
    memref.store %v, %out[%i] : memref<?xf32>
    memref.dealloc %t : memref<?x16xf32>
    scf.reduce
  }
  return
}

// -----

// A size only known at run time (a sequence length), computed before the
// loop: on the stack when it fits then, else on the heap, freed at the end
// of the iteration either way.
// CHECK-LABEL: func.func @unbounded_dynamic
//  CHECK-SAME:   %[[S:[a-zA-Z0-9_]+]]: index
//       CHECK:   scf.parallel
//       CHECK:     %[[BYTES:.+]] = arith.muli %{{.+}}, %[[S]] : index
//       CHECK:     %[[FITS:.+]] = arith.cmpi ule, %[[BYTES]], %{{.+}} : index
//       CHECK:     %[[BUF:.+]] = scf.if %[[FITS]] -> (memref<?xi8>) {
//       CHECK:       memref.alloca(%[[BYTES]])
//       CHECK:     } else {
//       CHECK:       memref.alloc(%[[BYTES]])
//       CHECK:     memref.view %[[BUF]][%{{.+}}][%[[S]]] : memref<?xi8> to memref<8x?xf32>
//       CHECK:     scf.if %[[FITS]] {
//       CHECK:     } else {
//       CHECK:       memref.dealloc %[[BUF]]
func.func @unbounded_dynamic(%s: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    scf.for %q = %c0 to %c16 step %c1 {
      %t = memref.alloc(%s) {alignment = 64 : i64} : memref<8x?xf32>
      %v = memref.load %t[%c0, %c0] : memref<8x?xf32>
      memref.store %v, %out[%q] : memref<?xf32>
      memref.dealloc %t : memref<8x?xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Function-level temporaries too large for the stack (a transposed weight
// panel, a padded input scaled by the batch) become slices of the plan's
// arena: its size grows by the two, grouped by their run-time factor, and
// the 1 MiB panels whose spans do not meet share bytes.
// CHECK-LABEL: func.func @into_arena
//  CHECK-SAME:   %[[B:[a-zA-Z0-9_]+]]: index
//       CHECK:   %[[PLAN:.+]] = arith.constant 1024 : index
//       CHECK:   %[[PANELS:.+]] = arith.constant 1048576 : index
//       CHECK:   %[[PAD:.+]] = arith.constant 861184 : index
//       CHECK:   arith.muli %{{.+}}, %[[PAD]] : index
//       CHECK:   %[[ARENA:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64, tcc.arena_alloc} : memref<?xi8>
//       CHECK:   memref.view %[[ARENA]][%{{.+}}][] : memref<?xi8> to memref<512x512xf32>
//       CHECK:   memref.view %[[ARENA]][%{{.+}}][] : memref<?xi8> to memref<512x512xf32>
//       CHECK:   memref.view %[[ARENA]][%{{.+}}][%[[B]]] : memref<?xi8> to memref<?x64x58x58xf32>
//   CHECK-NOT:   memref.dealloc %alloc
//       CHECK:   memref.dealloc %[[ARENA]]
func.func @into_arena(%b: index, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %plan = arith.constant 1024 : index
  %arena = memref.alloc(%plan) {alignment = 64 : i64, tcc.arena_alloc} : memref<?xi8>
  %w1 = memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
  %v1 = memref.load %w1[%c0, %c0] : memref<512x512xf32>
  memref.store %v1, %out[] : memref<f32>
  memref.dealloc %w1 : memref<512x512xf32>
  %w2 = memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
  %v2 = memref.load %w2[%c0, %c0] : memref<512x512xf32>
  memref.store %v2, %out[] : memref<f32>
  memref.dealloc %w2 : memref<512x512xf32>
  %p = memref.alloc(%b) {alignment = 64 : i64} : memref<?x64x58x58xf32>
  %v3 = memref.load %p[%c0, %c0, %c0, %c0] : memref<?x64x58x58xf32>
  memref.store %v3, %out[] : memref<f32>
  memref.dealloc %p : memref<?x64x58x58xf32>
  memref.dealloc %arena : memref<?xi8>
  return
}

// -----

// A static arena (the plan's size was a constant) that a static
// function-level temporary joins: a static arena of the grown size (16 KiB
// + 1 MiB) replaces it, with the arena marker. (A dynamic alloc of a
// constant size would be canonicalized into a static one without the
// marker, and tcc-use-workspace would not find the arena.)
// CHECK-LABEL: func.func @static_arena
//       CHECK:   %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<1064960xi8>
//       CHECK:   memref.view %[[ARENA]][%{{.+}}][] : memref<1064960xi8> to memref<4096xf32>
//       CHECK:   memref.view %[[ARENA]][%{{.+}}][] : memref<1064960xi8> to memref<512x512xf32>
//       CHECK:   memref.dealloc %[[ARENA]] : memref<1064960xi8>
func.func @static_arena(%out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %arena = memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<16384xi8>
  %planned = memref.view %arena[%c0][] : memref<16384xi8> to memref<4096xf32>
  %w = memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
  %v = memref.load %w[%c0, %c0] : memref<512x512xf32>
  %u = memref.load %planned[%c0] : memref<4096xf32>
  %s = arith.addf %v, %u : f32
  memref.store %s, %out[] : memref<f32>
  memref.dealloc %w : memref<512x512xf32>
  memref.dealloc %arena : memref<16384xi8>
  return
}

// -----

// A large temporary in an scf.if of the function's body (a per-call
// library dispatch: it runs at most once per call) is a slice of the arena
// too; one in a loop is not.
// CHECK-LABEL: func.func @in_function_level_if
//       CHECK:   %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<1064960xi8>
//       CHECK:   scf.if
//       CHECK:     memref.view %[[ARENA]][%{{.+}}][] : memref<1064960xi8> to memref<512x512xf32>
//   CHECK-NOT:     memref.dealloc
//       CHECK:   scf.for
//       CHECK:     memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
func.func @in_function_level_if(%c: i1, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %arena = memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<16384xi8>
  %planned = memref.view %arena[%c0][] : memref<16384xi8> to memref<4096xf32>
  scf.if %c {
    %w = memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
    %v = memref.load %w[%c0, %c0] : memref<512x512xf32>
    memref.store %v, %out[] : memref<f32>
    memref.dealloc %w : memref<512x512xf32>
  }
  scf.for %i = %c0 to %c2 step %c1 {
    %w = memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
    %v = memref.load %w[%c0, %c0] : memref<512x512xf32>
    %u = memref.load %planned[%c0] : memref<4096xf32>
    %s = arith.addf %v, %u : f32
    memref.store %s, %out[] : memref<f32>
    memref.dealloc %w : memref<512x512xf32>
  }
  memref.dealloc %arena : memref<16384xi8>
  return
}

// -----

// Not temporaries: a returned buffer (no free) and one freed in another
// block stay heap allocations.
// CHECK-LABEL: func.func @left_alone
//       CHECK:   memref.alloc() {alignment = 64 : i64} : memref<16xf32>
//       CHECK:   memref.alloc() {alignment = 64 : i64} : memref<32xf32>
//       CHECK:   scf.if
//       CHECK:     memref.dealloc
func.func @left_alone(%c: i1) -> memref<16xf32> {
  %r = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %t = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
  scf.if %c {
    memref.dealloc %t : memref<32xf32>
  }
  return %r : memref<16xf32>
}
