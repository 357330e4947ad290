// RUN: tcc-opt %s | tcc-opt | FileCheck %s
// RUN: tcc-opt %s --mlir-print-op-generic | tcc-opt | FileCheck %s

// Round trip of fusion.group: every kind, several results, no inputs, no
// results, extra attributes.

// CHECK-LABEL: func.func @pointwise_two_results
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   %[[G:.+]]:2 = fusion.group "pointwise"(%[[A]], %[[B]] : tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>, tensor<?x8xf32> {
//       CHECK:   ^bb0(%[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[Y:[a-zA-Z0-9_]+]]: tensor<8xf32>):
//       CHECK:     %[[S:.+]] = tcc.add %[[X]], %[[Y]]
//       CHECK:     %[[R:.+]] = tcc.relu %[[S]]
//       CHECK:     fusion.yield %[[S]], %[[R]] : tensor<?x8xf32>, tensor<?x8xf32>
//       CHECK:   }
//       CHECK:   return %[[G]]#0, %[[G]]#1
func.func @pointwise_two_results(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %r:2 = fusion.group "pointwise" (%a, %b : tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>, tensor<?x8xf32> {
  ^bb0(%x: tensor<?x8xf32>, %y: tensor<8xf32>):
    %0 = tcc.add %x, %y : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    %1 = tcc.relu %0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
    fusion.yield %0, %1 : tensor<?x8xf32>, tensor<?x8xf32>
  }
  return %r#0, %r#1 : tensor<?x8xf32>, tensor<?x8xf32>
}

// CHECK-LABEL: func.func @reduction
//       CHECK:   fusion.group "reduction"(%{{.*}} : tensor<2x8xf32>) -> tensor<2x8xf32> {
//       CHECK:     tcc.exp
//       CHECK:     tcc.softmax
//       CHECK:     fusion.yield %{{.*}} : tensor<2x8xf32>
func.func @reduction(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %r = fusion.group "reduction" (%a : tensor<2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%x: tensor<2x8xf32>):
    %0 = tcc.exp %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %1 = tcc.softmax %0 {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    fusion.yield %1 : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @matmul
//       CHECK:   fusion.group "matmul"(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<?x32xf32> {
//       CHECK:     tcc.linear
//       CHECK:     tcc.gelu
//       CHECK:     fusion.yield
func.func @matmul(%x: tensor<?x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %r = fusion.group "matmul" (%x, %w, %b : tensor<?x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<?x32xf32> {
  ^bb0(%xx: tensor<?x16xf32>, %ww: tensor<32x16xf32>, %bb: tensor<32xf32>):
    %0 = tcc.linear %xx, %ww, %bb : (tensor<?x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<?x32xf32>
    %1 = tcc.gelu %0 : (tensor<?x32xf32>) -> tensor<?x32xf32>
    fusion.yield %1 : tensor<?x32xf32>
  }
  return %r : tensor<?x32xf32>
}

// CHECK-LABEL: func.func @conv_pool_attention_copy
//       CHECK:   fusion.group "conv"(%{{.*}}, %{{.*}} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
//       CHECK:   fusion.group "pool"(%{{.*}} : tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32> {
//       CHECK:   fusion.group "attention"(%{{.*}} : tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
//       CHECK:   fusion.group "copy"(%{{.*}} : tensor<2x4x8xf32>) -> tensor<2x8x4xf32> {
func.func @conv_pool_attention_copy(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %q: tensor<2x4x8xf32>)
    -> (tensor<1x4x3x3xf32>, tensor<2x8x4xf32>) {
  %c = fusion.group "conv" (%x, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%xx: tensor<1x4x8x8xf32>, %ww: tensor<4x4x3x3xf32>):
    %0 = tcc.conv2d %xx, %ww {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
        : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
    fusion.yield %0 : tensor<1x4x6x6xf32>
  }
  %p = fusion.group "pool" (%c : tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32> {
  ^bb0(%cc: tensor<1x4x6x6xf32>):
    %0 = tcc.max_pool2d %cc {kernel_size = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
    fusion.yield %0 : tensor<1x4x3x3xf32>
  }
  %a = fusion.group "attention" (%q : tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  ^bb0(%qq: tensor<2x4x8xf32>):
    %0 = tcc.attention %qq, %qq, %qq : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    fusion.yield %0 : tensor<2x4x8xf32>
  }
  %t = fusion.group "copy" (%a : tensor<2x4x8xf32>) -> tensor<2x8x4xf32> {
  ^bb0(%aa: tensor<2x4x8xf32>):
    %0 = tcc.transpose %aa {permutation = array<i64: 0, 2, 1>} : (tensor<2x4x8xf32>) -> tensor<2x8x4xf32>
    fusion.yield %0 : tensor<2x8x4xf32>
  }
  return %p, %t : tensor<1x4x3x3xf32>, tensor<2x8x4xf32>
}

// A group without inputs (a constant computed in its own kernel).
// CHECK-LABEL: func.func @no_inputs
//       CHECK:   %[[G:.+]] = fusion.group "copy"() -> tensor<4xf32> {
//   CHECK-NOT:   ^bb0
//       CHECK:     %[[C:.+]] = tcc.constant dense<1.000000e+00> : tensor<4xf32>
//       CHECK:     fusion.yield %[[C]] : tensor<4xf32>
//       CHECK:   return %[[G]]
func.func @no_inputs() -> tensor<4xf32> {
  %c = fusion.group "copy" () -> tensor<4xf32> {
    %0 = tcc.constant dense<1.0> : tensor<4xf32>
    fusion.yield %0 : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// No results: the yield is implicit and elided; extra attributes print after
// the `attributes` keyword.
// CHECK-LABEL: func.func @no_results
//       CHECK:   fusion.group "pointwise"(%{{.*}} : tensor<4xf32>) attributes {tcc.note = "x"} {
//       CHECK:   ^bb0(%{{.*}}: tensor<4xf32>):
//   CHECK-NOT:     fusion.yield
//       CHECK:   }
//       CHECK:   return
func.func @no_results(%a: tensor<4xf32>) {
  fusion.group "pointwise" (%a : tensor<4xf32>) attributes {tcc.note = "x"} {
  ^bb0(%x: tensor<4xf32>):
    fusion.yield
  }
  return
}
