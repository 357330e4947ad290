// RUN: tcc-opt %s --tcc-linear-to-library=min-macs=0 --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-linear-to-library --split-input-file | FileCheck %s --check-prefix=DEFAULT

// A linear with its bias and GELU: one host gemm (no async token) reading
// the weight through a transposed view; the constant weight is marked so
// the runtime keeps its prepacked copy; the group disappears.
// CHECK-LABEL: func.func @linear_gelu
//       CHECK:   %[[W:.+]] = tcc.constant
//       CHECK:   %[[X:.+]] = bufferization.to_buffer %arg0 read_only
//       CHECK:   %[[WB:.+]] = bufferization.to_buffer %[[W]] read_only
//       CHECK:   %[[B:.+]] = bufferization.to_buffer %arg1 read_only
//       CHECK:   %[[WT:.+]] = memref.transpose %[[WB]] (d0, d1) -> (d1, d0)
//       CHECK:   %[[M:.+]] = memref.dim %[[X]], %c0
//       CHECK:   %[[OUT:.+]] = memref.alloc(%[[M]]) : memref<?x64xf32>
//       CHECK:   tcc_lib.gemm %[[X]], %[[WT]] bias %[[B]] into %[[OUT]]{{( scratch %[^ ]+)?}} {constant_b, epilogue = "gelu"}
//       CHECK:   %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[R]]
// With the default threshold (262144 multiply-adds) the choice is made per
// call: 32 x 64 per row, the rows open; the library's form runs when rows
// x 2048 reach it, the group as it was otherwise.
// DEFAULT-LABEL: func.func @linear_gelu
//       DEFAULT:   %[[ROWS:.+]] = tensor.dim %arg0, %c0
//       DEFAULT:   %[[MACS:.+]] = arith.muli %c2048, %[[ROWS]]
//       DEFAULT:   %[[LARGE:.+]] = arith.cmpi sge, %[[MACS]], %c262144
//       DEFAULT:   scf.if %[[LARGE]] -> (tensor<?x64xf32>) {
//       DEFAULT:     tcc_lib.gemm
//       DEFAULT:     scf.yield
//       DEFAULT:   } else {
//       DEFAULT:     %[[G:.+]] = fusion.group "matmul"
//       DEFAULT:       tcc.linear
//       DEFAULT:       tcc.gelu
//       DEFAULT:     scf.yield %[[G]]
func.func @linear_gelu(%x: tensor<?x32xf32>, %b: tensor<64xf32>) -> tensor<?x64xf32> {
  %w = tcc.constant dense<0.5> : tensor<64x32xf32>
  %0 = fusion.group "matmul"(%x, %w, %b : tensor<?x32xf32>, tensor<64x32xf32>, tensor<64xf32>) -> tensor<?x64xf32> {
  ^bb0(%a0: tensor<?x32xf32>, %a1: tensor<64x32xf32>, %a2: tensor<64xf32>):
    %1 = tcc.linear %a0, %a1, %a2 : (tensor<?x32xf32>, tensor<64x32xf32>, tensor<64xf32>) -> tensor<?x64xf32>
    %2 = tcc.gelu %1 : (tensor<?x64xf32>) -> tensor<?x64xf32>
    fusion.yield %2 : tensor<?x64xf32>
  }
  return %0 : tensor<?x64xf32>
}

// -----

// Rank-3 input with a residual add and tanh GELU; the residual's open dims
// are compared with the result's at run time. A weight that is an argument
// is not marked constant.
// CHECK-LABEL: func.func @linear_residual_3d
//       CHECK:   %[[X:.+]] = bufferization.to_buffer %arg0 read_only
//       CHECK:   %[[R:.+]] = bufferization.to_buffer %arg3 read_only
//       CHECK:   %[[WT:.+]] = memref.transpose
//       CHECK:   %[[B:.+]] = memref.dim %[[X]], %c0
//       CHECK:   %[[S:.+]] = memref.dim %[[X]], %c1
//       CHECK:   %[[RB:.+]] = memref.dim %[[R]], %c0
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[RB]], %[[B]]
//       CHECK:   cf.assert %[[EQ]], "tcc.add: the residual's shape differs from the product's"
//       CHECK:   cf.assert
//       CHECK:   %[[OUT:.+]] = memref.alloc(%[[B]], %[[S]]) : memref<?x?x16xf32>
//       CHECK:   tcc_lib.gemm %[[X]], %[[WT]] c %[[R]] bias %{{.+}} into %[[OUT]]{{( scratch %[^ ]+)?}} {epilogue = "gelu_tanh"}
//  CHECK-SAME:     memref<?x?x8xf32, strided<[?, ?, ?], offset: ?>>, memref<8x16xf32, strided<[?, ?], offset: ?>>
func.func @linear_residual_3d(%x: tensor<?x?x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>, %r: tensor<?x?x16xf32>) -> tensor<?x?x16xf32> {
  %0 = fusion.group "matmul"(%x, %w, %b, %r : tensor<?x?x8xf32>, tensor<16x8xf32>, tensor<16xf32>, tensor<?x?x16xf32>) -> tensor<?x?x16xf32> {
  ^bb0(%a0: tensor<?x?x8xf32>, %a1: tensor<16x8xf32>, %a2: tensor<16xf32>, %a3: tensor<?x?x16xf32>):
    %1 = tcc.linear %a0, %a1, %a2 : (tensor<?x?x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<?x?x16xf32>
    %2 = tcc.add %a3, %1 : (tensor<?x?x16xf32>, tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
    %3 = tcc.gelu %2 {approximate = "tanh"} : (tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
    fusion.yield %3 : tensor<?x?x16xf32>
  }
  return %0 : tensor<?x?x16xf32>
}

// -----

// A matmul [M, K] x [K, N] with ReLU, static shapes: b is read as it lies;
// no assert, no dynamic sizes. With the default threshold this static,
// small product stays generated, with no per-call choice.
// DEFAULT-LABEL: func.func @matmul_relu
//   DEFAULT-NOT:   scf.if
//   DEFAULT-NOT:   tcc_lib.gemm
//       DEFAULT:   tcc.matmul
// CHECK-LABEL: func.func @matmul_relu
//   CHECK-NOT:   cf.assert
//       CHECK:   %[[OUT:.+]] = memref.alloc() : memref<4x6xf32>
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %[[OUT]]{{( scratch %[^ ]+)?}} {epilogue = "relu"} : memref<4x5xf32, strided<[?, ?], offset: ?>>, memref<5x6xf32, strided<[?, ?], offset: ?>> into memref<4x6xf32>
func.func @matmul_relu(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>) -> tensor<4x6xf32> {
  %0 = fusion.group "matmul"(%a, %b : tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a0: tensor<4x5xf32>, %a1: tensor<5x6xf32>):
    %1 = tcc.matmul %a0, %a1 : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
    %2 = tcc.relu %1 : (tensor<4x6xf32>) -> tensor<4x6xf32>
    fusion.yield %2 : tensor<4x6xf32>
  }
  return %0 : tensor<4x6xf32>
}

// -----

// What the library cannot take stays in the group: the rest of the
// epilogue (a multiply after ReLU) reads the library's result in a
// pointwise group.
// CHECK-LABEL: func.func @rest_stays
//       CHECK:   %[[OUT:.+]] = memref.alloc() : memref<4x6xf32>
//       CHECK:   tcc_lib.gemm {{.+}} into %[[OUT]]{{( scratch %[^ ]+)?}} {epilogue = "relu"}
//       CHECK:   %[[T:.+]] = bufferization.to_tensor %[[OUT]]
//       CHECK:   fusion.group "pointwise"(%{{.+}}, %[[T]] : tensor<4x6xf32>, tensor<4x6xf32>)
//       CHECK:     tcc.mul
//   CHECK-NOT:     tcc.matmul
func.func @rest_stays(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %s: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = fusion.group "matmul"(%a, %b, %s : tensor<4x5xf32>, tensor<5x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a0: tensor<4x5xf32>, %a1: tensor<5x6xf32>, %a2: tensor<4x6xf32>):
    %1 = tcc.matmul %a0, %a1 : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
    %2 = tcc.relu %1 : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %3 = tcc.mul %2, %a2 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    fusion.yield %3 : tensor<4x6xf32>
  }
  return %0 : tensor<4x6xf32>
}

// -----

// A broadcast residual (a row) is not the library's `c`: it stays an add
// in the group.
// CHECK-LABEL: func.func @broadcast_add_stays
//       CHECK:   tcc_lib.gemm {{.+}} into %{{.+}} :
//       CHECK:   fusion.group "pointwise"
//       CHECK:     tcc.add
func.func @broadcast_add_stays(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %r: tensor<1x6xf32>) -> tensor<4x6xf32> {
  %0 = fusion.group "matmul"(%a, %b, %r : tensor<4x5xf32>, tensor<5x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a0: tensor<4x5xf32>, %a1: tensor<5x6xf32>, %a2: tensor<1x6xf32>):
    %1 = tcc.matmul %a0, %a1 : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
    %2 = tcc.add %1, %a2 : (tensor<4x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
    fusion.yield %2 : tensor<4x6xf32>
  }
  return %0 : tensor<4x6xf32>
}

// -----

// Stays generated: bf16 (oneDNN on the host takes f32), a batched weight,
// a prologue fused before the product (its input is not a group input).
// CHECK-LABEL: func.func @stays_generated
//   CHECK-NOT:   tcc_lib.gemm
//       CHECK:   tcc.linear
//       CHECK:   tcc.matmul
//       CHECK:   tcc.relu
//       CHECK:   tcc.linear
func.func @stays_generated(%x: tensor<4x8xbf16>, %w: tensor<16x8xbf16>, %a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>, %y: tensor<4x8xf32>, %v: tensor<16x8xf32>) -> (tensor<4x16xbf16>, tensor<2x4x3xf32>, tensor<4x16xf32>) {
  %0 = fusion.group "matmul"(%x, %w : tensor<4x8xbf16>, tensor<16x8xbf16>) -> tensor<4x16xbf16> {
  ^bb0(%a0: tensor<4x8xbf16>, %a1: tensor<16x8xbf16>):
    %1 = tcc.linear %a0, %a1 : (tensor<4x8xbf16>, tensor<16x8xbf16>) -> tensor<4x16xbf16>
    fusion.yield %1 : tensor<4x16xbf16>
  }
  %2 = fusion.group "matmul"(%a, %b : tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32> {
  ^bb0(%a0: tensor<2x4x8xf32>, %a1: tensor<2x8x3xf32>):
    %3 = tcc.matmul %a0, %a1 : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
    fusion.yield %3 : tensor<2x4x3xf32>
  }
  %4 = fusion.group "matmul"(%y, %v : tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<16x8xf32>):
    %5 = tcc.relu %a0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %6 = tcc.linear %5, %a1 : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
    fusion.yield %6 : tensor<4x16xf32>
  }
  return %0, %2, %4 : tensor<4x16xbf16>, tensor<2x4x3xf32>, tensor<4x16xf32>
}

// -----

// The default threshold (262144 multiply-adds) takes a ViT-sized linear
// even when its rows are open.
// DEFAULT-LABEL: func.func @large_linear
//       DEFAULT:   tcc_lib.gemm
func.func @large_linear(%x: tensor<?x768xf32>, %w: tensor<2304x768xf32>) -> tensor<?x2304xf32> {
  %0 = fusion.group "matmul"(%x, %w : tensor<?x768xf32>, tensor<2304x768xf32>) -> tensor<?x2304xf32> {
  ^bb0(%a0: tensor<?x768xf32>, %a1: tensor<2304x768xf32>):
    %1 = tcc.linear %a0, %a1 : (tensor<?x768xf32>, tensor<2304x768xf32>) -> tensor<?x2304xf32>
    fusion.yield %1 : tensor<?x2304xf32>
  }
  return %0 : tensor<?x2304xf32>
}

// -----

// Sizes the types leave open are checked as the generated lowering checks
// them: the input's and the weight's K, the bias against N (the library
// would read past a buffer's end).
// CHECK-LABEL: func.func @open_k
//       CHECK:   %[[WT:.+]] = memref.transpose
//       CHECK:   %[[KW:.+]] = memref.dim %[[WT]], %c0
//       CHECK:   %[[KX:.+]] = memref.dim %{{.+}}, %c1
//       CHECK:   %[[KEQ:.+]] = arith.cmpi eq, %[[KX]], %[[KW]]
//       CHECK:   cf.assert %[[KEQ]], "tcc.linear: input features differ at runtime"
//       CHECK:   cf.assert %{{.+}}, "tcc.linear: bias size differs from the output features"
//       CHECK:   tcc_lib.gemm
func.func @open_k(%x: tensor<4x?xf32>, %w: tensor<8x?xf32>, %b: tensor<?xf32>) -> tensor<4x8xf32> {
  %0 = fusion.group "matmul"(%x, %w, %b : tensor<4x?xf32>, tensor<8x?xf32>, tensor<?xf32>) -> tensor<4x8xf32> {
  ^bb0(%a0: tensor<4x?xf32>, %a1: tensor<8x?xf32>, %a2: tensor<?xf32>):
    %1 = tcc.linear %a0, %a1, %a2 : (tensor<4x?xf32>, tensor<8x?xf32>, tensor<?xf32>) -> tensor<4x8xf32>
    fusion.yield %1 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
