// The same ops written in MLIR's generic form ("tcc.op"(...) {attrs} : type),
// the form tests written elsewhere (and printers with -mlir-print-op-generic)
// use. Inherent attributes go in <{...}> or in the attribute dictionary.

// RUN: tcc-run %s --function=generic_softmax --input=2x8xf32=random --check-reference | FileCheck %s --check-prefix=G_SOFTMAX
// G_SOFTMAX: [SUCCESS] result[0] matches the reference (2x8xf32)
func.func @generic_softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = "tcc.softmax"(%x) {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// RUN: tcc-run %s --function=generic_elementwise --input=3x8xf32=random --input=8xf32=random --check-reference | FileCheck %s --check-prefix=G_EW
// G_EW: [SUCCESS] result[0] matches the reference (3x8xf32)
// G_EW: [SUCCESS] result[1] matches the reference (3x8xi1)
// G_EW: [SUCCESS] result[2] matches the reference (3x8xf32)
func.func @generic_elementwise(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> (tensor<?x8xf32>, tensor<?x8xi1>, tensor<?x8xf32>) {
  %0 = "tcc.add"(%a, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %1 = "tcc.gelu"(%0) {approximate = "tanh"} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %2 = "tcc.cmp"(%1, %b) {predicate = "ge"} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xi1>
  %3 = "tcc.select"(%2, %1, %a) : (tensor<?x8xi1>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %4 = "tcc.cast"(%3) : (tensor<?x8xf32>) -> tensor<?x8xf16>
  %5 = "tcc.cast"(%4) : (tensor<?x8xf16>) -> tensor<?x8xf32>
  return %1, %2, %5 : tensor<?x8xf32>, tensor<?x8xi1>, tensor<?x8xf32>
}

// RUN: tcc-run %s --function=generic_reductions_norms --input=3x16xf32=random --input=16xf32=random --input=16xf32=random --check-reference | FileCheck %s --check-prefix=G_NORM
// G_NORM: [SUCCESS] result[0] matches the reference (3x1xf32)
// G_NORM: [SUCCESS] result[1] matches the reference (3x16xf32)
// G_NORM: [SUCCESS] result[2] matches the reference (3x16xf32)
func.func @generic_reductions_norms(%x: tensor<?x16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<?x1xf32>, tensor<?x16xf32>, tensor<?x16xf32>) {
  %0 = "tcc.reduce_mean"(%x) {axes = array<i64: -1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  %1 = "tcc.layer_norm"(%x, %w, %b) {axis = 1 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %2 = "tcc.log_softmax"(%x) <{axis = -1 : i64}> : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %0, %1, %2 : tensor<?x1xf32>, tensor<?x16xf32>, tensor<?x16xf32>
}

// linear with an optional bias operand; attention with a mask operand; conv2d.
// RUN: tcc-run %s --function=generic_contractions --input=2x4x8xf32=random --input=8x8xf32=random --input=8xf32=random --input=4x4xi1=random --check-reference | FileCheck %s --check-prefix=G_CONTRACT
// G_CONTRACT: [SUCCESS] result[0] matches the reference (2x4x8xf32)
// G_CONTRACT: [SUCCESS] result[1] matches the reference (2x4x8xf32)
func.func @generic_contractions(%x: tensor<?x4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>, %m: tensor<4x4xi1>) -> (tensor<?x4x8xf32>, tensor<?x4x8xf32>) {
  %0 = "tcc.linear"(%x, %w, %b) : (tensor<?x4x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<?x4x8xf32>
  %1 = "tcc.linear"(%x, %w) : (tensor<?x4x8xf32>, tensor<8x8xf32>) -> tensor<?x4x8xf32>
  %2 = "tcc.attention"(%0, %1, %x) {is_causal = true} : (tensor<?x4x8xf32>, tensor<?x4x8xf32>, tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
  %t = "tcc.transpose"(%1) {permutation = array<i64: 0, 2, 1>} : (tensor<?x4x8xf32>) -> tensor<?x8x4xf32>
  %3 = "tcc.matmul"(%0, %t) : (tensor<?x4x8xf32>, tensor<?x8x4xf32>) -> tensor<?x4x4xf32>
  %4 = "tcc.matmul"(%3, %x) : (tensor<?x4x4xf32>, tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
  return %2, %4 : tensor<?x4x8xf32>, tensor<?x4x8xf32>
}

// RUN: tcc-run %s --function=generic_conv_pool --input=1x2x6x6xf32=random --input=4x2x3x3xf32=random --input=4xf32=random --check-reference | FileCheck %s --check-prefix=G_CONV
// G_CONV: [SUCCESS] result[0] matches the reference (1x4x3x3xf32)
// G_CONV: [SUCCESS] result[1] matches the reference (1x4x3x3xf32)
func.func @generic_conv_pool(%x: tensor<1x2x6x6xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>) {
  %0 = "tcc.conv2d"(%x, %w, %b) {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %1 = "tcc.max_pool2d"(%0) {kernel_size = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
  %2 = "tcc.avg_pool2d"(%0) {kernel_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
  return %1, %2 : tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>
}

// Data movement in generic form, including a shape operand and a constant.
// RUN: tcc-run %s --function=generic_data_movement --input=2x3x4xf32=random --input="2xi64=-1 4" --check-reference | FileCheck %s --check-prefix=G_DATA
// G_DATA: [SUCCESS] result[0] matches the reference (6x4xf32)
// G_DATA: [SUCCESS] result[1] matches the reference (2x5x4xf32)
// G_DATA: [SUCCESS] result[2] matches the reference (2x2x4xf32)
// G_DATA: [SUCCESS] result[3] matches the reference (2x2x4xf32)
// G_DATA: [SUCCESS] result[4] matches the reference (2x3x4xf32)
func.func @generic_data_movement(%x: tensor<?x3x4xf32>, %s: tensor<2xi64>) -> (tensor<?x4xf32>, tensor<?x5x4xf32>, tensor<?x2x4xf32>, tensor<?x2x4xf32>, tensor<?x3x4xf32>) {
  %0 = "tcc.reshape"(%x, %s) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %c = "tcc.constant"() {value = dense<1.0> : tensor<1x2x4xf32>} : () -> tensor<1x2x4xf32>
  %cb = "tcc.broadcast_to"(%c) : (tensor<1x2x4xf32>) -> tensor<2x2x4xf32>
  %cd = "tcc.cast"(%cb) : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %xs = "tcc.slice"(%x) {starts = array<i64: 0, 1, 0>, ends = array<i64: 9223372036854775807, 3, 4>, steps = array<i64: 1, 1, 1>} : (tensor<?x3x4xf32>) -> tensor<?x2x4xf32>
  %1 = "tcc.concat"(%x, %xs) {axis = 1 : i64} : (tensor<?x3x4xf32>, tensor<?x2x4xf32>) -> tensor<?x5x4xf32>
  %ids = "tcc.constant"() {value = dense<[2, -3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %2 = "tcc.gather"(%x, %ids) {axis = 1 : i64} : (tensor<?x3x4xf32>, tensor<2xi32>) -> tensor<?x2x4xf32>
  %3 = "tcc.add"(%xs, %cd) : (tensor<?x2x4xf32>, tensor<2x2x4xf32>) -> tensor<?x2x4xf32>
  %4 = "tcc.neg"(%x) : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  return %0, %1, %2, %3, %4 : tensor<?x4xf32>, tensor<?x5x4xf32>, tensor<?x2x4xf32>, tensor<?x2x4xf32>, tensor<?x3x4xf32>
}
