// RUN: tcc-opt %s --fuse --split-input-file | FileCheck %s
// RUN: tcc-opt %s --fuse --split-input-file | tcc-opt --fuse --split-input-file | FileCheck %s

// A chain of elementwise ops (with broadcasting) becomes one pointwise group.
// CHECK-LABEL: func.func @pointwise_chain
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   %[[G:.+]] = fusion.group "pointwise"(%[[A]], %[[B]] : tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf16> {
//       CHECK:   ^bb0(%[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[Y:[a-zA-Z0-9_]+]]: tensor<8xf32>):
//       CHECK:     %[[S:.+]] = tcc.add %[[X]], %[[Y]]
//       CHECK:     %[[R:.+]] = tcc.relu %[[S]]
//       CHECK:     %[[M:.+]] = tcc.mul %[[R]], %[[X]]
//       CHECK:     %[[C:.+]] = tcc.cast %[[M]] : (tensor<?x8xf32>) -> tensor<?x8xf16>
//       CHECK:     fusion.yield %[[C]] : tensor<?x8xf16>
//       CHECK:   }
//   CHECK-NOT:   fusion.group
//   CHECK-NOT:   tcc.
//       CHECK:   return %[[G]]
func.func @pointwise_chain(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf16> {
  %0 = tcc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %1 = tcc.relu %0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %2 = tcc.mul %1, %a : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %3 = tcc.cast %2 : (tensor<?x8xf32>) -> tensor<?x8xf16>
  return %3 : tensor<?x8xf16>
}

// -----

// cmp, select and broadcast_to are elementwise too; a value used twice
// inside the group (a diamond) is still computed once, in the group.
// CHECK-LABEL: func.func @pointwise_diamond
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<4x1xf32>
//       CHECK:   %[[G:.+]] = fusion.group "pointwise"(%[[A]] : tensor<4x1xf32>) -> tensor<4x8xf32> {
//       CHECK:     %[[BC:.+]] = tcc.broadcast_to
//       CHECK:     %[[E:.+]] = tcc.exp %[[BC]]
//       CHECK:     %[[N:.+]] = tcc.neg %[[E]]
//       CHECK:     %[[P:.+]] = tcc.cmp %[[E]], %[[N]] {predicate = "gt"}
//       CHECK:     %[[S:.+]] = tcc.select %[[P]], %[[E]], %[[N]]
//       CHECK:     fusion.yield %[[S]]
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[G]]
func.func @pointwise_diamond(%a: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %bc = tcc.broadcast_to %a : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = tcc.exp %bc : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = tcc.neg %e : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = tcc.cmp %e, %n {predicate = "gt"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %s = tcc.select %p, %e, %n : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// A single elementwise op is a group of its own; constants stay outside and
// come in as inputs.
// CHECK-LABEL: func.func @single_op_with_constant
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<4xf32>
//       CHECK:   %[[C:.+]] = tcc.constant dense<2.000000e+00> : tensor<4xf32>
//       CHECK:   %[[G:.+]] = fusion.group "pointwise"(%[[A]], %[[C]] : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
//       CHECK:     tcc.mul
//   CHECK-NOT:     tcc.constant
//       CHECK:     fusion.yield
//       CHECK:   return %[[G]]
func.func @single_op_with_constant(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = tcc.constant dense<2.0> : tensor<4xf32>
  %0 = tcc.mul %a, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A reduction absorbs its elementwise prologue and epilogue.
// CHECK-LABEL: func.func @softmax_prologue_epilogue
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<2x8xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<f32>
//       CHECK:   %[[G:.+]] = fusion.group "reduction"(%[[A]], %[[S]] : tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf16> {
//       CHECK:     %[[M:.+]] = tcc.mul
//       CHECK:     %[[SM:.+]] = tcc.softmax %[[M]] {axis = 1 : i64}
//       CHECK:     %[[C:.+]] = tcc.cast %[[SM]]
//       CHECK:     fusion.yield %[[C]] : tensor<2x8xf16>
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[G]]
func.func @softmax_prologue_epilogue(%a: tensor<2x8xf32>, %s: tensor<f32>) -> tensor<2x8xf16> {
  %0 = tcc.mul %a, %s : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = tcc.softmax %0 {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = tcc.cast %1 : (tensor<2x8xf32>) -> tensor<2x8xf16>
  return %2 : tensor<2x8xf16>
}

// -----

// layer_norm with a dynamic batch and a residual add epilogue.
// CHECK-LABEL: func.func @layer_norm_residual
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x197x768xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<768xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<768xf32>
//       CHECK:   %[[G:.+]] = fusion.group "reduction"(%[[X]], %[[W]], %[[B]] : tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32> {
//       CHECK:     %[[N:.+]] = tcc.layer_norm
//       CHECK:     %[[R:.+]] = tcc.add %[[N]], %{{.*}}
//       CHECK:     fusion.yield %[[R]]
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[G]]
func.func @layer_norm_residual(%x: tensor<?x197x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x197x768xf32> {
  %0 = tcc.layer_norm %x, %w, %b : (tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
  %1 = tcc.add %0, %x : (tensor<?x197x768xf32>, tensor<?x197x768xf32>) -> tensor<?x197x768xf32>
  return %1 : tensor<?x197x768xf32>
}

// -----

// linear + bias add + gelu: one matmul group.
// CHECK-LABEL: func.func @linear_bias_gelu
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x16xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<32x16xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<32xf32>
//       CHECK:   %[[G:.+]] = fusion.group "matmul"(%[[X]], %[[W]], %[[B]] : tensor<?x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<?x32xf32> {
//       CHECK:   ^bb0(%[[XX:[a-zA-Z0-9_]+]]: tensor<?x16xf32>, %[[WW:[a-zA-Z0-9_]+]]: tensor<32x16xf32>, %[[BB:[a-zA-Z0-9_]+]]: tensor<32xf32>):
//       CHECK:     %[[L:.+]] = tcc.linear %[[XX]], %[[WW]] :
//       CHECK:     %[[S:.+]] = tcc.add %[[L]], %[[BB]]
//       CHECK:     %[[GE:.+]] = tcc.gelu %[[S]] {approximate = "tanh"}
//       CHECK:     fusion.yield %[[GE]]
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[G]]
func.func @linear_bias_gelu(%x: tensor<?x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %0 = tcc.linear %x, %w : (tensor<?x16xf32>, tensor<32x16xf32>) -> tensor<?x32xf32>
  %1 = tcc.add %0, %b : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  %2 = tcc.gelu %1 {approximate = "tanh"} : (tensor<?x32xf32>) -> tensor<?x32xf32>
  return %2 : tensor<?x32xf32>
}

// -----

// Elementwise producers of a contraction's operands are not pulled in: they
// would be recomputed per tile. They form their own pointwise groups.
// CHECK-LABEL: func.func @matmul_operand_producers_stay_out
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<2x4x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<2x8x5xf32>
//       CHECK:   %[[PA:.+]] = fusion.group "pointwise"(%[[A]] : tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
//       CHECK:     tcc.relu
//       CHECK:   }
//       CHECK:   %[[PB:.+]] = fusion.group "pointwise"(%[[B]] : tensor<2x8x5xf32>) -> tensor<2x8x5xf32> {
//       CHECK:     tcc.exp
//       CHECK:   }
//       CHECK:   %[[M:.+]] = fusion.group "matmul"(%[[PA]], %[[PB]] : tensor<2x4x8xf32>, tensor<2x8x5xf32>) -> tensor<2x4x5xf32> {
//   CHECK-NOT:     tcc.relu
//   CHECK-NOT:     tcc.exp
//       CHECK:     %[[MM:.+]] = tcc.matmul
//       CHECK:     %[[T:.+]] = tcc.tanh %[[MM]]
//       CHECK:     fusion.yield %[[T]]
//       CHECK:   return %[[M]]
func.func @matmul_operand_producers_stay_out(%a: tensor<2x4x8xf32>, %b: tensor<2x8x5xf32>) -> tensor<2x4x5xf32> {
  %0 = tcc.relu %a : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %1 = tcc.exp %b : (tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  %2 = tcc.matmul %0, %1 : (tensor<2x4x8xf32>, tensor<2x8x5xf32>) -> tensor<2x4x5xf32>
  %3 = tcc.tanh %2 : (tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %3 : tensor<2x4x5xf32>
}

// -----

// Two contractions in a row: two matmul groups; the first one's epilogue
// stays with it.
// CHECK-LABEL: func.func @two_linears
//       CHECK:   %[[G1:.+]] = fusion.group "matmul"
//       CHECK:     tcc.linear
//       CHECK:     tcc.relu
//       CHECK:     fusion.yield
//       CHECK:   %[[G2:.+]] = fusion.group "matmul"(%[[G1]], %{{.*}} :
//       CHECK:     tcc.linear
//   CHECK-NOT:     tcc.relu
//       CHECK:     fusion.yield
//       CHECK:   return %[[G2]]
func.func @two_linears(%x: tensor<4x16xf32>, %w1: tensor<32x16xf32>, %w2: tensor<8x32xf32>) -> tensor<4x8xf32> {
  %0 = tcc.linear %x, %w1 : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
  %1 = tcc.relu %0 : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %2 = tcc.linear %1, %w2 : (tensor<4x32xf32>, tensor<8x32xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A producer whose result is also used after the group (here: returned)
// joins it as a second output (multi-output): computed once, written once,
// and the relu reads it from registers.
// CHECK-LABEL: func.func @producer_used_outside
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<4xf32>
//       CHECK:   %[[G:.+]]:2 = fusion.group "pointwise"(%[[A]] : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
//       CHECK:     %[[E:.+]] = tcc.exp
//       CHECK:     %[[R:.+]] = tcc.relu %[[E]]
//       CHECK:     fusion.yield %[[R]], %[[E]]
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[G]]#1, %[[G]]#0
func.func @producer_used_outside(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tcc.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tcc.relu %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A cheap producer read by two reductions that cannot share a group (one
// anchor per group, and the first one's use comes before the second's root)
// is recomputed in each: reading the input twice moves fewer bytes than
// writing the exp and reading it twice.
// CHECK-LABEL: func.func @producer_shared_by_two_reductions
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x8xf32>
//       CHECK:   %[[S:.+]] = fusion.group "reduction"(%[[A]] : tensor<?x8xf32>) -> tensor<?xf32> {
//       CHECK:     tcc.exp
//       CHECK:     tcc.reduce_sum
//       CHECK:   %[[M:.+]] = fusion.group "reduction"(%[[A]] : tensor<?x8xf32>) -> tensor<?xf32> {
//       CHECK:     tcc.exp
//       CHECK:     tcc.reduce_max
//       CHECK:   return %[[S]], %[[M]]
func.func @producer_shared_by_two_reductions(%a: tensor<?x8xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = tcc.exp %a : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = tcc.reduce_sum %0 {axes = array<i64: 1>} : (tensor<?x8xf32>) -> tensor<?xf32>
  %2 = tcc.reduce_max %0 {axes = array<i64: 1>} : (tensor<?x8xf32>) -> tensor<?xf32>
  return %1, %2 : tensor<?xf32>, tensor<?xf32>
}

// -----

// A group holds one reduction: two chained reductions make two groups; the
// elementwise op between them goes with the consumer (as its prologue).
// CHECK-LABEL: func.func @two_reductions
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x64xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<64xf32>
//       CHECK:   %[[G1:.+]] = fusion.group "reduction"(%[[X]], %[[W]] : tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32> {
//       CHECK:     tcc.rms_norm
//   CHECK-NOT:     tcc.softmax
//       CHECK:     fusion.yield
//       CHECK:   %[[G2:.+]] = fusion.group "reduction"(%[[G1]] : tensor<?x64xf32>) -> tensor<?x64xf32> {
//   CHECK-NOT:     tcc.rms_norm
//       CHECK:     tcc.exp
//       CHECK:     tcc.log_softmax
//       CHECK:     fusion.yield
//       CHECK:   return %[[G2]]
func.func @two_reductions(%x: tensor<?x64xf32>, %w: tensor<64xf32>) -> tensor<?x64xf32> {
  %0 = tcc.rms_norm %x, %w : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %1 = tcc.exp %0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %2 = tcc.log_softmax %1 {axis = -1 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %2 : tensor<?x64xf32>
}

// -----

// Two reductions feeding one elementwise op: only one of them joins it.
// CHECK-LABEL: func.func @two_reductions_one_consumer
//       CHECK:   %[[G1:.+]] = fusion.group "reduction"
//       CHECK:     tcc.reduce_sum
//       CHECK:     fusion.yield
//       CHECK:   %[[G2:.+]] = fusion.group "reduction"
//       CHECK:     tcc.reduce_max
//       CHECK:     tcc.sub
//       CHECK:     fusion.yield
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[G2]]
func.func @two_reductions_one_consumer(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  %0 = tcc.reduce_sum %x {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  %1 = tcc.reduce_max %x {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  %2 = tcc.sub %1, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// -----

// conv2d + batch_norm + relu: one conv group.
// CHECK-LABEL: func.func @conv_bn_relu
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x4x8x8xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<8x4x3x3xf32>, %[[C:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   %[[G:.+]] = fusion.group "conv"(%[[X]], %[[W]], %[[C]] : tensor<?x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<?x8x8x8xf32> {
//       CHECK:     %[[CV:.+]] = tcc.conv2d
//       CHECK:     %[[BN:.+]] = tcc.batch_norm %[[CV]]
//       CHECK:     %[[R:.+]] = tcc.relu %[[BN]]
//       CHECK:     fusion.yield %[[R]]
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[G]]
func.func @conv_bn_relu(%x: tensor<?x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %c: tensor<8xf32>) -> tensor<?x8x8x8xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<?x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<?x8x8x8xf32>
  %1 = tcc.batch_norm %0, %c, %c, %c, %c
      : (tensor<?x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8x8x8xf32>
  %2 = tcc.relu %1 : (tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
  return %2 : tensor<?x8x8x8xf32>
}

// -----

// Pooling is a group of its own; its input's producer is not pulled in, its
// elementwise consumer is.
// CHECK-LABEL: func.func @pool
//       CHECK:   %[[G1:.+]] = fusion.group "pointwise"
//       CHECK:     tcc.relu
//       CHECK:   %[[G2:.+]] = fusion.group "pool"(%[[G1]] : tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
//   CHECK-NOT:     tcc.relu
//       CHECK:     tcc.avg_pool2d
//       CHECK:     tcc.sigmoid
//       CHECK:     fusion.yield
//       CHECK:   return %[[G2]]
func.func @pool(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %0 = tcc.relu %x : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %1 = tcc.avg_pool2d %0 {kernel_size = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %2 = tcc.sigmoid %1 : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %2 : tensor<1x4x4x4xf32>
}

// -----

// Attention with a residual add epilogue; the scaling of q stays outside.
// CHECK-LABEL: func.func @attention_residual
//  CHECK-SAME:   %[[Q:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<f32>
//       CHECK:   %[[QS:.+]] = fusion.group "pointwise"(%[[Q]], %[[S]] :
//       CHECK:     tcc.mul
//       CHECK:   %[[G:.+]] = fusion.group "attention"(%[[QS]], %[[Q]] : tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32> {
//   CHECK-NOT:     tcc.mul
//       CHECK:     %[[AT:.+]] = tcc.attention %{{.*}}, %{{.*}}, %{{.*}} {is_causal = true}
//       CHECK:     %[[R:.+]] = tcc.add %[[AT]], %{{.*}}
//       CHECK:     fusion.yield %[[R]]
//       CHECK:   return %[[G]]
func.func @attention_residual(%q: tensor<?x12x197x64xf32>, %s: tensor<f32>) -> tensor<?x12x197x64xf32> {
  %0 = tcc.mul %q, %s : (tensor<?x12x197x64xf32>, tensor<f32>) -> tensor<?x12x197x64xf32>
  %1 = tcc.attention %0, %q, %q {is_causal = true}
      : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %2 = tcc.add %1, %q : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  return %2 : tensor<?x12x197x64xf32>
}

// -----

// Reshapes (views) stay outside groups; transposes are "copy" groups of their
// own. Both split elementwise chains: neither the exp producer nor the relu
// consumer joins the transpose.
// CHECK-LABEL: func.func @data_movement_splits
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x197x768xf32>
//       CHECK:   %[[G1:.+]] = fusion.group "pointwise"(%[[X]] : tensor<?x197x768xf32>) -> tensor<?x197x768xf32> {
//       CHECK:     tcc.exp
//       CHECK:   }
//       CHECK:   %[[R:.+]] = tcc.reshape %[[G1]] : (tensor<?x197x768xf32>) -> tensor<?x197x12x64xf32>
//       CHECK:   %[[T:.+]] = fusion.group "copy"(%[[R]] : tensor<?x197x12x64xf32>) -> tensor<?x12x197x64xf32> {
//  CHECK-NEXT:   ^bb0(%[[TA:[a-zA-Z0-9_]+]]: tensor<?x197x12x64xf32>):
//  CHECK-NEXT:     %[[TT:.+]] = tcc.transpose %[[TA]] {permutation = array<i64: 0, 2, 1, 3>}
//  CHECK-NEXT:     fusion.yield %[[TT]]
//  CHECK-NEXT:   }
//       CHECK:   %[[G2:.+]] = fusion.group "pointwise"(%[[T]] : tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32> {
//   CHECK-NOT:     tcc.transpose
//       CHECK:     tcc.relu
//       CHECK:   }
//       CHECK:   return %[[G2]]
func.func @data_movement_splits(%x: tensor<?x197x768xf32>) -> tensor<?x12x197x64xf32> {
  %0 = tcc.exp %x : (tensor<?x197x768xf32>) -> tensor<?x197x768xf32>
  %1 = tcc.reshape %0 : (tensor<?x197x768xf32>) -> tensor<?x197x12x64xf32>
  %2 = tcc.transpose %1 {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x197x12x64xf32>) -> tensor<?x12x197x64xf32>
  %3 = tcc.relu %2 : (tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  return %3 : tensor<?x12x197x64xf32>
}

// -----

// Slices (views) stay outside groups; gather and concat write new buffers and
// each become a "copy" group of one op.
// CHECK-LABEL: func.func @data_movement_only
//  CHECK-SAME:   %[[T:[a-zA-Z0-9_]+]]: tensor<16x4xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<3xi64>
//       CHECK:   %[[G:.+]] = fusion.group "copy"(%[[T]], %[[I]] : tensor<16x4xf32>, tensor<3xi64>) -> tensor<3x4xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     %[[GG:.+]] = tcc.gather
//  CHECK-NEXT:     fusion.yield %[[GG]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[S:.+]] = tcc.slice %[[G]]
//  CHECK-NEXT:   %[[C:.+]] = fusion.group "copy"(%[[G]], %[[S]] : tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<5x4xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     %[[CC:.+]] = tcc.concat
//  CHECK-NEXT:     fusion.yield %[[CC]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[C]]
func.func @data_movement_only(%t: tensor<16x4xf32>, %i: tensor<3xi64>) -> tensor<5x4xf32> {
  %0 = tcc.gather %t, %i : (tensor<16x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  %1 = tcc.slice %0 {starts = array<i64: 0, 0>, ends = array<i64: 2, 4>} : (tensor<3x4xf32>) -> tensor<2x4xf32>
  %2 = tcc.concat %0, %1 {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  return %2 : tensor<5x4xf32>
}

// -----

// Static shapes: transpose, concat and gather each form a singleton "copy"
// group. Elementwise producers and consumers are not pulled into them, and
// copies are not pulled into pointwise groups (relu is the transpose's only
// other consumer but stays in its own group).
// CHECK-LABEL: func.func @copy_groups_static
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<4x8xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<3xi64>
//       CHECK:   %[[E:.+]] = fusion.group "pointwise"(%[[X]] : tensor<4x8xf32>) -> tensor<4x8xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.exp
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[T:.+]] = fusion.group "copy"(%[[E]] : tensor<4x8xf32>) -> tensor<8x4xf32> {
//  CHECK-NEXT:   ^bb0(%[[TA:[a-zA-Z0-9_]+]]: tensor<4x8xf32>):
//  CHECK-NEXT:     %[[TT:.+]] = tcc.transpose %[[TA]] {permutation = array<i64: 1, 0>}
//  CHECK-NEXT:     fusion.yield %[[TT]] : tensor<8x4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[R:.+]] = fusion.group "pointwise"(%[[T]] : tensor<8x4xf32>) -> tensor<8x4xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.relu
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[C:.+]] = fusion.group "copy"(%[[R]], %[[T]] : tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32> {
//  CHECK-NEXT:   ^bb0(%[[CA:[a-zA-Z0-9_]+]]: tensor<8x4xf32>, %[[CB:[a-zA-Z0-9_]+]]: tensor<8x4xf32>):
//  CHECK-NEXT:     %[[CC:.+]] = tcc.concat %[[CA]], %[[CB]] {axis = 0 : i64}
//  CHECK-NEXT:     fusion.yield %[[CC]] : tensor<16x4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[G:.+]] = fusion.group "copy"(%[[C]], %[[I]] : tensor<16x4xf32>, tensor<3xi64>) -> tensor<3x4xf32> {
//  CHECK-NEXT:   ^bb0(%[[GA:[a-zA-Z0-9_]+]]: tensor<16x4xf32>, %[[GB:[a-zA-Z0-9_]+]]: tensor<3xi64>):
//  CHECK-NEXT:     %[[GG:.+]] = tcc.gather %[[GA]], %[[GB]]
//  CHECK-NEXT:     fusion.yield %[[GG]] : tensor<3x4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[N:.+]] = fusion.group "pointwise"(%[[G]] : tensor<3x4xf32>) -> tensor<3x4xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.neg
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[N]]
func.func @copy_groups_static(%x: tensor<4x8xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = tcc.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = tcc.relu %1 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %3 = tcc.concat %2, %1 {axis = 0 : i64} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %4 = tcc.gather %3, %i : (tensor<16x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  %5 = tcc.neg %4 : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %5 : tensor<3x4xf32>
}

// -----

// Dynamic shapes: the same, with a dynamic concat axis, dynamic gather indices
// and a transpose of a dynamic dim. Copies feeding copies stay separate.
// CHECK-LABEL: func.func @copy_groups_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[Y:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[I:[a-zA-Z0-9_]+]]: tensor<?xi64>
//       CHECK:   %[[C:.+]] = fusion.group "copy"(%[[X]], %[[Y]] : tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     %[[CC:.+]] = tcc.concat %{{.*}} {axis = 0 : i64} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
//  CHECK-NEXT:     fusion.yield %[[CC]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[G:.+]] = fusion.group "copy"(%[[C]], %[[I]] : tensor<?x8xf32>, tensor<?xi64>) -> tensor<?x8xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     %[[GG:.+]] = tcc.gather %{{.*}} : (tensor<?x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
//  CHECK-NEXT:     fusion.yield %[[GG]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[S:.+]] = fusion.group "pointwise"(%[[G]] : tensor<?x8xf32>) -> tensor<?x8xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.sigmoid
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[T:.+]] = fusion.group "copy"(%[[S]] : tensor<?x8xf32>) -> tensor<8x?xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     %[[TT:.+]] = tcc.transpose %{{.*}} {permutation = array<i64: 1, 0>} : (tensor<?x8xf32>) -> tensor<8x?xf32>
//  CHECK-NEXT:     fusion.yield %[[TT]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[T]]
func.func @copy_groups_dynamic(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>, %i: tensor<?xi64>) -> tensor<8x?xf32> {
  %0 = tcc.concat %x, %y {axis = 0 : i64} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = tcc.gather %0, %i {axis = 0 : i64} : (tensor<?x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
  %2 = tcc.sigmoid %1 : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %3 = tcc.transpose %2 {permutation = array<i64: 1, 0>} : (tensor<?x8xf32>) -> tensor<8x?xf32>
  return %3 : tensor<8x?xf32>
}

// -----

// A copy feeding a contraction is its own group; the matmul group takes its
// result as an input and keeps its epilogue.
// CHECK-LABEL: func.func @copy_feeds_matmul
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<8x4xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<8x16xf32>
//       CHECK:   %[[T:.+]] = fusion.group "copy"(%[[X]] : tensor<8x4xf32>) -> tensor<4x8xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.transpose
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[M:.+]] = fusion.group "matmul"(%[[T]], %[[W]] : tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.matmul
//  CHECK-NEXT:     tcc.relu
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[M]]
func.func @copy_feeds_matmul(%x: tensor<8x4xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %1 = tcc.matmul %0, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %2 = tcc.relu %1 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// -----

// A producer that feeds a contraction operand stays outside the matmul group
// even when the epilogue also uses it, whichever side of the epilogue op it
// is on: `add %l, %p` (the matmul is reached first) ...
// CHECK-LABEL: func.func @epilogue_reuses_matmul_operand_rhs
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<4x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8x8xf32>
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"(%[[A]] : tensor<4x8xf32>) -> tensor<4x8xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.exp
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[M:.+]] = fusion.group "matmul"(%[[P]], %[[B]] : tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> {
//  CHECK-NEXT:   ^bb0(%[[PP:[a-zA-Z0-9_]+]]: tensor<4x8xf32>, %[[BB:[a-zA-Z0-9_]+]]: tensor<8x8xf32>):
//  CHECK-NEXT:     %[[MM:.+]] = tcc.matmul %[[PP]], %[[BB]]
//  CHECK-NEXT:     %[[S:.+]] = tcc.add %[[MM]], %[[PP]]
//  CHECK-NEXT:     fusion.yield %[[S]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[M]]
func.func @epilogue_reuses_matmul_operand_rhs(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %p = tcc.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = tcc.matmul %p, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %o = tcc.add %l, %p : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// ... and `add %p, %l` (the producer is reached first).
// CHECK-LABEL: func.func @epilogue_reuses_matmul_operand_lhs
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<4x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8x8xf32>
//       CHECK:   %[[P:.+]] = fusion.group "pointwise"(%[[A]] : tensor<4x8xf32>) -> tensor<4x8xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.exp
//  CHECK-NEXT:     fusion.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[M:.+]] = fusion.group "matmul"(%[[P]], %[[B]] : tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> {
//  CHECK-NEXT:   ^bb0(%[[PP:[a-zA-Z0-9_]+]]: tensor<4x8xf32>, %[[BB:[a-zA-Z0-9_]+]]: tensor<8x8xf32>):
//  CHECK-NEXT:     %[[MM:.+]] = tcc.matmul %[[PP]], %[[BB]]
//  CHECK-NEXT:     %[[S:.+]] = tcc.add %[[PP]], %[[MM]]
//  CHECK-NEXT:     fusion.yield %[[S]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[M]]
func.func @epilogue_reuses_matmul_operand_lhs(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %p = tcc.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = tcc.matmul %p, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %o = tcc.add %p, %l : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// Static shapes: a GELU MLP block (linear, gelu, linear, residual add).
// CHECK-LABEL: func.func @mlp_static
//       CHECK:   %[[G1:.+]] = fusion.group "matmul"(%{{.*}}, %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<256x64xf32>, tensor<256xf32>) -> tensor<8x256xf32> {
//       CHECK:     tcc.linear
//       CHECK:     tcc.gelu
//       CHECK:   %[[G2:.+]] = fusion.group "matmul"(%[[G1]], %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x256xf32>, tensor<64x256xf32>, tensor<64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32> {
//       CHECK:     tcc.linear
//       CHECK:     tcc.add
//       CHECK:   return %[[G2]]
func.func @mlp_static(%x: tensor<8x64xf32>, %w1: tensor<256x64xf32>, %b1: tensor<256xf32>,
                      %w2: tensor<64x256xf32>, %b2: tensor<64xf32>) -> tensor<8x64xf32> {
  %0 = tcc.linear %x, %w1, %b1 : (tensor<8x64xf32>, tensor<256x64xf32>, tensor<256xf32>) -> tensor<8x256xf32>
  %1 = tcc.gelu %0 : (tensor<8x256xf32>) -> tensor<8x256xf32>
  %2 = tcc.linear %1, %w2, %b2 : (tensor<8x256xf32>, tensor<64x256xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %3 = tcc.add %2, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %3 : tensor<8x64xf32>
}

// -----

// Groups are only formed in the function body; nothing happens to an
// already-fused function (the pass is idempotent).
// CHECK-LABEL: func.func @already_fused
//       CHECK:   fusion.group "pointwise"
//   CHECK-NOT:   fusion.group
//       CHECK:   return
func.func @already_fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = fusion.group "pointwise" (%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %0 = tcc.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    fusion.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// singletons=true is the unfused baseline: one group per kernel op (views
// stay outside), nothing recognized or merged.
// RUN: tcc-opt %s --fuse=singletons=true --split-input-file | FileCheck %s --check-prefix=SINGLE
// SINGLE-LABEL: func.func @singletons
//       SINGLE:   fusion.group "reduction"
//  SINGLE-NEXT:   ^bb0
//  SINGLE-NEXT:     tcc.reduce_max
//       SINGLE:   fusion.group "pointwise"
//  SINGLE-NEXT:   ^bb0
//  SINGLE-NEXT:     tcc.sub
//       SINGLE:   fusion.group "pointwise"
//  SINGLE-NEXT:   ^bb0
//  SINGLE-NEXT:     tcc.exp
//       SINGLE:   fusion.group "reduction"
//  SINGLE-NEXT:   ^bb0
//  SINGLE-NEXT:     tcc.reduce_sum
//       SINGLE:   fusion.group "pointwise"
//  SINGLE-NEXT:   ^bb0
//  SINGLE-NEXT:     tcc.div
//   SINGLE-NOT:   tcc.softmax
// CHECK-LABEL: func.func @singletons
//       CHECK:   fusion.group "reduction"
//       CHECK:     tcc.softmax
func.func @singletons(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = tcc.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = tcc.exp %d : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %y = tcc.div %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Horizontal loop fusion: small independent groups over the same static
// iteration space share one kernel (a launch costs more than their bytes).
// The exp both reductions recompute is one op again in the merged group.
// CHECK-LABEL: func.func @small_independent_groups
//       CHECK:   %[[G:.+]]:2 = fusion.group "reduction"(%{{.+}} : tensor<2x8xf32>) -> tensor<2xf32>, tensor<2xf32> {
//       CHECK:     %[[E:.+]] = tcc.exp
//   CHECK-NOT:     tcc.exp
//       CHECK:     %[[S:.+]] = tcc.reduce_sum %[[E]]
//       CHECK:     %[[M:.+]] = tcc.reduce_max %[[E]]
//       CHECK:     fusion.yield %[[M]], %[[S]]
//   CHECK-NOT:   fusion.group
//       CHECK:   return %[[G]]#1, %[[G]]#0
func.func @small_independent_groups(%a: tensor<2x8xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = tcc.exp %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = tcc.reduce_sum %0 {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  %2 = tcc.reduce_max %0 {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return %1, %2 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Not merged: the groups' iteration spaces differ (4x8 and 8x4), a copy
// group is not a loop over the same space, and large results (a launch is
// cheap next to 4 MiB of traffic).
// CHECK-LABEL: func.func @not_merged_horizontally
//       CHECK-COUNT-5: fusion.group
func.func @not_merged_horizontally(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<1024x1024xf32>, %d: tensor<1024x1024xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>) {
  %0 = tcc.tanh %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.tanh %b : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = tcc.transpose %0 {permutation = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = tcc.exp %c : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %4 = tcc.exp %d : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0, %1, %2, %3, %4 : tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>
}

// -----

// Not merged: the first group's result is read by an op before the second
// group (merging would move the first group past its user).
// CHECK-LABEL: func.func @not_merged_dependent
//       CHECK:   %[[T:.+]] = fusion.group "pointwise"
//       CHECK:     tcc.tanh
//       CHECK:   fusion.group "copy"(%[[T]]
//       CHECK:   fusion.group "pointwise"
//       CHECK:     tcc.sigmoid
func.func @not_merged_dependent(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %0 = tcc.tanh %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = tcc.sigmoid %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1, %2 : tensor<8x4xf32>, tensor<4x8xf32>
}

// -----

// A transpose that only moves a unit dim, under a reshape dropping it (an
// exported LogSoftmax over [N, C] through [N, 1, C]): the reshape takes
// x directly and no transpose (no identity "copy" group) is left.
// Regression: the identity copy lowered to a view of the softmax's
// buffer, which was returned and then reused by a later group.
// CHECK-LABEL: func.func @unit_transpose_under_reshape
//       CHECK:   %[[G:.+]] = fusion.group "reduction"
//       CHECK:   %[[R:.+]] = tcc.reshape %[[G]] : (tensor<3x1x5xf32>) -> tensor<3x5xf32>
//   CHECK-NOT:   tcc.transpose %{{.+}} {permutation = array<i64: 0, 1>}
//       CHECK:   return %[[R]]
func.func @unit_transpose_under_reshape(%x: tensor<3x1x5xf32>) -> tensor<3x5xf32> {
  %0 = tcc.log_softmax %x {axis = 2 : i64} : (tensor<3x1x5xf32>) -> tensor<3x1x5xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 0, 2, 1>} : (tensor<3x1x5xf32>) -> tensor<3x5x1xf32>
  %2 = tcc.reshape %1 : (tensor<3x5x1xf32>) -> tensor<3x5xf32>
  return %2 : tensor<3x5xf32>
}
