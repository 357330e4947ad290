// The old pass names are aliases of the tcc- ones, with the same options:
// both spellings give the same output.
// RUN: tcc-opt %s --fuse="report=true" --plan-memory --verify-memory-plan 2>&1 > %t.alias.mlir | FileCheck %s --check-prefix=REPORT
// RUN: tcc-opt %s --tcc-fuse="report=true" --tcc-plan-memory --tcc-verify-memory-plan 2>&1 > %t.tcc.mlir | FileCheck %s --check-prefix=REPORT
// RUN: diff %t.alias.mlir %t.tcc.mlir
// RUN: tcc-opt %s --pass-pipeline="builtin.module(func.func(symbolic-shapes),fuse{report=false})" | FileCheck %s
// RUN: not tcc-opt %s --fuse="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=BAD
// REPORT: fuse: {{.*}}group
// CHECK: fusion.group
// BAD: no-such-option
func.func @f(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = tcc.relu %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
