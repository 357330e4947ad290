// REQUIRES: dnnl
// The cpu pipeline's library convolutions (oneDNN, lib/Runtime/
// DNNLConv.cpp) against the reference evaluator: the epilogue oneDNN takes
// along (bias, residual add, ReLU), a constant weight repacked once and
// reused by later calls, batch sizes that change between calls of one
// compiled function, and channels-last views.

// conv + bias + residual + ReLU in one oneDNN call: nothing else runs,
// and the call writes the result's planned place in the arena (no heap
// allocation but the result's).
// RUN: tcc-run %s --function=stacked --input=2x8x9x9xf32=random --input=8x8x3x3xf32=random --count-allocations --check-reference | FileCheck %s --check-prefix=STACKED
// STACKED: heap allocations per call: 2 (results: 1)
// STACKED: [SUCCESS] result[0] matches the reference (2x8x9x9xf32)
// RUN: tcc-opt %s --tcc-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=IR
// IR-LABEL: llvm.func @residual_block
// IR-COUNT-1: llvm.call @tccHostConv
// IR-LABEL: llvm.func @constant_weight
// RUN: tcc-run %s --function=residual_block --input=2x8x9x9xf32=random --input=8x8x3x3xf32=random --input=8xf32=random --input=2x8x9x9xf32=random --check-reference | FileCheck %s --check-prefix=RESIDUAL
// RESIDUAL: [SUCCESS] result[0] matches the reference (2x8x9x9xf32)
func.func @residual_block(%x: tensor<?x8x9x9xf32>, %w: tensor<8x8x3x3xf32>, %b: tensor<8xf32>, %r: tensor<?x8x9x9xf32>) -> tensor<?x8x9x9xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : (tensor<?x8x9x9xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>) -> tensor<?x8x9x9xf32>
  %1 = tcc.add %0, %r : (tensor<?x8x9x9xf32>, tensor<?x8x9x9xf32>) -> tensor<?x8x9x9xf32>
  %2 = tcc.relu %1 : (tensor<?x8x9x9xf32>) -> tensor<?x8x9x9xf32>
  return %2 : tensor<?x8x9x9xf32>
}

// A constant weight (grouped, strided): repacked on the first call and
// kept. With --benchmark the result compared is the last call's, which
// used the kept copy; a second batch size makes a second primitive.
// RUN: tcc-run %s --function=constant_weight --input=1x3x10x10xf32=random --check-reference | FileCheck %s --check-prefix=CONST1
// CONST1: [SUCCESS] result[0] matches the reference (1x6x5x5xf32)
// RUN: tcc-run %s --function=constant_weight --input=5x3x10x10xf32=random --check-reference --benchmark=3 | FileCheck %s --check-prefix=CONST5
// CONST5: [SUCCESS] result[0] matches the reference (5x6x5x5xf32)
func.func @constant_weight(%x: tensor<?x3x10x10xf32>) -> tensor<?x6x5x5xf32> {
  %w = tcc.constant dense<[[[[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [0.7, 0.8, 0.9]]], [[[-0.1, 0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, -0.9]]], [[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]], [[[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]]], [[[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]], [[[0.3, 0.2, 0.1], [0.0, -0.1, -0.2], [-0.3, -0.4, -0.5]]]]> : tensor<6x1x3x3xf32>
  %b = tcc.constant dense<[0.5, -0.5, 0.25, -0.25, 1.0, 0.0]> : tensor<6xf32>
  %0 = tcc.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 3 : i64} : (tensor<?x3x10x10xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<?x6x5x5xf32>
  return %0 : tensor<?x6x5x5xf32>
}

// Channels-last activations: the convolution reads and writes NHWC views
// (oneDNN takes the strides as they are).
// RUN: tcc-run %s --function=channels_last --input=2x7x7x4xf32=random --input=8x4x3x3xf32=random --check-reference | FileCheck %s --check-prefix=NHWC
// NHWC: [SUCCESS] result[0] matches the reference (2x7x7x8xf32)
func.func @channels_last(%x: tensor<?x7x7x4xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<?x7x7x8xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 3, 1, 2>} : (tensor<?x7x7x4xf32>) -> tensor<?x4x7x7xf32>
  %1 = tcc.conv2d %0, %w {padding = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<?x4x7x7xf32>, tensor<8x4x3x3xf32>) -> tensor<?x8x7x7xf32>
  %2 = tcc.relu %1 : (tensor<?x8x7x7xf32>) -> tensor<?x8x7x7xf32>
  %3 = tcc.transpose %2 {permutation = array<i64: 0, 2, 3, 1>} : (tensor<?x8x7x7xf32>) -> tensor<?x7x7x8xf32>
  return %3 : tensor<?x7x7x8xf32>
}

// Two convolutions in a row: the first's result is an intermediate, planned
// in the arena (one allocation) and written there by oneDNN.
func.func @stacked(%x: tensor<?x8x9x9xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<?x8x9x9xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<?x8x9x9xf32>, tensor<8x8x3x3xf32>) -> tensor<?x8x9x9xf32>
  %1 = tcc.relu %0 : (tensor<?x8x9x9xf32>) -> tensor<?x8x9x9xf32>
  %2 = tcc.conv2d %1, %w {padding = array<i64: 1, 1>} : (tensor<?x8x9x9xf32>, tensor<8x8x3x3xf32>) -> tensor<?x8x9x9xf32>
  return %2 : tensor<?x8x9x9xf32>
}

// Zero input channels (a dynamic C of 0): the sum is empty and the runtime
// writes activation(bias + residual) itself (oneDNN wants C > 0).
// RUN: tcc-run %s --function=zero_channels --input=2x0x5x5xf32=random --input=3x0x3x3xf32=random --input=3xf32=random --input=2x3x5x5xf32=random --check-reference | FileCheck %s --check-prefix=ZERO
// RUN: tcc-run %s --function=zero_channels --input=2x4x5x5xf32=random --input=3x4x3x3xf32=random --input=3xf32=random --input=2x3x5x5xf32=random --check-reference | FileCheck %s --check-prefix=ZERO
// ZERO: [SUCCESS] result[0] matches the reference (2x3x5x5xf32)
func.func @zero_channels(%x: tensor<2x?x5x5xf32>, %w: tensor<3x?x3x3xf32>, %b: tensor<3xf32>, %r: tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : (tensor<2x?x5x5xf32>, tensor<3x?x3x3xf32>, tensor<3xf32>) -> tensor<2x3x5x5xf32>
  %1 = tcc.add %0, %r : (tensor<2x3x5x5xf32>, tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
  %2 = tcc.relu %1 : (tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
  return %2 : tensor<2x3x5x5xf32>
}
