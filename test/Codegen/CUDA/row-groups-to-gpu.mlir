// RUN: tcc-opt %s --tcc-row-groups-to-gpu --split-input-file | FileCheck %s

// Softmax over rows of 128 as bufferization leaves it (fill, max, exp into
// the result, fill, sum, scale in place): one kernel, a block of 32 threads
// per row, 4 columns per thread held in registers. x is loaded once (4
// loads); the exp is not stored, since the scale overwrites it (4 stores);
// the max and sum are never written to memory (only the run uses them);
// each reduction is 5 xor shuffles within the warp, then a barrier before
// thread 0 may store (the warp's reads of that buffer come first); both
// fills are folded. The 4 columns of a thread are consecutive: one 16-byte
// vector load of x and one vector store of y, when both base pointers are
// aligned (checked once per kernel); else the same with scalar accesses,
// columns 32 apart.
#row = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<?x128xf32>
//       CHECK:   %[[Y:.+]] = memref.alloc(%{{.+}}) : memref<?x128xf32>
//   CHECK-NOT:   linalg.fill
//       CHECK:   gpu.launch blocks(%[[B:.+]], %{{.+}}, %{{.+}}) in ({{.+}}) threads(%[[T:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[NT:[a-z0-9_]+]],
//       CHECK:     scf.if
//   CHECK-DAG:     memref.extract_aligned_pointer_as_index %[[X]]
//   CHECK-DAG:     memref.extract_aligned_pointer_as_index %[[Y]]
//       CHECK:     scf.if %{{.+}} {
//       CHECK:       %[[COL:.+]] = arith.muli %[[T]], %c4
//       CHECK:       vector.load %[[X]][%[[B]], %[[COL]]] {alignment = 16 : i64} : memref<?x128xf32>, vector<4xf32>
//   CHECK-NOT:       memref.load %[[X]]
// CHECK-COUNT-5:     gpu.shuffle xor
// CHECK-COUNT-4:     math.exp
//       CHECK:       vector.store %{{.+}}, %[[Y]][%[[B]], %{{.+}}] {alignment = 16 : i64} : memref<?x128xf32>, vector<4xf32>
//   CHECK-NOT:       memref.store %{{.+}}, %[[Y]]
//       CHECK:     } else {
// CHECK-COUNT-4:     memref.load %[[X]][%[[B]], %{{.+}}]
//   CHECK-NOT:     memref.load %[[X]]
// CHECK-COUNT-5:     gpu.shuffle xor
//       CHECK:     gpu.barrier
// CHECK-COUNT-4:     math.exp
// CHECK-COUNT-5:     gpu.shuffle xor
//       CHECK:     gpu.barrier
// CHECK-COUNT-4:     memref.store %{{.+}}, %[[Y]][%[[B]], %{{.+}}]
//   CHECK-NOT:     memref.store
//       CHECK:     gpu.terminator
//   CHECK-NOT:   linalg.generic
//   CHECK-NOT:   linalg.fill
//       CHECK:   return %[[Y]]
func.func @softmax(%x: memref<?x128xf32>) -> memref<?x128xf32> {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = memref.dim %x, %c0 : memref<?x128xf32>
  %m = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<?xf32>)
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x128xf32>) outs(%m : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc fastmath<nnan,nsz> : f32
    linalg.yield %r : f32
  }
  %y = memref.alloc(%n) : memref<?x128xf32>
  linalg.generic {indexing_maps = [#row, #out, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<?x128xf32>, memref<?xf32>) outs(%y : memref<?x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%m : memref<?xf32>)
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<?x128xf32>) outs(%m : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#row, #out, #row], iterator_types = ["parallel", "parallel"]}
      ins(%y, %m : memref<?x128xf32>, memref<?xf32>) outs(%y : memref<?x128xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %inv = arith.divf %one, %s : f32
    %r = arith.mulf %a, %inv : f32
    linalg.yield %r : f32
  }
  memref.dealloc %m : memref<?xf32>
  return %y : memref<?x128xf32>
}

// -----

// Rows of 1000 over 64 threads: 16 columns each, the last one guarded
// (64 x 16 = 1024 > 1000): loads and the reduction's value come from an
// scf.if that yields the neutral element past the row's end. With more
// than one warp, the warps' partials meet in shared memory: one barrier.
// A per-row op (rsqrt of the mean square plus eps) is computed by every
// thread; its result is the function's, so thread 0 stores it. Buffers the
// run writes are allocations (arguments might alias each other).
#row = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @rms_rows_of_1000
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<?x1000xf32>
//       CHECK:   %[[R:.+]] = memref.alloc(%{{.+}}) : memref<?xf32>
//       CHECK:   %[[NT:.+]] = arith.constant 64 : index
//       CHECK:   gpu.launch {{.+}} threads({{.+}}) in (%{{.+}} = %[[NT]], {{.+}} workgroup(%[[SH0:.+]] : memref<32xf32, #gpu.address_space<workgroup>>, %[[SH1:.+]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-15:    memref.load %[[X]]
//       CHECK:     %[[LAST:.+]] = arith.cmpi ult, %{{.+}}, %{{.+}} : index
//       CHECK:     scf.if %[[LAST]] -> (f32) {
//       CHECK:       memref.load %[[X]]
//       CHECK:     } else {
//       CHECK:       arith.constant 0.000000e+00 : f32
//       CHECK:     gpu.shuffle xor
//       CHECK:     memref.store %{{.+}}, %[[SH0]]
//       CHECK:     gpu.barrier
//       CHECK:     memref.load %[[SH0]]
//       CHECK:     math.rsqrt
//       CHECK:     scf.if
//       CHECK:       memref.store %{{.+}}, %[[R]]
//   CHECK-NOT:   linalg.generic
func.func @rms_rows_of_1000(%x: memref<?x1000xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %c = arith.constant 1000.0 : f32
  %n = memref.dim %x, %c0 : memref<?x1000xf32>
  %ss = memref.alloc(%n) : memref<?xf32>
  %r = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%zero : f32) outs(%ss : memref<?xf32>)
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x1000xf32>) outs(%ss : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%ss : memref<?xf32>) outs(%r : memref<?xf32>) {
  ^bb0(%s: f32, %o: f32):
    %mean = arith.divf %s, %c : f32
    %me = arith.addf %mean, %eps : f32
    %inv = math.rsqrt %me : f32
    linalg.yield %inv : f32
  }
  memref.dealloc %ss : memref<?xf32>
  return %r : memref<?xf32>
}

// -----

// A dynamic row length: the loop form. Threads stride over the row in
// memory (block-size 256); the elementwise op's result is stored and read
// back by the same thread in the next loop.
#row = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @dynamic_rows
//       CHECK:   %[[NT:.+]] = arith.constant 256 : index
//       CHECK:   gpu.launch
//       CHECK:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
//       CHECK:       math.exp
//       CHECK:       memref.store
//       CHECK:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(
//       CHECK:       memref.load
//       CHECK:       arith.addf
//       CHECK:     gpu.shuffle xor
//   CHECK-NOT:   linalg.generic
func.func @dynamic_rows(%x: memref<?x?xf32>) -> (memref<?x?xf32>, memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %k = memref.dim %x, %c1 : memref<?x?xf32>
  %s = memref.alloc(%n) : memref<?xf32>
  %e = memref.alloc(%n, %k) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%e : memref<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<?x?xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return %e, %s : memref<?x?xf32>, memref<?xf32>
}

// -----

// Not fused: a transposed read of a buffer the run wrote would need another
// thread's columns, so the run ends before it; the first part (exp and its
// sum) is still a kernel, the transposed reader stays a linalg op. An
// elementwise op alone (no reduction) is left to tcc-parallel-loops-to-gpu,
// and a 64-bit reduction (no 32-bit shuffle) to tcc-row-reductions-to-gpu.
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @not_fused
//       CHECK:   gpu.launch
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel"]
//   CHECK-NOT:   gpu.launch
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel"]
//   CHECK-NOT:   gpu.launch
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "reduction"]
//  CHECK-SAME:     memref<64xf64>
func.func @not_fused(%x: memref<64x64xf32>, %d: memref<64x64xf64>) -> (memref<64xf32>, memref<64x64xf32>, memref<64xf64>) {
  %e = memref.alloc() : memref<64x64xf32>
  %s = memref.alloc() : memref<64xf32>
  %t = memref.alloc() : memref<64x64xf32>
  %u = memref.alloc() : memref<64x64xf32>
  %ds = memref.alloc() : memref<64xf64>
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%e : memref<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<64x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%e : memref<64x64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x64xf32>) outs(%u : memref<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%d : memref<64x64xf64>) outs(%ds : memref<64xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %r = arith.addf %a, %acc : f64
    linalg.yield %r : f64
  }
  memref.dealloc %e : memref<64x64xf32>
  memref.dealloc %t : memref<64x64xf32>
  return %s, %u, %ds : memref<64xf32>, memref<64x64xf32>, memref<64xf64>
}

// -----

// A linear's weight transposed on every call for a (k, n) matmul: the
// transpose is folded into the matmul's map (it reads W as (n, k) again),
// its buffer disappears, and the matmul with its bias is one row group (a
// block per output element, threads over K = 64). A transpose whose result
// is also returned stays.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @linear_transposed_weight
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<4x64xf32>, %[[W:[a-zA-Z0-9_]+]]: memref<32x64xf32>
//   CHECK-NOT:   linalg.transpose
//   CHECK-NOT:   memref.alloc() : memref<64x32xf32>
//       CHECK:   gpu.launch
// CHECK-COUNT-2:     memref.load %[[W]][%{{.+}}, %{{.+}}] : memref<32x64xf32>
//       CHECK:     gpu.shuffle xor
//   CHECK-NOT:   linalg.generic
// CHECK-LABEL: func.func @transpose_also_returned
//       CHECK:   linalg.transpose
func.func @linear_transposed_weight(%x: memref<4x64xf32>, %w: memref<32x64xf32>, %bias: memref<32xf32>) -> memref<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %wt = memref.alloc() : memref<64x32xf32>
  linalg.transpose ins(%w : memref<32x64xf32>) outs(%wt : memref<64x32xf32>) permutation = [1, 0]
  %y = memref.alloc() : memref<4x32xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<4x32xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wt : memref<4x64xf32>, memref<64x32xf32>) outs(%y : memref<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%y, %bias : memref<4x32xf32>, memref<32xf32>) outs(%y : memref<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  memref.dealloc %wt : memref<64x32xf32>
  return %y : memref<4x32xf32>
}
func.func @transpose_also_returned(%x: memref<4x64xf32>, %w: memref<32x64xf32>) -> (memref<4x32xf32>, memref<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %wt = memref.alloc() : memref<64x32xf32>
  linalg.transpose ins(%w : memref<32x64xf32>) outs(%wt : memref<64x32xf32>) permutation = [1, 0]
  %y = memref.alloc() : memref<4x32xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<4x32xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wt : memref<4x64xf32>, memref<64x32xf32>) outs(%y : memref<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  return %y, %wt : memref<4x32xf32>, memref<64x32xf32>
}

// -----

// bf16 rows of 4096: 16 bytes are 8 columns, and each thread holds 4 runs
// of 8 (32 columns, twice f32's 16): 128 threads per row, so twice as many
// rows are in flight per SM as with 256 while blocks wait in their
// reductions. x is read once (vector<8xbf16>) and stays in registers for
// the scaling.
#row2 = affine_map<(d0, d1) -> (d0, d1)>
#out2 = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @bf16_rows_of_4096
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<?x4096xbf16>
//       CHECK:   %[[NT:.+]] = arith.constant 128 : index
//       CHECK:   gpu.launch {{.+}} threads({{.+}}) in (%{{.+}} = %[[NT]],
// CHECK-COUNT-4:       vector.load %[[X]]{{.+}} : memref<?x4096xbf16>, vector<8xbf16>
//   CHECK-NOT:       vector.load %[[X]]
//       CHECK:       gpu.shuffle xor
// CHECK-COUNT-4:       vector.store {{.+}} : memref<?x4096xbf16>, vector<8xbf16>
func.func @bf16_rows_of_4096(%x: memref<?x4096xbf16>) -> memref<?x4096xbf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x4096xbf16>
  %s = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?x4096xbf16>
  linalg.fill ins(%zero : f32) outs(%s : memref<?xf32>)
  linalg.generic {indexing_maps = [#row2, #out2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x4096xbf16>) outs(%s : memref<?xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %e = arith.extf %a : bf16 to f32
    %t = arith.addf %e, %acc : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#row2, #out2, #row2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<?x4096xbf16>, memref<?xf32>) outs(%y : memref<?x4096xbf16>) {
  ^bb0(%a: bf16, %t: f32, %o: bf16):
    %e = arith.extf %a : bf16 to f32
    %m = arith.mulf %e, %t : f32
    %r = arith.truncf %m : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %s : memref<?xf32>
  return %y : memref<?x4096xbf16>
}
