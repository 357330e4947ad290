// RUN: tcc-opt %s --tcc-conv-to-library=target=cpu --split-input-file --verify-diagnostics | FileCheck %s

// The cpu target (oneDNN): an f32 convolution with its epilogue becomes a
// tcc_lib.conv2d without an async token; a constant weight (frozen) is
// marked so the host runtime keeps its repacked copy.
// CHECK-LABEL: func.func @constant_weight
//       CHECK:   %[[W:.+]] = tcc.constant
//       CHECK:   %[[WB:.+]] = bufferization.to_buffer %[[W]] read_only
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?x4x6x6xf32>
//       CHECK:   tcc_lib.conv2d %{{.+}}, %[[WB]] into %[[OUT]]{{( scratch %[^ ]+)?}} {activation = "relu", constant_weight, padding = array<i64: 1, 1>}
//   CHECK-NOT:   fusion.group
func.func @constant_weight(%x: tensor<?x2x6x6xf32>) -> tensor<?x4x6x6xf32> {
  %w = tcc.constant dense<0.5> : tensor<4x2x3x3xf32>
  %0 = fusion.group "conv"(%x, %w : tensor<?x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<?x4x6x6xf32> {
  ^bb0(%a: tensor<?x2x6x6xf32>, %b: tensor<4x2x3x3xf32>):
    %1 = tcc.conv2d %a, %b {padding = array<i64: 1, 1>} : (tensor<?x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<?x4x6x6xf32>
    %2 = tcc.relu %1 : (tensor<?x4x6x6xf32>) -> tensor<?x4x6x6xf32>
    fusion.yield %2 : tensor<?x4x6x6xf32>
  }
  return %0 : tensor<?x4x6x6xf32>
}

// -----

// A weight that is an argument may change between calls: not marked.
// CHECK-LABEL: func.func @argument_weight
//       CHECK:   tcc_lib.conv2d %{{.+}}, %{{.+}} into %{{.+}}{{( scratch %[^ ]+)?}} {padding = array<i64: 1, 1>}
func.func @argument_weight(%x: tensor<1x2x6x6xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = fusion.group "conv"(%x, %w : tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%a: tensor<1x2x6x6xf32>, %b: tensor<4x2x3x3xf32>):
    %1 = tcc.conv2d %a, %b {padding = array<i64: 1, 1>} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
    fusion.yield %1 : tensor<1x4x6x6xf32>
  }
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// oneDNN on the host takes f32 only: bf16 stays generated code (cuDNN
// would take it).
// CHECK-LABEL: func.func @bf16_stays
//   CHECK-NOT:   tcc_lib.conv2d
//       CHECK:   tcc.conv2d
func.func @bf16_stays(%x: tensor<1x2x6x6xbf16>, %w: tensor<4x2x3x3xbf16>) -> tensor<1x4x6x6xbf16> {
  %0 = fusion.group "conv"(%x, %w : tensor<1x2x6x6xbf16>, tensor<4x2x3x3xbf16>) -> tensor<1x4x6x6xbf16> {
  ^bb0(%a: tensor<1x2x6x6xbf16>, %b: tensor<4x2x3x3xbf16>):
    %1 = tcc.conv2d %a, %b {padding = array<i64: 1, 1>} : (tensor<1x2x6x6xbf16>, tensor<4x2x3x3xbf16>) -> tensor<1x4x6x6xbf16>
    fusion.yield %1 : tensor<1x4x6x6xbf16>
  }
  return %0 : tensor<1x4x6x6xbf16>
}

// -----

// Channels the types leave open are checked at run time, as the generated
// lowering checks them: x's C against groups x the weight's.
// CHECK-LABEL: func.func @open_channels
//       CHECK:   %[[CG:.+]] = memref.dim %{{.+}}, %c1
//       CHECK:   %[[C:.+]] = memref.dim %{{.+}}, %c1
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[C]], %[[CG]]
//       CHECK:   cf.assert %[[EQ]], "tcc.conv2d: input channels differ from weight's at runtime"
//       CHECK:   tcc_lib.conv2d
func.func @open_channels(%x: tensor<1x?x6x6xf32>, %w: tensor<4x?x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = fusion.group "conv"(%x, %w : tensor<1x?x6x6xf32>, tensor<4x?x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%a: tensor<1x?x6x6xf32>, %b: tensor<4x?x3x3xf32>):
    %1 = tcc.conv2d %a, %b {padding = array<i64: 1, 1>} : (tensor<1x?x6x6xf32>, tensor<4x?x3x3xf32>) -> tensor<1x4x6x6xf32>
    fusion.yield %1 : tensor<1x4x6x6xf32>
  }
  return %0 : tensor<1x4x6x6xf32>
}
