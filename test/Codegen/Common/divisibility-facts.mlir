// The register tiles are AVX-512 ones: the target is pinned, not the host.
// RUN: tcc-opt %s --tcc-attach-target="mcpu=znver4" --tcc-to-linalg --split-input-file | FileCheck %s

// A batch known to be a multiple of 8 (`B % 8 == 0`, checked by the entry
// guards) needs no remainder loop after the 8-row tiles: the row loop runs
// full 8 x 32 register tiles only, and no tile has a dynamic shape.
// CHECK-LABEL: func.func @rows_divisible
//       CHECK:   scf.for %{{.*}} = %c0 to %{{.*}} step %c8
//       CHECK:     scf.for %{{.*}} = %c0 to %c128 step %c32
//       CHECK:       vector.contract {{.*}} : vector<8x16xf32>, vector<32x16xf32> into vector<8x32xf32>
//   CHECK-NOT:   scf.for
//   CHECK-NOT:   tensor<?x32xf32>
//       CHECK:   return
func.func @rows_divisible(%x: tensor<?x256xf32> {tcc.shape = #tcc.shape<[B, 256]>},
                          %w: tensor<128x256xf32>) -> tensor<?x128xf32>
    attributes {tcc.constraints = ["B % 8 == 0"]} {
  %0 = tcc.linear %x, %w : (tensor<?x256xf32>, tensor<128x256xf32>) -> tensor<?x128xf32>
  %1 = tcc.relu %0 : (tensor<?x128xf32>) -> tensor<?x128xf32>
  return %1 : tensor<?x128xf32>
}

// -----

// The same with B a multiple of 4 only: the 8-row loop keeps a remainder.
// CHECK-LABEL: func.func @rows_not_divisible_enough
//       CHECK:   scf.for %{{.*}} = %c0 to %{{.*}} step %c8
//       CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
//       CHECK:   return
func.func @rows_not_divisible_enough(%x: tensor<?x256xf32> {tcc.shape = #tcc.shape<[B, 256]>},
                                     %w: tensor<128x256xf32>) -> tensor<?x128xf32>
    attributes {tcc.constraints = ["B % 4 == 0", "B >= 8"]} {
  %0 = tcc.linear %x, %w : (tensor<?x256xf32>, tensor<128x256xf32>) -> tensor<?x128xf32>
  %1 = tcc.relu %0 : (tensor<?x128xf32>) -> tensor<?x128xf32>
  return %1 : tensor<?x128xf32>
}
