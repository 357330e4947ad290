// REQUIRES: dnnl
// The cpu pipeline's library matrix products (oneDNN matmul, lib/Runtime/
// DNNLGemm.cpp) against the reference evaluator: the epilogue oneDNN takes
// along (bias, residual add, ReLU, GELU in both forms), a constant weight
// prepacked once and reused by later calls, row counts that change between
// calls of one compiled function, one-row and empty products. The
// products here are small: --gemm-library-min-macs=0 sends them to oneDNN
// anyway. oneDNN sums in another order than the reference: --atol covers
// the rounding of sums that cancel.

// linear + bias + GELU (erf) and linear + bias + residual, rank-3 inputs
// (the ViT MLP): two oneDNN calls and nothing else; the second writes the
// result's place (no heap allocation but the result's and the arena).
// RUN: tcc-opt %s --tcc-cpu-pipeline=gemm-library-min-macs=0 2>&1 | FileCheck %s --check-prefix=IR
// IR-LABEL: llvm.func @mlp(
// IR-COUNT-2: llvm.call @tccHostGemm
// IR-NOT: llvm.call @tccHostGemm
// IR-LABEL: llvm.func @matmul_relu(
// RUN: tcc-run %s --gemm-library-min-macs=0 --function=mlp --input=2x5x16xf32=random --input=64x16xf32=random --input=64xf32=random --input=16x64xf32=random --input=16xf32=random --check-reference --atol=1e-4 --count-allocations | FileCheck %s --check-prefix=MLP
// MLP: heap allocations per call: 2 (results: 1)
// MLP: [SUCCESS] result[0] matches the reference (2x5x16xf32)
// RUN: tcc-run %s --gemm-library-min-macs=0 --function=mlp --input=3x1x16xf32=random --input=64x16xf32=random --input=64xf32=random --input=16x64xf32=random --input=16xf32=random --check-reference --atol=1e-4 | FileCheck %s --check-prefix=MLP_ONE_ROW
// MLP_ONE_ROW: [SUCCESS] result[0] matches the reference (3x1x16xf32)
// The same function without oneDNN: generated code, the same answer.
// RUN: tcc-run %s --no-library --function=mlp --input=2x5x16xf32=random --input=64x16xf32=random --input=64xf32=random --input=16x64xf32=random --input=16xf32=random --check-reference --atol=1e-4 | FileCheck %s --check-prefix=MLP_GENERATED
// MLP_GENERATED: [SUCCESS] result[0] matches the reference (2x5x16xf32)
// With the default threshold (262144 multiply-adds; 1024 per row here)
// the choice is per call: 10 rows run the generated code (no oneDNN matmul
// runs: DNNL_VERBOSE would print it), 400 rows oneDNN; both against the
// reference.
// RUN: env DNNL_VERBOSE=1 tcc-run %s --function=mlp --input=2x5x16xf32=random --input=64x16xf32=random --input=64xf32=random --input=16x64xf32=random --input=16xf32=random --check-reference --atol=1e-4 | FileCheck %s --check-prefix=MLP_10 --implicit-check-not=exec,cpu,matmul
// MLP_10: [SUCCESS] result[0] matches the reference (2x5x16xf32)
// RUN: tcc-run %s --function=mlp --input=4x100x16xf32=random --input=64x16xf32=random --input=64xf32=random --input=16x64xf32=random --input=16xf32=random --check-reference --atol=1e-4 | FileCheck %s --check-prefix=MLP_400
// MLP_400: [SUCCESS] result[0] matches the reference (4x100x16xf32)
// RUN: env DNNL_VERBOSE=1 tcc-run %s --function=mlp --input=4x100x16xf32=random --input=64x16xf32=random --input=64xf32=random --input=16x64xf32=random --input=16xf32=random | FileCheck %s --check-prefix=MLP_400_LIB
// MLP_400_LIB-COUNT-2: {{(dnnl|onednn)_verbose,exec,cpu,matmul}}
func.func @mlp(%x: tensor<?x?x16xf32>, %w1: tensor<64x16xf32>, %b1: tensor<64xf32>, %w2: tensor<16x64xf32>, %b2: tensor<16xf32>) -> tensor<?x?x16xf32> {
  %0 = tcc.linear %x, %w1, %b1 : (tensor<?x?x16xf32>, tensor<64x16xf32>, tensor<64xf32>) -> tensor<?x?x64xf32>
  %1 = tcc.gelu %0 : (tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
  %2 = tcc.linear %1, %w2, %b2 : (tensor<?x?x64xf32>, tensor<16x64xf32>, tensor<16xf32>) -> tensor<?x?x16xf32>
  %3 = tcc.add %x, %2 : (tensor<?x?x16xf32>, tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  return %3 : tensor<?x?x16xf32>
}

// A matmul with ReLU, then more work in the group (a multiply) that reads
// the library's result.
// RUN: tcc-run %s --gemm-library-min-macs=0 --function=matmul_relu --input=7x13xf32=random --input=13x5xf32=random --input=7x5xf32=random --check-reference --atol=1e-4 | FileCheck %s --check-prefix=MM
// MM: [SUCCESS] result[0] matches the reference (7x5xf32)
func.func @matmul_relu(%a: tensor<7x13xf32>, %b: tensor<13x5xf32>, %s: tensor<7x5xf32>) -> tensor<7x5xf32> {
  %0 = tcc.matmul %a, %b : (tensor<7x13xf32>, tensor<13x5xf32>) -> tensor<7x5xf32>
  %1 = tcc.relu %0 : (tensor<7x5xf32>) -> tensor<7x5xf32>
  %2 = tcc.mul %1, %s : (tensor<7x5xf32>, tensor<7x5xf32>) -> tensor<7x5xf32>
  return %2 : tensor<7x5xf32>
}

// A constant weight with tanh GELU: prepacked on the first call and kept.
// With --benchmark the result compared is the last call's, which used the
// kept copy; another row count makes another primitive with the same
// packed weight's format.
// RUN: tcc-run %s --gemm-library-min-macs=0 --function=constant_weight --input=3x4xf32=random --check-reference --atol=1e-4 | FileCheck %s --check-prefix=CONST3
// CONST3: [SUCCESS] result[0] matches the reference (3x6xf32)
// RUN: tcc-run %s --gemm-library-min-macs=0 --function=constant_weight --input=40x4xf32=random --check-reference --atol=1e-4 --benchmark=3 | FileCheck %s --check-prefix=CONST40
// CONST40: [SUCCESS] result[0] matches the reference (40x6xf32)
func.func @constant_weight(%x: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %w = tcc.constant dense<[[0.1, -0.2, 0.3, 0.4], [0.5, -0.6, 0.7, 0.8], [0.9, 1.0, -1.1, 1.2], [-1.3, 1.4, 1.5, 1.6], [1.7, 1.8, 1.9, -2.0], [0.0, 0.25, -0.5, 1.0]]> : tensor<6x4xf32>
  %b = tcc.constant dense<[0.5, -0.5, 0.25, -0.25, 1.0, 0.0]> : tensor<6xf32>
  %0 = tcc.linear %x, %w, %b : (tensor<?x4xf32>, tensor<6x4xf32>, tensor<6xf32>) -> tensor<?x6xf32>
  %1 = tcc.gelu %0 {approximate = "tanh"} : (tensor<?x6xf32>) -> tensor<?x6xf32>
  return %1 : tensor<?x6xf32>
}

// No rows, and an empty sum (K = 0: bias + residual, then ReLU).
// RUN: tcc-run %s --gemm-library-min-macs=0 --function=residual_relu --input=0x8xf32=random --input=4x8xf32=random --input=4xf32=random --input=0x4xf32=random --check-reference | FileCheck %s --check-prefix=NO_ROWS
// NO_ROWS: [SUCCESS] result[0] matches the reference (0x4xf32)
// RUN: tcc-run %s --gemm-library-min-macs=0 --function=empty_sum --input=3x0xf32=random --input=4x0xf32=random --input=4xf32=random --input=3x4xf32=random --check-reference | FileCheck %s --check-prefix=EMPTY_SUM
// EMPTY_SUM: [SUCCESS] result[0] matches the reference (3x4xf32)
func.func @residual_relu(%x: tensor<?x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>, %r: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = tcc.add %0, %r : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = tcc.relu %1 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}
func.func @empty_sum(%x: tensor<?x?xf32>, %w: tensor<4x?xf32>, %b: tensor<4xf32>, %r: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x?xf32>, tensor<4x?xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = tcc.add %0, %r : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = tcc.relu %1 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}

// A residual whose rows differ from the product's: the entry guard says
// so before anything runs.
// RUN: not tcc-run %s --gemm-library-min-macs=0 --function=residual_relu --input=2x8xf32=random --input=4x8xf32=random --input=4xf32=random --input=3x4xf32=random 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: error: input 3 dim 0 must equal input 0 dim 0 (s0): 3 vs 2
