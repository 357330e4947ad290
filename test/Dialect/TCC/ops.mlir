// RUN: tcc-opt %s | tcc-opt | FileCheck %s
// RUN: tcc-opt %s --mlir-print-op-generic | tcc-opt | FileCheck %s

// Round trip of every tcc op in its custom form: static and dynamic dims,
// every element type an op accepts, optional operands and attributes present
// and absent (default-valued attributes are elided when they hold the
// default).

// CHECK-LABEL: func.func @binary_f32
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   tcc.add %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.sub %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.mul %[[B]], %[[A]] : (tensor<8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.div %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.maximum %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.minimum %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.pow %[[A]], %[[B]] : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
func.func @binary_f32(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = tcc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %1 = tcc.sub %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %2 = tcc.mul %b, %a : (tensor<8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %3 = tcc.div %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %4 = tcc.maximum %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %5 = tcc.minimum %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %6 = tcc.pow %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %6 : tensor<?x8xf32>
}

// Every element type an arithmetic binary accepts; rank 0 and a declared
// result more static than the inferred one (?x4 refined to 3x4).
// CHECK-LABEL: func.func @binary_element_types
//       CHECK:   tcc.add %{{.*}}, %{{.*}} : (tensor<f16>, tensor<f16>) -> tensor<f16>
//       CHECK:   tcc.sub %{{.*}}, %{{.*}} : (tensor<2x3xbf16>, tensor<1x3xbf16>) -> tensor<2x3xbf16>
//       CHECK:   tcc.mul %{{.*}}, %{{.*}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
//       CHECK:   tcc.div %{{.*}}, %{{.*}} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
//       CHECK:   tcc.maximum %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
//       CHECK:   tcc.minimum %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
//       CHECK:   tcc.pow %{{.*}}, %{{.*}} : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2x3xbf16>
//       CHECK:   tcc.add %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
func.func @binary_element_types(%h: tensor<f16>, %bf: tensor<2x3xbf16>, %bf1: tensor<1x3xbf16>,
                                %bf2: tensor<3xbf16>, %d: tensor<4xf64>, %i8: tensor<4xi8>,
                                %i32: tensor<4xi32>, %i64: tensor<4xi64>, %dyn: tensor<?x4xf32>,
                                %one: tensor<1x4xf32>) {
  %0 = tcc.add %h, %h : (tensor<f16>, tensor<f16>) -> tensor<f16>
  %1 = tcc.sub %bf, %bf1 : (tensor<2x3xbf16>, tensor<1x3xbf16>) -> tensor<2x3xbf16>
  %2 = tcc.mul %d, %d : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %3 = tcc.div %i8, %i8 : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %4 = tcc.maximum %i32, %i32 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %5 = tcc.minimum %i64, %i64 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %6 = tcc.pow %bf, %bf2 : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2x3xbf16>
  %7 = tcc.add %dyn, %one : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func.func @cmp_select
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<4x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<f32>
//  CHECK-SAME:   %[[I:[a-zA-Z0-9_]+]]: tensor<?xi64>, %[[C:[a-zA-Z0-9_]+]]: tensor<4x1xi1>
//       CHECK:   %[[M:.+]] = tcc.cmp %[[A]], %[[B]] {predicate = "eq"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
//       CHECK:   tcc.cmp %[[A]], %[[B]] {predicate = "ne"}
//       CHECK:   tcc.cmp %[[I]], %[[I]] {predicate = "lt"} : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi1>
//       CHECK:   tcc.cmp %[[C]], %[[C]] {predicate = "le"} : (tensor<4x1xi1>, tensor<4x1xi1>) -> tensor<4x1xi1>
//       CHECK:   tcc.cmp %[[A]], %[[B]] {predicate = "gt"}
//       CHECK:   tcc.cmp %[[A]], %[[B]] {predicate = "ge"}
//       CHECK:   tcc.select %[[C]], %[[A]], %[[B]] : (tensor<4x1xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
//       CHECK:   tcc.select %[[M]], %[[I]], %[[I]] : (tensor<4x8xi1>, tensor<?xi64>, tensor<?xi64>) -> tensor<4x8xi64>
func.func @cmp_select(%a: tensor<4x8xf32>, %b: tensor<f32>, %i: tensor<?xi64>, %c: tensor<4x1xi1>) {
  %0 = tcc.cmp %a, %b {predicate = "eq"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
  %1 = tcc.cmp %a, %b {predicate = "ne"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
  %2 = tcc.cmp %i, %i {predicate = "lt"} : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi1>
  %3 = tcc.cmp %c, %c {predicate = "le"} : (tensor<4x1xi1>, tensor<4x1xi1>) -> tensor<4x1xi1>
  %4 = tcc.cmp %a, %b {predicate = "gt"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
  %5 = tcc.cmp %a, %b {predicate = "ge"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
  %6 = tcc.select %c, %a, %b : (tensor<4x1xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %7 = tcc.select %0, %i, %i : (tensor<4x8xi1>, tensor<?xi64>, tensor<?xi64>) -> tensor<4x8xi64>
  return
}

// CHECK-LABEL: func.func @unary_float
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x768xf32>
//       CHECK:   tcc.exp %[[X]] : (tensor<?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.log %[[X]] : (tensor<?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.sqrt %[[X]] : (tensor<?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.rsqrt %[[X]] : (tensor<?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.tanh %[[X]] : (tensor<?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.sigmoid %[[X]] : (tensor<?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.silu %[[X]] : (tensor<?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.erf %[[X]] : (tensor<?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.exp %{{.*}} : (tensor<2xf16>) -> tensor<2xf16>
//       CHECK:   tcc.log %{{.*}} : (tensor<2xbf16>) -> tensor<2xbf16>
//       CHECK:   tcc.tanh %{{.*}} : (tensor<f64>) -> tensor<f64>
//       CHECK:   tcc.sigmoid %{{.*}} : (tensor<?x?xf32>) -> tensor<3x?xf32>
func.func @unary_float(%x: tensor<?x768xf32>, %h: tensor<2xf16>, %bf: tensor<2xbf16>,
                       %d: tensor<f64>, %dd: tensor<?x?xf32>) {
  %0 = tcc.exp %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %1 = tcc.log %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %2 = tcc.sqrt %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %3 = tcc.rsqrt %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %4 = tcc.tanh %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %5 = tcc.sigmoid %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %6 = tcc.silu %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %7 = tcc.erf %x : (tensor<?x768xf32>) -> tensor<?x768xf32>
  %8 = tcc.exp %h : (tensor<2xf16>) -> tensor<2xf16>
  %9 = tcc.log %bf : (tensor<2xbf16>) -> tensor<2xbf16>
  %10 = tcc.tanh %d : (tensor<f64>) -> tensor<f64>
  %11 = tcc.sigmoid %dd : (tensor<?x?xf32>) -> tensor<3x?xf32>
  return
}

// neg, abs and relu also take integers.
// CHECK-LABEL: func.func @unary_any
//       CHECK:   tcc.neg %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
//       CHECK:   tcc.neg %{{.*}} : (tensor<?xi32>) -> tensor<?xi32>
//       CHECK:   tcc.abs %{{.*}} : (tensor<4xf16>) -> tensor<4xf16>
//       CHECK:   tcc.abs %{{.*}} : (tensor<2x2xi8>) -> tensor<2x2xi8>
//       CHECK:   tcc.relu %{{.*}} : (tensor<?xi32>) -> tensor<?xi32>
//       CHECK:   tcc.relu %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
//       CHECK:   tcc.relu %{{.*}} : (tensor<3xi64>) -> tensor<3xi64>
func.func @unary_any(%f: tensor<4xf32>, %i: tensor<?xi32>, %h: tensor<4xf16>,
                     %i8: tensor<2x2xi8>, %i64: tensor<3xi64>) {
  %0 = tcc.neg %f : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tcc.neg %i : (tensor<?xi32>) -> tensor<?xi32>
  %2 = tcc.abs %h : (tensor<4xf16>) -> tensor<4xf16>
  %3 = tcc.abs %i8 : (tensor<2x2xi8>) -> tensor<2x2xi8>
  %4 = tcc.relu %i : (tensor<?xi32>) -> tensor<?xi32>
  %5 = tcc.relu %f : (tensor<4xf32>) -> tensor<4xf32>
  %6 = tcc.relu %i64 : (tensor<3xi64>) -> tensor<3xi64>
  return
}

// The default approximate = "none" is elided; "tanh" is kept.
// CHECK-LABEL: func.func @gelu
//       CHECK:   tcc.gelu %{{.*}} : (tensor<8xf32>) -> tensor<8xf32>
//       CHECK:   tcc.gelu %{{.*}} : (tensor<8xf32>) -> tensor<8xf32>
//       CHECK:   tcc.gelu %{{.*}} {approximate = "tanh"} : (tensor<?x8xbf16>) -> tensor<?x8xbf16>
func.func @gelu(%x: tensor<8xf32>, %y: tensor<?x8xbf16>) {
  %0 = tcc.gelu %x : (tensor<8xf32>) -> tensor<8xf32>
  %1 = tcc.gelu %x {approximate = "none"} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = tcc.gelu %y {approximate = "tanh"} : (tensor<?x8xbf16>) -> tensor<?x8xbf16>
  return
}

// CHECK-LABEL: func.func @cast
//       CHECK:   tcc.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xbf16>
//       CHECK:   tcc.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xi1>
//       CHECK:   tcc.cast %{{.*}} : (tensor<?x2xi8>) -> tensor<?x2xf64>
//       CHECK:   tcc.cast %{{.*}} : (tensor<?x2xi8>) -> tensor<3x2xi64>
//       CHECK:   tcc.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
func.func @cast(%x: tensor<4xf32>, %y: tensor<?x2xi8>) {
  %0 = tcc.cast %x : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = tcc.cast %x : (tensor<4xf32>) -> tensor<4xi1>
  %2 = tcc.cast %y : (tensor<?x2xi8>) -> tensor<?x2xf64>
  %3 = tcc.cast %y : (tensor<?x2xi8>) -> tensor<3x2xi64>
  %4 = tcc.cast %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// keep_dims = false is the default and is elided; an empty axes list
// reduces every dim.
// CHECK-LABEL: func.func @reductions
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x768xf32>
//       CHECK:   tcc.reduce_sum %[[X]] {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
//       CHECK:   tcc.reduce_mean %[[X]] {axes = array<i64: 1>} : (tensor<?x768xf32>) -> tensor<?xf32>
//       CHECK:   tcc.reduce_max %[[X]] {axes = array<i64: 0>} : (tensor<?x768xf32>) -> tensor<768xf32>
//       CHECK:   tcc.reduce_min %[[X]] {axes = array<i64>} : (tensor<?x768xf32>) -> tensor<f32>
//       CHECK:   tcc.reduce_sum %{{.*}} {axes = array<i64: 0, 2>, keep_dims = true} : (tensor<2x3x4xi32>) -> tensor<1x3x1xi32>
//       CHECK:   tcc.reduce_max %{{.*}} {axes = array<i64: -1, 0>} : (tensor<2x3x4xi8>) -> tensor<3xi8>
//       CHECK:   tcc.reduce_mean %{{.*}} {axes = array<i64>, keep_dims = true} : (tensor<2x?xf16>) -> tensor<1x1xf16>
//       CHECK:   tcc.reduce_min %{{.*}} {axes = array<i64: 1>} : (tensor<2x3xbf16>) -> tensor<2xbf16>
//       CHECK:   tcc.reduce_prod %{{.*}} {axes = array<i64: 2>} : (tensor<2x3x4xi32>) -> tensor<2x3xi32>
func.func @reductions(%x: tensor<?x768xf32>, %i: tensor<2x3x4xi32>, %i8: tensor<2x3x4xi8>,
                      %h: tensor<2x?xf16>, %bf: tensor<2x3xbf16>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: -1>, keep_dims = true} : (tensor<?x768xf32>) -> tensor<?x1xf32>
  %1 = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = false} : (tensor<?x768xf32>) -> tensor<?xf32>
  %2 = tcc.reduce_max %x {axes = array<i64: 0>} : (tensor<?x768xf32>) -> tensor<768xf32>
  %3 = tcc.reduce_min %x {axes = array<i64>} : (tensor<?x768xf32>) -> tensor<f32>
  %4 = tcc.reduce_sum %i {axes = array<i64: 0, 2>, keep_dims = true} : (tensor<2x3x4xi32>) -> tensor<1x3x1xi32>
  %5 = tcc.reduce_max %i8 {axes = array<i64: -1, 0>} : (tensor<2x3x4xi8>) -> tensor<3xi8>
  %6 = tcc.reduce_mean %h {axes = array<i64>, keep_dims = true} : (tensor<2x?xf16>) -> tensor<1x1xf16>
  %7 = tcc.reduce_min %bf {axes = array<i64: 1>} : (tensor<2x3xbf16>) -> tensor<2xbf16>
  %8 = tcc.reduce_prod %i {axes = array<i64: 2>} : (tensor<2x3x4xi32>) -> tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @softmax
//       CHECK:   tcc.softmax %{{.*}} {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.softmax %{{.*}} {axis = 0 : i64} : (tensor<?x?xf16>) -> tensor<?x?xf16>
//       CHECK:   tcc.log_softmax %{{.*}} {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
//       CHECK:   tcc.log_softmax %{{.*}} {axis = -2 : i64} : (tensor<?x?xf16>) -> tensor<?x?xf16>
func.func @softmax(%x: tensor<2x8xf32>, %y: tensor<?x?xf16>) {
  %0 = tcc.softmax %x {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = tcc.softmax %y {axis = 0 : i64} : (tensor<?x?xf16>) -> tensor<?x?xf16>
  %2 = tcc.log_softmax %x {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = tcc.log_softmax %y {axis = -2 : i64} : (tensor<?x?xf16>) -> tensor<?x?xf16>
  return
}

// axis = -1 and epsilon = 1e-5 are the defaults and are elided.
// CHECK-LABEL: func.func @norms
//       CHECK:   tcc.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
//       CHECK:   tcc.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
//       CHECK:   tcc.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<?x197x768xf32>, tensor<197x768xf32>, tensor<197x768xf32>) -> tensor<?x197x768xf32>
//       CHECK:   tcc.rms_norm %{{.*}}, %{{.*}} {epsilon = 9.99999997E-7 : f32} : (tensor<?x4096xf16>, tensor<4096xf16>) -> tensor<?x4096xf16>
//       CHECK:   tcc.rms_norm %{{.*}}, %{{.*}} : (tensor<2x?xbf16>, tensor<?xbf16>) -> tensor<2x?xbf16>
//       CHECK:   tcc.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32} : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
//       CHECK:   tcc.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>) -> tensor<2x64xf64>
func.func @norms(%x: tensor<?x197x768xf32>, %w: tensor<768xf32>, %w2: tensor<197x768xf32>,
                 %h: tensor<?x4096xf16>, %hw: tensor<4096xf16>,
                 %bf: tensor<2x?xbf16>, %bfw: tensor<?xbf16>,
                 %img: tensor<?x64x56x56xf32>, %c: tensor<64xf32>,
                 %d: tensor<2x64xf64>, %dc: tensor<64xf64>) {
  %0 = tcc.layer_norm %x, %w, %w {axis = 2 : i64, epsilon = 1.0e-06 : f32}
      : (tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
  %1 = tcc.layer_norm %x, %w, %w : (tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
  %2 = tcc.layer_norm %x, %w2, %w2 {axis = 1 : i64}
      : (tensor<?x197x768xf32>, tensor<197x768xf32>, tensor<197x768xf32>) -> tensor<?x197x768xf32>
  %3 = tcc.rms_norm %h, %hw {axis = -1 : i64, epsilon = 1.0e-06 : f32}
      : (tensor<?x4096xf16>, tensor<4096xf16>) -> tensor<?x4096xf16>
  %4 = tcc.rms_norm %bf, %bfw : (tensor<2x?xbf16>, tensor<?xbf16>) -> tensor<2x?xbf16>
  %5 = tcc.batch_norm %img, %c, %c, %c, %c {epsilon = 1.0e-03 : f32}
      : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
  %6 = tcc.batch_norm %d, %dc, %dc, %dc, %dc
      : (tensor<2x64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>) -> tensor<2x64xf64>
  return
}

// CHECK-LABEL: func.func @matmul
//       CHECK:   tcc.matmul %{{.*}}, %{{.*}} : (tensor<?x12x197x64xf32>, tensor<?x12x64x197xf32>) -> tensor<?x12x197x197xf32>
//       CHECK:   tcc.matmul %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
//       CHECK:   tcc.matmul %{{.*}}, %{{.*}} : (tensor<2x1x4x8xbf16>, tensor<3x8x?xbf16>) -> tensor<2x3x4x?xbf16>
//       CHECK:   tcc.matmul %{{.*}}, %{{.*}} : (tensor<?x?xf64>, tensor<?x?xf64>) -> tensor<?x?xf64>
func.func @matmul(%a: tensor<?x12x197x64xf32>, %b: tensor<?x12x64x197xf32>,
                  %h1: tensor<4x8xf16>, %h2: tensor<8x16xf16>,
                  %bf1: tensor<2x1x4x8xbf16>, %bf2: tensor<3x8x?xbf16>,
                  %d: tensor<?x?xf64>) {
  %0 = tcc.matmul %a, %b : (tensor<?x12x197x64xf32>, tensor<?x12x64x197xf32>) -> tensor<?x12x197x197xf32>
  %1 = tcc.matmul %h1, %h2 : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  %2 = tcc.matmul %bf1, %bf2 : (tensor<2x1x4x8xbf16>, tensor<3x8x?xbf16>) -> tensor<2x3x4x?xbf16>
  %3 = tcc.matmul %d, %d : (tensor<?x?xf64>, tensor<?x?xf64>) -> tensor<?x?xf64>
  return
}

// The bias operand is optional.
// CHECK-LABEL: func.func @linear
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x256xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<512x256xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<512xf32>
//       CHECK:   tcc.linear %[[X]], %[[W]], %[[B]] : (tensor<?x256xf32>, tensor<512x256xf32>, tensor<512xf32>) -> tensor<?x512xf32>
//       CHECK:   tcc.linear %[[X]], %[[W]] : (tensor<?x256xf32>, tensor<512x256xf32>) -> tensor<?x512xf32>
//       CHECK:   tcc.linear %{{.*}}, %{{.*}} : (tensor<256xf16>, tensor<512x256xf16>) -> tensor<512xf16>
//       CHECK:   tcc.linear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3x?xbf16>, tensor<?x?xbf16>, tensor<?xbf16>) -> tensor<2x3x?xbf16>
func.func @linear(%x: tensor<?x256xf32>, %w: tensor<512x256xf32>, %b: tensor<512xf32>,
                  %hx: tensor<256xf16>, %hw: tensor<512x256xf16>,
                  %bx: tensor<2x3x?xbf16>, %bw: tensor<?x?xbf16>, %bb: tensor<?xbf16>) {
  %0 = tcc.linear %x, %w, %b : (tensor<?x256xf32>, tensor<512x256xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %1 = tcc.linear %x, %w : (tensor<?x256xf32>, tensor<512x256xf32>) -> tensor<?x512xf32>
  %2 = tcc.linear %hx, %hw : (tensor<256xf16>, tensor<512x256xf16>) -> tensor<512xf16>
  %3 = tcc.linear %bx, %bw, %bb : (tensor<2x3x?xbf16>, tensor<?x?xbf16>, tensor<?xbf16>) -> tensor<2x3x?xbf16>
  return
}

// groups = 1 is the default and is elided; padding as [ph, pw] or
// [top, left, bottom, right]. strides and dilations are given explicitly
// here; conv2d-defaults.mlir covers their absence.
// CHECK-LABEL: func.func @conv2d
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 2, 2>, padding = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<?x64x28x28xf32>
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 2 : i64, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf16>, tensor<6x2x3x3xf16>) -> tensor<1x6x6x6xf16>
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x?x?x?xf32>, tensor<8x?x3x3xf32>) -> tensor<1x8x?x?xf32>
//       CHECK:   tcc.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, padding = array<i64: 0, 1, 2, 3>, strides = array<i64: 1, 2>} : (tensor<1x4x8x8xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x8x5xbf16>
func.func @conv2d(%x: tensor<?x64x56x56xf32>, %w: tensor<64x64x3x3xf32>, %b: tensor<64xf32>,
                  %gx: tensor<1x4x8x8xf16>, %gw: tensor<6x2x3x3xf16>,
                  %dx: tensor<1x?x?x?xf32>, %dw: tensor<8x?x3x3xf32>,
                  %bx: tensor<1x4x8x8xbf16>, %bw: tensor<4x4x3x3xbf16>) {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
  %1 = tcc.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>, groups = 1 : i64}
      : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<?x64x28x28xf32>
  %2 = tcc.conv2d %gx, %gw {groups = 2 : i64, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf16>, tensor<6x2x3x3xf16>) -> tensor<1x6x6x6xf16>
  %3 = tcc.conv2d %dx, %dw {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x?x?x?xf32>, tensor<8x?x3x3xf32>) -> tensor<1x8x?x?xf32>
  %4 = tcc.conv2d %bx, %bw {strides = array<i64: 1, 2>, padding = array<i64: 0, 1, 2, 3>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x8x5xbf16>
  return
}

// CHECK-LABEL: func.func @pooling
//       CHECK:   tcc.max_pool2d %{{.*}} {kernel_size = array<i64: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
//       CHECK:   tcc.max_pool2d %{{.*}} {kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
//       CHECK:   tcc.avg_pool2d %{{.*}} {kernel_size = array<i64: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
//       CHECK:   tcc.avg_pool2d %{{.*}} {kernel_size = array<i64: 3, 2>, padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 1, 1>} : (tensor<2x3x?x8xf16>) -> tensor<2x3x?x8xf16>
func.func @pooling(%x: tensor<?x64x56x56xf32>, %h: tensor<2x3x?x8xf16>) {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
  %1 = tcc.max_pool2d %x {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>}
      : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
  %2 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
  %3 = tcc.avg_pool2d %h {kernel_size = array<i64: 3, 2>, strides = array<i64: 1, 1>, padding = array<i64: 1, 0, 2, 1>}
      : (tensor<2x3x?x8xf16>) -> tensor<2x3x?x8xf16>
  return
}

// The mask is optional (i1 or of q's element type); is_causal = false is
// the default and is elided.
// CHECK-LABEL: func.func @attention
//       CHECK:   tcc.attention %{{.*}}, %{{.*}}, %{{.*}} {is_causal = true} : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
//       CHECK:   tcc.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.250000e-01 : f32} : (tensor<2x4x64xf32>, tensor<2x6x64xf32>, tensor<2x6x32xf32>, tensor<4x6xi1>) -> tensor<2x4x32xf32>
//       CHECK:   tcc.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x64xf32>, tensor<2x6x64xf32>, tensor<2x6x32xf32>, tensor<2x1x6xf32>) -> tensor<2x4x32xf32>
//       CHECK:   tcc.attention %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf16>) -> tensor<?x?xf16>
func.func @attention(%q: tensor<?x12x197x64xf32>, %q2: tensor<2x4x64xf32>, %k2: tensor<2x6x64xf32>,
                     %v2: tensor<2x6x32xf32>, %m: tensor<4x6xi1>, %fm: tensor<2x1x6xf32>,
                     %h: tensor<?x?xf16>) {
  %0 = tcc.attention %q, %q, %q {is_causal = true}
      : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %1 = tcc.attention %q2, %k2, %v2, %m {scale = 0.125 : f32, is_causal = false}
      : (tensor<2x4x64xf32>, tensor<2x6x64xf32>, tensor<2x6x32xf32>, tensor<4x6xi1>) -> tensor<2x4x32xf32>
  %2 = tcc.attention %q2, %k2, %v2, %fm
      : (tensor<2x4x64xf32>, tensor<2x6x64xf32>, tensor<2x6x32xf32>, tensor<2x1x6xf32>) -> tensor<2x4x32xf32>
  %3 = tcc.attention %h, %h, %h : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf16>) -> tensor<?x?xf16>
  return
}

// CHECK-LABEL: func.func @transpose
//       CHECK:   tcc.transpose %{{.*}} {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x197x12x64xf32>) -> tensor<?x12x197x64xf32>
//       CHECK:   tcc.transpose %{{.*}} {permutation = array<i64: 1, 0>} : (tensor<2x3xi1>) -> tensor<3x2xi1>
//       CHECK:   tcc.transpose %{{.*}} {permutation = array<i64>} : (tensor<i64>) -> tensor<i64>
func.func @transpose(%x: tensor<?x197x12x64xf32>, %b: tensor<2x3xi1>, %s: tensor<i64>) {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x197x12x64xf32>) -> tensor<?x12x197x64xf32>
  %1 = tcc.transpose %b {permutation = array<i64: 1, 0>} : (tensor<2x3xi1>) -> tensor<3x2xi1>
  %2 = tcc.transpose %s {permutation = array<i64>} : (tensor<i64>) -> tensor<i64>
  return
}

// The shape operand is optional.
// CHECK-LABEL: func.func @reshape
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x197x2304xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<3xi64>, %[[D:[a-zA-Z0-9_]+]]: tensor<?xi64>
//       CHECK:   tcc.reshape %[[X]] : (tensor<?x197x2304xf32>) -> tensor<?x197x3x12x64xf32>
//       CHECK:   tcc.reshape %[[X]], %[[S]] : (tensor<?x197x2304xf32>, tensor<3xi64>) -> tensor<?x?x64xf32>
//       CHECK:   tcc.reshape %[[X]], %[[D]] : (tensor<?x197x2304xf32>, tensor<?xi64>) -> tensor<?x?xf32>
//       CHECK:   tcc.reshape %{{.*}} : (tensor<2x3xi8>) -> tensor<6xi8>
//       CHECK:   tcc.reshape %{{.*}} : (tensor<1xf16>) -> tensor<f16>
//       CHECK:   tcc.reshape %{{.*}} : (tensor<2x3xi8>) -> tensor<?x2xi8>
func.func @reshape(%x: tensor<?x197x2304xf32>, %s: tensor<3xi64>, %d: tensor<?xi64>,
                   %i: tensor<2x3xi8>, %h: tensor<1xf16>) {
  %0 = tcc.reshape %x : (tensor<?x197x2304xf32>) -> tensor<?x197x3x12x64xf32>
  %1 = tcc.reshape %x, %s : (tensor<?x197x2304xf32>, tensor<3xi64>) -> tensor<?x?x64xf32>
  %2 = tcc.reshape %x, %d : (tensor<?x197x2304xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %3 = tcc.reshape %i : (tensor<2x3xi8>) -> tensor<6xi8>
  %4 = tcc.reshape %h : (tensor<1xf16>) -> tensor<f16>
  %5 = tcc.reshape %i : (tensor<2x3xi8>) -> tensor<?x2xi8>
  return
}

// CHECK-LABEL: func.func @broadcast_to
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<1x768xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<3xi64>
//       CHECK:   tcc.broadcast_to %[[X]] : (tensor<1x768xf32>) -> tensor<197x768xf32>
//       CHECK:   tcc.broadcast_to %[[X]], %[[S]] : (tensor<1x768xf32>, tensor<3xi64>) -> tensor<?x?x768xf32>
//       CHECK:   tcc.broadcast_to %{{.*}} : (tensor<?x4xi1>) -> tensor<2x?x4xi1>
//       CHECK:   tcc.broadcast_to %{{.*}} : (tensor<i32>) -> tensor<2x3xi32>
func.func @broadcast_to(%x: tensor<1x768xf32>, %s: tensor<3xi64>, %b: tensor<?x4xi1>, %i: tensor<i32>) {
  %0 = tcc.broadcast_to %x : (tensor<1x768xf32>) -> tensor<197x768xf32>
  %1 = tcc.broadcast_to %x, %s : (tensor<1x768xf32>, tensor<3xi64>) -> tensor<?x?x768xf32>
  %2 = tcc.broadcast_to %b : (tensor<?x4xi1>) -> tensor<2x?x4xi1>
  %3 = tcc.broadcast_to %i : (tensor<i32>) -> tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @concat
//       CHECK:   tcc.concat %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<2x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
//       CHECK:   tcc.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x12xf32>
//       CHECK:   tcc.concat %{{.*}} {axis = 0 : i64} : (tensor<3xi64>) -> tensor<3xi64>
//       CHECK:   tcc.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<?x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
func.func @concat(%a: tensor<2x4xf32>, %b: tensor<?x4xf32>, %i: tensor<3xi64>) {
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = tcc.concat %a, %a, %a {axis = -1 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x12xf32>
  %2 = tcc.concat %i {axis = 0 : i64} : (tensor<3xi64>) -> tensor<3xi64>
  %3 = tcc.concat %b, %a {axis = 1 : i64} : (tensor<?x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return
}

// steps are optional (default 1 per dim).
// CHECK-LABEL: func.func @slice
//       CHECK:   tcc.slice %{{.*}} {ends = array<i64: 9223372036854775807, 1>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : (tensor<?x197xf32>) -> tensor<?x1xf32>
//       CHECK:   tcc.slice %{{.*}} {ends = array<i64: 10, -1>, starts = array<i64: 1, -5>} : (tensor<?x197xf32>) -> tensor<?x4xf32>
//       CHECK:   tcc.slice %{{.*}} {ends = array<i64: 8>, starts = array<i64: 1>, steps = array<i64: 3>} : (tensor<8xi32>) -> tensor<3xi32>
func.func @slice(%x: tensor<?x197xf32>, %i: tensor<8xi32>) {
  %0 = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 9223372036854775807, 1>, steps = array<i64: 1, 1>}
      : (tensor<?x197xf32>) -> tensor<?x1xf32>
  %1 = tcc.slice %x {starts = array<i64: 1, -5>, ends = array<i64: 10, -1>} : (tensor<?x197xf32>) -> tensor<?x4xf32>
  %2 = tcc.slice %i {starts = array<i64: 1>, ends = array<i64: 8>, steps = array<i64: 3>} : (tensor<8xi32>) -> tensor<3xi32>
  return
}

// axis = 0 is the default and is elided; indices are i32 or i64.
// A dynamic x with smaller indices; the declared type may refine a dim.
// CHECK-LABEL: func.func @gather_elements
//       CHECK:   tcc.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<?x1000xf32>, tensor<?x1xi64>) -> tensor<?x1xf32>
//       CHECK:   tcc.gather_elements %{{.*}}, %{{.*}} : (tensor<4x5xi32>, tensor<?x2xi32>) -> tensor<3x2xi32>
func.func @gather_elements(%x: tensor<?x1000xf32>, %i: tensor<?x1xi64>, %y: tensor<4x5xi32>, %j: tensor<?x2xi32>) -> (tensor<?x1xf32>, tensor<3x2xi32>) {
  %0 = tcc.gather_elements %x, %i {axis = 1 : i64} : (tensor<?x1000xf32>, tensor<?x1xi64>) -> tensor<?x1xf32>
  %1 = tcc.gather_elements %y, %j : (tensor<4x5xi32>, tensor<?x2xi32>) -> tensor<3x2xi32>
  return %0, %1 : tensor<?x1xf32>, tensor<3x2xi32>
}

// CHECK-LABEL: func.func @gather
//       CHECK:   tcc.gather %{{.*}}, %{{.*}} : (tensor<32000x512xf32>, tensor<?x16xi64>) -> tensor<?x16x512xf32>
//       CHECK:   tcc.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x5x6xbf16>, tensor<3xi32>) -> tensor<4x3x6xbf16>
//       CHECK:   tcc.gather %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<4x5xi8>, tensor<i64>) -> tensor<4xi8>
func.func @gather(%t: tensor<32000x512xf32>, %ids: tensor<?x16xi64>, %x: tensor<4x5x6xbf16>,
                  %i32: tensor<3xi32>, %y: tensor<4x5xi8>, %s: tensor<i64>) {
  %0 = tcc.gather %t, %ids {axis = 0 : i64} : (tensor<32000x512xf32>, tensor<?x16xi64>) -> tensor<?x16x512xf32>
  %1 = tcc.gather %x, %i32 {axis = 1 : i64} : (tensor<4x5x6xbf16>, tensor<3xi32>) -> tensor<4x3x6xbf16>
  %2 = tcc.gather %y, %s {axis = -1 : i64} : (tensor<4x5xi8>, tensor<i64>) -> tensor<4xi8>
  return
}

// CHECK-LABEL: func.func @constant
//       CHECK:   tcc.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
//       CHECK:   tcc.constant dense<0> : tensor<2x3xi64>
//       CHECK:   tcc.constant dense<true> : tensor<i1>
//       CHECK:   tcc.constant dense<1.500000e+00> : tensor<4xbf16>
//       CHECK:   tcc.constant dense<[1, -2]> : tensor<2xi8>
func.func @constant() {
  %0 = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = tcc.constant dense<0> : tensor<2x3xi64>
  %2 = tcc.constant dense<true> : tensor<i1>
  %3 = tcc.constant dense<1.5> : tensor<4xbf16>
  %4 = tcc.constant dense<[1, -2]> : tensor<2xi8>
  return
}

// Data-dependent result sizes: dim 0 is always `?`. mask_select takes a mask
// of x's shape (flat) or of its leading dims (rows, boxes[keep]); a rank-0
// mask over x selects all of x or nothing. The trailing dims of a row select
// may be refined (?x? -> ?x4), and so may the count (checked at runtime).
// CHECK-LABEL: func.func @mask_select
//  CHECK-SAME:   %[[B:[a-zA-Z0-9_]+]]: tensor<?x4xf32>, %[[K:[a-zA-Z0-9_]+]]: tensor<?xi1>
//       CHECK:   tcc.mask_select %[[B]], %[[K]] : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<?x4xf32>
//       CHECK:   tcc.mask_select %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<2x3xi1>) -> tensor<?xi32>
//       CHECK:   tcc.mask_select %{{.*}}, %{{.*}} : (tensor<2x?x5xbf16>, tensor<2x3xi1>) -> tensor<?x5xbf16>
//       CHECK:   tcc.mask_select %{{.*}}, %{{.*}} : (tensor<2x?x5xbf16>, tensor<i1>) -> tensor<?x2x?x5xbf16>
//       CHECK:   tcc.mask_select %{{.*}}, %{{.*}} : (tensor<f32>, tensor<i1>) -> tensor<?xf32>
//       CHECK:   tcc.mask_select %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<?xi1>) -> tensor<?x4xf32>
//       CHECK:   tcc.mask_select %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<2x3xi1>) -> tensor<4xi32>
func.func @mask_select(%boxes: tensor<?x4xf32>, %keep: tensor<?xi1>, %x: tensor<2x3xi32>,
                       %m: tensor<2x3xi1>, %y: tensor<2x?x5xbf16>, %b: tensor<i1>,
                       %s: tensor<f32>, %z: tensor<?x?xf32>) {
  %0 = tcc.mask_select %boxes, %keep : (tensor<?x4xf32>, tensor<?xi1>) -> tensor<?x4xf32>
  %1 = tcc.mask_select %x, %m : (tensor<2x3xi32>, tensor<2x3xi1>) -> tensor<?xi32>
  %2 = tcc.mask_select %y, %m : (tensor<2x?x5xbf16>, tensor<2x3xi1>) -> tensor<?x5xbf16>
  %3 = tcc.mask_select %y, %b : (tensor<2x?x5xbf16>, tensor<i1>) -> tensor<?x2x?x5xbf16>
  %4 = tcc.mask_select %s, %b : (tensor<f32>, tensor<i1>) -> tensor<?xf32>
  %5 = tcc.mask_select %z, %keep : (tensor<?x?xf32>, tensor<?xi1>) -> tensor<?x4xf32>
  %6 = tcc.mask_select %x, %m : (tensor<2x3xi32>, tensor<2x3xi1>) -> tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @nonzero
//       CHECK:   tcc.nonzero %{{.*}} : (tensor<3x4xi1>) -> tensor<?x2xi64>
//       CHECK:   tcc.nonzero %{{.*}} : (tensor<?xf16>) -> tensor<?x1xi64>
//       CHECK:   tcc.nonzero %{{.*}} : (tensor<i32>) -> tensor<?x0xi64>
//       CHECK:   tcc.nonzero %{{.*}} : (tensor<3x4xi1>) -> tensor<5x2xi64>
func.func @nonzero(%a: tensor<3x4xi1>, %b: tensor<?xf16>, %c: tensor<i32>) {
  %0 = tcc.nonzero %a : (tensor<3x4xi1>) -> tensor<?x2xi64>
  %1 = tcc.nonzero %b : (tensor<?xf16>) -> tensor<?x1xi64>
  %2 = tcc.nonzero %c : (tensor<i32>) -> tensor<?x0xi64>
  %3 = tcc.nonzero %a : (tensor<3x4xi1>) -> tensor<5x2xi64>
  return
}

// CHECK-LABEL: func.func @sort
//       CHECK:   tcc.sort %{{.+}} : (tensor<?x1000xf32>) -> (tensor<?x1000xf32>, tensor<?x1000xi64>)
//       CHECK:   tcc.sort %{{.+}} {axis = 0 : i64, descending = true} : (tensor<4x?xi32>) -> (tensor<4x?xi32>, tensor<4x?xi64>)
func.func @sort(%x: tensor<?x1000xf32>, %y: tensor<4x?xi32>) -> (tensor<?x1000xi64>, tensor<4x?xi32>) {
  %v, %i = tcc.sort %x {axis = -1 : i64} : (tensor<?x1000xf32>) -> (tensor<?x1000xf32>, tensor<?x1000xi64>)
  %w, %j = tcc.sort %y {axis = 0 : i64, descending = true} : (tensor<4x?xi32>) -> (tensor<4x?xi32>, tensor<4x?xi64>)
  return %i, %w : tensor<?x1000xi64>, tensor<4x?xi32>
}

// CHECK-LABEL: func.func @nms
//       CHECK:   tcc.nms %{{.+}}, %{{.+}} {iou_threshold = 5.000000e-01 : f64} : (tensor<1x?x4xf32>, tensor<1x1x?xf32>) -> tensor<?x3xi64>
//       CHECK:   tcc.nms %{{.+}}, %{{.+}} {center_point_box = true, iou_threshold = 0.000000e+00 : f64, max_output_per_class = 10 : i64, score_threshold = 2.500000e-01 : f64} : (tensor<2x?x4xf16>, tensor<2x3x?xf16>) -> tensor<?x3xi64>
func.func @nms(%b: tensor<1x?x4xf32>, %s: tensor<1x1x?xf32>, %c: tensor<2x?x4xf16>, %t: tensor<2x3x?xf16>) -> (tensor<?x3xi64>, tensor<?x3xi64>) {
  %0 = tcc.nms %b, %s {iou_threshold = 5.000000e-01 : f64} : (tensor<1x?x4xf32>, tensor<1x1x?xf32>) -> tensor<?x3xi64>
  %1 = tcc.nms %c, %t {center_point_box = true, iou_threshold = 0.0 : f64, max_output_per_class = 10 : i64, score_threshold = 0.25 : f64} : (tensor<2x?x4xf16>, tensor<2x3x?xf16>) -> tensor<?x3xi64>
  return %0, %1 : tensor<?x3xi64>, tensor<?x3xi64>
}

// CHECK-LABEL: func.func @topk
//       CHECK:   tcc.topk %{{.+}} {k = 5 : i64} : (tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
//       CHECK:   tcc.topk %{{.+}} {axis = 0 : i64, k = 2 : i64, largest = false} : (tensor<4x?xi32>) -> (tensor<2x?xi32>, tensor<2x?xi64>)
func.func @topk(%x: tensor<?x1000xf32>, %y: tensor<4x?xi32>) -> (tensor<?x5xi64>, tensor<2x?xi32>) {
  %v, %i = tcc.topk %x {k = 5 : i64} : (tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
  %w, %j = tcc.topk %y {k = 2 : i64, axis = 0 : i64, largest = false} : (tensor<4x?xi32>) -> (tensor<2x?xi32>, tensor<2x?xi64>)
  return %i, %w : tensor<?x5xi64>, tensor<2x?xi32>
}

// CHECK-LABEL: func.func @unsigned_and_bitwise
//       CHECK:   tcc.bitwise_and %{{.+}}, %{{.+}} : (tensor<?x4xui8>, tensor<4xui8>) -> tensor<?x4xui8>
//       CHECK:   tcc.bitwise_or
//       CHECK:   tcc.bitwise_xor %{{.+}}, %{{.+}} : (tensor<?xi1>, tensor<?xi1>) -> tensor<?xi1>
//       CHECK:   tcc.bitwise_not %{{.+}} : (tensor<?x4xui8>) -> tensor<?x4xui8>
//       CHECK:   tcc.shift_left %{{.+}}, %{{.+}} : (tensor<?xi16>, tensor<i16>) -> tensor<?xi16>
//       CHECK:   tcc.shift_right
//       CHECK:   tcc.max_pool2d %{{.+}} {kernel_size = array<i64: 2, 2>} : (tensor<?x3x8x8xui16>) -> tensor<?x3x4x4xui16>
func.func @unsigned_and_bitwise(%a: tensor<?x4xui8>, %b: tensor<4xui8>, %p: tensor<?xi1>, %s: tensor<?xi16>, %n: tensor<i16>, %x: tensor<?x3x8x8xui16>) -> (tensor<?x4xui8>, tensor<?x4xui8>, tensor<?xi1>, tensor<?x4xui8>, tensor<?xi16>, tensor<?xi16>, tensor<?x3x4x4xui16>) {
  %0 = tcc.bitwise_and %a, %b : (tensor<?x4xui8>, tensor<4xui8>) -> tensor<?x4xui8>
  %1 = tcc.bitwise_or %a, %b : (tensor<?x4xui8>, tensor<4xui8>) -> tensor<?x4xui8>
  %2 = tcc.bitwise_xor %p, %p : (tensor<?xi1>, tensor<?xi1>) -> tensor<?xi1>
  %3 = tcc.bitwise_not %a : (tensor<?x4xui8>) -> tensor<?x4xui8>
  %4 = tcc.shift_left %s, %n : (tensor<?xi16>, tensor<i16>) -> tensor<?xi16>
  %5 = tcc.shift_right %s, %n : (tensor<?xi16>, tensor<i16>) -> tensor<?xi16>
  %6 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<?x3x8x8xui16>) -> tensor<?x3x4x4xui16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<?x4xui8>, tensor<?x4xui8>, tensor<?xi1>, tensor<?x4xui8>, tensor<?xi16>, tensor<?xi16>, tensor<?x3x4x4xui16>
}
