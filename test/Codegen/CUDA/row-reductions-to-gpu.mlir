// RUN: tcc-opt %s --tcc-row-reductions-to-gpu --split-input-file | FileCheck %s

// A sum of exp(x - m) over the rows of a dynamic matrix: one block per
// row; each thread folds columns t, t + 256, ... (the exp computed there),
// the partials meet in a shared-memory tree (a barrier per level), and
// thread 0 adds the total to the accumulator.
#row = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum_exp
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<?x1000xf32>, %[[M:[a-zA-Z0-9_]+]]: memref<?xf32>, %[[S:[a-zA-Z0-9_]+]]: memref<?xf32>
//       CHECK:   memref.dim %[[X]], %{{.+}}
//       CHECK:   %[[GRID:.+]] = arith.maxsi %[[ROWS:.+]], %{{.+}}
//       CHECK:   gpu.launch blocks(%[[B:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[GRID]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%[[T:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[NT:.+]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) workgroup(%[[SH:.+]] : memref<256xf32, #gpu.address_space<workgroup>>, %[[FL:.+]] : memref<256xi32, #gpu.address_space<workgroup>>)
//       CHECK:     %[[REAL:.+]] = arith.cmpi slt, %[[B]], %[[ROWS]]
//       CHECK:     scf.if %[[REAL]] {
//       CHECK:     %[[P:.+]]:2 = scf.for %[[K:.+]] = %[[T]] to %{{.+}} step %[[NT]] iter_args(
//       CHECK:       memref.load %[[X]][%[[B]], %[[K]]]
//       CHECK:       math.exp
//       CHECK:       arith.addf
//       CHECK:       arith.select
//       CHECK:     memref.store %[[P]]#0, %[[SH]][%[[T]]]
//       CHECK:     gpu.barrier
// CHECK-COUNT-8:   gpu.barrier
//       CHECK:     scf.if
//       CHECK:       %[[ACC:.+]] = memref.load %[[S]][%[[B]]]
//       CHECK:       %[[TOT:.+]] = memref.load %[[SH]][%{{.+}}]
//       CHECK:       arith.addf %[[TOT]], %[[ACC]]
//       CHECK:       memref.store %{{.+}}, %[[S]][%[[B]]]
//   CHECK-NOT:   linalg.generic
func.func @sum_exp(%x: memref<?x1000xf32>, %m: memref<?xf32>, %s: memref<?xf32>) {
  linalg.generic {indexing_maps = [#row, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : memref<?x1000xf32>, memref<?xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A max over the last dim of a 3-D buffer: the two outer dims are the
// block index, row-major.
#in3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out3 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @max_3d
//       CHECK:   gpu.launch
//       CHECK:     arith.remsi
//       CHECK:     arith.divsi
//       CHECK:     arith.maximumf
func.func @max_3d(%x: memref<4x6x512xf32>, %out: memref<4x6xf32>) {
  linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<4x6x512xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A fill of the accumulator right before (allocation in between): thread 0
// folds the total into the fill value; the fill is no kernel of its own.
// CHECK-LABEL: func.func @filled
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: memref<32x300xf32>
//       CHECK:   %[[NINF:.+]] = arith.constant 0xFF800000 : f32
//       CHECK:   %[[OUT:.+]] = memref.alloc
//   CHECK-NOT:   linalg.fill
//       CHECK:   gpu.launch
//       CHECK:     scf.if
//   CHECK-NOT:       memref.load %[[OUT]]
//       CHECK:       arith.maximumf %[[NINF]], %{{.+}}
//       CHECK:       memref.store %{{.+}}, %[[OUT]]
func.func @filled(%x: memref<32x300xf32>) -> memref<32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %out = memref.alloc() : memref<32xf32>
  linalg.fill ins(%ninf : f32) outs(%out : memref<32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<32x300xf32>) outs(%out : memref<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  return %out : memref<32xf32>
}

// -----

// Left alone: a reduction over a leading dim (not innermost), an
// accumulator used twice (acc * acc + x is no fold of one combiner), and a
// tensor (not yet bufferized) op.
#t = affine_map<(d0, d1) -> (d1, d0)>
#o = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   gpu.launch
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic
func.func @left_alone(%x: memref<8x16xf32>, %out: memref<16xf32>, %y: memref<16x8xf32>, %t: tensor<16x8xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<8x16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, #o], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<16x8xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %acc, %acc : f32
    %r = arith.addf %sq, %a : f32
    linalg.yield %r : f32
  }
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, #o], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<16x8xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
