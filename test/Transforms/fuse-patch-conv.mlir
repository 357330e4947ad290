// RUN: tcc-opt %s --fuse --split-input-file | FileCheck %s
// RUN: tcc-opt %s --fuse="patch-convs=false" --split-input-file | FileCheck %s --check-prefix=OFF

// ViT's patch embedding (16x16, stride 16) over a dynamic batch: the
// image is cut into patches (reshape, transpose, reshape), one linear with
// the reshaped weight and the bias, and the result put back in NCHW.
// CHECK-LABEL: func.func @patch_embedding
//   CHECK-NOT:   tcc.conv2d
//       CHECK:   tcc.reshape %{{.+}} : (tensor<?x3x224x224xf32>) -> tensor<?x3x14x16x14x16xf32>
//       CHECK:   tcc.transpose %{{.+}} {permutation = array<i64: 0, 2, 4, 1, 3, 5>} : (tensor<?x3x14x16x14x16xf32>) -> tensor<?x14x14x3x16x16xf32>
//       CHECK:   tcc.reshape %{{.+}} : (tensor<?x14x14x3x16x16xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.reshape %{{.+}} : (tensor<768x3x16x16xf32>) -> tensor<768x768xf32>
//       CHECK:   tcc.linear %{{.+}}, %{{.+}}, %{{.+}} : (tensor<?x768xf32>, tensor<768x768xf32>, tensor<768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.reshape %{{.+}} : (tensor<?x768xf32>) -> tensor<?x14x14x768xf32>
//       CHECK:   tcc.transpose %{{.+}} {permutation = array<i64: 0, 3, 1, 2>} : (tensor<?x14x14x768xf32>) -> tensor<?x768x14x14xf32>
// OFF-LABEL: func.func @patch_embedding
//       OFF:   tcc.conv2d
func.func @patch_embedding(%x: tensor<?x3x224x224xf32>, %w: tensor<768x3x16x16xf32>,
                           %b: tensor<768xf32>) -> tensor<?x768x14x14xf32> {
  %y = tcc.conv2d %x, %w, %b {strides = array<i64: 16, 16>}
      : (tensor<?x3x224x224xf32>, tensor<768x3x16x16xf32>, tensor<768xf32>) -> tensor<?x768x14x14xf32>
  return %y : tensor<?x768x14x14xf32>
}

// -----

// Static batch, 2x2 patches without bias: N * 4 * 4 rows.
// CHECK-LABEL: func.func @static_patches
//       CHECK:   tcc.linear %{{.+}}, %{{.+}} : (tensor<32x32xf32>, tensor<16x32xf32>) -> tensor<32x16xf32>
func.func @static_patches(%x: tensor<2x8x8x8xf32>, %w: tensor<16x8x2x2xf32>) -> tensor<2x16x4x4xf32> {
  %y = tcc.conv2d %x, %w {strides = array<i64: 2, 2>}
      : (tensor<2x8x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<2x16x4x4xf32>
  return %y : tensor<2x16x4x4xf32>
}

// -----

// Not patches: padding, a stride other than the kernel, overlapping
// windows, groups, a 1x1 kernel (already a pointwise product), dynamic
// spatial dims. These stay convolutions.
// CHECK-LABEL: func.func @not_patches
// CHECK-COUNT-5: tcc.conv2d
//   CHECK-NOT:   tcc.linear
func.func @not_patches(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x2x2xf32>,
                       %wg: tensor<4x2x2x2xf32>, %w1: tensor<4x4x1x1xf32>,
                       %xd: tensor<1x4x?x?xf32>)
    -> (tensor<1x4x5x5xf32>, tensor<1x4x7x7xf32>, tensor<1x4x4x4xf32>,
        tensor<1x4x8x8xf32>, tensor<1x4x?x?xf32>) {
  %a = tcc.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>, tensor<4x4x2x2xf32>) -> tensor<1x4x5x5xf32>
  %b = tcc.conv2d %x, %w
      : (tensor<1x4x8x8xf32>, tensor<4x4x2x2xf32>) -> tensor<1x4x7x7xf32>
  %c = tcc.conv2d %x, %wg {strides = array<i64: 2, 2>, groups = 2 : i64}
      : (tensor<1x4x8x8xf32>, tensor<4x2x2x2xf32>) -> tensor<1x4x4x4xf32>
  %d = tcc.conv2d %x, %w1
      : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %e = tcc.conv2d %xd, %w {strides = array<i64: 2, 2>}
      : (tensor<1x4x?x?xf32>, tensor<4x4x2x2xf32>) -> tensor<1x4x?x?xf32>
  return %a, %b, %c, %d, %e : tensor<1x4x5x5xf32>, tensor<1x4x7x7xf32>, tensor<1x4x4x4xf32>, tensor<1x4x8x8xf32>, tensor<1x4x?x?xf32>
}
