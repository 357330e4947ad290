// RUN: tcc-opt %s | FileCheck %s
// RUN: tcc-opt %s | tcc-opt | FileCheck %s

// Every tcc op written in MLIR's generic form (as tests and front ends
// written elsewhere emit it) parses, verifies, and prints in the custom form.
// Inherent attributes are accepted both as a plain attribute dictionary and as
// properties (`<{...}>`).

// CHECK-LABEL: func.func @binary
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   tcc.add %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.sub %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.mul %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.div %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.maximum %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.minimum %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.pow %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   %[[M:.+]] = tcc.cmp %[[A]], %[[B]] {predicate = "ge"} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xi1>
//       CHECK:   tcc.cmp %[[A]], %[[B]] {predicate = "ne"} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xi1>
//       CHECK:   tcc.select %[[M]], %[[A]], %[[B]] : (tensor<?x8xi1>, tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
func.func @binary(%a: tensor<?x8xf32>, %b: tensor<8xf32>) {
  %0 = "tcc.add"(%a, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %1 = "tcc.sub"(%a, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %2 = "tcc.mul"(%a, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %3 = "tcc.div"(%a, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %4 = "tcc.maximum"(%a, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %5 = "tcc.minimum"(%a, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %6 = "tcc.pow"(%a, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %7 = "tcc.cmp"(%a, %b) {predicate = "ge"} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xi1>
  %8 = "tcc.cmp"(%a, %b) <{predicate = "ne"}> : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xi1>
  %9 = "tcc.select"(%7, %a, %b) : (tensor<?x8xi1>, tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return
}

// CHECK-LABEL: func.func @unary
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x8xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<4xi32>
//       CHECK:   tcc.neg %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.exp %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.log %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.sqrt %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.rsqrt %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.abs %[[I]] : (tensor<4xi32>) -> tensor<4xi32>
//       CHECK:   tcc.tanh %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.sigmoid %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.relu %[[I]] : (tensor<4xi32>) -> tensor<4xi32>
//       CHECK:   tcc.silu %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.erf %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.gelu %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.gelu %[[X]] {approximate = "tanh"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.cast %[[X]] : (tensor<2x8xf32>) -> tensor<2x8xf16>
func.func @unary(%x: tensor<2x8xf32>, %i: tensor<4xi32>) {
  %0 = "tcc.neg"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = "tcc.exp"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "tcc.log"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = "tcc.sqrt"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = "tcc.rsqrt"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %5 = "tcc.abs"(%i) : (tensor<4xi32>) -> tensor<4xi32>
  %6 = "tcc.tanh"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %7 = "tcc.sigmoid"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %8 = "tcc.relu"(%i) : (tensor<4xi32>) -> tensor<4xi32>
  %9 = "tcc.silu"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %10 = "tcc.erf"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %11 = "tcc.gelu"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %12 = "tcc.gelu"(%x) {approximate = "tanh"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %13 = "tcc.cast"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf16>
  return
}

// CHECK-LABEL: func.func @reductions
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x8xf32>
//       CHECK:   tcc.reduce_sum %[[X]] {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
//       CHECK:   tcc.reduce_mean %[[X]] {axes = array<i64: -1>, keep_dims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
//       CHECK:   tcc.reduce_max %[[X]] {axes = array<i64>} : (tensor<2x8xf32>) -> tensor<f32>
//       CHECK:   tcc.reduce_min %[[X]] {axes = array<i64: 0>} : (tensor<2x8xf32>) -> tensor<8xf32>
//       CHECK:   tcc.softmax %[[X]] {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.log_softmax %[[X]] {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
func.func @reductions(%x: tensor<2x8xf32>) {
  %0 = "tcc.reduce_sum"(%x) {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  %1 = "tcc.reduce_mean"(%x) {axes = array<i64: -1>, keep_dims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %2 = "tcc.reduce_max"(%x) <{axes = array<i64>, keep_dims = false}> : (tensor<2x8xf32>) -> tensor<f32>
  %3 = "tcc.reduce_min"(%x) {axes = array<i64: 0>} : (tensor<2x8xf32>) -> tensor<8xf32>
  %4 = "tcc.softmax"(%x) {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %5 = "tcc.log_softmax"(%x) {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @norms
//       CHECK:   tcc.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64, epsilon = 1.000000e-03 : f32} : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.rms_norm %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
func.func @norms(%x: tensor<2x8xf32>, %w: tensor<8xf32>, %w2: tensor<2x8xf32>,
                 %img: tensor<1x3x4x4xf32>, %c: tensor<3xf32>) {
  %0 = "tcc.layer_norm"(%x, %w, %w) : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %1 = "tcc.layer_norm"(%x, %w2, %w2) {axis = 0 : i64, epsilon = 1.0e-3 : f32}
      : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "tcc.rms_norm"(%x, %w) {axis = -1 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %3 = "tcc.batch_norm"(%img, %c, %c, %c, %c) {epsilon = 1.0e-5 : f32}
      : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return
}

// CHECK-LABEL: func.func @contractions
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4x16xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<32x16xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<32xf32>
//       CHECK:   tcc.matmul %[[X]], %{{.*}} : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
//       CHECK:   tcc.linear %[[X]], %[[W]] : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
//       CHECK:   tcc.linear %[[X]], %[[W]], %[[B]] : (tensor<4x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<4x32xf32>
func.func @contractions(%x: tensor<4x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>, %wt: tensor<16x32xf32>) {
  %0 = "tcc.matmul"(%x, %wt) : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
  %1 = "tcc.linear"(%x, %w) : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
  %2 = "tcc.linear"(%x, %w, %b) : (tensor<4x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<4x32xf32>
  return
}

// CHECK-LABEL: func.func @windows
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
//       CHECK:   tcc.max_pool2d %{{.*}} {kernel_size = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
//       CHECK:   tcc.avg_pool2d %{{.*}} {kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
func.func @windows(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) {
  %0 = "tcc.conv2d"(%x, %w, %b) {strides = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %1 = "tcc.max_pool2d"(%x) {kernel_size = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %2 = "tcc.avg_pool2d"(%x) {kernel_size = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return
}

// CHECK-LABEL: func.func @attention
//       CHECK:   tcc.attention %{{.*}}, %{{.*}}, %{{.*}} {is_causal = true} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
//       CHECK:   tcc.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {scale = 5.000000e-01 : f32} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4x4xi1>) -> tensor<2x4x8xf32>
func.func @attention(%q: tensor<2x4x8xf32>, %m: tensor<4x4xi1>) {
  %0 = "tcc.attention"(%q, %q, %q) {is_causal = true}
      : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %1 = "tcc.attention"(%q, %q, %q, %m) {scale = 0.5 : f32}
      : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4x4xi1>) -> tensor<2x4x8xf32>
  return
}

// CHECK-LABEL: func.func @data_movement
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x3x4xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<2xi64>, %[[I:[a-zA-Z0-9_]+]]: tensor<5xi64>
//       CHECK:   tcc.transpose %[[X]] {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
//       CHECK:   tcc.reshape %[[X]] : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
//       CHECK:   tcc.reshape %[[X]], %[[S]] : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
//       CHECK:   tcc.broadcast_to %[[X]] : (tensor<2x3x4xf32>) -> tensor<5x2x3x4xf32>
//       CHECK:   tcc.concat %[[X]], %[[X]] {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
//       CHECK:   tcc.slice %[[X]] {ends = array<i64: 2, 3, 4>, starts = array<i64: 0, 1, 0>, steps = array<i64: 1, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
//       CHECK:   tcc.slice %[[X]] {ends = array<i64: 1, 3, 4>, starts = array<i64: 0, 0, 0>} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
//       CHECK:   tcc.gather %[[X]], %[[I]] {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<5xi64>) -> tensor<2x3x5xf32>
//       CHECK:   tcc.constant dense<1.000000e+00> : tensor<2xf32>
func.func @data_movement(%x: tensor<2x3x4xf32>, %s: tensor<2xi64>, %i: tensor<5xi64>) {
  %0 = "tcc.transpose"(%x) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = "tcc.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %2 = "tcc.reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %3 = "tcc.broadcast_to"(%x) : (tensor<2x3x4xf32>) -> tensor<5x2x3x4xf32>
  %4 = "tcc.concat"(%x, %x) {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  %5 = "tcc.slice"(%x) {starts = array<i64: 0, 1, 0>, ends = array<i64: 2, 3, 4>, steps = array<i64: 1, 1, 2>}
      : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
  %6 = "tcc.slice"(%x) {starts = array<i64: 0, 0, 0>, ends = array<i64: 1, 3, 4>} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %7 = "tcc.gather"(%x, %i) {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<5xi64>) -> tensor<2x3x5xf32>
  %8 = "tcc.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @data_dependent
//  CHECK-SAME:   %[[B:[a-zA-Z0-9_]+]]: tensor<?x4xf32>, %[[K:[a-zA-Z0-9_]+]]: tensor<?xi1>
//       CHECK:   tcc.mask_select %[[B]], %[[K]] : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<?x4xf32>
//       CHECK:   tcc.nonzero %[[K]] : (tensor<?xi1>) -> tensor<?x1xi64>
func.func @data_dependent(%boxes: tensor<?x4xf32>, %keep: tensor<?xi1>) {
  %0 = "tcc.mask_select"(%boxes, %keep) : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<?x4xf32>
  %1 = "tcc.nonzero"(%keep) : (tensor<?xi1>) -> tensor<?x1xi64>
  return
}
