// RUN: tcc-opt %s --symbolic-shapes='specialize=B=8' --split-input-file | FileCheck %s

// --symbolic-shapes' `specialize` option binds named symbols to values: the
// dims they name become static (arguments, ops, the function's type), the
// facts about them are checked then dropped, and whatever else they feed
// is recomputed. Every function here names B (specializing a name that a
// function does not have is an error: symbolic-shapes-invalid.mlir).

// B = 8 satisfies the constraints, which are dropped; nothing is dynamic
// any more, so no op has a tcc.shape.
// CHECK-LABEL: func.func @constraints
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<8x256xf32> {tcc.dim_names = ["B", ""], tcc.name = "obs", tcc.shape = #tcc.shape<[8, 256]>}
//  CHECK-SAME:   -> tensor<8x512xf32>
//   CHECK-NOT:   tcc.constraints
//       CHECK:   tcc.linear
//   CHECK-NOT:   tcc.shape
//  CHECK-SAME:   : (tensor<8x256xf32>, tensor<512x256xf32>) -> tensor<8x512xf32>
//       CHECK:   return {{.*}} : tensor<8x512xf32>
func.func @constraints(%x: tensor<?x256xf32> {tcc.shape = #tcc.shape<[B, 256]>, tcc.name = "obs"}, %w: tensor<512x256xf32>) -> tensor<?x512xf32>
    attributes {tcc.constraints = ["B <= 64", "B % 8 == 0", "B >= 1"]} {
  %0 = tcc.linear %x, %w : (tensor<?x256xf32>, tensor<512x256xf32>) -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}

// -----

// Only B is fixed: S and the weight's columns stay symbolic. The concat of
// two B-row tensors has 16 rows.
// CHECK-LABEL: func.func @partial
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<8x?xf32> {tcc.dim_names = ["B", ""], tcc.shape = #tcc.shape<[8, S]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[S, s1]>}
//  CHECK-SAME:   -> (tensor<8x?xf32>, tensor<16x?xf32>)
//   CHECK-NOT:   tcc.constraints
//       CHECK:   tcc.matmul {{.*}}{tcc.shape = #tcc.shape<[8, s1]>} : (tensor<8x?xf32>, tensor<?x?xf32>) -> tensor<8x?xf32>
//       CHECK:   tcc.concat {{.*}}tcc.shape = #tcc.shape<[16, S]>} : (tensor<8x?xf32>, tensor<8x?xf32>) -> tensor<16x?xf32>
func.func @partial(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}, %w: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
    attributes {tcc.constraints = ["1 <= B <= 64"]} {
  %0 = tcc.matmul %x, %w : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tcc.concat %x, %x {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// An equality between two non-trivial expressions stays a constraint, over
// the symbols that are left (B * S == T * 2 with B = 8).
// CHECK-LABEL: func.func @equality
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<8x?x?xf32> {tcc.dim_names = ["B", "", ""], tcc.shape = #tcc.shape<[8, S, T]>}
//  CHECK-SAME:   attributes {tcc.constraints = ["S * 8 == T * 2"]}
func.func @equality(%x: tensor<?x?x?xf32> {tcc.shape = #tcc.shape<[B, S, T]>}) -> tensor<?x?x?xf32>
    attributes {tcc.constraints = ["B * S == T * 2"]} {
  %0 = tcc.relu %x : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// Expressions of B fold to constants: a square B x B image through the 7x7,
// stride 2, pad 3 conv of seed exercise 2.2 is (8 - 1) floordiv 2 + 1 = 4
// wide; its batch N stays symbolic.
// CHECK-LABEL: func.func @conv
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x3x8x8xf32> {tcc.dim_names = ["", "", "B", "B"], tcc.shape = #tcc.shape<[N, 3, 8, 8]>}
//  CHECK-SAME:   -> tensor<?x64x4x4xf32>
//       CHECK:   tcc.conv2d
//  CHECK-SAME:     tcc.shape = #tcc.shape<[N, 64, 4, 4]>
//  CHECK-SAME:     -> tensor<?x64x4x4xf32>
func.func @conv(%x: tensor<?x3x?x?xf32> {tcc.shape = #tcc.shape<[N, 3, B, B]>}, %w: tensor<64x3x7x7xf32>) -> tensor<?x?x?x?xf32> {
  %0 = tcc.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3, 3>} : (tensor<?x3x?x?xf32>, tensor<64x3x7x7xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}
