// RUN: tcc-opt %s --tcc-parallel-loops-to-gpu --split-input-file --verify-diagnostics | FileCheck %s
// RUN: tcc-opt %s --tcc-parallel-loops-to-gpu="block-size=128" --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=B128
// RUN: tcc-opt %s --tcc-parallel-loops-to-gpu="elements-per-thread=1 vectorize=false" --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=ONE
// RUN: tcc-opt %s --tcc-parallel-loops-to-gpu="vectorize=false" --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=NOVEC

// A 2-D loop: one launch over 64 x 100 iterations flattened row-major,
// 256 threads per block, at least one block; a thread past the end does
// nothing; the column is the remainder (consecutive threads, consecutive
// columns). No branch around the launch (gpu-async-region chains it).
// CHECK-LABEL: func.func @static_2d
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: memref<64x100xf32>, %[[B:[a-zA-Z0-9_]+]]: memref<64x100xf32>
//       CHECK:   %[[CEIL:.+]] = arith.ceildivsi %[[TOTAL:.+]], %[[T:c256[_0-9]*]] : index
//       CHECK:   %[[BLOCKS:.+]] = arith.maxsi %[[CEIL]], %{{.+}} : index
//   CHECK-NOT:   scf.if
//       CHECK:   gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[BLOCKS]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[T]],
//       CHECK:       %[[BASE:.+]] = arith.muli %[[BX]], %[[T]]
//       CHECK:       %[[LIN:.+]] = arith.addi %[[BASE]], %[[TX]]
//       CHECK:       %[[IN:.+]] = arith.cmpi slt, %[[LIN]], %[[TOTAL]]
//       CHECK:       scf.if %[[IN]] {
//       CHECK:         %[[COL:.+]] = arith.remsi %[[LIN]], %{{.+}}
//       CHECK:         %[[ROW:.+]] = arith.divsi %[[LIN]], %{{.+}}
//       CHECK:         %[[V:.+]] = memref.load %[[A]]
//       CHECK:         memref.store %{{.+}}, %[[B]]
//       CHECK:       gpu.terminator
//   CHECK-NOT:   scf.parallel
// B128-LABEL: func.func @static_2d
//       B128:   arith.constant 128 : index
func.func @static_2d(%a: memref<64x100xf32>, %b: memref<64x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c100) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<64x100xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %b[%i, %j] : memref<64x100xf32>
    scf.reduce
  }
  return
}

// -----

// Dynamic bounds with a lower bound and a step: the trip count is
// ceil((ub - lb) / step), clamped at 0, and index = lb + i * step. An inner
// loop (a reduction's) stays a loop inside the thread.
// CHECK-LABEL: func.func @dynamic_steps
//  CHECK-SAME:   %[[N:[a-zA-Z0-9_]+]]: index
//       CHECK:   %[[SPAN:.+]] = arith.subi %[[N]], %[[LB:.+]] : index
//       CHECK:   %[[CNT:.+]] = arith.ceildivsi %[[SPAN]], %[[STEP:.+]] : index
//       CHECK:   arith.maxsi %[[CNT]]
//       CHECK:   gpu.launch
//       CHECK:     %[[I:.+]] = arith.muli %{{.+}}, %[[STEP]]
//       CHECK:     %[[IV:.+]] = arith.addi %[[LB]], %[[I]]
//       CHECK:     scf.for
//       CHECK:       memref.load %{{.+}}[%[[IV]], %{{.+}}]
func.func @dynamic_steps(%n: index, %a: memref<?x8xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c1) to (%n) step (%c3) {
    %s = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %a[%i, %k] : memref<?x8xf32>
      %t = arith.addf %acc, %v : f32
      scf.yield %t : f32
    }
    memref.store %s, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Loops already inside a kernel are left alone.
// CHECK-LABEL: func.func @inside_launch
//       CHECK:   gpu.launch
//       CHECK:     scf.parallel
func.func @inside_launch(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      %e = memref.load %a[%i] : memref<4xf32>
      memref.store %e, %a[%i] : memref<4xf32>
      scf.reduce
    }
    gpu.terminator
  }
  return
}

// -----

// A parallel loop with a reduction of its own: not a kernel (yet).
func.func @reduction(%a: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{a parallel loop with reductions cannot become a GPU kernel yet}}
  %s = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%zero) -> f32 {
    %v = memref.load %a[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      scf.reduce.return %r : f32
    }
  }
  return %s : f32
}

// -----

// Without vector accesses (vectorize=false; with them, see below): a
// static innermost trip count that 4 x 256 divides (2048): a block per
// chunk of 1024 columns (2 per row, 16 blocks, no thread past the end),
// each thread 4 columns 256 apart (coalesced), one delinearization, the
// body repeated op by op (the 4 loads first). 768 columns: 3 per thread
// (3 x 256); 99: one per thread.
// NOVEC-LABEL: func.func @four_per_thread
//  NOVEC-SAME:   %[[A:[a-zA-Z0-9_]+]]: memref<8x2048xf32>
//       NOVEC:   gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in ({{.+}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in
//       NOVEC:     %[[CH:.+]] = arith.remsi %[[BX]], %{{.+}}
//       NOVEC:     %[[BASE:.+]] = arith.muli %[[CH]], %[[C1024:.+]] : index
//       NOVEC:     %[[C0:.+]] = arith.addi %[[BASE]], %[[TX]] : index
//       NOVEC:     arith.addi %[[C0]], %{{.+}} : index
//       NOVEC:     arith.addi %[[C0]], %{{.+}} : index
//       NOVEC:     arith.addi %[[C0]], %{{.+}} : index
// NOVEC-COUNT-4:   memref.load %[[A]]
//  NOVEC-NEXT:     arith.mulf
//   NOVEC-NOT:     memref.load
//       NOVEC:     gpu.terminator
// NOVEC-LABEL: func.func @three_per_thread
//       NOVEC:   gpu.launch
// NOVEC-COUNT-3:     memref.load
//   NOVEC-NOT:     memref.load
//       NOVEC:     gpu.terminator
// NOVEC-LABEL: func.func @odd_columns
//       NOVEC:   gpu.launch
// NOVEC-COUNT-1:     memref.load
//   NOVEC-NOT:     memref.load
//       NOVEC:     gpu.terminator
// ONE-LABEL: func.func @four_per_thread
//       ONE:   gpu.launch
// ONE-COUNT-1:     memref.load
//   ONE-NOT:     memref.load
//       ONE:     gpu.terminator
func.func @four_per_thread(%a: memref<8x2048xf32>, %b: memref<8x2048xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cn = arith.constant 2048 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %cn) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<8x2048xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %b[%i, %j] : memref<8x2048xf32>
    scf.reduce
  }
  return
}
func.func @three_per_thread(%a: memref<8x768xf32>, %b: memref<8x768xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cn = arith.constant 768 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %cn) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<8x768xf32>
    memref.store %v, %b[%i, %j] : memref<8x768xf32>
    scf.reduce
  }
  return
}
func.func @odd_columns(%a: memref<8x99xf32>, %b: memref<8x99xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c99 = arith.constant 99 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c99) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<8x99xf32>
    memref.store %v, %b[%i, %j] : memref<8x99xf32>
    scf.reduce
  }
  return
}

// -----

// Vector accesses: 2048 f32 columns are 512 vectors of 4 (16 bytes): a
// block of 256 threads per row, each thread two vectors 1024 columns
// apart (vectors-per-thread = 2). The loads and the store indexed by the
// column in the last dim become vector.load / vector.store of 4 (aligned
// to 16 bytes); the bias (rank 1) too. Both vectors' loads come before
// either store. The broadcast column %s[%i, 0] stays a scalar load per
// lane. The base pointers' alignment is checked in the kernel, with the
// scalar body as the fallback.
// CHECK-LABEL: func.func @vector_f32
//  CHECK-SAME:   %[[A:[a-z0-9_]+]]: memref<8x2048xf32>, %[[BIAS:[a-z0-9_]+]]: memref<2048xf32>, %[[S:[a-z0-9_]+]]: memref<8x1xf32>, %[[B:[a-z0-9_]+]]: memref<8x2048xf32>
//       CHECK:   gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in ({{.+}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c256
//       CHECK:     %[[CH:.+]] = arith.remsi %[[BX]], %c1
//       CHECK:     %[[BASE:.+]] = arith.muli %[[CH]], %c2048
//       CHECK:     %[[LANE0:.+]] = arith.muli %[[TX]], %c4
//       CHECK:     %[[COL:.+]] = arith.addi %[[BASE]], %[[LANE0]]
//   CHECK-DAG:     memref.extract_aligned_pointer_as_index %[[A]]
//   CHECK-DAG:     memref.extract_aligned_pointer_as_index %[[BIAS]]
//   CHECK-DAG:     memref.extract_aligned_pointer_as_index %[[B]]
//       CHECK:     scf.if %{{.+}} {
//       CHECK:       %[[COL2:.+]] = arith.addi %[[COL]], %c1024
//       CHECK:       vector.load %[[A]][%{{.+}}, %[[COL]]] {alignment = 16 : i64} : memref<8x2048xf32>, vector<4xf32>
//  CHECK-NEXT:       vector.extract
//       CHECK:       vector.load %[[A]][%{{.+}}, %[[COL2]]] {alignment = 16 : i64} : memref<8x2048xf32>, vector<4xf32>
//       CHECK:       vector.load %[[BIAS]][%[[COL]]] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>
//       CHECK:       vector.load %[[BIAS]][%[[COL2]]] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>
// CHECK-COUNT-8:     memref.load %[[S]]
//       CHECK:       vector.from_elements
//       CHECK:       vector.store %{{.+}}, %[[B]][%{{.+}}, %[[COL]]] {alignment = 16 : i64} : memref<8x2048xf32>, vector<4xf32>
//       CHECK:       vector.store %{{.+}}, %[[B]][%{{.+}}, %[[COL2]]] {alignment = 16 : i64} : memref<8x2048xf32>, vector<4xf32>
//       CHECK:     } else {
//   CHECK-NOT:       vector.
//       CHECK:       memref.load %[[A]]
//       CHECK:       memref.store
//       CHECK:     gpu.terminator
func.func @vector_f32(%a: memref<8x2048xf32>, %bias: memref<2048xf32>,
                      %s: memref<8x1xf32>, %b: memref<8x2048xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cn = arith.constant 2048 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %cn) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<8x2048xf32>
    %w = memref.load %bias[%j] : memref<2048xf32>
    %x = memref.load %s[%i, %c0] : memref<8x1xf32>
    %y = arith.addf %v, %w : f32
    %z = arith.mulf %y, %x : f32
    memref.store %z, %b[%i, %j] : memref<8x2048xf32>
    scf.reduce
  }
  return
}

// -----

// bf16 over 768 columns: 96 vectors of 8 (16 bytes) per row, so blocks of
// 96 threads, one per row. An f32 result beside it: the widest element
// sets the lanes (4), 192 threads, and the bf16 loads are 8 bytes.
// CHECK-LABEL: func.func @vector_bf16_768
//       CHECK:   gpu.launch {{.+}} threads({{.+}}) in (%{{.+}} = %c96
//       CHECK:     vector.load {{.+}} {alignment = 16 : i64} : memref<4x768xbf16>, vector<8xbf16>
//       CHECK:     vector.store {{.+}} {alignment = 16 : i64} : memref<4x768xbf16>, vector<8xbf16>
// CHECK-LABEL: func.func @vector_mixed_widths
//       CHECK:   gpu.launch {{.+}} threads({{.+}}) in (%{{.+}} = %c192
//       CHECK:     vector.load {{.+}} {alignment = 8 : i64} : memref<4x768xbf16>, vector<4xbf16>
//       CHECK:     vector.store {{.+}} {alignment = 16 : i64} : memref<4x768xf32>, vector<4xf32>
func.func @vector_bf16_768(%a: memref<4x768xbf16>, %b: memref<4x768xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cn = arith.constant 768 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %cn) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x768xbf16>
    %e = arith.extf %v : bf16 to f32
    %r = arith.truncf %e : f32 to bf16
    memref.store %r, %b[%i, %j] : memref<4x768xbf16>
    scf.reduce
  }
  return
}
func.func @vector_mixed_widths(%a: memref<4x768xbf16>, %b: memref<4x768xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cn = arith.constant 768 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %cn) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x768xbf16>
    %e = arith.extf %v : bf16 to f32
    memref.store %e, %b[%i, %j] : memref<4x768xf32>
    scf.reduce
  }
  return
}

// -----

// No vector accesses: a dynamic offset (alignment unknown), a transposed
// read with a transposed write, and 100 columns (25 vectors: no warp
// multiple divides them). The first keeps 4 columns a block apart.
// CHECK-LABEL: func.func @no_vector_dynamic_offset
//   CHECK-NOT:   vector.
//       CHECK:   gpu.terminator
// CHECK-LABEL: func.func @no_vector_transposed
//   CHECK-NOT:   vector.
//       CHECK:   gpu.terminator
func.func @no_vector_dynamic_offset(%a: memref<8x2048xf32, strided<[2048, 1], offset: ?>>,
                                    %b: memref<8x2048xf32, strided<[2048, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cn = arith.constant 2048 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %cn) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<8x2048xf32, strided<[2048, 1], offset: ?>>
    memref.store %v, %b[%i, %j] : memref<8x2048xf32, strided<[2048, 1], offset: ?>>
    scf.reduce
  }
  return
}
func.func @no_vector_transposed(%a: memref<2048x8xf32>, %b: memref<2048x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cn = arith.constant 2048 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %cn) step (%c1, %c1) {
    %v = memref.load %a[%j, %i] : memref<2048x8xf32>
    memref.store %v, %b[%j, %i] : memref<2048x8xf32>
    scf.reduce
  }
  return
}
