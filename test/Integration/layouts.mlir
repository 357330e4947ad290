// Channels-last ops (layout = "NHWC", batch_norm's axis) and the layouts
// --select-layout chooses, against the reference evaluator (which runs
// the function as written). Generated code (--no-library) and oneDNN.

// Explicit NHWC ops: convolution (grouped, strided, dilated, bias), max
// and average pools with padding, batch norm over the last dim.
// RUN: tcc-run %s --function=nhwc_ops --input=2x9x9x4xf32=random --input=6x3x3x2xf32=random --input=6xf32=random --input=6xf32=random --check-reference --no-library | FileCheck %s --check-prefix=OPS
// RUN: tcc-run %s --function=nhwc_ops --input=2x9x9x4xf32=random --input=6x3x3x2xf32=random --input=6xf32=random --input=6xf32=random --check-reference | FileCheck %s --check-prefix=OPS
// OPS: [SUCCESS] result[0] matches the reference (2x4x2x6xf32)
// OPS: [SUCCESS] result[1] matches the reference (2x3x3x6xf32)
// The same computation written in NCHW between transposes, run by the
// reference evaluator's NCHW kernels, is what the NHWC code computes
// (reference and compiled, both code generators).
// RUN: tcc-run %s --function=nchw_form --input=2x9x9x4xf32=random --input=6x3x3x2xf32=random --input=6xf32=random --input=6xf32=random --reference --output=@%t.max.npy --output=@%t.avg.npy
// RUN: tcc-run %s --function=nhwc_ops --input=2x9x9x4xf32=random --input=6x3x3x2xf32=random --input=6xf32=random --input=6xf32=random --reference --expected_output=@%t.max.npy --expected_output=@%t.avg.npy | FileCheck %s --check-prefix=SAME
// RUN: tcc-run %s --function=nhwc_ops --input=2x9x9x4xf32=random --input=6x3x3x2xf32=random --input=6xf32=random --input=6xf32=random --no-library --expected_output=@%t.max.npy --expected_output=@%t.avg.npy | FileCheck %s --check-prefix=SAME
// SAME-COUNT-2: [SUCCESS]
func.func @nchw_form(%x: tensor<?x9x9x4xf32>, %w: tensor<6x3x3x2xf32>, %b: tensor<6xf32>, %s: tensor<6xf32>) -> (tensor<?x4x2x6xf32>, tensor<?x3x3x6xf32>) {
  %v = tcc.abs %s : (tensor<6xf32>) -> tensor<6xf32>
  %xc = tcc.transpose %x {permutation = array<i64: 0, 3, 1, 2>} : (tensor<?x9x9x4xf32>) -> tensor<?x4x9x9xf32>
  %wc = tcc.transpose %w {permutation = array<i64: 0, 3, 1, 2>} : (tensor<6x3x3x2xf32>) -> tensor<6x2x3x3xf32>
  %0 = tcc.conv2d %xc, %wc, %b {groups = 2 : i64, strides = array<i64: 1, 2>, padding = array<i64: 1, 0, 2, 1>, dilations = array<i64: 2, 1>} : (tensor<?x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<?x6x8x4xf32>
  %1 = tcc.batch_norm %0, %s, %b, %s, %v : (tensor<?x6x8x4xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<?x6x8x4xf32>
  %2 = tcc.max_pool2d %1 {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<?x6x8x4xf32>) -> tensor<?x6x4x2xf32>
  %3 = tcc.avg_pool2d %1 {kernel_size = array<i64: 3, 2>, strides = array<i64: 3, 2>, padding = array<i64: 1, 1>} : (tensor<?x6x8x4xf32>) -> tensor<?x6x3x3xf32>
  %4 = tcc.transpose %2 {permutation = array<i64: 0, 2, 3, 1>} : (tensor<?x6x4x2xf32>) -> tensor<?x4x2x6xf32>
  %5 = tcc.transpose %3 {permutation = array<i64: 0, 2, 3, 1>} : (tensor<?x6x3x3xf32>) -> tensor<?x3x3x6xf32>
  return %4, %5 : tensor<?x4x2x6xf32>, tensor<?x3x3x6xf32>
}
func.func @nhwc_ops(%x: tensor<?x9x9x4xf32>, %w: tensor<6x3x3x2xf32>, %b: tensor<6xf32>, %s: tensor<6xf32>) -> (tensor<?x4x2x6xf32>, tensor<?x3x3x6xf32>) {
  %v = tcc.abs %s : (tensor<6xf32>) -> tensor<6xf32>
  %0 = tcc.conv2d %x, %w, %b {layout = "NHWC", groups = 2 : i64, strides = array<i64: 1, 2>, padding = array<i64: 1, 0, 2, 1>, dilations = array<i64: 2, 1>} : (tensor<?x9x9x4xf32>, tensor<6x3x3x2xf32>, tensor<6xf32>) -> tensor<?x8x4x6xf32>
  %1 = tcc.batch_norm %0, %s, %b, %s, %v {axis = 3 : i64} : (tensor<?x8x4x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<?x8x4x6xf32>
  %2 = tcc.max_pool2d %1 {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, layout = "NHWC"} : (tensor<?x8x4x6xf32>) -> tensor<?x4x2x6xf32>
  %3 = tcc.avg_pool2d %1 {kernel_size = array<i64: 3, 2>, strides = array<i64: 3, 2>, padding = array<i64: 1, 1>, layout = "NHWC"} : (tensor<?x8x4x6xf32>) -> tensor<?x3x3x6xf32>
  return %2, %3 : tensor<?x4x2x6xf32>, tensor<?x3x3x6xf32>
}

// A ResNet stage in NCHW as written: --select-layout makes it
// channels-last (conv, batch norm, residual, pool, global average), the
// reference runs it as written. Dynamic batch and spatial sizes.
// RUN: tcc-opt %s --tcc-to-linalg 2>&1 | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @stage
// IR: tcc_lib.conv2d {{.+}} into memref<?x16x?x?xf32, strided<[?, 1, ?, 16]
// RUN: tcc-run %s --function=stage --input=2x16x12x10xf32=random --input=16xf32=random --check-reference | FileCheck %s --check-prefix=STAGE
// Generated code only (the cost model keeps NCHW there).
// RUN: tcc-run %s --function=stage --input=3x16x7x9xf32=random --input=16xf32=random --check-reference --no-library | FileCheck %s --check-prefix=STAGE
// STAGE: [SUCCESS] result[0] matches the reference
func.func @stage(%x: tensor<?x16x?x?xf32>, %s: tensor<16xf32>) -> tensor<?x16xf32> {
  %w1 = tcc.constant dense<[[[[0.1, -0.2, 0.05]]]]> : tensor<1x1x1x3xf32>
  %w1b = tcc.broadcast_to %w1 : (tensor<1x1x1x3xf32>) -> tensor<16x16x3x3xf32>
  %w2 = tcc.constant dense<0.02> : tensor<16x16x1x1xf32>
  %v = tcc.abs %s : (tensor<16xf32>) -> tensor<16xf32>
  %0 = tcc.conv2d %x, %w1b {padding = array<i64: 1, 1>} : (tensor<?x16x?x?xf32>, tensor<16x16x3x3xf32>) -> tensor<?x16x?x?xf32>
  %1 = tcc.batch_norm %0, %s, %s, %s, %v : (tensor<?x16x?x?xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x?x?xf32>
  %2 = tcc.relu %1 : (tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  %3 = tcc.conv2d %2, %w2 : (tensor<?x16x?x?xf32>, tensor<16x16x1x1xf32>) -> tensor<?x16x?x?xf32>
  %4 = tcc.add %3, %x : (tensor<?x16x?x?xf32>, tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  %5 = tcc.relu %4 : (tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  %6 = tcc.max_pool2d %5 {kernel_size = array<i64: 2, 2>} : (tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  %7 = tcc.reduce_mean %6 {axes = array<i64: 2, 3>} : (tensor<?x16x?x?xf32>) -> tensor<?x16xf32>
  return %7 : tensor<?x16xf32>
}
