// REQUIRES: onnx
// tcc-import-onnx on the ONNX project's own backend-test models
// (libonnx-testdata): one tcc op per ONNX op where tcc has one, the
// attributes carried over; activations tcc lacks composed of its ops.

// RUN: tcc-import-onnx %onnx_data/node/test_conv_with_strides_padding/model.onnx | FileCheck %s --check-prefix=CONV
// CONV-LABEL: func.func @main(%arg0: tensor<1x1x7x5xf32> {tcc.name = "x"}, %arg1: tensor<1x1x3x3xf32> {tcc.name = "W"}) -> tensor<1x1x4x3xf32>
//       CONV:   %[[Y:.+]] = tcc.conv2d %arg0, %arg1 {dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
//       CONV:   return %[[Y]]

// Gemm with transB and a 2-D bias: transpose, matmul, add.
// RUN: tcc-import-onnx %onnx_data/node/test_gemm_transposeB/model.onnx | FileCheck %s --check-prefix=GEMM
//       GEMM:   %[[T:.+]] = tcc.transpose %arg1 {permutation = array<i64: 1, 0>}
//       GEMM:   %[[P:.+]] = tcc.matmul %arg0, %[[T]]
//       GEMM:   tcc.add %[[P]], %arg2

// Opset 13 softmax along axis 0; opset < 13 flattens at the axis first.
// RUN: tcc-import-onnx %onnx_data/node/test_softmax_axis_0/model.onnx | FileCheck %s --check-prefix=SOFTMAX
//    SOFTMAX:   tcc.softmax %arg0 {axis = 0 : i64} : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
// RUN: tcc-import-onnx %onnx_data/pytorch-converted/test_Softmax/model.onnx | FileCheck %s --check-prefix=OLD_SOFTMAX
// OLD_SOFTMAX:   tcc.softmax %{{.+}} {axis = 1 : i64}

// LeakyRelu has no tcc op: a compare and a select.
// RUN: tcc-import-onnx %onnx_data/node/test_leakyrelu/model.onnx | FileCheck %s --check-prefix=LEAKY
//      LEAKY:   %[[Z:.+]] = tcc.constant dense<0.000000e+00> : tensor<f32>
//      LEAKY:   %[[NEG:.+]] = tcc.cmp %arg0, %[[Z]] {predicate = "lt"}
//      LEAKY:   %[[A:.+]] = tcc.constant dense<1.000000e-01> : tensor<f32>
//      LEAKY:   %[[S:.+]] = tcc.mul %arg0, %[[A]]
//      LEAKY:   tcc.select %[[NEG]], %[[S]], %arg0

// A 1-D convolution runs as a 2-D one over a unit dim; its weight (an
// initializer of 60 floats) is a dense resource, the 5 biases inline.
// RUN: tcc-import-onnx %onnx_data/pytorch-converted/test_Conv1d/model.onnx | FileCheck %s --check-prefix=CONV1D
//     CONV1D:   %[[W:.+]] = tcc.constant dense_resource<{{.+}}> : tensor<5x4x3xf32>
//     CONV1D:   %[[B:.+]] = tcc.constant dense<[{{.+}}]> : tensor<5xf32>
//     CONV1D:   %[[X4:.+]] = tcc.reshape %arg0 : (tensor<2x4x10xf32>) -> tensor<2x4x1x10xf32>
//     CONV1D:   %[[W4:.+]] = tcc.reshape %[[W]] : (tensor<5x4x3xf32>) -> tensor<5x4x1x3xf32>
//     CONV1D:   %[[Y:.+]] = tcc.conv2d %[[X4]], %[[W4]], %[[B]]
//     CONV1D:   tcc.reshape %[[Y]] : (tensor<2x5x1x8xf32>) -> tensor<2x5x8xf32>
//     CONV1D: dialect_resources
// --weights-as-arguments: the initializers are trailing arguments.
// RUN: tcc-import-onnx %onnx_data/pytorch-converted/test_Conv1d/model.onnx --weights-as-arguments --function=conv | FileCheck %s --check-prefix=ARGS
//       ARGS: func.func @conv(%arg0: tensor<2x4x10xf32> {tcc.name = "0"}, %arg1: tensor<5x4x3xf32> {tcc.name = "1"}, %arg2: tensor<5xf32> {tcc.name = "2"})
//   ARGS-NOT: dense_resource

// A dim_param becomes a named symbol; Shape -> Gather -> Unsqueeze ->
// Concat feeding a Reshape folds at import into a [batch, 32] reshape.
// RUN: tcc-import-onnx %S/Inputs/dynamic_reshape.textproto | FileCheck %s --check-prefix=DYN
//        DYN: func.func @main(%arg0: tensor<?x4x8xf32> {tcc.name = "x", tcc.shape = #tcc.shape<[batch, 4, 8]>}) -> tensor<?x32xf32>
//   DYN-NEXT:   %[[R:.+]] = tcc.reshape %arg0 : (tensor<?x4x8xf32>) -> tensor<?x32xf32>
//   DYN-NEXT:   %[[Y:.+]] = tcc.relu %[[R]]
//   DYN-NEXT:   return %[[Y]]
// ... and runs, at any batch, against the reference evaluator.
// RUN: tcc-import-onnx %S/Inputs/dynamic_reshape.textproto -o %t.mlir
// RUN: tcc-run %t.mlir --function=main --input=3x4x8xf32=random --check-reference | FileCheck %s --check-prefix=EXECUTED
// EXECUTED: [SUCCESS] result[0] matches the reference (3x32xf32)

// ArgMax: the max, the positions equal to it, the first of them (an iota
// with the others past the end, then a min).
// RUN: tcc-import-onnx %onnx_data/node/test_argmax_keepdims_example/model.onnx | FileCheck %s --check-prefix=ARGMAX
//     ARGMAX:   %[[M:.+]] = tcc.reduce_max %arg0 {axes = array<i64: 1>, keep_dims = true}
//     ARGMAX:   %[[EQ:.+]] = tcc.cmp %arg0, %[[M]] {predicate = "eq"}
//     ARGMAX:   %[[IOTA:.+]] = tcc.constant dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>
//     ARGMAX:   %[[PAST:.+]] = tcc.constant dense<2> : tensor<i64>
//     ARGMAX:   %[[C:.+]] = tcc.select %[[EQ]], %[[IOTA]], %[[PAST]]
//     ARGMAX:   tcc.reduce_min %[[C]] {axes = array<i64: 1>, keep_dims = true} : (tensor<2x2xi64>) -> tensor<2x1xi64>

// Reflect padding whose pads are a graph input bound at import: a gather
// per padded dim with mirrored indices.
// RUN: tcc-import-onnx %onnx_data/node/test_reflect_pad/model.onnx --bind-input=1=%onnx_data/node/test_reflect_pad/test_data_set_0/input_1.pb | FileCheck %s --check-prefix=REFLECT
//    REFLECT: func.func @main(%arg0: tensor<1x3x4x5xi32> {tcc.name = "x"}) -> tensor<1x3x6x7xi32>
//    REFLECT:   %[[I:.+]] = tcc.constant dense<[1, 0, 1, 2, 3, 2]> : tensor<6xi64>
//    REFLECT:   %[[H:.+]] = tcc.gather %arg0, %[[I]] {axis = 2 : i64}
//    REFLECT:   %[[J:.+]] = tcc.constant dense<[1, 0, 1, 2, 3, 4, 3]> : tensor<7xi64>
//    REFLECT:   tcc.gather %[[H]], %[[J]] {axis = 3 : i64}
// Without the binding the pads are unknown at import: an error.
// RUN: not tcc-import-onnx %onnx_data/node/test_reflect_pad/model.onnx 2>&1 | FileCheck %s --check-prefix=UNBOUND
//    UNBOUND: error: ONNX node '' (Pad, opset 13): pads must be known at import time

// Split into equal parts: one slice per output.
// RUN: tcc-import-onnx %onnx_data/node/test_split_equal_parts_1d/model.onnx | FileCheck %s --check-prefix=SPLIT
//      SPLIT: -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
//      SPLIT:   tcc.slice %arg0 {ends = array<i64: 2>, starts = array<i64: 0>}
//      SPLIT:   tcc.slice %arg0 {ends = array<i64: 4>, starts = array<i64: 2>}
//      SPLIT:   tcc.slice %arg0 {ends = array<i64: 6>, starts = array<i64: 4>}

// Shape arithmetic of the expanded LayerNormalization (Shape, Size, Neg,
// Slice and Sub of known integers, ConstantOfShape, Concat) folds away at
// import: the reshapes of its outputs get static shapes, no i64 op is left.
// RUN: tcc-import-onnx %onnx_data/node/test_layer_normalization_2d_axis_negative_1_expanded/model.onnx | FileCheck %s --check-prefix=LN_EXPANDED
// LN_EXPANDED-LABEL: func.func @main
//  LN_EXPANDED-NOT:   {{(x|<)i64>}}
//      LN_EXPANDED:   %[[MEAN:.+]] = tcc.reduce_mean %arg0 {axes = array<i64: 1>, keep_dims = true} : (tensor<3x4xf32>) -> tensor<3x1xf32>
//  LN_EXPANDED-NOT:   {{(x|<)i64>}}
//      LN_EXPANDED:   return %{{.+}}, %[[MEAN]], %{{.+}} : tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x1xf32>

// Mod with fmod = 0 on integers: tcc.rem (the dividend's sign), corrected
// to the divisor's sign where they differ.
// RUN: tcc-import-onnx %onnx_data/node/test_mod_mixed_sign_int32/model.onnx | FileCheck %s --check-prefix=MOD
//    MOD:   %[[R:.+]] = tcc.rem %arg0, %arg1 : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
//    MOD:   %[[FIX:.+]] = tcc.select
//    MOD:   %[[SUM:.+]] = tcc.add %[[R]], %arg1
//    MOD:   tcc.select %[[FIX]], %[[SUM]], %[[R]]
// RUN: tcc-import-onnx %onnx_data/node/test_mod_int64_fmod/model.onnx | FileCheck %s --check-prefix=FMOD
//   FMOD:   %[[R:.+]] = tcc.rem %arg0, %arg1
//   FMOD-NEXT:   return %[[R]]

// Negative Slice steps: a gather of the selected indices per such dim.
// RUN: tcc-import-onnx %onnx_data/node/test_slice_neg_steps/model.onnx --bind-input=1=%onnx_data/node/test_slice_neg_steps/test_data_set_0/input_1.pb --bind-input=2=%onnx_data/node/test_slice_neg_steps/test_data_set_0/input_2.pb --bind-input=3=%onnx_data/node/test_slice_neg_steps/test_data_set_0/input_3.pb --bind-input=4=%onnx_data/node/test_slice_neg_steps/test_data_set_0/input_4.pb | FileCheck %s --check-prefix=NEG_STEPS
// NEG_STEPS:   %[[I:.+]] = tcc.constant dense<[19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]> : tensor<19xi64>
// NEG_STEPS:   tcc.gather %arg0, %[[I]] : (tensor<20x10x5xf32>, tensor<19xi64>) -> tensor<19x10x5xf32>
// NEG_STEPS:   %[[J:.+]] = tcc.constant dense<[9, 6, 3]> : tensor<3xi64>
// NEG_STEPS:   tcc.gather %{{.+}}, %[[J]] {axis = 1 : i64}

// Trigonometric ops map one to one; IsInf compares with both infinities;
// Dropout's mask in inference is all true.
// RUN: tcc-import-onnx %onnx_data/node/test_acosh/model.onnx | FileCheck %s --check-prefix=ACOSH
//  ACOSH:   tcc.acosh %arg0 : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
// RUN: tcc-import-onnx %onnx_data/node/test_isinf/model.onnx | FileCheck %s --check-prefix=ISINF
//  ISINF:   %[[POS:.+]] = tcc.cmp %arg0, %{{.+}} {predicate = "eq"}
//  ISINF:   %[[NEG:.+]] = tcc.cmp %arg0, %{{.+}} {predicate = "eq"}
//  ISINF:   tcc.select %[[POS]], %{{.+}}, %[[NEG]]
// RUN: tcc-import-onnx %onnx_data/node/test_dropout_default_mask/model.onnx | FileCheck %s --check-prefix=MASK
//   MASK:   %[[M:.+]] = tcc.constant dense<true> : tensor<3x4x5xi1>
//   MASK:   return %arg0, %[[M]]

// GatherElements is tcc.gather_elements; ReduceProd tcc.reduce_prod.
// RUN: tcc-import-onnx %onnx_data/node/test_gather_elements_negative_indices/model.onnx | FileCheck %s --check-prefix=GATHER_EL
// GATHER_EL:   tcc.gather_elements %arg0, %arg1 : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
// RUN: tcc-import-onnx %onnx_data/node/test_reduce_prod_default_axes_keepdims_example/model.onnx | FileCheck %s --check-prefix=PROD
// PROD:   tcc.reduce_prod %arg0 {axes = array<i64: 0, 1, 2>, keep_dims = true} : (tensor<3x2x2xf32>) -> tensor<1x1x1xf32>

// Hardmax: the first maximum's index (as ArgMax), compared with an iota
// along the axis, cast to x's type.
// RUN: tcc-import-onnx %onnx_data/node/test_hardmax_axis_1/model.onnx | FileCheck %s --check-prefix=HARDMAX
// HARDMAX:   %[[M:.+]] = tcc.reduce_min %{{.+}} {axes = array<i64: 1>, keep_dims = true} : (tensor<3x4x5xi64>) -> tensor<3x1x5xi64>
// HARDMAX:   %[[HIT:.+]] = tcc.cmp %{{.+}}, %[[M]] {predicate = "eq"} : (tensor<1x4x1xi64>, tensor<3x1x5xi64>) -> tensor<3x4x5xi1>
// HARDMAX:   tcc.cast %[[HIT]] : (tensor<3x4x5xi1>) -> tensor<3x4x5xf32>

// CumSum: tcc.cumsum along the bound axis; EyeLike a constant.
// RUN: tcc-import-onnx %onnx_data/node/test_cumsum_2d_axis_0/model.onnx --bind-input=1=%onnx_data/node/test_cumsum_2d_axis_0/test_data_set_0/input_1.pb | FileCheck %s --check-prefix=CUMSUM
// RUN: tcc-import-onnx %onnx_data/node/test_cumsum_1d_reverse_exclusive/model.onnx --bind-input=1=%onnx_data/node/test_cumsum_1d_reverse_exclusive/test_data_set_0/input_1.pb | FileCheck %s --check-prefix=CUMSUM_RE
// CUMSUM:   tcc.cumsum %arg0 {axis = 0 : i64} : (tensor<2x3xf64>) -> tensor<2x3xf64>
// CUMSUM_RE:   tcc.cumsum %arg0 {axis = 0 : i64, exclusive = true, reverse = true} : (tensor<5xf64>) -> tensor<5xf64>
// RUN: tcc-import-onnx %onnx_data/node/test_eyelike_with_dtype/model.onnx | FileCheck %s --check-prefix=EYE
// EYE:   %[[E:.+]] = tcc.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, {{.+}}]]> : tensor<3x4xf64>
// EYE:   return %[[E]]

// 2-D ceil_mode pooling is tcc's pool op with the ceil's extra end
// row/column as padding (no window starts in it).
// RUN: tcc-import-onnx %onnx_data/node/test_maxpool_2d_ceil/model.onnx | FileCheck %s --check-prefix=CEIL
// CEIL:   tcc.max_pool2d %arg0 {kernel_size = array<i64: 3, 3>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
// CEIL-NOT:   tcc.maximum

// count_include_pad: a sum of zero-padded slices divided by a constant of
// the window sizes.
// RUN: tcc-import-onnx %onnx_data/node/test_averagepool_2d_pads_count_include_pad/model.onnx | FileCheck %s --check-prefix=INCLUDE_PAD
// INCLUDE_PAD-COUNT-2:   tcc.add {{.+}} -> tensor<1x3x30x32xf32>
// INCLUDE_PAD:   tcc.add {{.+}} -> tensor<1x3x30x30xf32>
// INCLUDE_PAD:   %[[S:.+]] = tcc.add {{.+}} -> tensor<1x3x30x30xf32>
// INCLUDE_PAD:   %[[D:.+]] = tcc.constant dense_resource<{{.+}}> : tensor<1x1x30x30xf32>
// INCLUDE_PAD:   tcc.div %[[S]], %[[D]]

// Conv3d: one tcc.conv2d per kernel depth over (N * D', C, H, W), summed.
// RUN: tcc-import-onnx %onnx_data/pytorch-converted/test_Conv3d_no_bias/model.onnx | FileCheck %s --check-prefix=CONV3D
// CONV3D:   tcc.transpose %arg0 {permutation = array<i64: 0, 2, 1, 3, 4>}
// CONV3D:   %[[A:.+]] = tcc.conv2d {{.+}} : (tensor<4x3x4x5xf32>, tensor<4x3x3x4xf32>) -> tensor<4x4x2x2xf32>
// CONV3D:   %[[B:.+]] = tcc.conv2d {{.+}} : (tensor<4x3x4x5xf32>, tensor<4x3x3x4xf32>) -> tensor<4x4x2x2xf32>
// CONV3D:   tcc.add %[[A]], %[[B]]
// CONV3D:   tcc.transpose %{{.+}} {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<2x2x4x2x2xf32>) -> tensor<2x4x2x2x2xf32>

// ConvTranspose: a conv2d with the weight's channels swapped, its kernel
// flipped (gathers), padded by kernel - 1 - pads.
// RUN: tcc-import-onnx %onnx_data/node/test_convtranspose/model.onnx | FileCheck %s --check-prefix=CONVT
// CONVT:   tcc.transpose %{{.+}} {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x1x2x3x3xf32>) -> tensor<1x2x1x3x3xf32>
// CONVT:   %[[R:.+]] = tcc.constant dense<[2, 1, 0]> : tensor<3xi64>
// CONVT:   tcc.gather %{{.+}}, %[[R]] {axis = 2 : i64}
// CONVT:   tcc.conv2d %arg0, %{{.+}} {dilations = array<i64: 1, 1>, padding = array<i64: 2, 2, 2, 2>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x5xf32>

// Resize: per resized dim a tcc.matmul with its interpolation matrix built
// at import (here nearest, scales [1, 1, 2, 3]); the scales are a graph
// input, named in the error until bound.
// RUN: not tcc-import-onnx %onnx_data/node/test_resize_upsample_scales_nearest/model.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE_UNBOUND
// RESIZE_UNBOUND: error: ONNX node '' (Resize, opset 13): scales must be known at import time (graph input 1)
// RUN: tcc-import-onnx %onnx_data/node/test_resize_upsample_scales_nearest/model.onnx --bind-input=1=%onnx_data/node/test_resize_upsample_scales_nearest/test_data_set_0/input_1.pb | FileCheck %s --check-prefix=RESIZE
// RESIZE:   tcc.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<2x4xf32>
// RESIZE:   tcc.matmul %{{.+}}, %{{.+}} : (tensor<1x1x2x2xf32>, tensor<2x4xf32>) -> tensor<1x1x2x4xf32>
// RESIZE:   tcc.matmul %{{.+}}, %{{.+}} : (tensor<1x1x4x2xf32>, tensor<2x6xf32>) -> tensor<1x1x4x6xf32>

// Einsum: operands aligned to one label order, multiplied, the summed
// labels reduced.
// RUN: tcc-import-onnx %onnx_data/node/test_einsum_batch_matmul/model.onnx | FileCheck %s --check-prefix=EINSUM
// EINSUM:   %[[A:.+]] = tcc.reshape %arg0 : (tensor<5x2x3xf64>) -> tensor<5x2x1x3xf64>
// EINSUM:   tcc.transpose %arg1 {permutation = array<i64: 0, 2, 1>}
// EINSUM:   %[[P:.+]] = tcc.mul %[[A]], %{{.+}} : (tensor<5x2x1x3xf64>, tensor<5x1x4x3xf64>) -> tensor<5x2x4x3xf64>
// EINSUM:   tcc.reduce_sum %[[P]] {axes = array<i64: 3>} : (tensor<5x2x4x3xf64>) -> tensor<5x2x4xf64>

// Compress and NonZero through tcc.nonzero (a size known once it ran);
// GatherND as one gather of flattened positions (an out-of-range tuple
// selected past the end, for the gather's check).
// RUN: tcc-import-onnx %onnx_data/node/test_compress_0/model.onnx | FileCheck %s --check-prefix=COMPRESS
// COMPRESS:   %[[NZ:.+]] = tcc.nonzero %arg1 : (tensor<3xi1>) -> tensor<?x1xi64>
// COMPRESS:   %[[I:.+]] = tcc.reshape %[[NZ]] : (tensor<?x1xi64>) -> tensor<?xi64>
// COMPRESS:   tcc.gather %arg0, %[[I]] : (tensor<3x2xf32>, tensor<?xi64>) -> tensor<?x2xf32>
// RUN: tcc-import-onnx %onnx_data/node/test_gathernd_example_int32_batch_dim1/model.onnx | FileCheck %s --check-prefix=GATHERND
// GATHERND:   %[[L:.+]] = tcc.select %{{.+}}, %{{.+}}, %{{.+}} : (tensor<2xi1>, tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
// GATHERND:   %[[F:.+]] = tcc.reshape %arg0, %{{.+}} : (tensor<2x2x2xi32>, tensor<2xi64>) -> tensor<4x2xi32>
// GATHERND:   tcc.gather %[[F]], %[[L]] : (tensor<4x2xi32>, tensor<2xi64>) -> tensor<2x2xi32>

// Window functions of a bound size are constants.
// RUN: tcc-import-onnx %onnx_data/node/test_hannwindow/model.onnx --bind-input=0=%onnx_data/node/test_hannwindow/test_data_set_0/input_0.pb | FileCheck %s --check-prefix=HANN
// HANN:   tcc.constant dense<[0.000000e+00, 0.0954915061, 0.345491499, 0.654508471, 0.904508471, 1.000000e+00, 0.904508471, {{.+}}]> : tensor<10xf32>

// TopK (k = 3 bound): one tcc.topk (smallest).
// RUN: tcc-import-onnx %onnx_data/node/test_top_k_smallest/model.onnx --bind-input=1=%onnx_data/node/test_top_k_smallest/test_data_set_0/input_1.pb | FileCheck %s --check-prefix=TOPK
// TOPK:   tcc.topk %arg0 {axis = 1 : i64, k = 3 : i64, largest = false} : (tensor<3x4xf32>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
