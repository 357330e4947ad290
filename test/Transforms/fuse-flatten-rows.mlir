// RUN: tcc-opt %s --fuse --split-input-file | FileCheck %s
// RUN: tcc-opt %s --fuse="flatten-rows=false" --split-input-file | FileCheck %s --check-prefix=OFF

// convnext's MLP over NHWC pixels (a dynamic batch of 4x4 images): one
// product of all B * 16 rows, whose weight is then read once, the result
// put back in shape; the bias and GELU follow it.
// CHECK-LABEL: func.func @pixels_matmul
//       CHECK:   tcc.reshape %{{.+}} : (tensor<?x4x4x384xf32>) -> tensor<?x384xf32>
//       CHECK:   tcc.matmul %{{.+}}, %{{.+}} : (tensor<?x384xf32>, tensor<384x1536xf32>) -> tensor<?x1536xf32>
//       CHECK:   tcc.reshape %{{.+}} : (tensor<?x1536xf32>) -> tensor<?x4x4x1536xf32>
//       CHECK:   tcc.gelu
// OFF-LABEL: func.func @pixels_matmul
//   OFF-NOT:   tcc.reshape
//       OFF:   tcc.matmul %{{.+}}, %{{.+}} : (tensor<?x4x4x384xf32>, tensor<384x1536xf32>) -> tensor<?x4x4x1536xf32>
func.func @pixels_matmul(%x: tensor<?x4x4x384xf32>, %w: tensor<384x1536xf32>,
                         %b: tensor<1536xf32>) -> tensor<?x4x4x1536xf32> {
  %y = tcc.matmul %x, %w : (tensor<?x4x4x384xf32>, tensor<384x1536xf32>) -> tensor<?x4x4x1536xf32>
  %z = tcc.add %y, %b : (tensor<?x4x4x1536xf32>, tensor<1536xf32>) -> tensor<?x4x4x1536xf32>
  %g = tcc.gelu %z : (tensor<?x4x4x1536xf32>) -> tensor<?x4x4x1536xf32>
  return %g : tensor<?x4x4x1536xf32>
}

// -----

// A linear over a static batch of two sequences: 2 x 8 rows, the bias
// kept.
// CHECK-LABEL: func.func @static_batch_linear
//       CHECK:   tcc.reshape %{{.+}} : (tensor<2x8x64xf32>) -> tensor<16x64xf32>
//       CHECK:   tcc.linear %{{.+}}, %{{.+}}, %{{.+}} : (tensor<16x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<16x32xf32>
//       CHECK:   tcc.reshape %{{.+}} : (tensor<16x32xf32>) -> tensor<2x8x32xf32>
func.func @static_batch_linear(%x: tensor<2x8x64xf32>, %w: tensor<32x64xf32>,
                               %b: tensor<32xf32>) -> tensor<2x8x32xf32> {
  %y = tcc.linear %x, %w, %b : (tensor<2x8x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  return %y : tensor<2x8x32xf32>
}

// -----

// These stay: a sequence of a unit or open batch (already one matrix of
// rows), two open dims (one reshape could not infer both), a batched
// weight, a rank-2 input.
// CHECK-LABEL: func.func @kept
//   CHECK-NOT:   tcc.reshape
//       CHECK:   tcc.linear %{{.+}} : (tensor<1x?x64xf32>, tensor<32x64xf32>) -> tensor<1x?x32xf32>
//       CHECK:   tcc.linear %{{.+}} : (tensor<?x17x64xf32>, tensor<32x64xf32>) -> tensor<?x17x32xf32>
//       CHECK:   tcc.linear %{{.+}} : (tensor<?x?x4x64xf32>, tensor<32x64xf32>) -> tensor<?x?x4x32xf32>
//       CHECK:   tcc.matmul %{{.+}} : (tensor<2x2x8x64xf32>, tensor<2x64x32xf32>) -> tensor<2x2x8x32xf32>
//       CHECK:   tcc.linear %{{.+}} : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
func.func @kept(%s: tensor<1x?x64xf32>, %v: tensor<?x17x64xf32>,
                %d: tensor<?x?x4x64xf32>, %m: tensor<2x2x8x64xf32>,
                %wb: tensor<2x64x32xf32>, %r: tensor<8x64xf32>,
                %w: tensor<32x64xf32>)
    -> (tensor<1x?x32xf32>, tensor<?x17x32xf32>, tensor<?x?x4x32xf32>,
        tensor<2x2x8x32xf32>, tensor<8x32xf32>) {
  %0 = tcc.linear %s, %w : (tensor<1x?x64xf32>, tensor<32x64xf32>) -> tensor<1x?x32xf32>
  %1 = tcc.linear %v, %w : (tensor<?x17x64xf32>, tensor<32x64xf32>) -> tensor<?x17x32xf32>
  %2 = tcc.linear %d, %w : (tensor<?x?x4x64xf32>, tensor<32x64xf32>) -> tensor<?x?x4x32xf32>
  %3 = tcc.matmul %m, %wb : (tensor<2x2x8x64xf32>, tensor<2x64x32xf32>) -> tensor<2x2x8x32xf32>
  %4 = tcc.linear %r, %w : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
  return %0, %1, %2, %3, %4 : tensor<1x?x32xf32>, tensor<?x17x32xf32>, tensor<?x?x4x32xf32>, tensor<2x2x8x32xf32>, tensor<8x32xf32>
}
