// tcc.conv2d (padding, strides, dilations, groups, bias) and
// tcc.max_pool2d / tcc.avg_pool2d (strides, padding): compiled vs reference,
// static and dynamic shapes. Each convolution runs twice: through oneDNN
// (the default where tcc has it) and as generated code (--no-library).

// 3x3, padding 1, no bias, dynamic batch.
// RUN: tcc-run %s --function=conv_basic --input=2x3x8x8xf32=random --input=4x3x3x3xf32=random --check-reference | FileCheck %s --check-prefix=CONV_BASIC
// RUN: tcc-run %s --function=conv_basic --input=2x3x8x8xf32=random --input=4x3x3x3xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_BASIC
// CONV_BASIC: [SUCCESS] result[0] matches the reference (2x4x8x8xf32)
func.func @conv_basic(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// Stride 2, [ph, pw] padding form, bias, static.
// RUN: tcc-run %s --function=conv_stride2_bias --input=2x3x9x9xf32=random --input=6x3x3x3xf32=random --input=6xf32=random --check-reference | FileCheck %s --check-prefix=CONV_S2
// RUN: tcc-run %s --function=conv_stride2_bias --input=2x3x9x9xf32=random --input=6x3x3x3xf32=random --input=6xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_S2
// CONV_S2: [SUCCESS] result[0] matches the reference (2x6x5x5xf32)
func.func @conv_stride2_bias(%x: tensor<2x3x9x9xf32>, %w: tensor<6x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<2x6x5x5xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x9x9xf32>, tensor<6x3x3x3xf32>, tensor<6xf32>) -> tensor<2x6x5x5xf32>
  return %0 : tensor<2x6x5x5xf32>
}

// Asymmetric padding [top, left, bottom, right] = [0, 1, 2, 1], non-square kernel,
// different strides per dim.
// RUN: tcc-run %s --function=conv_asym --input=1x2x7x6xf32=random --input=3x2x3x2xf32=random --check-reference | FileCheck %s --check-prefix=CONV_ASYM
// RUN: tcc-run %s --function=conv_asym --input=1x2x7x6xf32=random --input=3x2x3x2xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_ASYM
// CONV_ASYM: [SUCCESS] result[0] matches the reference (1x3x4x7xf32)
func.func @conv_asym(%x: tensor<1x2x7x6xf32>, %w: tensor<3x2x3x2xf32>) -> tensor<1x3x4x7xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 0, 1, 2, 1>, strides = array<i64: 2, 1>} : (tensor<1x2x7x6xf32>, tensor<3x2x3x2xf32>) -> tensor<1x3x4x7xf32>
  return %0 : tensor<1x3x4x7xf32>
}

// Dilation 2 with padding 2 (same size), bias.
// RUN: tcc-run %s --function=conv_dilation --input=2x2x10x10xf32=random --input=4x2x3x3xf32=random --input=4xf32=random --check-reference | FileCheck %s --check-prefix=CONV_DIL
// RUN: tcc-run %s --function=conv_dilation --input=2x2x10x10xf32=random --input=4x2x3x3xf32=random --input=4xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_DIL
// CONV_DIL: [SUCCESS] result[0] matches the reference (2x4x10x10xf32)
func.func @conv_dilation(%x: tensor<?x2x10x10xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x4x10x10xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>} : (tensor<?x2x10x10xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<?x4x10x10xf32>
  return %0 : tensor<?x4x10x10xf32>
}

// groups = 2 with bias, no padding.
// RUN: tcc-run %s --function=conv_groups2 --input=2x4x6x6xf32=random --input=6x2x3x3xf32=random --input=6xf32=random --check-reference | FileCheck %s --check-prefix=CONV_G2
// RUN: tcc-run %s --function=conv_groups2 --input=2x4x6x6xf32=random --input=6x2x3x3xf32=random --input=6xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_G2
// CONV_G2: [SUCCESS] result[0] matches the reference (2x6x4x4xf32)
func.func @conv_groups2(%x: tensor<?x4x6x6xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<?x6x4x4xf32> {
  %0 = tcc.conv2d %x, %w, %b {groups = 2 : i64} : (tensor<?x4x6x6xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<?x6x4x4xf32>
  return %0 : tensor<?x6x4x4xf32>
}

// Depthwise (groups = channels), padding 1, stride 2.
// RUN: tcc-run %s --function=conv_depthwise --input=2x4x7x7xf32=random --input=4x1x3x3xf32=random --check-reference | FileCheck %s --check-prefix=CONV_DW
// RUN: tcc-run %s --function=conv_depthwise --input=2x4x7x7xf32=random --input=4x1x3x3xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_DW
// CONV_DW: [SUCCESS] result[0] matches the reference (2x4x4x4xf32)
func.func @conv_depthwise(%x: tensor<?x4x7x7xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<?x4x4x4xf32> {
  %0 = tcc.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x4x7x7xf32>, tensor<4x1x3x3xf32>) -> tensor<?x4x4x4xf32>
  return %0 : tensor<?x4x4x4xf32>
}

// 1x1 convolution with stride 2 (ResNet downsample shortcut).
// RUN: tcc-run %s --function=conv_1x1 --input=2x8x7x7xf32=random --input=16x8x1x1xf32=random --check-reference | FileCheck %s --check-prefix=CONV_1X1
// RUN: tcc-run %s --function=conv_1x1 --input=2x8x7x7xf32=random --input=16x8x1x1xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_1X1
// CONV_1X1: [SUCCESS] result[0] matches the reference (2x16x4x4xf32)
func.func @conv_1x1(%x: tensor<?x8x7x7xf32>, %w: tensor<16x8x1x1xf32>) -> tensor<?x16x4x4xf32> {
  %0 = tcc.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<?x8x7x7xf32>, tensor<16x8x1x1xf32>) -> tensor<?x16x4x4xf32>
  return %0 : tensor<?x16x4x4xf32>
}

// Dynamic spatial dims.
// RUN: tcc-run %s --function=conv_dyn_hw --input=2x3x11x9xf32=random --input=4x3x3x3xf32=random --input=4xf32=random --check-reference | FileCheck %s --check-prefix=CONV_DYN_HW
// RUN: tcc-run %s --function=conv_dyn_hw --input=2x3x11x9xf32=random --input=4x3x3x3xf32=random --input=4xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_DYN_HW
// CONV_DYN_HW: [SUCCESS] result[0] matches the reference (2x4x6x5xf32)
func.func @conv_dyn_hw(%x: tensor<?x3x?x?xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x4x?x?xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x3x?x?xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x?x?xf32>
  return %0 : tensor<?x4x?x?xf32>
}

// conv -> bias-free batch_norm-like affine -> relu (a fused epilogue).
// RUN: tcc-run %s --function=conv_relu --input=1x3x6x6xf32=random --input=5x3x3x3xf32=random --input=5xf32=random --check-reference | FileCheck %s --check-prefix=CONV_RELU
// RUN: tcc-run %s --function=conv_relu --input=1x3x6x6xf32=random --input=5x3x3x3xf32=random --input=5xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_RELU
// CONV_RELU: [SUCCESS] result[0] matches the reference (1x5x6x6xf32)
func.func @conv_relu(%x: tensor<?x3x6x6xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<?x5x6x6xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<?x3x6x6xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<?x5x6x6xf32>
  %1 = tcc.relu %0 : (tensor<?x5x6x6xf32>) -> tensor<?x5x6x6xf32>
  return %1 : tensor<?x5x6x6xf32>
}

// ---- pooling ---------------------------------------------------------------------------

// RUN: tcc-run %s --function=max_pool_2x2 --input=2x3x8x8xf32=random --check-reference | FileCheck %s --check-prefix=MAXPOOL_2X2
// MAXPOOL_2X2: [SUCCESS] result[0] matches the reference (2x3x4x4xf32)
func.func @max_pool_2x2(%x: tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32> {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
}

// 3x3 stride 2 padding 1 (ResNet stem) on all-negative input: the padding
// must act as -inf, not 0.
// RUN: tcc-run %s --function=max_pool_pad --input=2x4x9x9xf32=random --check-reference | FileCheck %s --check-prefix=MAXPOOL_PAD
// MAXPOOL_PAD: [SUCCESS] result[0] matches the reference (2x4x5x5xf32)
func.func @max_pool_pad(%x: tensor<?x4x9x9xf32>) -> tensor<?x4x5x5xf32> {
  %one = tcc.constant dense<1.0> : tensor<f32>
  %a = tcc.abs %x : (tensor<?x4x9x9xf32>) -> tensor<?x4x9x9xf32>
  %n = tcc.neg %a : (tensor<?x4x9x9xf32>) -> tensor<?x4x9x9xf32>
  %m = tcc.sub %n, %one : (tensor<?x4x9x9xf32>, tensor<f32>) -> tensor<?x4x9x9xf32>
  %0 = tcc.max_pool2d %m {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<?x4x9x9xf32>) -> tensor<?x4x5x5xf32>
  return %0 : tensor<?x4x5x5xf32>
}

// Window that does not divide the input (floor), static.
// RUN: tcc-run %s --function=max_pool_floor --input=1x2x7x7xf32=random --check-reference | FileCheck %s --check-prefix=MAXPOOL_FLOOR
// MAXPOOL_FLOOR: [SUCCESS] result[0] matches the reference (1x2x3x3xf32)
func.func @max_pool_floor(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32> {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// RUN: tcc-run %s --function=avg_pool_2x2 --input=2x3x4x6xf32=random --check-reference | FileCheck %s --check-prefix=AVGPOOL_2X2
// AVGPOOL_2X2: [SUCCESS] result[0] matches the reference (2x3x2x3xf32)
func.func @avg_pool_2x2(%x: tensor<2x3x4x6xf32>) -> tensor<2x3x2x3xf32> {
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<2x3x4x6xf32>) -> tensor<2x3x2x3xf32>
  return %0 : tensor<2x3x2x3xf32>
}

// 3x3 stride 1 padding 1: border windows divide by the non-padded count.
// RUN: tcc-run %s --function=avg_pool_pad --input=2x2x5x5xf32=random --check-reference | FileCheck %s --check-prefix=AVGPOOL_PAD
// AVGPOOL_PAD: [SUCCESS] result[0] matches the reference (2x2x5x5xf32)
func.func @avg_pool_pad(%x: tensor<?x2x5x5xf32>) -> tensor<?x2x5x5xf32> {
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x2x5x5xf32>) -> tensor<?x2x5x5xf32>
  return %0 : tensor<?x2x5x5xf32>
}

// Asymmetric padding [top, left, bottom, right] = [1, 0, 0, 1].
// RUN: tcc-run %s --function=avg_max_pool_asym --input=1x2x5x5xf32=random --check-reference | FileCheck %s --check-prefix=POOL_ASYM
// POOL_ASYM: [SUCCESS] result[0] matches the reference (1x2x3x3xf32)
// POOL_ASYM: [SUCCESS] result[1] matches the reference (1x2x3x3xf32)
func.func @avg_max_pool_asym(%x: tensor<1x2x5x5xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %1 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %0, %1 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// Dynamic spatial dims, overlapping windows (kernel 3, stride 2).
// RUN: tcc-run %s --function=pool_dyn_hw --input=2x3x9x7xf32=random --check-reference | FileCheck %s --check-prefix=POOL_DYN_HW
// POOL_DYN_HW: [SUCCESS] result[0] matches the reference (2x3x4x3xf32)
// POOL_DYN_HW: [SUCCESS] result[1] matches the reference (2x3x4x3xf32)
func.func @pool_dyn_hw(%x: tensor<?x3x?x?xf32>) -> (tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32>) {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  %1 = tcc.avg_pool2d %x {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  return %0, %1 : tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32>
}

// A patch embedding (stride = kernel, with bias, dynamic batch): --fuse
// makes it a linear over the patches; compiled vs the reference's direct
// convolution.
// RUN: tcc-run %s --function=conv_patches --input=3x3x32x48xf32=random --input=64x3x16x16xf32=random --input=64xf32=random --check-reference | FileCheck %s --check-prefix=PATCHES
// RUN: tcc-run %s --function=conv_patches --input=3x3x32x48xf32=random --input=64x3x16x16xf32=random --input=64xf32=random --check-reference --no-library | FileCheck %s --check-prefix=PATCHES
// PATCHES: [SUCCESS] result[0] matches the reference (3x64x2x3xf32)
func.func @conv_patches(%x: tensor<?x3x32x48xf32>, %w: tensor<64x3x16x16xf32>, %b: tensor<64xf32>) -> tensor<?x64x2x3xf32> {
  %0 = tcc.conv2d %x, %w, %b {strides = array<i64: 16, 16>} : (tensor<?x3x32x48xf32>, tensor<64x3x16x16xf32>, tensor<64xf32>) -> tensor<?x64x2x3xf32>
  return %0 : tensor<?x64x2x3xf32>
}

// A 1x1 convolution with a dynamic width whose last 32-column tile is
// partial, over more than one row: the edge tile's rank-reducing slices
// have dynamic sizes (generated code read and wrote the wrong row before
// they were made explicit; oneDNN was right).
// RUN: tcc-run %s --function=conv_1x1_dyn_w --input=3x16x7x9xf32=random --input=16x16x1x1xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_1X1_DYN
// RUN: tcc-run %s --function=conv_1x1_dyn_w --input=2x16x3x41xf32=random --input=16x16x1x1xf32=random --check-reference --no-library | FileCheck %s --check-prefix=CONV_1X1_DYN
// RUN: tcc-run %s --function=conv_1x1_dyn_w --input=3x16x7x9xf32=random --input=16x16x1x1xf32=random --check-reference | FileCheck %s --check-prefix=CONV_1X1_DYN
// CONV_1X1_DYN: [SUCCESS] result[0] matches the reference
func.func @conv_1x1_dyn_w(%x: tensor<?x16x?x?xf32>, %w: tensor<16x16x1x1xf32>) -> tensor<?x16x?x?xf32> {
  %0 = tcc.conv2d %x, %w : (tensor<?x16x?x?xf32>, tensor<16x16x1x1xf32>) -> tensor<?x16x?x?xf32>
  return %0 : tensor<?x16x?x?xf32>
}
