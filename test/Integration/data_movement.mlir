// transpose, reshape, broadcast_to, concat, slice, gather and constant:
// compiled vs reference, static and dynamic shapes.

// ---- transpose ------------------------------------------------------------------

// RUN: tcc-run %s --function=transpose_2d --input=5x7xf32=random --check-reference | FileCheck %s --check-prefix=TRANSPOSE_2D
// TRANSPOSE_2D: [SUCCESS] result[0] matches the reference (7x5xf32)
func.func @transpose_2d(%x: tensor<5x7xf32>) -> tensor<7x5xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<5x7xf32>) -> tensor<7x5xf32>
  return %0 : tensor<7x5xf32>
}

// RUN: tcc-run %s --function=transpose_4d_dyn --input=2x5x3x4xf32=random --check-reference | FileCheck %s --check-prefix=TRANSPOSE_4D
// TRANSPOSE_4D: [SUCCESS] result[0] matches the reference (2x3x5x4xf32)
// TRANSPOSE_4D: [SUCCESS] result[1] matches the reference (4x2x5x3xf32)
func.func @transpose_4d_dyn(%x: tensor<?x?x3x4xf32>) -> (tensor<?x3x?x4xf32>, tensor<4x?x?x3xf32>) {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x?x3x4xf32>) -> tensor<?x3x?x4xf32>
  %1 = tcc.transpose %x {permutation = array<i64: 3, 0, 1, 2>} : (tensor<?x?x3x4xf32>) -> tensor<4x?x?x3xf32>
  return %0, %1 : tensor<?x3x?x4xf32>, tensor<4x?x?x3xf32>
}

// 5-D permutation of the ViT qkv split, on integers.
// RUN: tcc-run %s --function=transpose_5d_i32 --input=2x3x3x2x4xi32=random --check-reference | FileCheck %s --check-prefix=TRANSPOSE_5D
// TRANSPOSE_5D: [SUCCESS] result[0] matches the reference (3x2x2x3x4xi32)
func.func @transpose_5d_i32(%x: tensor<?x3x3x2x4xi32>) -> tensor<3x?x2x3x4xi32> {
  %0 = tcc.transpose %x {permutation = array<i64: 2, 0, 3, 1, 4>} : (tensor<?x3x3x2x4xi32>) -> tensor<3x?x2x3x4xi32>
  return %0 : tensor<3x?x2x3x4xi32>
}

// ---- reshape --------------------------------------------------------------------

// RUN: tcc-run %s --function=reshape_static --input=4x6xf32=random --check-reference | FileCheck %s --check-prefix=RESHAPE_STATIC
// RESHAPE_STATIC: [SUCCESS] result[0] matches the reference (2x3x4xf32)
// RESHAPE_STATIC: [SUCCESS] result[1] matches the reference (24xf32)
// RESHAPE_STATIC: [SUCCESS] result[2] matches the reference (3x8xf32)
func.func @reshape_static(%x: tensor<4x6xf32>) -> (tensor<2x3x4xf32>, tensor<24xf32>, tensor<3x8xf32>) {
  %0 = tcc.reshape %x : (tensor<4x6xf32>) -> tensor<2x3x4xf32>
  %1 = tcc.reshape %x : (tensor<4x6xf32>) -> tensor<24xf32>
  %2 = tcc.reshape %0 : (tensor<2x3x4xf32>) -> tensor<3x8xf32>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<24xf32>, tensor<3x8xf32>
}

// One dynamic result dim inferred from the element count (split heads / merge heads).
// RUN: tcc-run %s --function=reshape_infer --input=2x5x24xf32=random --check-reference | FileCheck %s --check-prefix=RESHAPE_INFER
// RESHAPE_INFER: [SUCCESS] result[0] matches the reference (2x5x3x8xf32)
// RESHAPE_INFER: [SUCCESS] result[1] matches the reference (10x24xf32)
// RESHAPE_INFER: [SUCCESS] result[2] matches the reference (240xf32)
func.func @reshape_infer(%x: tensor<?x5x24xf32>) -> (tensor<?x5x3x8xf32>, tensor<?x24xf32>, tensor<?xf32>) {
  %0 = tcc.reshape %x : (tensor<?x5x24xf32>) -> tensor<?x5x3x8xf32>
  %1 = tcc.reshape %x : (tensor<?x5x24xf32>) -> tensor<?x24xf32>
  %2 = tcc.reshape %0 : (tensor<?x5x3x8xf32>) -> tensor<?xf32>
  return %0, %1, %2 : tensor<?x5x3x8xf32>, tensor<?x24xf32>, tensor<?xf32>
}

// Inferred dim that is not the leading one, from a fully dynamic input.
// RUN: tcc-run %s --function=reshape_infer_inner --input=6x4xf32=random --check-reference | FileCheck %s --check-prefix=RESHAPE_INFER_INNER
// RESHAPE_INFER_INNER: [SUCCESS] result[0] matches the reference (2x12xf32)
func.func @reshape_infer_inner(%x: tensor<?x?xf32>) -> tensor<2x?xf32> {
  %0 = tcc.reshape %x : (tensor<?x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// Shape operand (tensor<Nxi64>, -1 = infer) for several dynamic dims.
// RUN: tcc-run %s --function=reshape_shape_operand --input=4x6xf32=random --input="3xi64=2 -1 3" --check-reference | FileCheck %s --check-prefix=RESHAPE_SHAPE
// RESHAPE_SHAPE: [SUCCESS] result[0] matches the reference (2x4x3xf32)
func.func @reshape_shape_operand(%x: tensor<?x?xf32>, %s: tensor<3xi64>) -> tensor<?x?x?xf32> {
  %0 = tcc.reshape %x, %s : (tensor<?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// Shape operand given as a constant.
// RUN: tcc-run %s --function=reshape_shape_const --input=3x8xf32=random --check-reference | FileCheck %s --check-prefix=RESHAPE_SHAPE_CONST
// RESHAPE_SHAPE_CONST: [SUCCESS] result[0] matches the reference (6x2x2xf32)
func.func @reshape_shape_const(%x: tensor<?x8xf32>) -> tensor<?x2x?xf32> {
  %s = tcc.constant dense<[-1, 2, 2]> : tensor<3xi64>
  %0 = tcc.reshape %x, %s : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x2x?xf32>
  return %0 : tensor<?x2x?xf32>
}

// Reshape of a transposed (non-contiguous) value: must copy in row-major order.
// RUN: tcc-run %s --function=reshape_after_transpose --input=2x3x4xf32=random --check-reference | FileCheck %s --check-prefix=RESHAPE_T
// RESHAPE_T: [SUCCESS] result[0] matches the reference (2x12xf32)
func.func @reshape_after_transpose(%x: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
  %t = tcc.transpose %x {permutation = array<i64: 0, 2, 1>} : (tensor<?x3x4xf32>) -> tensor<?x4x3xf32>
  %0 = tcc.reshape %t : (tensor<?x4x3xf32>) -> tensor<?x12xf32>
  return %0 : tensor<?x12xf32>
}

// ---- broadcast_to -----------------------------------------------------------------

// RUN: tcc-run %s --function=broadcast_static --input=1x8xf32=random --input=3x1xi32=random --check-reference | FileCheck %s --check-prefix=BCAST_STATIC
// BCAST_STATIC: [SUCCESS] result[0] matches the reference (5x8xf32)
// BCAST_STATIC: [SUCCESS] result[1] matches the reference (2x3x4xi32)
func.func @broadcast_static(%x: tensor<1x8xf32>, %y: tensor<3x1xi32>) -> (tensor<5x8xf32>, tensor<2x3x4xi32>) {
  %0 = tcc.broadcast_to %x : (tensor<1x8xf32>) -> tensor<5x8xf32>
  %1 = tcc.broadcast_to %y : (tensor<3x1xi32>) -> tensor<2x3x4xi32>
  return %0, %1 : tensor<5x8xf32>, tensor<2x3x4xi32>
}

// Dynamic result dims from the shape operand (new leading dim and a stretched dim).
// RUN: tcc-run %s --function=broadcast_shape_operand --input=3x1xf32=random --input="3xi64=2 3 5" --check-reference | FileCheck %s --check-prefix=BCAST_SHAPE
// BCAST_SHAPE: [SUCCESS] result[0] matches the reference (2x3x5xf32)
func.func @broadcast_shape_operand(%x: tensor<3x1xf32>, %s: tensor<3xi64>) -> tensor<?x3x?xf32> {
  %0 = tcc.broadcast_to %x, %s : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<?x3x?xf32>
  return %0 : tensor<?x3x?xf32>
}

// Dynamic result dim taken from the aligned dynamic input dim.
// RUN: tcc-run %s --function=broadcast_dyn_input --input=4x1xf32=random --check-reference | FileCheck %s --check-prefix=BCAST_DYN
// BCAST_DYN: [SUCCESS] result[0] matches the reference (2x4x6xf32)
func.func @broadcast_dyn_input(%x: tensor<?x1xf32>) -> tensor<2x?x6xf32> {
  %0 = tcc.broadcast_to %x : (tensor<?x1xf32>) -> tensor<2x?x6xf32>
  return %0 : tensor<2x?x6xf32>
}

// Rank-0 to a tensor (a splat), and a class-token style [1,1,D] -> [B,1,D] with shape operand.
// RUN: tcc-run %s --function=broadcast_scalar_cls --input=f32=1.5 --input=1x1x8xf32=random --input="3xi64=3 1 8" --check-reference | FileCheck %s --check-prefix=BCAST_SCALAR
// BCAST_SCALAR: [SUCCESS] result[0] matches the reference (2x3xf32)
// BCAST_SCALAR: [SUCCESS] result[1] matches the reference (3x1x8xf32)
func.func @broadcast_scalar_cls(%s: tensor<f32>, %cls: tensor<1x1x8xf32>, %shape: tensor<3xi64>) -> (tensor<2x3xf32>, tensor<?x1x8xf32>) {
  %0 = tcc.broadcast_to %s : (tensor<f32>) -> tensor<2x3xf32>
  %1 = tcc.broadcast_to %cls, %shape : (tensor<1x1x8xf32>, tensor<3xi64>) -> tensor<?x1x8xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<?x1x8xf32>
}

// ---- concat ----------------------------------------------------------------------

// RUN: tcc-run %s --function=concat_static --input=2x4xf32=random --input=3x4xf32=random --input=2x2xf32=random --input=2x5xf32=random --check-reference | FileCheck %s --check-prefix=CONCAT_STATIC
// CONCAT_STATIC: [SUCCESS] result[0] matches the reference (5x4xf32)
// CONCAT_STATIC: [SUCCESS] result[1] matches the reference (2x11xf32)
func.func @concat_static(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>, %c: tensor<2x2xf32>, %d: tensor<2x5xf32>) -> (tensor<5x4xf32>, tensor<2x11xf32>) {
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
  %1 = tcc.concat %a, %c, %d {axis = -1 : i64} : (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x5xf32>) -> tensor<2x11xf32>
  return %0, %1 : tensor<5x4xf32>, tensor<2x11xf32>
}

// Dynamic concat axis (the example from the op description).
// RUN: tcc-run %s --function=concat_dyn_axis --input=2x4xf32=random --input=3x4xf32=random --check-reference | FileCheck %s --check-prefix=CONCAT_DYN_AXIS
// CONCAT_DYN_AXIS: [SUCCESS] result[0] matches the reference (5x4xf32)
func.func @concat_dyn_axis(%a: tensor<2x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// Class token + patches: concat along dim 1 with a dynamic batch.
// RUN: tcc-run %s --function=concat_cls --input=2x1x8xf32=random --input=2x6x8xf32=random --check-reference | FileCheck %s --check-prefix=CONCAT_CLS
// CONCAT_CLS: [SUCCESS] result[0] matches the reference (2x7x8xf32)
func.func @concat_cls(%cls: tensor<?x1x8xf32>, %p: tensor<?x6x8xf32>) -> tensor<?x7x8xf32> {
  %0 = tcc.concat %cls, %p {axis = 1 : i64} : (tensor<?x1x8xf32>, tensor<?x6x8xf32>) -> tensor<?x7x8xf32>
  return %0 : tensor<?x7x8xf32>
}

// All dims dynamic, three inputs along the last axis, integers.
// RUN: tcc-run %s --function=concat_dyn_i32 --input=3x2xi32=random --input=3x4xi32=random --input=3x1xi32=random --check-reference | FileCheck %s --check-prefix=CONCAT_DYN_I32
// CONCAT_DYN_I32: [SUCCESS] result[0] matches the reference (3x7xi32)
func.func @concat_dyn_i32(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = tcc.concat %a, %b, %c {axis = 1 : i64} : (tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

// ---- slice -----------------------------------------------------------------------

// RUN: tcc-run %s --function=slice_basic --input=6x8xf32=random --check-reference | FileCheck %s --check-prefix=SLICE_BASIC
// SLICE_BASIC: [SUCCESS] result[0] matches the reference (3x4xf32)
func.func @slice_basic(%x: tensor<6x8xf32>) -> tensor<3x4xf32> {
  %0 = tcc.slice %x {starts = array<i64: 1, 2>, ends = array<i64: 4, 6>, steps = array<i64: 1, 1>} : (tensor<6x8xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// Negative starts/ends, out-of-range ends clamp; steps omitted.
// RUN: tcc-run %s --function=slice_negative --input=6x8xf32=random --check-reference | FileCheck %s --check-prefix=SLICE_NEG
// SLICE_NEG: [SUCCESS] result[0] matches the reference (2x2xf32)
// SLICE_NEG: [SUCCESS] result[1] matches the reference (6x1xf32)
func.func @slice_negative(%x: tensor<6x8xf32>) -> (tensor<2x2xf32>, tensor<6x1xf32>) {
  %0 = tcc.slice %x {starts = array<i64: -3, -4>, ends = array<i64: -1, 100>, steps = array<i64: 1, 2>} : (tensor<6x8xf32>) -> tensor<2x2xf32>
  %1 = tcc.slice %x {starts = array<i64: -100, -1>, ends = array<i64: 9223372036854775807, 9223372036854775807>} : (tensor<6x8xf32>) -> tensor<6x1xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<6x1xf32>
}

// Steps > 1 (every other row, every third column).
// RUN: tcc-run %s --function=slice_steps --input=7x10xf32=random --check-reference | FileCheck %s --check-prefix=SLICE_STEPS
// SLICE_STEPS: [SUCCESS] result[0] matches the reference (4x3xf32)
func.func @slice_steps(%x: tensor<7x10xf32>) -> tensor<4x3xf32> {
  %0 = tcc.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 7, 9>, steps = array<i64: 2, 3>} : (tensor<7x10xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Dynamic dims: class token x[:, 0] style and a strided dynamic slice.
// RUN: tcc-run %s --function=slice_dyn --input=3x7x4xf32=random --check-reference | FileCheck %s --check-prefix=SLICE_DYN
// SLICE_DYN: [SUCCESS] result[0] matches the reference (3x1x4xf32)
// SLICE_DYN: [SUCCESS] result[1] matches the reference (3x3x2xf32)
func.func @slice_dyn(%x: tensor<?x?x4xf32>) -> (tensor<?x1x4xf32>, tensor<?x?x2xf32>) {
  %0 = tcc.slice %x {starts = array<i64: 0, 0, 0>, ends = array<i64: 9223372036854775807, 1, 4>, steps = array<i64: 1, 1, 1>} : (tensor<?x?x4xf32>) -> tensor<?x1x4xf32>
  %1 = tcc.slice %x {starts = array<i64: 0, -6, 1>, ends = array<i64: 9223372036854775807, 9223372036854775807, 4>, steps = array<i64: 1, 2, 2>} : (tensor<?x?x4xf32>) -> tensor<?x?x2xf32>
  return %0, %1 : tensor<?x1x4xf32>, tensor<?x?x2xf32>
}

// The qkv split of the ViT block: slice along dim 0 then drop it with reshape.
// RUN: tcc-run %s --function=slice_qkv --input=3x2x4xf32=random --check-reference | FileCheck %s --check-prefix=SLICE_QKV
// SLICE_QKV-COUNT-3: [SUCCESS] result[{{[0-2]}}] matches the reference (2x4xf32)
func.func @slice_qkv(%x: tensor<3x?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %a = tcc.slice %x {starts = array<i64: 0, 0, 0>, ends = array<i64: 1, 9223372036854775807, 4>} : (tensor<3x?x4xf32>) -> tensor<1x?x4xf32>
  %b = tcc.slice %x {starts = array<i64: 1, 0, 0>, ends = array<i64: 2, 9223372036854775807, 4>} : (tensor<3x?x4xf32>) -> tensor<1x?x4xf32>
  %c = tcc.slice %x {starts = array<i64: -1, 0, 0>, ends = array<i64: 3, 9223372036854775807, 4>} : (tensor<3x?x4xf32>) -> tensor<1x?x4xf32>
  %0 = tcc.reshape %a : (tensor<1x?x4xf32>) -> tensor<?x4xf32>
  %1 = tcc.reshape %b : (tensor<1x?x4xf32>) -> tensor<?x4xf32>
  %2 = tcc.reshape %c : (tensor<1x?x4xf32>) -> tensor<?x4xf32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

// ---- gather_elements -------------------------------------------------------

// torch.gather along the last axis (NLL's target pick), dynamic rows,
// random indices in [-4, 4] wrapping once; along axis 0 of a static x with
// indices smaller than x in the other dim; rank 3 along the middle axis.
// RUN: tcc-run %s --function=gather_elements_last --input=6x9xf32=random --input=6x1xi64=random --check-reference | FileCheck %s --check-prefix=GATHER_EL
// RUN: tcc-run %s --function=gather_elements_axis0 --input=5x4xi32=random --input="3x2xi32=4 -5 0 1 -1 2" --check-reference | FileCheck %s --check-prefix=GATHER_EL
// RUN: tcc-run %s --function=gather_elements_rank3 --input=2x7x3xf32=random --input=2x5x3xi64=random --check-reference | FileCheck %s --check-prefix=GATHER_EL
// GATHER_EL: [SUCCESS] result[0] matches the reference
func.func @gather_elements_last(%x: tensor<?x9xf32>, %i: tensor<?x1xi64>) -> tensor<?x1xf32> {
  %0 = tcc.gather_elements %x, %i {axis = -1 : i64} : (tensor<?x9xf32>, tensor<?x1xi64>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}
func.func @gather_elements_axis0(%x: tensor<5x4xi32>, %i: tensor<3x2xi32>) -> tensor<3x2xi32> {
  %0 = tcc.gather_elements %x, %i : (tensor<5x4xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}
func.func @gather_elements_rank3(%x: tensor<?x?x?xf32>, %i: tensor<?x?x?xi64>) -> tensor<?x?x?xf32> {
  %0 = tcc.gather_elements %x, %i {axis = 1 : i64} : (tensor<?x?x?xf32>, tensor<?x?x?xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// ---- gather ----------------------------------------------------------------------

// Embedding lookup: axis 0 with i64 indices [?, 3] (random indices are in
// [-4, 4], so some are negative and wrap once).
// RUN: tcc-run %s --function=gather_axis0_i64 --input=10x6xf32=random --input=2x3xi64=random --check-reference | FileCheck %s --check-prefix=GATHER_A0_I64
// GATHER_A0_I64: [SUCCESS] result[0] matches the reference (2x3x6xf32)
func.func @gather_axis0_i64(%table: tensor<10x6xf32>, %ids: tensor<?x3xi64>) -> tensor<?x3x6xf32> {
  %0 = tcc.gather %table, %ids {axis = 0 : i64} : (tensor<10x6xf32>, tensor<?x3xi64>) -> tensor<?x3x6xf32>
  return %0 : tensor<?x3x6xf32>
}

// axis 1 with i32 indices, explicit negative index -1 and -5.
// RUN: tcc-run %s --function=gather_axis1_i32 --input=3x5x2xf32=random --input="4xi32=0 -1 2 -5" --check-reference | FileCheck %s --check-prefix=GATHER_A1_I32
// GATHER_A1_I32: [SUCCESS] result[0] matches the reference (3x4x2xf32)
func.func @gather_axis1_i32(%x: tensor<?x5x2xf32>, %ids: tensor<4xi32>) -> tensor<?x4x2xf32> {
  %0 = tcc.gather %x, %ids {axis = 1 : i64} : (tensor<?x5x2xf32>, tensor<4xi32>) -> tensor<?x4x2xf32>
  return %0 : tensor<?x4x2xf32>
}

// Default axis (0), dynamic table, i32 indices of rank 2, integer data.
// RUN: tcc-run %s --function=gather_default_axis --input=7x3xi32=random --input=2x2xi32=random --check-reference | FileCheck %s --check-prefix=GATHER_DEFAULT
// GATHER_DEFAULT: [SUCCESS] result[0] matches the reference (2x2x3xi32)
func.func @gather_default_axis(%x: tensor<?x3xi32>, %ids: tensor<?x2xi32>) -> tensor<?x2x3xi32> {
  %0 = tcc.gather %x, %ids : (tensor<?x3xi32>, tensor<?x2xi32>) -> tensor<?x2x3xi32>
  return %0 : tensor<?x2x3xi32>
}

// Last axis (negative axis), rank-0 index.
// RUN: tcc-run %s --function=gather_last_axis --input=3x6xf32=random --input=i64=-2 --check-reference | FileCheck %s --check-prefix=GATHER_LAST
// GATHER_LAST: [SUCCESS] result[0] matches the reference (3xf32)
func.func @gather_last_axis(%x: tensor<3x6xf32>, %i: tensor<i64>) -> tensor<3xf32> {
  %0 = tcc.gather %x, %i {axis = -1 : i64} : (tensor<3x6xf32>, tensor<i64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// ---- constants -------------------------------------------------------------------

// Splat and dense constants of several types, used directly and in arithmetic.
// RUN: tcc-run %s --function=constants --input=2x3xf32=random --check-reference | FileCheck %s --check-prefix=CONSTANTS
// CONSTANTS: [SUCCESS] result[0] matches the reference (2x3xf32)
// CONSTANTS: [SUCCESS] result[1] matches the reference (2x2xi32)
// CONSTANTS: [SUCCESS] result[2] matches the reference (3xi1)
// CONSTANTS: [SUCCESS] result[3] matches the reference (2xf16)
// CONSTANTS: [SUCCESS] result[4] matches the reference (f32)
func.func @constants(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<2x2xi32>, tensor<3xi1>, tensor<2xf16>, tensor<f32>) {
  %c = tcc.constant dense<[1.5, -2.0, 0.25]> : tensor<3xf32>
  %0 = tcc.mul %x, %c : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %1 = tcc.constant dense<[[1, -2], [3, 2147483647]]> : tensor<2x2xi32>
  %2 = tcc.constant dense<[true, false, true]> : tensor<3xi1>
  %3 = tcc.constant dense<[0.5, -65504.0]> : tensor<2xf16>
  %4 = tcc.constant dense<3.25> : tensor<f32>
  return %0, %1, %2, %3, %4 : tensor<?x3xf32>, tensor<2x2xi32>, tensor<3xi1>, tensor<2xf16>, tensor<f32>
}

// A function that only returns a constant (no inputs).
// RUN: tcc-run %s --function=constant_only --check-reference | FileCheck %s --check-prefix=CONSTANT_ONLY
// CONSTANT_ONLY: [SUCCESS] result[0] matches the reference (2x3xf32)
func.func @constant_only() -> tensor<2x3xf32> {
  %0 = tcc.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Returning an argument unchanged and a value twice (the two results share
// one allocation; the runner must not free it before copying both).
// RUN: tcc-run %s --function=passthrough --input=3x4xf32=random --check-reference | FileCheck %s --check-prefix=PASSTHROUGH
// PASSTHROUGH-COUNT-3: [SUCCESS] result[{{[0-2]}}] matches the reference (3x4xf32)
func.func @passthrough(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %0 = tcc.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %x, %0, %0 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

// Two slices of one value returned together with the value itself.
// RUN: tcc-run %s --function=slice_views_and_base --input=6x8xf32=random --check-reference | FileCheck %s --check-prefix=SLICE_VIEWS
// SLICE_VIEWS: [SUCCESS] result[0] matches the reference (6x4xf32)
// SLICE_VIEWS: [SUCCESS] result[1] matches the reference (6x4xf32)
// SLICE_VIEWS: [SUCCESS] result[2] matches the reference (6x8xf32)
func.func @slice_views_and_base(%x: tensor<?x8xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>) {
  %r = tcc.relu %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %a = tcc.slice %r {starts = array<i64: 0, 0>, ends = array<i64: 9223372036854775807, 4>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
  %b = tcc.slice %r {starts = array<i64: 0, 4>, ends = array<i64: 9223372036854775807, 8>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
  return %a, %b, %r : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x8xf32>
}

// ---- a reshape that splits one dim into two open ones ------------------------------
// [B * S, 8] -> [B, S, 8] with B and S dynamic (what AOTAutograd emits
// around a transformer's matrix products): MLIR 22's
// expand-strided-metadata crashed on it (tcc-lower-multi-dynamic-expand-shapes).

// RUN: tcc-run %s --function=split_two_open_dims --input=2x3x8xf32=random --check-reference | FileCheck %s --check-prefix=SPLIT_OPEN
// RUN: tcc-run %s --function=split_two_open_dims --input=5x7x8xf32=random --check-reference | FileCheck %s --check-prefix=SPLIT_OPEN
// SPLIT_OPEN: [SUCCESS] result[0] matches the reference
func.func @split_two_open_dims(%x: tensor<?x?x8xf32> {tcc.shape = #tcc.shape<[B, S, 8]>}) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x8xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x8xf32>
  %b = arith.index_cast %d0 : index to i64
  %s = arith.index_cast %d1 : index to i64
  %bs = arith.muli %b, %s : i64
  %n8 = arith.constant 8 : i64
  %flat_shape = tensor.from_elements %bs, %n8 : tensor<2xi64>
  %flat = tcc.reshape %x, %flat_shape : (tensor<?x?x8xf32>, tensor<2xi64>) -> tensor<?x8xf32>
  %e = tcc.exp %flat : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %split_shape = tensor.from_elements %b, %s, %n8 : tensor<3xi64>
  %r = tcc.reshape %e, %split_shape : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x?x8xf32>
  return %r : tensor<?x?x8xf32>
}
