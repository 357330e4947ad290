// tcc.matmul (2-D, batched, broadcast batch, dynamic M/K/N) and tcc.linear
// (with and without bias, 2-D and 3-D input): compiled vs reference.

// RUN: tcc-run %s --function=matmul_2d_static --input=8x16xf32=random --input=16x12xf32=random --check-reference | FileCheck %s --check-prefix=MM_2D_STATIC
// MM_2D_STATIC: [SUCCESS] result[0] matches the reference (8x12xf32)
func.func @matmul_2d_static(%a: tensor<8x16xf32>, %b: tensor<16x12xf32>) -> tensor<8x12xf32> {
  %0 = tcc.matmul %a, %b : (tensor<8x16xf32>, tensor<16x12xf32>) -> tensor<8x12xf32>
  return %0 : tensor<8x12xf32>
}

// Odd sizes that do not divide any tile size.
// RUN: tcc-run %s --function=matmul_2d_odd --input=7x13xf32=random --input=13x5xf32=random --check-reference | FileCheck %s --check-prefix=MM_2D_ODD
// MM_2D_ODD: [SUCCESS] result[0] matches the reference (7x5xf32)
func.func @matmul_2d_odd(%a: tensor<7x13xf32>, %b: tensor<13x5xf32>) -> tensor<7x5xf32> {
  %0 = tcc.matmul %a, %b : (tensor<7x13xf32>, tensor<13x5xf32>) -> tensor<7x5xf32>
  return %0 : tensor<7x5xf32>
}

// Fully dynamic M, K, N; sizes larger than one register tile.
// RUN: tcc-run %s --function=matmul_2d_dyn --input=37x70xf32=random --input=70x45xf32=random --check-reference | FileCheck %s --check-prefix=MM_2D_DYN
// MM_2D_DYN: [SUCCESS] result[0] matches the reference (37x45xf32)
func.func @matmul_2d_dyn(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = tcc.matmul %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Batched, equal batch dims, dynamic batch.
// RUN: tcc-run %s --function=matmul_batched --input=3x4x8x16xf32=random --input=3x4x16x8xf32=random --check-reference | FileCheck %s --check-prefix=MM_BATCHED
// MM_BATCHED: [SUCCESS] result[0] matches the reference (3x4x8x8xf32)
func.func @matmul_batched(%a: tensor<?x4x8x16xf32>, %b: tensor<?x4x16x8xf32>) -> tensor<?x4x8x8xf32> {
  %0 = tcc.matmul %a, %b : (tensor<?x4x8x16xf32>, tensor<?x4x16x8xf32>) -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// Broadcast batch: [2,1,5,6] x [3,6,4] -> [2,3,5,4].
// RUN: tcc-run %s --function=matmul_bcast_batch --input=2x1x5x6xf32=random --input=3x6x4xf32=random --check-reference | FileCheck %s --check-prefix=MM_BCAST
// MM_BCAST: [SUCCESS] result[0] matches the reference (2x3x5x4xf32)
func.func @matmul_bcast_batch(%a: tensor<2x1x5x6xf32>, %b: tensor<3x6x4xf32>) -> tensor<2x3x5x4xf32> {
  %0 = tcc.matmul %a, %b : (tensor<2x1x5x6xf32>, tensor<3x6x4xf32>) -> tensor<2x3x5x4xf32>
  return %0 : tensor<2x3x5x4xf32>
}

// Batched lhs against a shared 2-D rhs (x @ W), dynamic batch.
// RUN: tcc-run %s --function=matmul_shared_rhs --input=3x5x8xf32=random --input=8x6xf32=random --check-reference | FileCheck %s --check-prefix=MM_SHARED
// MM_SHARED: [SUCCESS] result[0] matches the reference (3x5x6xf32)
func.func @matmul_shared_rhs(%a: tensor<?x5x8xf32>, %b: tensor<8x6xf32>) -> tensor<?x5x6xf32> {
  %0 = tcc.matmul %a, %b : (tensor<?x5x8xf32>, tensor<8x6xf32>) -> tensor<?x5x6xf32>
  return %0 : tensor<?x5x6xf32>
}

// 2-D lhs against a batched rhs.
// RUN: tcc-run %s --function=matmul_shared_lhs --input=5x8xf32=random --input=2x8x3xf32=random --check-reference | FileCheck %s --check-prefix=MM_SHARED_LHS
// MM_SHARED_LHS: [SUCCESS] result[0] matches the reference (2x5x3xf32)
func.func @matmul_shared_lhs(%a: tensor<5x8xf32>, %b: tensor<?x8x3xf32>) -> tensor<?x5x3xf32> {
  %0 = tcc.matmul %a, %b : (tensor<5x8xf32>, tensor<?x8x3xf32>) -> tensor<?x5x3xf32>
  return %0 : tensor<?x5x3xf32>
}

// q @ k^T with a transpose feeding the matmul (NaiveAttention scores).
// RUN: tcc-run %s --function=matmul_transposed --input=2x3x6x8xf32=random --input=2x3x7x8xf32=random --check-reference | FileCheck %s --check-prefix=MM_T
// MM_T: [SUCCESS] result[0] matches the reference (2x3x6x7xf32)
func.func @matmul_transposed(%q: tensor<?x3x6x8xf32>, %k: tensor<?x3x7x8xf32>) -> tensor<?x3x6x7xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x3x7x8xf32>) -> tensor<?x3x8x7xf32>
  %0 = tcc.matmul %q, %kt : (tensor<?x3x6x8xf32>, tensor<?x3x8x7xf32>) -> tensor<?x3x6x7xf32>
  return %0 : tensor<?x3x6x7xf32>
}

// f64 matmul.
// RUN: tcc-run %s --function=matmul_f64 --input=4x6xf64=random --input=6x3xf64=random --check-reference | FileCheck %s --check-prefix=MM_F64
// MM_F64: [SUCCESS] result[0] matches the reference (4x3xf64)
func.func @matmul_f64(%a: tensor<?x6xf64>, %b: tensor<6x3xf64>) -> tensor<?x3xf64> {
  %0 = tcc.matmul %a, %b : (tensor<?x6xf64>, tensor<6x3xf64>) -> tensor<?x3xf64>
  return %0 : tensor<?x3xf64>
}

// ---- linear ------------------------------------------------------------------------

// RUN: tcc-run %s --function=linear_bias --input=4x32xf32=random --input=24x32xf32=random --input=24xf32=random --check-reference | FileCheck %s --check-prefix=LINEAR_BIAS
// LINEAR_BIAS: [SUCCESS] result[0] matches the reference (4x24xf32)
func.func @linear_bias(%x: tensor<?x32xf32>, %w: tensor<24x32xf32>, %b: tensor<24xf32>) -> tensor<?x24xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x32xf32>, tensor<24x32xf32>, tensor<24xf32>) -> tensor<?x24xf32>
  return %0 : tensor<?x24xf32>
}

// RUN: tcc-run %s --function=linear_no_bias --input=5x16xf32=random --input=9x16xf32=random --check-reference | FileCheck %s --check-prefix=LINEAR_NO_BIAS
// LINEAR_NO_BIAS: [SUCCESS] result[0] matches the reference (5x9xf32)
func.func @linear_no_bias(%x: tensor<5x16xf32>, %w: tensor<9x16xf32>) -> tensor<5x9xf32> {
  %0 = tcc.linear %x, %w : (tensor<5x16xf32>, tensor<9x16xf32>) -> tensor<5x9xf32>
  return %0 : tensor<5x9xf32>
}

// 3-D input [B, S, in] with and without bias.
// RUN: tcc-run %s --function=linear_3d --input=2x7x32xf32=random --input=48x32xf32=random --input=48xf32=random --check-reference | FileCheck %s --check-prefix=LINEAR_3D
// LINEAR_3D: [SUCCESS] result[0] matches the reference (2x7x48xf32)
// LINEAR_3D: [SUCCESS] result[1] matches the reference (2x7x48xf32)
func.func @linear_3d(%x: tensor<?x7x32xf32>, %w: tensor<48x32xf32>, %b: tensor<48xf32>) -> (tensor<?x7x48xf32>, tensor<?x7x48xf32>) {
  %0 = tcc.linear %x, %w, %b : (tensor<?x7x32xf32>, tensor<48x32xf32>, tensor<48xf32>) -> tensor<?x7x48xf32>
  %1 = tcc.linear %x, %w : (tensor<?x7x32xf32>, tensor<48x32xf32>) -> tensor<?x7x48xf32>
  return %0, %1 : tensor<?x7x48xf32>, tensor<?x7x48xf32>
}

// 4-D input, all dims dynamic except in/out.
// RUN: tcc-run %s --function=linear_4d_dyn --input=2x3x5x12xf32=random --input=10x12xf32=random --input=10xf32=random --check-reference | FileCheck %s --check-prefix=LINEAR_4D
// LINEAR_4D: [SUCCESS] result[0] matches the reference (2x3x5x10xf32)
func.func @linear_4d_dyn(%x: tensor<?x?x?x12xf32>, %w: tensor<10x12xf32>, %b: tensor<10xf32>) -> tensor<?x?x?x10xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x?x?x12xf32>, tensor<10x12xf32>, tensor<10xf32>) -> tensor<?x?x?x10xf32>
  return %0 : tensor<?x?x?x10xf32>
}

// Dynamic in/out features (weights with dynamic shape).
// RUN: tcc-run %s --function=linear_dyn_weights --input=3x20xf32=random --input=11x20xf32=random --input=11xf32=random --check-reference | FileCheck %s --check-prefix=LINEAR_DYN_W
// LINEAR_DYN_W: [SUCCESS] result[0] matches the reference (3x11xf32)
func.func @linear_dyn_weights(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// A two-layer MLP (linear, gelu, linear) plus a residual: matmul epilogue fusion.
// RUN: tcc-run %s --function=mlp --input=3x16xf32=random --input=64x16xf32=random --input=64xf32=random --input=16x64xf32=random --input=16xf32=random --check-reference | FileCheck %s --check-prefix=MLP
// MLP: [SUCCESS] result[0] matches the reference (3x16xf32)
func.func @mlp(%x: tensor<?x16xf32>, %w1: tensor<64x16xf32>, %b1: tensor<64xf32>, %w2: tensor<16x64xf32>, %b2: tensor<16xf32>) -> tensor<?x16xf32> {
  %0 = tcc.linear %x, %w1, %b1 : (tensor<?x16xf32>, tensor<64x16xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %1 = tcc.gelu %0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %2 = tcc.linear %1, %w2, %b2 : (tensor<?x64xf32>, tensor<16x64xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %3 = tcc.add %x, %2 : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  return %3 : tensor<?x16xf32>
}

// Larger linear (crosses tile boundaries in every dim, K not a multiple of 8).
// RUN: tcc-run %s --function=linear_big --input=67x100xf32=random --input=130x100xf32=random --input=130xf32=random --check-reference | FileCheck %s --check-prefix=LINEAR_BIG
// LINEAR_BIG: [SUCCESS] result[0] matches the reference (67x130xf32)
func.func @linear_big(%x: tensor<?x100xf32>, %w: tensor<130x100xf32>, %b: tensor<130xf32>) -> tensor<?x130xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x100xf32>, tensor<130x100xf32>, tensor<130xf32>) -> tensor<?x130xf32>
  %1 = tcc.relu %0 : (tensor<?x130xf32>) -> tensor<?x130xf32>
  return %1 : tensor<?x130xf32>
}
