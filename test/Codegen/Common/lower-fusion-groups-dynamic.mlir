// RUN: tcc-opt %s --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups="vector-lanes=16" --split-input-file | FileCheck %s --check-prefix=VEC
// RUN: tcc-opt %s --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups=vectorize=false --split-input-file | FileCheck %s --check-prefix=NOVEC

// Fusion groups with dynamic dims. The tensor.dim ops that the tcc-to-linalg
// lowering puts on intermediate results must not stop the group's generics
// from fusing (with vectorize=false they do: fuseElementwiseInGroup's
// hasOneUse() counts the tensor.dim users, see
// /tmp/bugs2/lower_fusion_groups_dynamic_no_fusion.mlir), and the vectorized
// path must not leave the untiled generics behind.

// NOVEC-LABEL: func.func @pointwise_dynamic
//   NOVEC-NOT:   fusion.group
//       NOVEC:   %[[G:.+]] = linalg.generic
//       NOVEC:     arith.addf
//       NOVEC:     arith.maximumf
//       NOVEC:     arith.mulf
//   NOVEC-NOT:   linalg.generic
//       NOVEC:   return %[[G]]
// VEC-LABEL: func.func @pointwise_dynamic
//   VEC-NOT:   fusion.group
//   VEC-NOT:   linalg.generic
//       VEC:   %[[L:.+]] = scf.for
//       VEC:     arith.mulf {{.*}} : vector<1x8xf32>
//   VEC-NOT:   linalg.generic
//       VEC:   return %[[L]]
func.func @pointwise_dynamic(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = tcc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %1 = tcc.relu %0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %2 = tcc.mul %1, %a : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %2 : tensor<?x8xf32>
}

// -----

// Contractions whose M is not a multiple of the 8-row tile, or is dynamic,
// still lower (they once failed with masked vectorization). A linear with
// fewer than 8 rows uses the dot-product kernel: 2 x 8 tiles of lanes-wide
// partial sums over K, reduced once.
// NOVEC-LABEL: func.func @linear_m4
//       NOVEC:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// VEC-LABEL: func.func @linear_m4
//   VEC-NOT:   fusion.group
//       VEC:   vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
//       VEC:   vector.multi_reduction <add>, {{.*}} [2] : vector<2x8x16xf32> to vector<2x8xf32>
//       VEC:   return
func.func @linear_m4(%x: tensor<4x16xf32>, %w: tensor<32x16xf32>) -> tensor<4x32xf32> {
  %0 = tcc.linear %x, %w : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// NOVEC-LABEL: func.func @linear_dynamic_batch
//       NOVEC:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// VEC-LABEL: func.func @linear_dynamic_batch
//   VEC-NOT:   fusion.group
//       VEC:   scf.for
//       VEC:   vector.contract
//       VEC:   return
func.func @linear_dynamic_batch(%x: tensor<?x16xf32>, %w: tensor<32x16xf32>) -> tensor<?x32xf32> {
  %0 = tcc.linear %x, %w : (tensor<?x16xf32>, tensor<32x16xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

// A mean over dynamic rows: four rows per tile, the sum fused in, the
// partial last tile peeled.
// VEC-LABEL: func.func @mean_dynamic_rows
//       VEC:   %[[MAIN:.+]] = scf.for %{{.+}} = %c0 to %{{.+}} step %c4
//       VEC:     vector.multi_reduction <add>, %{{.+}} [1] : vector<4x32xf32> to vector<4xf32>
//       VEC:   } {tcc.parallel}
//       VEC:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c4 iter_args(%{{.+}} = %[[MAIN]])
func.func @mean_dynamic_rows(%x: tensor<?x4096xf32>) -> tensor<?x1xf32> {
  %m = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x4096xf32>) -> tensor<?x1xf32>
  return %m : tensor<?x1xf32>
}

// -----

// The loop that forks threads is weighed by the work of one fork: inside
// the loop over a dynamic batch, one 16x16x16 image (4096 elements) is too
// little to share out, one 64x64x64 image is enough.
// VEC-LABEL: func.func @small_images
//   VEC-NOT:   tcc.parallel
//       VEC:   return
func.func @small_images(%x: tensor<?x16x16x16xf32>) -> tensor<?x16x16x16xf32> {
  %y = tcc.relu %x : (tensor<?x16x16x16xf32>) -> tensor<?x16x16x16xf32>
  return %y : tensor<?x16x16x16xf32>
}

// -----

// VEC-LABEL: func.func @large_images
//       VEC:   scf.for %{{.+}} = %c0 to %dim step %c1
//       VEC:     scf.for %{{.+}} = %c0 to %c64 step %c1
//       VEC:     } {tcc.parallel}
func.func @large_images(%x: tensor<?x64x64x64xf32>) -> tensor<?x64x64x64xf32> {
  %y = tcc.relu %x : (tensor<?x64x64x64xf32>) -> tensor<?x64x64x64xf32>
  return %y : tensor<?x64x64x64xf32>
}
