// RUN: tcc-opt %s --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups=vectorize=false --split-input-file | FileCheck %s --check-prefix=NOVEC
// RUN: tcc-opt %s --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups="vector-lanes=16" --split-input-file | FileCheck %s --check-prefix=VEC

// Static shapes. Dynamic shapes: lower-fusion-groups-dynamic.mlir.

// A pointwise group becomes ONE linalg.generic (vectorize=false), or one loop
// over rows of vector code; either way the group is inlined.
// NOVEC-LABEL: func.func @pointwise_chain
//  NOVEC-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<4x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//   NOVEC-NOT:   fusion.group
//       NOVEC:   %[[G:.+]] = linalg.generic
//  NOVEC-SAME:     ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>)
//       NOVEC:     %[[S:.+]] = arith.addf
//       NOVEC:     %[[R:.+]] = arith.maximumf %[[S]]
//       NOVEC:     %[[M:.+]] = arith.mulf %[[R]]
//       NOVEC:     linalg.yield %[[M]]
//   NOVEC-NOT:   linalg.generic
//   NOVEC-NOT:   fusion.group
//       NOVEC:   return %[[G]]
// VEC-LABEL: func.func @pointwise_chain
//   VEC-NOT:   fusion.group
//   VEC-NOT:   linalg.generic
//       VEC:   %[[L:.+]] = scf.for
//       VEC:     arith.addf {{.*}} : vector<1x8xf32>
//       VEC:     arith.maximumf {{.*}} : vector<1x8xf32>
//       VEC:     arith.mulf {{.*}} : vector<1x8xf32>
//       VEC:     scf.yield
//   VEC-NOT:   linalg.generic
//   VEC-NOT:   fusion.group
//       VEC:   return %[[L]]
func.func @pointwise_chain(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = tcc.relu %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tcc.mul %1, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A reduction with an elementwise prologue: the prologue moves into the
// reduction's body; the epilogue over the reduced shape stays a generic.
// NOVEC-LABEL: func.func @reduction_prologue
//   NOVEC-NOT:   fusion.group
//       NOVEC:   %[[FILL:.+]] = linalg.fill
//       NOVEC:   %[[RED:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//  NOVEC-SAME:     outs(%[[FILL]] : tensor<4xf32>)
//       NOVEC:     %[[E:.+]] = math.exp
//       NOVEC:     arith.addf %[[E]]
//       NOVEC:   %[[SQ:.+]] = linalg.generic {{.*}} ins(%[[RED]] : tensor<4xf32>)
//       NOVEC:     math.sqrt
//   NOVEC-NOT:   linalg.generic
//       NOVEC:   return %[[SQ]]
// VEC-LABEL: func.func @reduction_prologue
//   VEC-NOT:   fusion.group
//       VEC:   math.exp
//       VEC:   math.sqrt
//   VEC-NOT:   fusion.group
//       VEC:   return
func.func @reduction_prologue(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = tcc.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.reduce_sum %0 {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %2 = tcc.sqrt %1 : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// linear + bias + gelu: the contraction and one fused epilogue generic, or
// (vectorized) one 8x32 register tile: a vector.contract and the vectorized
// epilogue, no generic left.
// NOVEC-LABEL: func.func @matmul_epilogue
//   NOVEC-NOT:   fusion.group
//       NOVEC:   %[[MM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
//       NOVEC:     arith.mulf
//       NOVEC:     arith.addf
//       NOVEC:   %[[EP:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
//  NOVEC-SAME:     ins(%[[MM]], %{{.*}} : tensor<8x32xf32>, tensor<32xf32>)
//       NOVEC:     arith.addf
//       NOVEC:     math.erf
//   NOVEC-NOT:   linalg.generic
//       NOVEC:   return %[[EP]]
// VEC-LABEL: func.func @matmul_epilogue
//   VEC-NOT:   fusion.group
//   VEC-NOT:   linalg.generic
//       VEC:   vector.contract {{.*}} : vector<8x16xf32>, vector<32x16xf32> into vector<8x32xf32>
// An erf epilogue over 8 rows runs in 16-lane chunks: 8 x 16 is eight zmm
// per value, 8 x 32 would spill the erf polynomial.
//       VEC:   scf.for {{.*}} step %c16
//       VEC:     math.erf {{.*}} : vector<8x16xf32>
//   VEC-NOT:   linalg.generic
//       VEC:   return
func.func @matmul_epilogue(%x: tensor<8x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = tcc.linear %x, %w : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
  %1 = tcc.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = tcc.gelu %1 : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// -----

// Fusion stays inside each group: two pointwise groups split by a transpose
// remain two generics around the linalg.transpose.
// NOVEC-LABEL: func.func @groups_do_not_merge
//   NOVEC-NOT:   fusion.group
//       NOVEC:   %[[G1:.+]] = linalg.generic
//       NOVEC:     math.exp
//       NOVEC:     math.tanh
//       NOVEC:   %[[T:.+]] = linalg.transpose ins(%[[G1]]
//       NOVEC:   %[[G2:.+]] = linalg.generic {{.*}} ins(%[[T]]
//       NOVEC:     arith.negf
//       NOVEC:   return %[[G2]]
func.func @groups_do_not_merge(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = tcc.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tcc.transpose %1 {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %3 = tcc.neg %2 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}

// -----

// A whole-tensor reduction of a high-rank tensor with a short innermost dim
// (an exported loss over 5-D inputs) is not one vector: unrolled into
// 1620 rows of 4 lanes it made LLVM compile for minutes. It stays a loop
// nest (ops of more than 256 innermost rows are not vectorized whole).
// VEC-LABEL: func.func @high_rank_short_rows
//   VEC-NOT:   vector.multi_reduction
//       VEC:   linalg.generic
//   VEC-NOT:   vector.multi_reduction
//       VEC:   return
func.func @high_rank_short_rows(%x: tensor<3x6x6x5x3x4xf32>) -> tensor<f32> {
  %0 = tcc.neg %x : (tensor<3x6x6x5x3x4xf32>) -> tensor<3x6x6x5x3x4xf32>
  %1 = tcc.reduce_sum %0 {axes = array<i64: 0, 1, 2, 3, 4, 5>} : (tensor<3x6x6x5x3x4xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Likewise a transpose whose input's innermost dim is short: a 2160-row
// column read as one vector was 2160 scalar loads.
// VEC-LABEL: func.func @transpose_long_column
//   VEC-NOT:   vector.transpose
//       VEC:   linalg.transpose
//   VEC-NOT:   vector.transpose
//       VEC:   return
func.func @transpose_long_column(%x: tensor<3x2160x5xf32>) -> tensor<3x5x2160xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 1>} : (tensor<3x2160x5xf32>) -> tensor<3x5x2160xf32>
  return %0 : tensor<3x5x2160xf32>
}

// -----

// Register tiles follow the vector width: with 8 lanes (AVX2) a matmul is
// tiled 8 x 16 and K by 8, whatever the host is.
// RUN: tcc-opt %s --split-input-file --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups="vector-lanes=8" | FileCheck %s --check-prefix=LANES8
// LANES8-LABEL: func.func @lanes8
//       LANES8:   vector.contract {{.*}} : vector<8x8xf32>, vector<8x16xf32> into vector<8x16xf32>
func.func @lanes8(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tcc.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// A 2-D transpose (a copy group) is tiled in 16 x 16 blocks, each one
// vector.transpose, not row by row.
// VEC-LABEL: func.func @block_transpose
//       VEC:   scf.for
//       VEC:     scf.for
//       VEC:       vector.transpose {{.*}} : vector<16x16xf32> to vector<16x16xf32>
func.func @block_transpose(%w: tensor<64x48xf32>) -> tensor<48x64xf32> {
  %0 = tcc.transpose %w {permutation = array<i64: 1, 0>} : (tensor<64x48xf32>) -> tensor<48x64xf32>
  return %0 : tensor<48x64xf32>
}

// -----

// A reduction alone with keep_dims yields through an expand_shape: the
// reduction is still the root and its rows are tiled (it used to be left
// whole, its long-row chunking then walking all 512 rows per column chunk):
// four rows per tile, 4 x 32 chunks.
// VEC-LABEL: func.func @keep_dims_reduction_is_tiled
//       VEC:   scf.for %{{.+}} = %c0 to %c512 step %c4
//       VEC:     scf.for %{{.+}} = %c0 to %c4096 step %c32
//       VEC:     vector.multi_reduction <maximumf>, %{{.+}} [1] : vector<4x32xf32> to vector<4xf32>
//       VEC:   } {tcc.parallel}
//       VEC:   tensor.expand_shape
func.func @keep_dims_reduction_is_tiled(%x: tensor<512x4096xf32>) -> tensor<512x1xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<512x4096xf32>) -> tensor<512x1xf32>
  return %m : tensor<512x1xf32>
}

// -----

// A mean alone: its root is the division over the sum's result space
// ([512], after [512, 4096]), whose one dim is rows of the sum, not a row
// to keep whole: four rows per tile with the sum fused in, on both cores
// (the sum's work counts, not the division's). Untiled, the sum walked all
// rows per 16-column chunk.
// VEC-LABEL: func.func @mean_rows_are_tiled
//       VEC:   scf.for %{{.+}} = %c0 to %c512 step %c4
//       VEC:     scf.for %{{.+}} = %c0 to %c4096 step %c32
//       VEC:     vector.multi_reduction <add>, %{{.+}} [1] : vector<4x32xf32> to vector<4xf32>
//       VEC:     arith.divf %{{.+}} : vector<4xf32>
//       VEC:   } {tcc.parallel}
//       VEC:   tensor.expand_shape
func.func @mean_rows_are_tiled(%x: tensor<512x4096xf32>) -> tensor<512x1xf32> {
  %m = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<512x4096xf32>) -> tensor<512x1xf32>
  return %m : tensor<512x1xf32>
}

// -----

// Softmax over rows of 4096: the exp that the sum and the normalization
// both read is computed in the sum's chunk loop, which also yields it (two
// results), so each row takes three passes (max, exp-and-sum, scale), not
// four. Several passes over a row: one row per tile (it and its scratch
// copy stay in L1 between passes), chunks of 64. The row maximum may
// ignore NaN (a NaN reaches every output through the sum anyway), and its
// horizontal step says so: a vector.reduction with nnan and nsz, where the
// keep_dims reduce_max above, which must propagate NaN, keeps the
// multi_reduction.
// VEC-LABEL: func.func @softmax_exp_in_sum_loop
//       VEC:   scf.for %{{.+}} = %c0 to %c512 step %c1
//       VEC:     scf.for %{{.+}} = %c0 to %c4096 step %c64
//       VEC:     vector.reduction <maximumf>, %{{.+}}, %{{.+}} fastmath<nnan,nsz> : vector<64xf32> into f32
//       VEC:     %[[SUM:.+]]:2 = scf.for %{{.+}} = %c0 to %c4096 step %c64 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<1x64xf32>, tensor<1x4096xf32>)
//       VEC:       math.exp %{{.+}} : vector<1x64xf32>
//       VEC:       arith.addf
//       VEC:       scf.yield
//       VEC:     vector.multi_reduction <add>
//   VEC-NOT:     math.exp
//       VEC:     scf.for %{{.+}} = %c0 to %c4096 step %c64
//   VEC-NOT:       math.exp
//       VEC:       arith.mulf
//       VEC:   } {tcc.parallel}
func.func @softmax_exp_in_sum_loop(%x: tensor<512x4096xf32>) -> tensor<512x4096xf32> {
  %y = tcc.softmax %x {axis = 1 : i64} : (tensor<512x4096xf32>) -> tensor<512x4096xf32>
  return %y : tensor<512x4096xf32>
}

// -----

// layer_norm over rows of 4096: the centered row x - mean is cheap, so the
// variance loop and the normalization loop each compute it again instead
// of the first yielding it as a scratch row (compare softmax's exp above):
// no 2x4096 result leaves the variance loop. Its passes only read the input
// again, so two rows go together (softmax above: one): the normalization
// loop reads each column of the scale and shift once for both.
// VEC-LABEL: func.func @layer_norm_recomputes_centered
//       VEC:   scf.for %{{.+}} = %c0 to %c512 step %c2
//       VEC:     scf.for %{{.+}} = %c0 to %c4096 step %c64 iter_args(%{{.+}} = %{{.+}}) -> (tensor<2x64xf32>)
//       VEC:     vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1] : vector<2x64xf32> to vector<2xf32>
//       VEC:     scf.for %{{.+}} = %c0 to %c4096 step %c32 iter_args(%{{.+}} = %{{.+}}) -> (tensor<2x32xf32>)
//       VEC:       %[[D:.+]] = arith.subf
//       VEC:       arith.mulf %[[D]], %[[D]]
//       VEC:     vector.multi_reduction <add>
//       VEC:     scf.for %{{.+}} = %c0 to %c4096 step %c32 iter_args(%{{.+}} = %{{.+}}) -> (tensor<2x4096xf32>)
//       VEC:       arith.subf
//       VEC:       vector.transfer_read %{{.+}} : tensor<32xf32>, vector<32xf32>
//       VEC:       vector.transfer_read %{{.+}} : tensor<32xf32>, vector<32xf32>
//       VEC:   } {tcc.parallel}
func.func @layer_norm_recomputes_centered(%x: tensor<512x4096xf32>, %w: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<512x4096xf32> {
  %y = tcc.layer_norm %x, %w, %b {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<512x4096xf32>, tensor<4096xf32>, tensor<4096xf32>) -> tensor<512x4096xf32>
  return %y : tensor<512x4096xf32>
}

// -----

// Row pairs, like the four-row tiles of one-pass groups, need a static
// number of rows: with a dynamic one, one row per tile.
// VEC-LABEL: func.func @layer_norm_dynamic_rows
//       VEC:   scf.for %{{.+}} = %c0 to %{{.+}} step %c1
//       VEC:     -> (tensor<1x64xf32>)
//       VEC:   } {tcc.parallel}
func.func @layer_norm_dynamic_rows(%x: tensor<?x4096xf32>, %w: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<?x4096xf32> {
  %y = tcc.layer_norm %x, %w, %b {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<?x4096xf32>, tensor<4096xf32>, tensor<4096xf32>) -> tensor<?x4096xf32>
  return %y : tensor<?x4096xf32>
}

// -----

// A splat constant the group reads is folded into the generic's body (no
// buffer to load it from); a non-splat one stays an input.
// NOVEC-LABEL: func.func @splat_constant_folded
//       NOVEC:   %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
//       NOVEC:   linalg.generic
//  NOVEC-SAME:     ins(%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}} : tensor<4x8xf32>, tensor<8xf32>)
//       NOVEC:     arith.mulf %{{.+}}, %[[TWO]] : f32
func.func @splat_constant_folded(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %two = tcc.constant dense<2.0> : tensor<f32>
  %v = tcc.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %0 = tcc.mul %x, %v : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = tcc.mul %0, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Two independent small groups over [64, 100] merged horizontally: a
// group without one root, whose ops would each be vectorized whole. With
// the exps that is thousands of straight-line zmm instructions, so every
// op runs a row per iteration (its outer parallel dim tiled by 1) and is
// vectorized a row at a time. (Unmerged, each group's root would be tiled
// four rows at a time.)
// VEC-LABEL: func.func @merged_rows_tiled
//       VEC:   scf.for %{{.+}} = %c0 to %c64 step %c1
//       VEC:     vector.transfer_read {{.*}} vector<1x100xf32>
//       VEC:     math.exp {{.*}} : vector<1x100xf32>
//       VEC:   scf.for %{{.+}} = %c0 to %c64 step %c1
//       VEC:     math.exp {{.*}} : vector<1x100xf32>
//   VEC-NOT:   vector<64x100xf32>
//       VEC:   return
func.func @merged_rows_tiled(%x: tensor<64x100xf32>, %y: tensor<64x100xf32>) -> (tensor<64x100xf32>, tensor<64x100xf32>) {
  %0 = tcc.exp %x : (tensor<64x100xf32>) -> tensor<64x100xf32>
  %1 = tcc.neg %0 : (tensor<64x100xf32>) -> tensor<64x100xf32>
  %2 = tcc.exp %y : (tensor<64x100xf32>) -> tensor<64x100xf32>
  %3 = tcc.abs %2 : (tensor<64x100xf32>) -> tensor<64x100xf32>
  return %1, %3 : tensor<64x100xf32>, tensor<64x100xf32>
}

// -----

// Small merged groups stay blocks: [4, 16] with an exp each is a few
// dozen instructions, no row loops.
// VEC-LABEL: func.func @merged_small_whole
//   VEC-NOT:   scf.for
//       VEC:   math.exp {{.*}} : vector<4x16xf32>
//       VEC:   math.exp {{.*}} : vector<4x16xf32>
//   VEC-NOT:   scf.for
//       VEC:   return
func.func @merged_small_whole(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = tcc.exp %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = tcc.neg %0 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = tcc.exp %y : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %3 = tcc.abs %2 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %1, %3 : tensor<4x16xf32>, tensor<4x16xf32>
}
