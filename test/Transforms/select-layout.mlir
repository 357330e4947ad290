// RUN: tcc-opt %s --select-layout --canonicalize --split-input-file --verify-diagnostics | FileCheck %s
// RUN: tcc-opt %s --select-layout="target=cuda" --canonicalize --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=CUDA
// RUN: tcc-opt %s --select-layout="library=false" --canonicalize --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=GENERATED

// A ResNet stage on the cpu (oneDNN): both convolutions go channels-last.
// The only relayouts left are the input's (one transpose) and the
// constant weights' (folded: OHWI constants). The transposes between the
// ops cancel: batch norm takes its channels at dim 3, the pool is NHWC,
// the residual add and ReLU run on NHWC values. A reduction over the
// channels follows the layout (dim 3, nothing transposed after it); the
// global average pool, a row reduction over H and W, stays one: the small
// pooled tensor is transposed back instead.
// CHECK-LABEL: func.func @stage
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x16x?x?xf32>
//   CHECK-DAG:   %[[W1:.+]] = tcc.constant dense<{{.+}}> : tensor<16x3x3x16xf32>
//   CHECK-DAG:   %[[W2:.+]] = tcc.constant dense<{{.+}}> : tensor<16x1x1x16xf32>
//       CHECK:   %[[XT:.+]] = tcc.transpose %[[X]] {permutation = array<i64: 0, 2, 3, 1>} : (tensor<?x16x?x?xf32>) -> tensor<?x?x?x16xf32>
//       CHECK:   %[[C1:.+]] = tcc.conv2d %[[XT]], %[[W1]] {layout = "NHWC", padding = array<i64: 1, 1>}
//       CHECK:   %[[BN:.+]] = tcc.batch_norm %[[C1]], {{.+}} {axis = 3 : i64}
//       CHECK:   %[[R1:.+]] = tcc.relu %[[BN]] : (tensor<?x?x?x16xf32>) -> tensor<?x?x?x16xf32>
//       CHECK:   %[[C2:.+]] = tcc.conv2d %[[R1]], %[[W2]] {layout = "NHWC"}
//       CHECK:   %[[ADD:.+]] = tcc.add %[[C2]], %[[XT]] : (tensor<?x?x?x16xf32>, tensor<?x?x?x16xf32>) -> tensor<?x?x?x16xf32>
//       CHECK:   %[[R2:.+]] = tcc.relu %[[ADD]]
//       CHECK:   %[[P:.+]] = tcc.max_pool2d %[[R2]] {kernel_size = array<i64: 2, 2>, layout = "NHWC"} : (tensor<?x?x?x16xf32>) -> tensor<?x?x?x16xf32>
//   CHECK-DAG:   %[[PT:.+]] = tcc.transpose %[[P]] {permutation = array<i64: 0, 3, 1, 2>}
//   CHECK-DAG:   %[[M:.+]] = tcc.reduce_mean %[[PT]] {axes = array<i64: 2, 3>} : (tensor<?x16x?x?xf32>) -> tensor<?x16xf32>
//   CHECK-DAG:   %[[C:.+]] = tcc.reduce_max %[[P]] {axes = array<i64: 3>} : (tensor<?x?x?x16xf32>) -> tensor<?x?x?xf32>
//       CHECK:   return %[[M]], %[[C]]
// The cuda target with f32 (cuDNN is as fast in both layouts) and
// generated code: nothing changes.
// CUDA-LABEL: func.func @stage
//   CUDA-NOT:   tcc.transpose
//   CUDA-NOT:   layout = "NHWC"
//   CUDA:       return
// GENERATED-LABEL: func.func @stage
//   GENERATED-NOT:   tcc.transpose
//   GENERATED-NOT:   layout = "NHWC"
//   GENERATED:       return
func.func @stage(%x: tensor<?x16x?x?xf32>, %s: tensor<16xf32>) -> (tensor<?x16xf32>, tensor<?x?x?xf32>) {
  %w1 = tcc.constant dense<0.01> : tensor<16x16x3x3xf32>
  %w2 = tcc.constant dense<0.02> : tensor<16x16x1x1xf32>
  %0 = tcc.conv2d %x, %w1 {padding = array<i64: 1, 1>} : (tensor<?x16x?x?xf32>, tensor<16x16x3x3xf32>) -> tensor<?x16x?x?xf32>
  %1 = tcc.batch_norm %0, %s, %s, %s, %s : (tensor<?x16x?x?xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x?x?xf32>
  %2 = tcc.relu %1 : (tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  %3 = tcc.conv2d %2, %w2 : (tensor<?x16x?x?xf32>, tensor<16x16x1x1xf32>) -> tensor<?x16x?x?xf32>
  %4 = tcc.add %3, %x : (tensor<?x16x?x?xf32>, tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  %5 = tcc.relu %4 : (tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  %6 = tcc.max_pool2d %5 {kernel_size = array<i64: 2, 2>} : (tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  %7 = tcc.reduce_mean %6 {axes = array<i64: 2, 3>} : (tensor<?x16x?x?xf32>) -> tensor<?x16xf32>
  %8 = tcc.reduce_max %6 {axes = array<i64: 1>} : (tensor<?x16x?x?xf32>) -> tensor<?x?x?xf32>
  return %7, %8 : tensor<?x16xf32>, tensor<?x?x?xf32>
}

// -----

// bf16 on cuda: cuDNN's Tensor Core kernels want NHWC. Two convolutions in
// a row: the transposes between them cancel; a weight that is an argument
// is relaid out at run time (one transpose each); the result goes back to
// NCHW once, after the elementwise op (a layout-free scalar operand stays).
// CUDA-LABEL: func.func @bf16_chain
//  CUDA-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<8x32x28x28xbf16>, %[[W:[a-zA-Z0-9_]+]]: tensor<32x32x3x3xbf16>
//       CUDA:   %[[XT:.+]] = tcc.transpose %[[X]] {permutation = array<i64: 0, 2, 3, 1>}
//       CUDA:   %[[WT:.+]] = tcc.transpose %[[W]] {permutation = array<i64: 0, 2, 3, 1>}
//       CUDA:   %[[C1:.+]] = tcc.conv2d %[[XT]], %[[WT]] {layout = "NHWC", padding = array<i64: 1, 1>} : (tensor<8x28x28x32xbf16>, tensor<32x3x3x32xbf16>) -> tensor<8x28x28x32xbf16>
//       CUDA:   %[[WT2:.+]] = tcc.transpose %[[W]] {permutation = array<i64: 0, 2, 3, 1>}
//       CUDA:   %[[C2:.+]] = tcc.conv2d %[[C1]], %[[WT2]] {layout = "NHWC", padding = array<i64: 1, 1>}
//       CUDA:   %[[M:.+]] = tcc.mul %[[C2]], %{{.+}} : (tensor<8x28x28x32xbf16>, tensor<bf16>) -> tensor<8x28x28x32xbf16>
//       CUDA:   %[[Y:.+]] = tcc.transpose %[[M]] {permutation = array<i64: 0, 3, 1, 2>} : (tensor<8x28x28x32xbf16>) -> tensor<8x32x28x28xbf16>
//       CUDA:   return %[[Y]]
// On the cpu, bf16 convolutions are generated code: no change.
// CHECK-LABEL: func.func @bf16_chain
//   CHECK-NOT:   tcc.transpose
//       CHECK:   return
func.func @bf16_chain(%x: tensor<8x32x28x28xbf16>, %w: tensor<32x32x3x3xbf16>, %k: tensor<bf16>) -> tensor<8x32x28x28xbf16> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<8x32x28x28xbf16>, tensor<32x32x3x3xbf16>) -> tensor<8x32x28x28xbf16>
  %1 = tcc.conv2d %0, %w {padding = array<i64: 1, 1>} : (tensor<8x32x28x28xbf16>, tensor<32x32x3x3xbf16>) -> tensor<8x32x28x28xbf16>
  %2 = tcc.mul %1, %k : (tensor<8x32x28x28xbf16>, tensor<bf16>) -> tensor<8x32x28x28xbf16>
  return %2 : tensor<8x32x28x28xbf16>
}

// -----

// Layouts that already agree: an NHWC convolution fed and read in NHWC is
// left as it is.
// CHECK-LABEL: func.func @already_nhwc
//   CHECK-NOT:   tcc.transpose
//       CHECK:   tcc.conv2d %{{.+}}, %{{.+}} {layout = "NHWC"}
//   CHECK-NOT:   tcc.transpose
func.func @already_nhwc(%x: tensor<?x9x9x8xf32>, %w: tensor<4x3x3x8xf32>) -> tensor<?x7x7x4xf32> {
  %0 = tcc.conv2d %x, %w {layout = "NHWC"} : (tensor<?x9x9x8xf32>, tensor<4x3x3x8xf32>) -> tensor<?x7x7x4xf32>
  return %0 : tensor<?x7x7x4xf32>
}

// -----

// A lone small convolution between NCHW input and output: its relayouts
// (input, weight argument, result) would cost more than the faster kernel
// saves, so it stays NCHW.
// CHECK-LABEL: func.func @not_worth_it
//   CHECK-NOT:   tcc.transpose
//       CHECK:   tcc.conv2d %{{.+}}, %{{.+}} {padding = array<i64: 1, 1>} : (tensor<1x8x9x9xf32>
func.func @not_worth_it(%x: tensor<1x8x9x9xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x9x9xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x8x9x9xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}

// -----

// A patch convolution (stride = kernel) becomes a matrix product in fusion
// preparation: not a candidate.
// CHECK-LABEL: func.func @patches
//   CHECK-NOT:   layout = "NHWC"
func.func @patches(%x: tensor<?x3x224x224xf32>, %w: tensor<768x3x16x16xf32>) -> tensor<?x768x14x14xf32> {
  %0 = tcc.conv2d %x, %w {strides = array<i64: 16, 16>} : (tensor<?x3x224x224xf32>, tensor<768x3x16x16xf32>) -> tensor<?x768x14x14xf32>
  return %0 : tensor<?x768x14x14xf32>
}

// -----

// A squeeze-excitation block (MobileNetV3, EfficientNet) on the cpu. The
// pooled scale [N, C, 1, 1] reaches the channels-last features by a
// reshape (only unit dims move), so the multiply and the next convolution
// run channels-last; the pooled vector's convolutions are NHWC on
// [N, 1, 1, C] through reshapes. Transposes left: the input's, the
// features' before the global average (a row reduction), the result's.
// CHECK-LABEL: func.func @squeeze_excitation
//       CHECK:   %[[XT:.+]] = tcc.transpose %{{.+}} {permutation = array<i64: 0, 2, 3, 1>}
//       CHECK:   %[[F:.+]] = tcc.conv2d %[[XT]], %{{.+}} {layout = "NHWC", padding = array<i64: 1, 1>}
//       CHECK:   %[[FT:.+]] = tcc.transpose %[[F]] {permutation = array<i64: 0, 3, 1, 2>}
//       CHECK:   tcc.reduce_mean %[[FT]]
//       CHECK:   tcc.sigmoid
//       CHECK:   %[[S:.+]] = tcc.reshape %{{.+}} : (tensor<?x32x1x1xf32>) -> tensor<?x1x1x32xf32>
//       CHECK:   %[[M:.+]] = tcc.mul %[[F]], %[[S]] : (tensor<?x8x8x32xf32>, tensor<?x1x1x32xf32>) -> tensor<?x8x8x32xf32>
//   CHECK-NOT:   tcc.transpose
//       CHECK:   %[[C:.+]] = tcc.conv2d %[[M]], %{{.+}} {layout = "NHWC"}
//       CHECK:   %[[Y:.+]] = tcc.transpose %[[C]] {permutation = array<i64: 0, 3, 1, 2>}
//       CHECK:   return %[[Y]]
// CUDA-LABEL: func.func @squeeze_excitation
//   CUDA-NOT:   tcc.transpose
//   CUDA:       return
func.func @squeeze_excitation(%x: tensor<?x32x8x8xf32>) -> tensor<?x32x8x8xf32> {
  %w = tcc.constant dense<0.01> : tensor<32x32x3x3xf32>
  %w1 = tcc.constant dense<0.02> : tensor<8x32x1x1xf32>
  %w2 = tcc.constant dense<0.03> : tensor<32x8x1x1xf32>
  %w3 = tcc.constant dense<0.04> : tensor<32x32x1x1xf32>
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<?x32x8x8xf32>, tensor<32x32x3x3xf32>) -> tensor<?x32x8x8xf32>
  %1 = tcc.reduce_mean %0 {axes = array<i64: 2, 3>, keep_dims = true} : (tensor<?x32x8x8xf32>) -> tensor<?x32x1x1xf32>
  %2 = tcc.conv2d %1, %w1 : (tensor<?x32x1x1xf32>, tensor<8x32x1x1xf32>) -> tensor<?x8x1x1xf32>
  %3 = tcc.relu %2 : (tensor<?x8x1x1xf32>) -> tensor<?x8x1x1xf32>
  %4 = tcc.conv2d %3, %w2 : (tensor<?x8x1x1xf32>, tensor<32x8x1x1xf32>) -> tensor<?x32x1x1xf32>
  %5 = tcc.sigmoid %4 : (tensor<?x32x1x1xf32>) -> tensor<?x32x1x1xf32>
  %6 = tcc.mul %0, %5 : (tensor<?x32x8x8xf32>, tensor<?x32x1x1xf32>) -> tensor<?x32x8x8xf32>
  %7 = tcc.conv2d %6, %w3 : (tensor<?x32x8x8xf32>, tensor<32x32x1x1xf32>) -> tensor<?x32x8x8xf32>
  return %7 : tensor<?x32x8x8xf32>
}

// -----

// Negative for the relayout of a broadcast operand: an operand of the
// result's own shape whose dims of 1 move is no broadcast; a transpose
// that moves only unit dims of the result is a reshape and is not sunk
// (sinking it again and again grew without bound: EfficientNet's SiLU on
// the pooled vector, x * sigmoid(x) on [N, C, 1, 1]).
// CHECK-LABEL: func.func @pooled_silu
//       CHECK:   %[[P:.+]] = tcc.reshape %{{.+}} : (tensor<?x1x1x8xf32>) -> tensor<?x8x1x1xf32>
//  CHECK-NEXT:   %[[S:.+]] = tcc.sigmoid %[[P]]
//  CHECK-NEXT:   %[[M:.+]] = tcc.mul %[[P]], %[[S]]
//  CHECK-NEXT:   return %[[M]]
func.func @pooled_silu(%x: tensor<?x32x8x8xf32>) -> tensor<?x8x1x1xf32> {
  %w = tcc.constant dense<0.01> : tensor<32x32x3x3xf32>
  %w1 = tcc.constant dense<0.02> : tensor<8x32x1x1xf32>
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<?x32x8x8xf32>, tensor<32x32x3x3xf32>) -> tensor<?x32x8x8xf32>
  %1 = tcc.reduce_mean %0 {axes = array<i64: 2, 3>, keep_dims = true} : (tensor<?x32x8x8xf32>) -> tensor<?x32x1x1xf32>
  %2 = tcc.conv2d %1, %w1 : (tensor<?x32x1x1xf32>, tensor<8x32x1x1xf32>) -> tensor<?x8x1x1xf32>
  %3 = tcc.sigmoid %2 : (tensor<?x8x1x1xf32>) -> tensor<?x8x1x1xf32>
  %4 = tcc.mul %2, %3 : (tensor<?x8x1x1xf32>, tensor<?x8x1x1xf32>) -> tensor<?x8x1x1xf32>
  return %4 : tensor<?x8x1x1xf32>
}
