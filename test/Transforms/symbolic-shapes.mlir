// RUN: tcc-opt %s --symbolic-shapes --split-input-file | FileCheck %s

// --symbolic-shapes gives every dim of every tensor an expression over size
// symbols: user names from `#tcc.shape` on arguments, s0, s1, ... for
// unnamed dynamic dims, u0, u1, ... for sizes known only at run time. It
// writes `tcc.shape` on arguments and ops with a dynamic dim, canonical
// `tcc.constraints`, and static types where an expression is a constant.
// symbolic-shapes-specialize.mlir tests the `specialize` option.

// Two unnamed dynamic dims that meet in an elementwise op become one symbol;
// a dynamic dim that meets a static one becomes static: argument, op and
// function types are refined. Unary ops keep their operand's shape.
// CHECK-LABEL: func.func @elementwise_unify
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x8xf32> {tcc.shape = #tcc.shape<[s0, 8]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x8xf32> {tcc.shape = #tcc.shape<[s0, 8]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x8xf32> {tcc.shape = #tcc.shape<[s0, 8]>}
//  CHECK-SAME:   -> tensor<?x8xf16>
//   CHECK-NOT:   tcc.constraints
//       CHECK:   tcc.add {{.*}} {tcc.shape = #tcc.shape<[s0, 8]>} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.mul {{.*}} {tcc.shape = #tcc.shape<[s0, 8]>} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.exp {{.*}} {tcc.shape = #tcc.shape<[s0, 8]>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
//       CHECK:   tcc.cast {{.*}} {tcc.shape = #tcc.shape<[s0, 8]>} : (tensor<?x8xf32>) -> tensor<?x8xf16>
//       CHECK:   return {{.*}} : tensor<?x8xf16>
func.func @elementwise_unify(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x8xf32>) -> tensor<?x?xf16> {
  %0 = tcc.add %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tcc.mul %0, %c : (tensor<?x?xf32>, tensor<?x8xf32>) -> tensor<?x?xf32>
  %2 = tcc.exp %1 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = tcc.cast %2 : (tensor<?x?xf32>) -> tensor<?x?xf16>
  return %3 : tensor<?x?xf16>
}

// -----

// Broadcasting aligns from the right and skips dims of size 1; cmp and
// select broadcast the same way. An op whose result is fully static gets no
// tcc.shape.
// CHECK-LABEL: func.func @broadcast_rules
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x1x?xf32> {tcc.shape = #tcc.shape<[s0, 1, s1]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[s2, s1]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<4xf32>
//   CHECK-NOT:   tcc.shape
//  CHECK-SAME:   -> tensor<?x?x?xi1>
//       CHECK:   tcc.sub {{.*}} {tcc.shape = #tcc.shape<[s0, s2, s1]>}
//       CHECK:   tcc.neg %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
//       CHECK:   tcc.cmp {{.*}} {predicate = "lt", tcc.shape = #tcc.shape<[s0, s2, s1]>}
//       CHECK:   tcc.select {{.*}} {tcc.shape = #tcc.shape<[s0, s2, s1]>}
func.func @broadcast_rules(%a: tensor<?x1x?xf32>, %b: tensor<?x?xf32>, %c: tensor<4xf32>) -> tensor<?x?x?xi1> {
  %0 = tcc.sub %a, %b : (tensor<?x1x?xf32>, tensor<?x?xf32>) -> tensor<?x?x?xf32>
  %1 = tcc.neg %c : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tcc.cmp %0, %a {predicate = "lt"} : (tensor<?x?x?xf32>, tensor<?x1x?xf32>) -> tensor<?x?x?xi1>
  %3 = tcc.select %2, %2, %2 : (tensor<?x?x?xi1>, tensor<?x?x?xi1>, tensor<?x?x?xi1>) -> tensor<?x?x?xi1>
  return %3 : tensor<?x?x?xi1>
}

// -----

// Reductions drop the reduced dims, or keep them as 1 with keep_dims; an
// empty axes list reduces everything (a static rank-0 result, no tcc.shape).
// CHECK-LABEL: func.func @reductions
//  CHECK-SAME:   {tcc.shape = #tcc.shape<[s0, s1, 16]>}
//       CHECK:   tcc.reduce_sum {{.*}}keep_dims = true, tcc.shape = #tcc.shape<[s0, 1, 16]>}
//       CHECK:   tcc.reduce_max {{.*}}tcc.shape = #tcc.shape<[s0, s1]>}
//       CHECK:   tcc.reduce_mean
//   CHECK-NOT:   tcc.shape
//  CHECK-SAME:   -> tensor<f32>
//       CHECK:   tcc.reduce_min {{.*}}tcc.shape = #tcc.shape<[s1]>}
//       CHECK:   tcc.softmax {{.*}}tcc.shape = #tcc.shape<[s0, s1]>}
func.func @reductions(%x: tensor<?x?x16xf32>) -> (tensor<?x1x16xf32>, tensor<?xf32>, tensor<f32>, tensor<?x?xf32>) {
  %0 = tcc.reduce_sum %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x?x16xf32>) -> tensor<?x1x16xf32>
  %1 = tcc.reduce_max %x {axes = array<i64: -1>} : (tensor<?x?x16xf32>) -> tensor<?x?xf32>
  %2 = tcc.reduce_mean %x {axes = array<i64>} : (tensor<?x?x16xf32>) -> tensor<f32>
  %3 = tcc.reduce_min %1 {axes = array<i64: 0>} : (tensor<?x?xf32>) -> tensor<?xf32>
  %4 = tcc.softmax %1 {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %3, %2, %4 : tensor<?x1x16xf32>, tensor<?xf32>, tensor<f32>, tensor<?x?xf32>
}

// -----

// Norm parameters are tied to the normalized (trailing) dims of x.
// CHECK-LABEL: func.func @norms
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x?xf32> {tcc.shape = #tcc.shape<[s0, s1, s2]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[s1, s2]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[s1, s2]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {tcc.shape = #tcc.shape<[s2]>}
//       CHECK:   tcc.layer_norm {{.*}}tcc.shape = #tcc.shape<[s0, s1, s2]>}
//       CHECK:   tcc.rms_norm {{.*}}tcc.shape = #tcc.shape<[s0, s1, s2]>}
func.func @norms(%x: tensor<?x?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?x?xf32>, %r: tensor<?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>) {
  %0 = tcc.layer_norm %x, %w, %b {axis = 1 : i64} : (tensor<?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?x?xf32>
  %1 = tcc.rms_norm %0, %r {axis = -1 : i64} : (tensor<?x?x?xf32>, tensor<?xf32>) -> tensor<?x?x?xf32>
  return %0, %1 : tensor<?x?x?xf32>, tensor<?x?x?xf32>
}

// -----

// batch_norm: every per-channel parameter is tied to x's dim 1; one static
// parameter makes all of them, and x's channels, static.
// CHECK-LABEL: func.func @batch_norm
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x64x?x?xf32> {tcc.shape = #tcc.shape<[s0, 64, s2, s3]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<64xf32>, %{{[a-zA-Z0-9_]+}}: tensor<64xf32>, %{{[a-zA-Z0-9_]+}}: tensor<64xf32>, %{{[a-zA-Z0-9_]+}}: tensor<64xf32>)
//  CHECK-SAME:   -> tensor<?x64x?x?xf32>
//       CHECK:   tcc.batch_norm {{.*}}{tcc.shape = #tcc.shape<[s0, 64, s2, s3]>} : (tensor<?x64x?x?xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x?x?xf32>
func.func @batch_norm(%x: tensor<?x?x?x?xf32>, %s: tensor<?xf32>, %b: tensor<?xf32>, %m: tensor<64xf32>, %v: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = tcc.batch_norm %x, %s, %b, %m, %v : (tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<64xf32>, tensor<?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// linear contracts x's last dim with weight dim 1; the bias is tied to
// weight dim 0, which is the result's last dim.
// CHECK-LABEL: func.func @linear
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x?xf32> {tcc.shape = #tcc.shape<[s0, s1, s2]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[s3, s2]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {tcc.shape = #tcc.shape<[s3]>}
//       CHECK:   tcc.linear {{.*}}{tcc.shape = #tcc.shape<[s0, s1, s3]>}
func.func @linear(%x: tensor<?x?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x?x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// A static feature size makes the weight static; the weight's static rows
// make the result's last dim static.
// CHECK-LABEL: func.func @linear_static_features
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x256xf32> {tcc.shape = #tcc.shape<[s0, 256]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<512x256xf32>)
//  CHECK-SAME:   -> tensor<?x512xf32>
//       CHECK:   tcc.linear {{.*}}{tcc.shape = #tcc.shape<[s0, 512]>} : (tensor<?x256xf32>, tensor<512x256xf32>) -> tensor<?x512xf32>
func.func @linear_static_features(%x: tensor<?x256xf32>, %w: tensor<512x?xf32>) -> tensor<?x?xf32> {
  %0 = tcc.linear %x, %w : (tensor<?x256xf32>, tensor<512x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// matmul: a's last dim is b's second to last; batch dims broadcast (a's 1
// takes b's batch size).
// CHECK-LABEL: func.func @matmul_batch_broadcast
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x1x?x?xf32> {tcc.shape = #tcc.shape<[s0, 1, s1, s2]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x?xf32> {tcc.shape = #tcc.shape<[s3, s2, s5]>}
//       CHECK:   tcc.matmul {{.*}}{tcc.shape = #tcc.shape<[s0, s3, s1, s5]>}
func.func @matmul_batch_broadcast(%a: tensor<?x1x?x?xf32>, %b: tensor<?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = tcc.matmul %a, %b : (tensor<?x1x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// Seed exercise 2.2: a 7x7 conv, stride 2, padding 3 on [s0, 3, s1, s2].
// The output channels (64) come from the weight and refine the types.
// CHECK-LABEL: func.func @conv_7x7_stride2
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x3x?x?xf32> {tcc.shape = #tcc.shape<[s0, 3, s1, s2]>}
//  CHECK-SAME:   -> tensor<?x64x?x?xf32>
//       CHECK:   tcc.conv2d
//  CHECK-SAME:     tcc.shape = #tcc.shape<[s0, 64, (s1 - 1) floordiv 2 + 1, (s2 - 1) floordiv 2 + 1]>
//  CHECK-SAME:     -> tensor<?x64x?x?xf32>
func.func @conv_7x7_stride2(%x: tensor<?x3x?x?xf32>, %w: tensor<64x3x7x7xf32>) -> tensor<?x?x?x?xf32> {
  %0 = tcc.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3, 3>} : (tensor<?x3x?x?xf32>, tensor<64x3x7x7xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// Asymmetric padding [top, left, bottom, right] and dilation; the bias is
// tied to the output channels. Kernel 3, dilation 2, pads 1 + 1: H - 2.
// Kernel 3, pads 0 + 2: W.
// CHECK-LABEL: func.func @conv_pad_dilation
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x4x?x?xf32> {tcc.shape = #tcc.shape<[N, 4, H, W]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x4x3x3xf32> {tcc.shape = #tcc.shape<[s0, 4, 3, 3]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {tcc.shape = #tcc.shape<[s0]>}
//       CHECK:   tcc.conv2d {{.*}}tcc.shape = #tcc.shape<[N, s0, H - 2, W]>}
func.func @conv_pad_dilation(%x: tensor<?x4x?x?xf32> {tcc.shape = #tcc.shape<[N, 4, H, W]>}, %w: tensor<?x?x3x3xf32>, %b: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 0, 1, 2>, dilations = array<i64: 2, 1>} : (tensor<?x4x?x?xf32>, tensor<?x?x3x3xf32>, tensor<?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// A dynamic kernel size: the output's spatial dims are run-time symbols.
// CHECK-LABEL: func.func @conv_dynamic_kernel
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<8x3x?x?xf32> {tcc.shape = #tcc.shape<[8, 3, s3, s4]>}
//       CHECK:   tcc.conv2d {{.*}}tcc.shape = #tcc.shape<[s0, 8, u0, u1]>}
func.func @conv_dynamic_kernel(%x: tensor<?x3x?x?xf32>, %w: tensor<8x3x?x?xf32>) -> tensor<?x8x?x?xf32> {
  %0 = tcc.conv2d %x, %w : (tensor<?x3x?x?xf32>, tensor<8x3x?x?xf32>) -> tensor<?x8x?x?xf32>
  return %0 : tensor<?x8x?x?xf32>
}

// -----

// Pools: strides default to the kernel size.
// CHECK-LABEL: func.func @pools
//       CHECK:   tcc.max_pool2d {{.*}}tcc.shape = #tcc.shape<[s0, s1, (s2 - 1) floordiv 2 + 1, (s3 - 1) floordiv 2 + 1]>}
//       CHECK:   tcc.avg_pool2d {{.*}}tcc.shape = #tcc.shape<[s0, s1, s2 floordiv 2, s3 floordiv 2]>}
func.func @pools(%x: tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %1 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0, %1 : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}

// -----

// attention: q, k, v share the leading dims; q and k share the head dim;
// k and v share the sequence length. The mask broadcasts against the
// scores [B, H, Sq, Sk] from the right. Result: [B, H, Sq, Dv].
// CHECK-LABEL: func.func @attention_mask
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x?x?xf32> {tcc.shape = #tcc.shape<[s0, s1, s2, s3]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x?x?xf32> {tcc.shape = #tcc.shape<[s0, s1, s6, s3]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x?x?xf32> {tcc.shape = #tcc.shape<[s0, s1, s6, s11]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x1x?xi1> {tcc.shape = #tcc.shape<[s1, 1, s6]>}
//       CHECK:   tcc.attention {{.*}}{tcc.shape = #tcc.shape<[s0, s1, s2, s11]>}
func.func @attention_mask(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>, %v: tensor<?x?x?x?xf32>, %m: tensor<?x1x?xi1>) -> tensor<?x?x?x?xf32> {
  %0 = tcc.attention %q, %k, %v, %m : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x1x?xi1>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// A static head dim on q makes k's static too.
// CHECK-LABEL: func.func @attention_static_head
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x64xf32> {tcc.shape = #tcc.shape<[B, S, 64]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x64xf32> {tcc.dim_names = ["", "", "D"], tcc.shape = #tcc.shape<[B, T, 64]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?x?xf32> {tcc.shape = #tcc.shape<[B, T, s2]>}
//       CHECK:   tcc.attention {{.*}}{is_causal = true, tcc.shape = #tcc.shape<[B, S, s2]>} : (tensor<?x?x64xf32>, tensor<?x?x64xf32>, tensor<?x?x?xf32>)
func.func @attention_static_head(%q: tensor<?x?x64xf32> {tcc.shape = #tcc.shape<[B, S, 64]>}, %k: tensor<?x?x?xf32> {tcc.shape = #tcc.shape<[B, T, D]>}, %v: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = tcc.attention %q, %k, %v {is_causal = true} : (tensor<?x?x64xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
//       CHECK:   tcc.transpose {{.*}}tcc.shape = #tcc.shape<[B, 12, S, 64]>}
func.func @transpose(%x: tensor<?x?x12x64xf32> {tcc.shape = #tcc.shape<[B, S, 12, 64]>}) -> tensor<?x12x?x64xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x?x12x64xf32>) -> tensor<?x12x?x64xf32>
  return %0 : tensor<?x12x?x64xf32>
}

// -----

// Flattening [B, S, 768] -> [B * S, 768]: the one dynamic result dim is the
// element count divided by the static ones; splitting it back into [?, 12,
// 64] divides the monomial B * S * 768 by 768.
// CHECK-LABEL: func.func @reshape_flatten_unflatten
//       CHECK:   %[[FLAT:.+]] = tcc.reshape %{{.*}} {tcc.shape = #tcc.shape<[B * S, 768]>} : (tensor<?x?x768xf32>) -> tensor<?x768xf32>
//       CHECK:   tcc.reshape %[[FLAT]] {tcc.shape = #tcc.shape<[B * S, 12, 64]>} : (tensor<?x768xf32>) -> tensor<?x12x64xf32>
func.func @reshape_flatten_unflatten(%x: tensor<?x?x768xf32> {tcc.shape = #tcc.shape<[B, S, 768]>}) -> tensor<?x12x64xf32> {
  %0 = tcc.reshape %x : (tensor<?x?x768xf32>) -> tensor<?x768xf32>
  %1 = tcc.reshape %0 : (tensor<?x768xf32>) -> tensor<?x12x64xf32>
  return %1 : tensor<?x12x64xf32>
}

// -----

// Un-flattening [B * S, 768] with a shape operand built from tensor.dim:
// [-1, S, 768] and [B, -1, 12, 64] infer the remaining dim by dividing the
// monomial B * S * 768.
// CHECK-LABEL: func.func @reshape_shape_operand
//       CHECK:   %[[FLAT:.+]] = tcc.reshape %{{.*}} {tcc.shape = #tcc.shape<[B * S, 768]>}
//       CHECK:   %[[S1:.+]] = tensor.from_elements
//       CHECK:   tcc.reshape %[[FLAT]], %[[S1]] {tcc.shape = #tcc.shape<[B, S, 768]>} : (tensor<?x768xf32>, tensor<3xi64>) -> tensor<?x?x768xf32>
//       CHECK:   %[[S2:.+]] = tensor.from_elements
//       CHECK:   tcc.reshape %[[FLAT]], %[[S2]] {tcc.shape = #tcc.shape<[B, S, 12, 64]>} : (tensor<?x768xf32>, tensor<4xi64>) -> tensor<?x?x12x64xf32>
func.func @reshape_shape_operand(%x: tensor<?x?x768xf32> {tcc.shape = #tcc.shape<[B, S, 768]>}) -> (tensor<?x?x768xf32>, tensor<?x?x12x64xf32>) {
  %0 = tcc.reshape %x : (tensor<?x?x768xf32>) -> tensor<?x768xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x768xf32>
  %s = tensor.dim %x, %c1 : tensor<?x?x768xf32>
  %bi = arith.index_cast %b : index to i64
  %si = arith.index_cast %s : index to i64
  %m1 = arith.constant -1 : i64
  %c12 = arith.constant 12 : i64
  %c64 = arith.constant 64 : i64
  %c768 = arith.constant 768 : i64
  %shape1 = tensor.from_elements %m1, %si, %c768 : tensor<3xi64>
  %1 = tcc.reshape %0, %shape1 : (tensor<?x768xf32>, tensor<3xi64>) -> tensor<?x?x768xf32>
  %shape2 = tensor.from_elements %bi, %m1, %c12, %c64 : tensor<4xi64>
  %2 = tcc.reshape %0, %shape2 : (tensor<?x768xf32>, tensor<4xi64>) -> tensor<?x?x12x64xf32>
  return %1, %2 : tensor<?x?x768xf32>, tensor<?x?x12x64xf32>
}

// -----

// Shape entries may be products of dims (arith.muli); a constant shape
// operand with -1 divides the element count (6 * s2 / 3).
// CHECK-LABEL: func.func @reshape_traced_arith
//       CHECK:   tcc.reshape {{.*}}{tcc.shape = #tcc.shape<[s0 * s1, 4]>} : (tensor<?x?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
//       CHECK:   tcc.reshape {{.*}}{tcc.shape = #tcc.shape<[s2 * 2, 3]>} : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x3xf32>
func.func @reshape_traced_arith(%x: tensor<?x?x4xf32>, %y: tensor<?x6xf32>) -> (tensor<?x4xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.dim %x, %c0 : tensor<?x?x4xf32>
  %b = tensor.dim %x, %c1 : tensor<?x?x4xf32>
  %ab = arith.muli %a, %b : index
  %abi = arith.index_cast %ab : index to i64
  %c4 = arith.constant 4 : i64
  %shape = tensor.from_elements %abi, %c4 : tensor<2xi64>
  %0 = tcc.reshape %x, %shape : (tensor<?x?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %cshape = arith.constant dense<[-1, 3]> : tensor<2xi64>
  %1 = tcc.reshape %y, %cshape : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x?xf32>
}

// -----

// What the analysis cannot see through gets run-time symbols: a shape that
// is a function argument, and an element count that is not a multiple of
// the static dims (6 * s2 / 4). Equalities with run-time sizes (here the
// element counts) are not entry guards: the lowering checks them.
// CHECK-LABEL: func.func @reshape_opaque
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<2xi64>
//   CHECK-NOT:   tcc.shape
//   CHECK-NOT:   tcc.constraints
//       CHECK:   tcc.reshape {{.*}}{tcc.shape = #tcc.shape<[u1, u0]>} : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
//       CHECK:   tcc.reshape {{.*}}{tcc.shape = #tcc.shape<[u2, 4]>} : (tensor<?x6xf32>) -> tensor<?x4xf32>
func.func @reshape_opaque(%x: tensor<?x?xf32>, %y: tensor<?x6xf32>, %shape: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x4xf32>) {
  %0 = tcc.reshape %x, %shape : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = tcc.reshape %y : (tensor<?x6xf32>) -> tensor<?x4xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x4xf32>
}

// -----

// broadcast_to: a dynamic result dim without a shape operand is the aligned
// input dim; with a shape operand it is the traced entry, tied to the input
// dim unless that is 1 (here x's s0 and y's dim 0 become one symbol).
// CHECK-LABEL: func.func @broadcast_to
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x1xf32> {tcc.shape = #tcc.shape<[s0, 1]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[s0, s2]>}
//       CHECK:   tcc.broadcast_to %{{.*}} {tcc.shape = #tcc.shape<[4, s0, 8]>} : (tensor<?x1xf32>) -> tensor<4x?x8xf32>
//       CHECK:   tcc.broadcast_to {{.*}}{tcc.shape = #tcc.shape<[s0, s2]>} : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
func.func @broadcast_to(%x: tensor<?x1xf32>, %y: tensor<?x?xf32>) -> (tensor<4x?x8xf32>, tensor<?x?xf32>) {
  %0 = tcc.broadcast_to %x : (tensor<?x1xf32>) -> tensor<4x?x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.dim %y, %c0 : tensor<?x?xf32>
  %b = tensor.dim %y, %c1 : tensor<?x?xf32>
  %ai = arith.index_cast %a : index to i64
  %bi = arith.index_cast %b : index to i64
  %shape = tensor.from_elements %ai, %bi : tensor<2xi64>
  %1 = tcc.broadcast_to %x, %shape : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<4x?x8xf32>, tensor<?x?xf32>
}

// -----

// concat adds the sizes along the axis and ties the other dims.
// CHECK-LABEL: func.func @concat
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, D]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[S, D]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<1x?xf32> {tcc.shape = #tcc.shape<[1, D]>}
//       CHECK:   tcc.concat {{.*}}tcc.shape = #tcc.shape<[B * 2, D]>}
//       CHECK:   tcc.concat {{.*}}tcc.shape = #tcc.shape<[B + S, D]>}
//       CHECK:   tcc.concat {{.*}}tcc.shape = #tcc.shape<[B + S + 1, D]>}
//       CHECK:   tcc.concat {{.*}}tcc.shape = #tcc.shape<[B, D * 3]>}
func.func @concat(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, D]>}, %y: tensor<?x?xf32> {tcc.shape = #tcc.shape<[S, E]>}, %c: tensor<1x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = tcc.concat %x, %x {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tcc.concat %x, %y {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = tcc.concat %x, %y, %c {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  %3 = tcc.concat %x, %x, %x {axis = -1 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1, %2, %3 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// slice is exact where the bounds on the sizes show that the clamps do not
// apply: B >= 4 for [1:] step 2, S >= 3 for [0:3], T >= 4 for [-2:],
// U >= 5 for [1:-1] step 2, V >= 2 for [-2:-1]. Static dims are exact
// always ([-3:20] of 10 is 3).
// CHECK-LABEL: func.func @slice_exact
//  CHECK-SAME:   -> tensor<?x3x2x?x1x3xf32>
//       CHECK:   tcc.slice
//  CHECK-SAME:     tcc.shape = #tcc.shape<[(B - 1) ceildiv 2, 3, 2, (U - 2) ceildiv 2, 1, 3]>
//  CHECK-SAME:     -> tensor<?x3x2x?x1x3xf32>
func.func @slice_exact(%x: tensor<?x?x?x?x?x10xf32> {tcc.shape = #tcc.shape<[B, S, T, U, V, 10]>}) -> tensor<?x?x?x?x?x?xf32>
    attributes {tcc.constraints = ["B >= 4", "S >= 3", "4 <= T <= 100", "U >= 5", "V >= 2"]} {
  %0 = tcc.slice %x {starts = array<i64: 1, 0, -2, 1, -2, -3>, ends = array<i64: 9223372036854775807, 3, 9223372036854775807, -1, -1, 20>, steps = array<i64: 2, 1, 1, 2, 1, 1>} : (tensor<?x?x?x?x?x10xf32>) -> tensor<?x?x?x?x?x?xf32>
  return %0 : tensor<?x?x?x?x?x?xf32>
}

// -----

// Without bounds the clamps may apply: min(B, 3) and max(S - 2, 0) are
// run-time sizes.
// CHECK-LABEL: func.func @slice_fresh
//       CHECK:   tcc.slice {{.*}}tcc.shape = #tcc.shape<[u0, u1]>}
func.func @slice_fresh(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}) -> tensor<?x?xf32> {
  %0 = tcc.slice %x {starts = array<i64: 0, 2>, ends = array<i64: 3, 9223372036854775807>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// gather: x.shape[:axis] + indices.shape + x.shape[axis+1:].
// CHECK-LABEL: func.func @gather
//       CHECK:   tcc.gather {{.*}}tcc.shape = #tcc.shape<[s2, 16, s1]>}
//       CHECK:   tcc.gather {{.*}}tcc.shape = #tcc.shape<[s3, s5, 8]>}
func.func @gather(%t: tensor<?x?xf32>, %i: tensor<?x16xi64>, %u: tensor<?x?x8xf32>, %j: tensor<?xi32>) -> (tensor<?x16x?xf32>, tensor<?x?x8xf32>) {
  %0 = tcc.gather %t, %i {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x16xi64>) -> tensor<?x16x?xf32>
  %1 = tcc.gather %u, %j {axis = -2 : i64} : (tensor<?x?x8xf32>, tensor<?xi32>) -> tensor<?x?x8xf32>
  return %0, %1 : tensor<?x16x?xf32>, tensor<?x?x8xf32>
}

// -----

// Ops inside fusion groups are derived like top-level ones; block arguments
// are refined with their inputs, and group results get tcc.shape (tcc.shapes
// for several results). A static dim learnt after the group (%c) refines
// the group too.
// CHECK-LABEL: func.func @fusion_group
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x8xf32> {tcc.shape = #tcc.shape<[s0, 8]>}
//  CHECK-SAME:   %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   %[[G:.+]]:2 = fusion.group "pointwise"(%[[A]], %[[B]] : tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>, tensor<?x8xf32>
//  CHECK-SAME:     attributes {tcc.shapes = [#tcc.shape<[s0, 8]>, #tcc.shape<[s0, 8]>]}
//       CHECK:   ^bb0(%{{[a-zA-Z0-9_]+}}: tensor<?x8xf32>, %{{[a-zA-Z0-9_]+}}: tensor<8xf32>):
//       CHECK:     tcc.add {{.*}}{tcc.shape = #tcc.shape<[s0, 8]>}
//       CHECK:     tcc.relu {{.*}}{tcc.shape = #tcc.shape<[s0, 8]>}
//       CHECK:   %[[R:.+]] = fusion.group "reduction"(%[[G]]#1 : tensor<?x8xf32>) -> tensor<?xf32> attributes {tcc.shape = #tcc.shape<[s0]>}
//       CHECK:     tcc.reduce_sum {{.*}}tcc.shape = #tcc.shape<[s0]>}
//       CHECK:   tcc.sub %[[G]]#0, {{.*}}{tcc.shape = #tcc.shape<[s0, 8]>}
func.func @fusion_group(%a: tensor<?x?xf32>, %b: tensor<?xf32>, %c: tensor<?x8xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %r:2 = fusion.group "pointwise" (%a, %b : tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>, tensor<?x?xf32> {
  ^bb0(%x: tensor<?x?xf32>, %y: tensor<?xf32>):
    %0 = tcc.add %x, %y : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
    %1 = tcc.relu %0 : (tensor<?x?xf32>) -> tensor<?x?xf32>
    fusion.yield %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
  }
  %s = fusion.group "reduction" (%r#1 : tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?x?xf32>):
    %0 = tcc.reduce_sum %x {axes = array<i64: 1>} : (tensor<?x?xf32>) -> tensor<?xf32>
    fusion.yield %0 : tensor<?xf32>
  }
  %2 = tcc.sub %r#0, %c : (tensor<?x?xf32>, tensor<?x8xf32>) -> tensor<?x?xf32>
  return %2, %s : tensor<?x?xf32>, tensor<?xf32>
}

// -----

// User names: equal names are equal sizes; a name that meets a static dim
// takes its value and disappears from the shape (D = 256; tcc.dim_names
// keeps it for messages); unnamed dims are s0, s1, ...
// and never reuse a user's name.
// CHECK-LABEL: func.func @user_names
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, B]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x256xf32> {tcc.dim_names = ["", "D"], tcc.shape = #tcc.shape<[B, 256]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<256xf32> {tcc.dim_names = ["D"], tcc.shape = #tcc.shape<[256]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[s0, s2]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {tcc.shape = #tcc.shape<[s1]>}
//       CHECK:   tcc.add {{.*}}{tcc.shape = #tcc.shape<[B, B]>}
//       CHECK:   tcc.add {{.*}}{tcc.shape = #tcc.shape<[B, 256]>} : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
//       CHECK:   tcc.add {{.*}}{tcc.shape = #tcc.shape<[s0, s2]>}
func.func @user_names(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, B]>}, %y: tensor<?x256xf32> {tcc.shape = #tcc.shape<[B, D]>},
                      %z: tensor<?xf32> {tcc.shape = #tcc.shape<[D]>}, %u: tensor<?x?xf32>, %v: tensor<?xf32> {tcc.shape = #tcc.shape<[s1]>})
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = tcc.add %x, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tcc.add %y, %z : (tensor<?x256xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %2 = tcc.add %u, %u : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1, %2 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// Arguments may carry expressions over names that other argument dims are:
// y's rows are B * 2, which the concat of x with itself matches exactly, so
// nothing is left for the entry guards.
// CHECK-LABEL: func.func @argument_expressions
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B * 2, 4]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}
//   CHECK-NOT:   tcc.constraints
//       CHECK:   tcc.add {{.*}}{tcc.shape = #tcc.shape<[B * 2, 4]>}
func.func @argument_expressions(%y: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B * 2, 4]>}, %x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32> {
  %0 = tcc.concat %x, %x {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = tcc.add %0, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// An input dim that must equal an expression of another input's dims is
// written as that expression on its argument (the entry guards check it).
// CHECK-LABEL: func.func @tied_to_expression
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[s0, s3 * 2]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[s0, s3]>}
//   CHECK-NOT:   tcc.constraints
//       CHECK:   tcc.concat {{.*}}tcc.shape = #tcc.shape<[s0, s3 * 2]>}
//       CHECK:   tcc.add {{.*}}tcc.shape = #tcc.shape<[s0, s3 * 2]>}
func.func @tied_to_expression(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c = tcc.concat %y, %y {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %0 = tcc.add %x, %c : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Constraints come back in canonical form: one range per symbol, then its
// divisor.
// CHECK-LABEL: func.func @constraints
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x256xf32> {tcc.name = "obs", tcc.shape = #tcc.shape<[B, 256]>}
//  CHECK-SAME:   attributes {tcc.constraints = ["1 <= B <= 64", "B % 8 == 0"]}
func.func @constraints(%x: tensor<?x256xf32> {tcc.shape = #tcc.shape<[B, 256]>, tcc.name = "obs"}, %w: tensor<512x256xf32>) -> tensor<?x512xf32>
    attributes {tcc.constraints = ["B <= 64", "B % 8 == 0", "B >= 1"]} {
  %0 = tcc.linear %x, %w : (tensor<?x256xf32>, tensor<512x256xf32>) -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}

// -----

// When two named symbols are unified (B and N by the add), the facts merge:
// the ranges intersect, the divisors combine by lcm; the kept name is the
// first one. Strict bounds become inclusive, `mod` is spelled `%`.
// CHECK-LABEL: func.func @merged_facts
//  CHECK-SAME:   {tcc.shape = #tcc.shape<[B, D]>}
//  CHECK-SAME:   {tcc.shape = #tcc.shape<[B, D]>}
//  CHECK-SAME:   attributes {tcc.constraints = ["2 <= B <= 64", "B % 12 == 0", "D >= 1"]}
func.func @merged_facts(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, D]>}, %y: tensor<?x?xf32> {tcc.shape = #tcc.shape<[N, D]>}) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["B >= 2", "B < 100", "N <= 64", "N mod 4 == 0", "B % 6 == 0", "D > 0"]} {
  %0 = tcc.add %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// An equality between two symbols binds one to the other; one between
// expressions stays as a constraint for the entry guards, as do facts on
// expressions.
// CHECK-LABEL: func.func @expression_constraints
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}
//  CHECK-SAME:   %{{[a-zA-Z0-9_]+}}: tensor<?xf32> {tcc.shape = #tcc.shape<[S]>}
//  CHECK-SAME:   attributes {tcc.constraints = ["B * S <= 4096", "(B + S) % 2 == 0", "B * 2 == S + 4"]}
func.func @expression_constraints(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}, %y: tensor<?xf32> {tcc.shape = #tcc.shape<[T]>}) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["B * S <= 4096", "(B + S) % 2 == 0", "T == S", "B * 2 == S + 4"]} {
  %0 = tcc.relu %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A mismatch that cannot be proved (B could be 0) becomes an equality that
// the entry guards check.
// CHECK-LABEL: func.func @unproved_mismatch
//  CHECK-SAME:   attributes {tcc.constraints = ["B * 2 == B"]}
//       CHECK:   tcc.add {{.*}}{tcc.shape = #tcc.shape<[B * 2, 4]>}
func.func @unproved_mismatch(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32> {
  %0 = tcc.concat %x, %x {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = tcc.add %0, %x : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// An equality involving a run-time size is not an entry guard: it is
// checked where the size is computed.
// CHECK-LABEL: func.func @runtime_equality_not_guarded
//   CHECK-NOT:   tcc.constraints
//       CHECK:   tcc.slice {{.*}}tcc.shape = #tcc.shape<[u0]>}
//       CHECK:   tcc.add {{.*}}tcc.shape = #tcc.shape<[u0]>}
func.func @runtime_equality_not_guarded(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B]>}) -> tensor<?xf32> {
  %0 = tcc.slice %x {starts = array<i64: 0>, ends = array<i64: 3>} : (tensor<?xf32>) -> tensor<?xf32>
  %1 = tcc.slice %x {starts = array<i64: 1>, ends = array<i64: 4>} : (tensor<?xf32>) -> tensor<?xf32>
  %2 = tcc.add %0, %1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// Data-dependent sizes: mask_select's count is a run-time symbol (u0),
// never guarded at entry; its rows keep x's trailing dims, and the mask's
// dims are tied to x's leading ones. nonzero gives [u, rank].
// CHECK-LABEL: func.func @data_dependent
//       CHECK:   tcc.cmp {{.*}}tcc.shape = #tcc.shape<[N]>
//       CHECK:   tcc.mask_select {{.*}}tcc.shape = #tcc.shape<[u0, D]>
//       CHECK:   tcc.nonzero {{.*}}tcc.shape = #tcc.shape<[u1, 2]>
//   CHECK-NOT:   tcc.constraints
func.func @data_dependent(%boxes: tensor<?x?xf32> {tcc.shape = #tcc.shape<[N, D]>}, %scores: tensor<?xf32>, %t: tensor<f32>)
    -> (tensor<?x?xf32>, tensor<?x2xi64>) {
  %keep = tcc.cmp %scores, %t {predicate = "gt"} : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
  %0 = tcc.mask_select %boxes, %keep : (tensor<?x?xf32>, tensor<?xi1>) -> tensor<?x?xf32>
  %1 = tcc.nonzero %boxes : (tensor<?x?xf32>) -> tensor<?x2xi64>
  return %0, %1 : tensor<?x?xf32>, tensor<?x2xi64>
}
