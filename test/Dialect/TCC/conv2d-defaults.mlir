// RUN: tcc-opt %s | tcc-opt | FileCheck %s

// conv2d with strides and/or dilations absent: the defaults are 1. Type
// inference must use them (see /tmp/bugs2/conv2d_default_strides_dilations.mlir:
// the defaults were read through dangling ArrayRefs).

// CHECK-LABEL: func.func @no_attributes
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
func.func @no_attributes(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = tcc.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// CHECK-LABEL: func.func @padding_only
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1, 1, 1>} : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
func.func @padding_only(%x: tensor<?x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
  return %0 : tensor<?x64x56x56xf32>
}

// CHECK-LABEL: func.func @strides_only
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
func.func @strides_only(%x: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %0 = tcc.conv2d %x, %w, %b {strides = array<i64: 2, 2>}
      : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func.func @dilations_only
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 2, 2>, groups = 2 : i64} : (tensor<1x4x9x9xf16>, tensor<6x2x3x3xf16>) -> tensor<1x6x5x5xf16>
func.func @dilations_only(%x: tensor<1x4x9x9xf16>, %w: tensor<6x2x3x3xf16>) -> tensor<1x6x5x5xf16> {
  %0 = tcc.conv2d %x, %w {dilations = array<i64: 2, 2>, groups = 2 : i64}
      : (tensor<1x4x9x9xf16>, tensor<6x2x3x3xf16>) -> tensor<1x6x5x5xf16>
  return %0 : tensor<1x6x5x5xf16>
}
