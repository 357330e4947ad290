// RUN: tcc-opt %s --tcc-serial-linalg-to-kernels | FileCheck %s

// A full reduction to a 0-d buffer and the 0-d fill before it have no
// parallel dim: each is wrapped in a one-iteration scf.parallel (a
// one-thread kernel later), not left as host loops over device memory.
// The elementwise op with a parallel dim is left alone.
// CHECK-LABEL: func.func @full_reduction
//       CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) {
//  CHECK-NEXT:     linalg.fill
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   } {tcc.kernel_kind = "serial"}
//       CHECK:   scf.parallel
//  CHECK-NEXT:     linalg.generic
//  CHECK-SAME:       iterator_types = ["reduction", "reduction"]
//       CHECK:   } {tcc.kernel_kind = "serial"}
//   CHECK-NOT:   scf.parallel
//       CHECK:   linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel"]
#all = affine_map<(i, j) -> (i, j)>
#none = affine_map<(i, j) -> ()>
func.func @full_reduction(%x: memref<?x8xf32>, %s: memref<f32>, %y: memref<?x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
  linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<?x8xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sum = arith.addf %a, %acc : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [#all, #all], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x8xf32>) outs(%y : memref<?x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  return
}

// Already inside a parallel loop: left alone.
// CHECK-LABEL: func.func @inside_a_loop
//       CHECK:   scf.parallel
//  CHECK-NEXT:     memref.subview
//  CHECK-NEXT:     linalg.fill
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
func.func @inside_a_loop(%s: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %e = memref.subview %s[%i] [1] [1] : memref<4xf32> to memref<f32, strided<[], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%e : memref<f32, strided<[], offset: ?>>)
  }
  return
}
