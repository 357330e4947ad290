// RUN: not tcc-opt %s --fuse --plan-memory=alignment=3 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: not tcc-opt %s --plan-memory=target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not tcc-opt %s --plan-memory=strategy=random 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not tcc-opt %s --plan-memory=report-sizes=B 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: not tcc-opt %s --plan-memory=alignment=-64 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not tcc-opt %s --pass-pipeline='builtin.module(plan-memory{alignment=96})' 2>&1 | FileCheck %s --check-prefix=NINETYSIX

// Alignments that are not a positive power of two are rejected, and the
// message says which value was given (see
// /tmp/bugs2/plan_memory_alignment_message.mlir: the value was missing).

// THREE: error: plan-memory: alignment must be a positive power of two, got 3{{$}}
// NEG: error: plan-memory: alignment must be a positive power of two, got -64{{$}}
// TARGET: error: plan-memory: unknown target 'tpu' (expected cpu or cuda)
// STRATEGY: error: plan-memory: unknown strategy 'random'
// SIZES: error: plan-memory: report-sizes entry 'B' is not NAME=VALUE
// NINETYSIX: error: plan-memory: alignment must be a positive power of two, got 96{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tcc.relu %1 : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
