// RUN: tcc-opt %s --convert-tcc-to-linalg --split-input-file | FileCheck %s

// matmul and linear are one contraction generic each (f32 accumulation);
// conv2d and pooling use linalg's named NCHW ops on tensor.pad'ded inputs.

// Loops: batch, m, n, k.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[O:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul
//  CHECK-SAME:   %[[LHS:[a-zA-Z0-9_]+]]: tensor<?x4x8xf32>, %[[RHS:[a-zA-Z0-9_]+]]: tensor<8x?xf32>
//   CHECK-NOT:   cf.assert
//   CHECK-DAG:   %[[D0:.+]] = tensor.dim %[[LHS]], %{{.+}} : tensor<?x4x8xf32>
//   CHECK-DAG:   %[[D2:.+]] = tensor.dim %[[RHS]], %{{.+}} : tensor<8x?xf32>
//       CHECK:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:   %[[E:.+]] = tensor.empty(%[[D0]], %[[D2]]) : tensor<?x4x?xf32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<?x4x?xf32>)
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
//  CHECK-SAME:     ins(%[[LHS]], %[[RHS]] : tensor<?x4x8xf32>, tensor<8x?xf32>) outs(%[[F]] : tensor<?x4x?xf32>)
//       CHECK:   ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[ACC:.+]]: f32):
//       CHECK:     %[[P:.+]] = arith.mulf %[[X]], %[[Y]] : f32
//       CHECK:     %[[S:.+]] = arith.addf %[[P]], %[[ACC]] : f32
//       CHECK:     linalg.yield %[[S]]
//       CHECK:   return %[[R]]
func.func @matmul(%a: tensor<?x4x8xf32>, %b: tensor<8x?xf32>) -> tensor<?x4x?xf32> {
  %0 = tcc.matmul %a, %b : (tensor<?x4x8xf32>, tensor<8x?xf32>) -> tensor<?x4x?xf32>
  return %0 : tensor<?x4x?xf32>
}

// -----

// A dynamic contraction dim is checked at runtime.
// CHECK-LABEL: func.func @matmul_dynamic_k
//  CHECK-SAME:   %[[LHS:[a-zA-Z0-9_]+]]: tensor<4x?xf32>, %[[RHS:[a-zA-Z0-9_]+]]: tensor<?x5xf32>
//   CHECK-DAG:   %[[KA:.+]] = tensor.dim %[[LHS]], %{{.+}} : tensor<4x?xf32>
//   CHECK-DAG:   %[[KB:.+]] = tensor.dim %[[RHS]], %{{.+}} : tensor<?x5xf32>
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[KA]], %[[KB]] : index
//       CHECK:   cf.assert %[[EQ]], "tcc.matmul: contracting dims differ at runtime"
//       CHECK:   linalg.generic
func.func @matmul_dynamic_k(%a: tensor<4x?xf32>, %b: tensor<?x5xf32>) -> tensor<4x5xf32> {
  %0 = tcc.matmul %a, %b : (tensor<4x?xf32>, tensor<?x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Batch dims broadcast: a's size-1 batch dim reads index 0, b's missing
// leading dim is dropped. f16 inputs accumulate in f32 and round at the end.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG: #[[O:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_broadcast_f16
//       CHECK:   %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2x3x4x5xf32>)
//       CHECK:   %[[ACC:.+]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
//  CHECK-SAME:     outs(%[[F]] : tensor<2x3x4x5xf32>)
//       CHECK:   ^bb0(%[[X:.+]]: f16, %[[Y:.+]]: f16, %{{.+}}: f32):
//       CHECK:     arith.extf %[[X]] : f16 to f32
//       CHECK:     arith.extf %[[Y]] : f16 to f32
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<2x3x4x5xf32>) outs(%{{.+}} : tensor<2x3x4x5xf16>)
//       CHECK:     arith.truncf %{{.+}} : f32 to f16
//       CHECK:   return %[[R]]
func.func @matmul_broadcast_f16(%a: tensor<2x1x4x8xf16>, %b: tensor<3x8x5xf16>) -> tensor<2x3x4x5xf16> {
  %0 = tcc.matmul %a, %b : (tensor<2x1x4x8xf16>, tensor<3x8x5xf16>) -> tensor<2x3x4x5xf16>
  return %0 : tensor<2x3x4x5xf16>
}

// -----

// Dynamic batch dims of both operands must agree at runtime.
// CHECK-LABEL: func.func @matmul_dynamic_batches
//       CHECK:   cf.assert %{{.+}}, "tcc.matmul: dynamic batch dims disagree at runtime"
func.func @matmul_dynamic_batches(%a: tensor<?x4x8xf32>, %b: tensor<?x8x5xf32>) -> tensor<?x4x5xf32> {
  %0 = tcc.matmul %a, %b : (tensor<?x4x8xf32>, tensor<?x8x5xf32>) -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

// linear: loops (rows..., out, in), weight read as [out, in]; the bias is a
// second generic indexed by the output feature.
// CHECK-DAG: #[[X:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[O:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BIAS:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @linear_bias
//  CHECK-SAME:   %[[IN:[a-zA-Z0-9_]+]]: tensor<?x16xf32>, %[[WT:[a-zA-Z0-9_]+]]: tensor<32x16xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<32xf32>
//   CHECK-NOT:   cf.assert
//       CHECK:   %[[MM:.+]] = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[O]]], iterator_types = ["parallel", "parallel", "reduction"]}
//  CHECK-SAME:     ins(%[[IN]], %[[WT]] : tensor<?x16xf32>, tensor<32x16xf32>)
//       CHECK:     arith.mulf
//       CHECK:     arith.addf
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BIAS]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:     ins(%[[MM]], %[[B]] : tensor<?x32xf32>, tensor<32xf32>)
//       CHECK:     arith.addf
//       CHECK:   return %[[R]]
func.func @linear_bias(%x: tensor<?x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

// A bf16 linear with a bias rounds once: the f32 accumulator plus the
// bias, then to bf16 (as the reference evaluator and cuBLASLt's bias
// epilogue do), not the product rounded before the bias is added.
// CHECK-LABEL: func.func @linear_bias_bf16
//       CHECK:   %[[ACC:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<8x32xf32>)
//       CHECK:   linalg.generic {{.+}} ins(%[[ACC]], %{{.+}} : tensor<8x32xf32>, tensor<32xbf16>) outs(%{{.+}} : tensor<8x32xbf16>)
//  CHECK-NEXT:   ^bb0(%[[P:.+]]: f32, %[[B:.+]]: bf16, %{{.+}}: bf16):
//  CHECK-NEXT:     %[[BE:.+]] = arith.extf %[[B]] : bf16 to f32
//  CHECK-NEXT:     %[[S:.+]] = arith.addf %[[P]], %[[BE]] : f32
//  CHECK-NEXT:     %[[R:.+]] = arith.truncf %[[S]] : f32 to bf16
//  CHECK-NEXT:     linalg.yield %[[R]] : bf16
func.func @linear_bias_bf16(%x: tensor<8x16xbf16>, %w: tensor<32x16xbf16>, %b: tensor<32xbf16>) -> tensor<8x32xbf16> {
  %0 = tcc.linear %x, %w, %b : (tensor<8x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>
  return %0 : tensor<8x32xbf16>
}

// -----

// CHECK-LABEL: func.func @linear_dynamic_features
//  CHECK-SAME:   %[[IN:[a-zA-Z0-9_]+]]: tensor<4x?xf32>, %[[WT:[a-zA-Z0-9_]+]]: tensor<32x?xf32>
//   CHECK-DAG:   %[[KW:.+]] = tensor.dim %[[WT]], %{{.+}} : tensor<32x?xf32>
//   CHECK-DAG:   %[[KX:.+]] = tensor.dim %[[IN]], %{{.+}} : tensor<4x?xf32>
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[KX]], %[[KW]] : index
//       CHECK:   cf.assert %[[EQ]], "tcc.linear: input features differ at runtime"
//       CHECK:   linalg.generic
//   CHECK-NOT:   linalg.generic
//       CHECK:   return
func.func @linear_dynamic_features(%x: tensor<4x?xf32>, %w: tensor<32x?xf32>) -> tensor<4x32xf32> {
  %0 = tcc.linear %x, %w : (tensor<4x?xf32>, tensor<32x?xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// conv2d: pad H and W with zeros, linalg.conv_2d_nchw_fchw into an f32
// accumulator, then the bias (by output channel) in a generic.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CH:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv2d_pad_bias
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x4x8x8xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<8x4x3x3xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:   %[[P:.+]] = tensor.pad %[[X]] low[0, 0, 1, 2] high[0, 0, 1, 2]
//       CHECK:     tensor.yield %[[ZERO]] : f32
//       CHECK:   } : tensor<?x4x8x8xf32> to tensor<?x4x10x12xf32>
//       CHECK:   %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4x8x8xf32>
//       CHECK:   %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x8x4x5xf32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<?x8x4x5xf32>)
//       CHECK:   %[[C:.+]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
//  CHECK-SAME:     ins(%[[P]], %[[W]] : tensor<?x4x10x12xf32>, tensor<8x4x3x3xf32>) outs(%[[F]] : tensor<?x8x4x5xf32>)
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]]]
//  CHECK-SAME:     ins(%[[C]], %[[B]] : tensor<?x8x4x5xf32>, tensor<8xf32>)
//       CHECK:     arith.addf
//       CHECK:   return %[[R]]
func.func @conv2d_pad_bias(%x: tensor<?x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<?x8x4x5xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 2>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>}
      : (tensor<?x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<?x8x4x5xf32>
  return %0 : tensor<?x8x4x5xf32>
}

// -----

// Without padding there is no tensor.pad; dilations pass through; f16
// accumulates in f32 and is rounded by a generic.
// CHECK-LABEL: func.func @conv2d_f16_dilated
//   CHECK-NOT:   tensor.pad
//       CHECK:   %[[C:.+]] = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
//  CHECK-SAME:     outs(%{{.+}} : tensor<1x8x4x4xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[C]] : tensor<1x8x4x4xf32>) outs(%{{.+}} : tensor<1x8x4x4xf16>)
//       CHECK:     arith.truncf
func.func @conv2d_f16_dilated(%x: tensor<1x4x8x8xf16>, %w: tensor<8x4x3x3xf16>) -> tensor<1x8x4x4xf16> {
  %0 = tcc.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 2, 2>}
      : (tensor<1x4x8x8xf16>, tensor<8x4x3x3xf16>) -> tensor<1x8x4x4xf16>
  return %0 : tensor<1x8x4x4xf16>
}

// -----

// Grouped conv: split the channel dims into [groups, per-group] and use
// linalg.conv_2d_ngchw_gfchw.
// CHECK-LABEL: func.func @conv2d_groups
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<1x4x8x8xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<6x2x3x3xf32>
//       CHECK:   %[[F:.+]] = linalg.fill
//       CHECK:   %[[XG:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
//       CHECK:   %[[WG:.+]] = tensor.expand_shape %[[W]] {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
//       CHECK:   %[[OG:.+]] = tensor.expand_shape %[[F]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 6, 6] : tensor<1x6x6x6xf32> into tensor<1x2x3x6x6xf32>
//       CHECK:   %[[C:.+]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[XG]], %[[WG]] : tensor<1x2x2x8x8xf32>, tensor<2x3x2x3x3xf32>) outs(%[[OG]] : tensor<1x2x3x6x6xf32>)
//       CHECK:   %[[R:.+]] = tensor.collapse_shape %[[C]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x3x6x6xf32> into tensor<1x6x6x6xf32>
//       CHECK:   return %[[R]]
func.func @conv2d_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  %0 = tcc.conv2d %x, %w {groups = 2 : i64, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

// A dynamic input channel count is checked against the weight at runtime.
// CHECK-LABEL: func.func @conv2d_dynamic_channels
//       CHECK:   cf.assert %{{.+}}, "tcc.conv2d: input channels differ from weight's at runtime"
//       CHECK:   linalg.conv_2d_nchw_fchw
func.func @conv2d_dynamic_channels(%x: tensor<1x?x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = tcc.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x?x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

// max pooling pads with -inf and starts from -inf; f16 rounds at the end.
// CHECK-LABEL: func.func @max_pool
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<1x4x8x8xf16>
//       CHECK:   %[[NINF16:.+]] = arith.constant 0xFC00 : f16
//       CHECK:   %[[P:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
//       CHECK:     tensor.yield %[[NINF16]] : f16
//       CHECK:   %[[NINF:.+]] = arith.constant 0xFF800000 : f32
//       CHECK:   %[[F:.+]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.+}} : tensor<1x4x4x4xf32>)
//       CHECK:   %[[WIN:.+]] = tensor.empty() : tensor<3x3xf32>
//       CHECK:   %[[M:.+]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
//  CHECK-SAME:     ins(%[[P]], %[[WIN]] : tensor<1x4x10x10xf16>, tensor<3x3xf32>) outs(%[[F]] : tensor<1x4x4x4xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[M]] : tensor<1x4x4x4xf32>) outs(%{{.+}} : tensor<1x4x4x4xf16>)
//       CHECK:     arith.truncf
func.func @max_pool(%x: tensor<1x4x8x8xf16>) -> tensor<1x4x4x4xf16> {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf16>) -> tensor<1x4x4x4xf16>
  return %0 : tensor<1x4x4x4xf16>
}

// -----

// avg pooling sums (strides default to the kernel), then divides by the
// number of window elements inside the unpadded input; a dynamic output
// size is computed from the input's.
// CHECK-LABEL: func.func @avg_pool_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x4x?x8xf32>
//   CHECK-NOT:   tensor.pad
//       CHECK:   %[[TWO:.+]] = arith.constant 2 : index
//  CHECK-NEXT:   %[[H:.+]] = tensor.dim %[[X]], %[[TWO]] : tensor<?x4x?x8xf32>
//       CHECK:   %[[SPAN:.+]] = arith.constant -2 : index
//       CHECK:   %[[NUM:.+]] = arith.addi %[[H]], %[[SPAN]] : index
//       CHECK:   %[[Q:.+]] = arith.divsi %[[NUM]], %{{.+}} : index
//       CHECK:   %[[OH:.+]] = arith.addi %[[Q]], %{{.+}} : index
//       CHECK:   tensor.empty(%{{.+}}, %[[OH]]) : tensor<?x4x?x4xf32>
//       CHECK:   %[[S:.+]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
//  CHECK-SAME:     ins(%[[X]], %{{.+}} : tensor<?x4x?x8xf32>, tensor<2x2xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[S]] : tensor<?x4x?x4xf32>)
//       CHECK:     linalg.index 2 : index
//       CHECK:     linalg.index 3 : index
//       CHECK:     %[[CNT:.+]] = arith.sitofp %{{.+}} : i64 to f32
//       CHECK:     arith.divf %{{.+}}, %[[CNT]] : f32
func.func @avg_pool_dynamic(%x: tensor<?x4x?x8xf32>) -> tensor<?x4x?x4xf32> {
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<?x4x?x8xf32>) -> tensor<?x4x?x4xf32>
  return %0 : tensor<?x4x?x4xf32>
}

// -----

// attention: q·kᵀ contraction, scale / mask / causal select, softmax over
// the key dim, then p·v.
// CHECK-DAG: #[[Q:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[K:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[S:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[V:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[MASK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @attention_causal_mask
//  CHECK-SAME:   %[[QA:[a-zA-Z0-9_]+]]: tensor<2x4x8xf32>, %[[KA:[a-zA-Z0-9_]+]]: tensor<2x6x8xf32>, %[[VA:[a-zA-Z0-9_]+]]: tensor<2x6x16xf32>, %[[M:[a-zA-Z0-9_]+]]: tensor<4x6xi1>
//       CHECK:   %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
//       CHECK:   %[[SC:.+]] = linalg.generic {indexing_maps = [#[[Q]], #[[K]], #[[S]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
//  CHECK-SAME:     ins(%[[QA]], %[[KA]] : tensor<2x4x8xf32>, tensor<2x6x8xf32>) outs(%{{.+}} : tensor<2x4x6xf32>)
//       CHECK:   %[[MSK:.+]] = linalg.generic {{.*}}#[[MASK]]{{.*}} ins(%[[SC]], %[[M]] : tensor<2x4x6xf32>, tensor<4x6xi1>)
//       CHECK:   ^bb0(%[[SV:.+]]: f32, %[[KEEP:.+]]: i1, %{{.+}}: f32):
//       CHECK:     %[[SS:.+]] = arith.mulf %[[SV]], %[[SCALE]] : f32
//       CHECK:     %[[NINF:.+]] = arith.constant 0xFF800000 : f32
//       CHECK:     %[[S1:.+]] = arith.select %[[KEEP]], %[[SS]], %[[NINF]] : f32
//       CHECK:     %[[I:.+]] = linalg.index 1 : index
//       CHECK:     %[[J:.+]] = linalg.index 2 : index
//       CHECK:     %[[C:.+]] = arith.cmpi ule, %[[J]], %[[I]] : index
//       CHECK:     arith.select %[[C]], %[[S1]], %[[NINF]] : f32
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[MSK]]
//       CHECK:     arith.maximumf
//       CHECK:     math.exp
//       CHECK:     arith.addf
//       CHECK:     arith.divf
//       CHECK:   %[[O:.+]] = linalg.generic {indexing_maps = [#[[Q]], #[[V]], #[[S]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
//  CHECK-SAME:     %[[VA]] : tensor<2x4x6xf32>, tensor<2x6x16xf32>) outs(%{{.+}} : tensor<2x4x16xf32>)
//       CHECK:   return %[[O]]
func.func @attention_causal_mask(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x16xf32>, %m: tensor<4x6xi1>) -> tensor<2x4x16xf32> {
  %0 = tcc.attention %q, %k, %v, %m {scale = 0.25 : f32, is_causal = true}
      : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32>, tensor<4x6xi1>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

// The default scale is 1/sqrt(head dim); a float mask is added.
// CHECK-LABEL: func.func @attention_default_scale_float_mask
//       CHECK:   %[[D:.+]] = arith.sitofp %{{.+}} : i64 to f32
//       CHECK:   %[[SCALE:.+]] = math.rsqrt %[[D]] : f32
//       CHECK:   ^bb0(%[[SV:.+]]: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
//       CHECK:     %[[SS:.+]] = arith.mulf %[[SV]], %[[SCALE]] : f32
//       CHECK:     arith.addf %[[SS]], %[[MV]] : f32
//   CHECK-NOT:     linalg.index
func.func @attention_default_scale_float_mask(%q: tensor<4x8xf32>, %m: tensor<1x4xf32>) -> tensor<4x8xf32> {
  %0 = tcc.attention %q, %q, %q, %m : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// bf16: scores and softmax in f32; the probabilities are rounded to bf16
// (v's type) and the second product reads two bf16 operands.
// CHECK-LABEL: func.func @attention_bf16_rounds_probabilities
//       CHECK:   %[[P:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x4x6xbf16>)
//       CHECK:     arith.divf %{{.+}}, %{{.+}} : f32
//       CHECK:     arith.truncf %{{.+}} : f32 to bf16
//       CHECK:   linalg.generic {{.+}} ins(%[[P]], %{{.+}} : tensor<2x4x6xbf16>, tensor<2x6x16xbf16>)
//  CHECK-NEXT:   ^bb0(%{{.+}}: bf16, %{{.+}}: bf16, %{{.+}}: f32):
func.func @attention_bf16_rounds_probabilities(%q: tensor<2x4x8xbf16>, %k: tensor<2x6x8xbf16>, %v: tensor<2x6x16xbf16>) -> tensor<2x4x16xbf16> {
  %0 = tcc.attention %q, %k, %v : (tensor<2x4x8xbf16>, tensor<2x6x8xbf16>, tensor<2x6x16xbf16>) -> tensor<2x4x16xbf16>
  return %0 : tensor<2x4x16xbf16>
}

// -----

// Many static rows: the weight is transposed once to [in, out] and the
// contraction reads it row-major.
// CHECK-LABEL: func.func @linear_many_rows
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x197x64xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<96x64xf32>
//       CHECK:   %[[WT:.+]] = linalg.transpose ins(%[[W]] : tensor<96x64xf32>) outs(%{{.+}} : tensor<64x96xf32>) permutation = [1, 0]
//       CHECK:   linalg.generic {{.*}} ins(%[[X]], %[[WT]] : tensor<?x197x64xf32>, tensor<64x96xf32>)
func.func @linear_many_rows(%x: tensor<?x197x64xf32>, %w: tensor<96x64xf32>) -> tensor<?x197x96xf32> {
  %0 = tcc.linear %x, %w : (tensor<?x197x64xf32>, tensor<96x64xf32>) -> tensor<?x197x96xf32>
  return %0 : tensor<?x197x96xf32>
}

// -----

// Few (dynamic) rows: no transpose, the weight is read as [out, in].
// CHECK-LABEL: func.func @linear_few_rows
//   CHECK-NOT:   linalg.transpose
//       CHECK:   linalg.generic
func.func @linear_few_rows(%x: tensor<?x64xf32>, %w: tensor<96x64xf32>) -> tensor<?x96xf32> {
  %0 = tcc.linear %x, %w : (tensor<?x64xf32>, tensor<96x64xf32>) -> tensor<?x96xf32>
  return %0 : tensor<?x96xf32>
}
