// REQUIRES: onnx
// Values ONNX computes at run time (shapes from Shape, Range bounds,
// Expand and Reshape targets, Slice starts and ends, GatherND of dynamic
// tensors) become run-time operands: imported, compiled and run against
// values worked out by hand, and against the reference evaluator.

// A shape used as data: Shape(x) + Shape(x) for x of N x 3, N = 5.
// RUN: tcc-import-onnx %S/Inputs/shape_as_data.textproto -o %t.shape.mlir
// RUN: tcc-run %t.shape.mlir --input=5x3xf32=random --expected_output="2xi64=10 6" | FileCheck %s --check-prefix=SHAPE
// SHAPE: [SUCCESS] result[0] matches (2xi64)

// Range(past, past + seq, 1) from two tensors' run-time dims (a cache of 4,
// 3 new tokens: positions 4, 5, 6) is start + tcc.iota of limit - start
// (integers, a constant delta: no float); a float Range with run-time
// bounds (1 to 2 by 0.25) counts ceil((limit - start) / delta) in f64.
// RUN: tcc-import-onnx %S/Inputs/runtime_range.textproto | FileCheck %s --check-prefix=RANGE
// RANGE: %[[SPAN:.+]] = tcc.sub
// RANGE-NOT: tcc.ceil
// RANGE: tcc.iota %{{.+}} : (tensor<1xi64>) -> tensor<?xi64>
// RANGE: tcc.ceil
// RANGE: tcc.iota %{{.+}} : (tensor<1xi64>) -> tensor<?xf32>
// RUN: tcc-import-onnx %S/Inputs/runtime_range.textproto -o %t.range.mlir
// RUN: tcc-run %t.range.mlir --input="1x3xi64=7 8 9" --input="1x4xf32=0 0 0 0" --input="f32=1" --input="f32=2" --input="f32=0.25" --expected_output="3xi64=4 5 6" --expected_output="4xf32=1 1.25 1.5 1.75" | FileCheck %s --check-prefix=RANGE_OK
// RUN: tcc-run %t.range.mlir --reference --input="1x3xi64=7 8 9" --input="1x4xf32=0 0 0 0" --input="f32=1" --input="f32=2" --input="f32=0.25" --expected_output="3xi64=4 5 6" --expected_output="4xf32=1 1.25 1.5 1.75" | FileCheck %s --check-prefix=RANGE_OK
// An empty range (limit below start).
// RUN: tcc-run %t.range.mlir --input="1x1xi64=7" --input="1x2xf32=0 0" --input="f32=3" --input="f32=2" --input="f32=0.5" --expected_output="1xi64=2" --expected_output="0xf32" | FileCheck %s --check-prefix=RANGE_OK
// RANGE_OK: [SUCCESS] result[1] matches

// Expand to [N, 1, 3] built from Shape(x) (a broadcast_to whose shape
// operand follows numpy's rule at run time, the static dims kept), Reshape
// to a shape given as an input ([3, -1, 2] of 2 x 6), Unsqueeze of a tensor
// with two run-time dims.
// RUN: tcc-import-onnx %S/Inputs/runtime_expand_reshape.textproto | FileCheck %s --check-prefix=EXPAND
// EXPAND: tcc.broadcast_to %arg1, %{{.+}} : (tensor<3xf32>, tensor<3xi64>) -> tensor<?x1x3xf32>
// EXPAND: tcc.reshape %arg0, %{{.+}} : (tensor<?x6xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
// EXPAND: tcc.reshape %arg3, %{{.+}} : (tensor<?x?xf32>, tensor<3xi64>) -> tensor<?x1x?xf32>
// RUN: tcc-import-onnx %S/Inputs/runtime_expand_reshape.textproto -o %t.expand.mlir
// RUN: tcc-run %t.expand.mlir --input="2x6xf32=0 1 2 3 4 5 6 7 8 9 10 11" --input="3xf32=1 2 3" --input="3xi64=3 -1 2" --input="2x3xf32=1 2 3 4 5 6" --expected_output="2x1x3xf32=1 2 3 1 2 3" --expected_output="3x2x2xf32=0 1 2 3 4 5 6 7 8 9 10 11" --expected_output="2x1x3xf32=1 2 3 4 5 6" | FileCheck %s --check-prefix=EXPAND_OK
// A 0 in the Reshape target copies x's dim: [0, 3, 2] of 2 x 6.
// RUN: tcc-run %t.expand.mlir --input="2x6xf32=0 1 2 3 4 5 6 7 8 9 10 11" --input="3xf32=1 2 3" --input="3xi64=0 3 2" --input="1x1xf32=7" --expected_output="2x1x3xf32=1 2 3 1 2 3" --expected_output="2x3x2xf32=0 1 2 3 4 5 6 7 8 9 10 11" --expected_output="1x1x1xf32=7" | FileCheck %s --check-prefix=EXPAND_OK
// EXPAND_OK: [SUCCESS] result[2] matches

// x[:, starts:ends] with run-time bounds (1 and -1 of 5 columns), x[:, -1:-ends:-2]
// (columns 4 and 2), GatherND at (1, 4), (-2, 0), (0, -1).
// RUN: tcc-import-onnx %S/Inputs/runtime_slice_gathernd.textproto -o %t.slice.mlir
// RUN: tcc-run %t.slice.mlir --input="2x5xf32=0 1 2 3 4 5 6 7 8 9" --input="1xi64=1" --input="1xi64=-1" --input="3x2xi64=1 4 -2 0 0 -1" --expected_output="2x3xf32=1 2 3 6 7 8" --expected_output="2x2xf32=4 2 9 7" --expected_output="3xf32=9 0 4" | FileCheck %s --check-prefix=SLICE_OK
// RUN: tcc-run %t.slice.mlir --reference --input="2x5xf32=0 1 2 3 4 5 6 7 8 9" --input="1xi64=1" --input="1xi64=-1" --input="3x2xi64=1 4 -2 0 0 -1" --expected_output="2x3xf32=1 2 3 6 7 8" --expected_output="2x2xf32=4 2 9 7" --expected_output="3xf32=9 0 4" | FileCheck %s --check-prefix=SLICE_OK
// Bounds past the ends clamp: 0 to 99 is every column; -1 down to -99 by
// -2 clamps the end to before column 0 (columns 4, 2, 0). Starting past the
// end selects nothing (the reversed slice from -1 to -9 clamps as before).
// RUN: tcc-run %t.slice.mlir --input="1x5xf32=0 1 2 3 4" --input="1xi64=0" --input="1xi64=99" --input="1x2xi64=0 2" --expected_output="1x5xf32=0 1 2 3 4" --expected_output="1x3xf32=4 2 0" --expected_output="1xf32=2" | FileCheck %s --check-prefix=SLICE_OK
// RUN: tcc-run %t.slice.mlir --input="1x5xf32=0 1 2 3 4" --input="1xi64=7" --input="1xi64=9" --input="1x2xi64=0 2" --expected_output="1x0xf32" --expected_output="1x3xf32=4 2 0" --expected_output="1xf32=2" | FileCheck %s --check-prefix=SLICE_OK
// SLICE_OK: [SUCCESS] result[2] matches
// A GatherND index out of range is an error, not another element.
// RUN: not tcc-run %t.slice.mlir --input="2x5xf32=0 1 2 3 4 5 6 7 8 9" --input="1xi64=1" --input="1xi64=-1" --input="1x2xi64=2 0" 2>&1 | FileCheck %s --check-prefix=OUT_OF_RANGE
// OUT_OF_RANGE: tcc.gather: index out of range

// TopK with a run-time k (2 here) along a dynamic axis: a descending
// tcc.sort gathered at iota(k); equal values keep their order ([1 5 2 5]:
// 5 at 1, then 5 at 3). The smallest 2 along the static axis 0 with a
// constant k are one tcc.topk. A run-time k beyond the dim fails the
// gather's range check.
// RUN: tcc-import-onnx %S/Inputs/runtime_topk.textproto -o %t.topk.mlir
// RUN: FileCheck %s --check-prefix=TOPKIR < %t.topk.mlir
// RUN: tcc-run %t.topk.mlir --input="3x4xf32=1 5 2 5 0 -1 7 3 4 4 4 9" --input="1xi64=2" --expected_output="3x2xf32=5 5 7 3 9 4" --expected_output="3x2xi64=1 3 2 3 3 0" --expected_output="2x4xf32=0 -1 2 3 1 4 4 5" --expected_output="2x4xi64=1 1 0 1 0 2 2 0" | FileCheck %s --check-prefix=TOPK
// RUN: tcc-run %t.topk.mlir --input=3x700xf32=random --input="1xi64=100" --check-reference | FileCheck %s --check-prefix=TOPKREF
// RUN: not tcc-run %t.topk.mlir --input="3x4xf32=random" --input="1xi64=5" 2>&1 | FileCheck %s --check-prefix=TOPKBIG
// TOPKIR: tcc.sort %arg0 {axis = 1 : i64, descending = true}
// TOPKIR: tcc.iota %arg1 : (tensor<1xi64>) -> tensor<?xi64>
// TOPKIR: tcc.topk %arg0 {axis = 0 : i64, k = 2 : i64, largest = false}
// TOPK: [SUCCESS] result[3] matches (2x4xi64)
// TOPKREF: [SUCCESS] result[3] matches the reference
// TOPKBIG: tcc.gather: index out of range

// Trilu of a run-time sequence length (a causal mask: the lower triangle)
// and with a run-time k (the upper triangle above diagonal k = 1): the
// mask is j - i compared with k, from two tcc.iota of x's dims.
// RUN: tcc-import-onnx %S/Inputs/runtime_trilu.textproto -o %t.trilu.mlir
// RUN: FileCheck %s --check-prefix=TRILUIR < %t.trilu.mlir
// RUN: tcc-run %t.trilu.mlir --input="1x3x3xf32=1 2 3 4 5 6 7 8 9" --input="i64=1" --expected_output="1x3x3xf32=1 0 0 4 5 0 7 8 9" --expected_output="1x3x3xf32=0 2 3 0 0 6 0 0 0" | FileCheck %s --check-prefix=TRILU
// RUN: tcc-run %t.trilu.mlir --input=2x5x5xf32=random --input="i64=-1" --check-reference | FileCheck %s --check-prefix=TRILUREF
// TRILUIR: tcc.iota %{{.+}} : (tensor<1xi64>) -> tensor<?xi64>
// TRILUIR: tcc.cmp %{{.+}} {predicate = "le"}
// TRILUIR: tcc.cmp %{{.+}}, %arg1 {predicate = "ge"}
// TRILU: [SUCCESS] result[1] matches (1x3x3xf32)
// TRILUREF: [SUCCESS] result[1] matches the reference

// ceil_mode MaxPool and AveragePool with a dynamic batch: tcc's pool ops
// with end padding no window starts in (the last window of each row is
// [4] or [4, 9]: its max, and the mean of its real elements only).
// RUN: tcc-import-onnx %S/Inputs/ceil_pool_dynamic_batch.textproto -o %t.pool.mlir
// RUN: FileCheck %s --check-prefix=POOL_IR < %t.pool.mlir
// POOL_IR: tcc.max_pool2d %{{.+}} {kernel_size = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x1x5x5xf32>) -> tensor<?x1x3x3xf32>
// POOL_IR: tcc.avg_pool2d
// RUN: tcc-run %t.pool.mlir --input="2x1x5x5xf32=0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24" --expected_output="2x1x3x3xf32=6 8 9 16 18 19 21 23 24 6 8 9 16 18 19 21 23 24" --expected_output="2x1x3x3xf32=3 5 6.5 13 15 16.5 20.5 22.5 24 3 5 6.5 13 15 16.5 20.5 22.5 24" | FileCheck %s --check-prefix=POOL
// POOL-COUNT-2: [SUCCESS]

// Shape arithmetic on constants spelled with float ops (ReduceMax, Div,
// Ceil, Cast: torchvision's detection transform) is folded at import, so
// Pad's pads are known; ConstantOfShape of a shape known only at run time
// (NonZero's count) is a broadcast of its value to that shape.
// RUN: tcc-import-onnx %S/Inputs/folded_shape_arithmetic.textproto | FileCheck %s --check-prefix=FOLDED
// FOLDED-NOT: tcc.reduce_max
// FOLDED-NOT: tcc.ceil
// FOLDED: -> tensor<1x3x5x5xf32>
// FOLDED: %[[NZ:.+]] = tcc.nonzero %arg1
// FOLDED: %[[SEVEN:.+]] = tcc.constant dense<7> : tensor<i64>
// FOLDED: tcc.broadcast_to %[[SEVEN]], %{{.+}} : (tensor<i64>, tensor<2xi64>) -> tensor<1x?xi64>
// RUN: tcc-import-onnx %S/Inputs/folded_shape_arithmetic.textproto -o %t.folded.mlir
// RUN: tcc-run %t.folded.mlir --input="1x3x4x4xf32=1" --input="4xf32=0 2 0 3" --expected_output="1x3x5x5xf32=1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 0 0 0 0 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 0 0 0 0 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 0 0 0 0 0" --expected_output="1x2xi64=7 7" | FileCheck %s --check-prefix=FOLDED_OK
// RUN: tcc-run %t.folded.mlir --reference --input="1x3x4x4xf32=1" --input="4xf32=0 0 0 0" --expected_output="1x3x5x5xf32=1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 0 0 0 0 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 0 0 0 0 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 1 1 1 1 0 0 0 0 0 0" --expected_output="1x0xi64" | FileCheck %s --check-prefix=FOLDED_OK
// FOLDED_OK: [SUCCESS] result[1] matches
