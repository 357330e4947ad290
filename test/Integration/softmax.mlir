// softmax / log_softmax along different axes, static and dynamic shapes.

// RUN: tcc-run %s --function=softmax_last --input=4x16xf32=random --check-reference | FileCheck %s --check-prefix=SOFTMAX_LAST
// SOFTMAX_LAST: [SUCCESS] result[0] matches the reference (4x16xf32)
func.func @softmax_last(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %0 = tcc.softmax %x {axis = -1 : i64} : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// RUN: tcc-run %s --function=softmax_static_axis0 --input=5x7xf32=random --check-reference | FileCheck %s --check-prefix=SOFTMAX_AXIS0
// SOFTMAX_AXIS0: [SUCCESS] result[0] matches the reference (5x7xf32)
func.func @softmax_static_axis0(%x: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %0 = tcc.softmax %x {axis = 0 : i64} : (tensor<5x7xf32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}

// Middle axis of a 4-D tensor, written positive and negative.
// RUN: tcc-run %s --function=softmax_middle --input=2x3x6x5xf32=random --check-reference | FileCheck %s --check-prefix=SOFTMAX_MID
// SOFTMAX_MID: [SUCCESS] result[0] matches the reference (2x3x6x5xf32)
// SOFTMAX_MID: [SUCCESS] result[1] matches the reference (2x3x6x5xf32)
func.func @softmax_middle(%x: tensor<?x3x?x5xf32>) -> (tensor<?x3x?x5xf32>, tensor<?x3x?x5xf32>) {
  %0 = tcc.softmax %x {axis = 2 : i64} : (tensor<?x3x?x5xf32>) -> tensor<?x3x?x5xf32>
  %1 = tcc.softmax %x {axis = -3 : i64} : (tensor<?x3x?x5xf32>) -> tensor<?x3x?x5xf32>
  return %0, %1 : tensor<?x3x?x5xf32>, tensor<?x3x?x5xf32>
}

// Large logits: only a max-subtracting softmax stays finite.
// RUN: tcc-run %s --function=softmax_large --input=3x8xf32=random --check-reference | FileCheck %s --check-prefix=SOFTMAX_LARGE
// SOFTMAX_LARGE: [SUCCESS] result[0] matches the reference (3x8xf32)
// SOFTMAX_LARGE: [SUCCESS] result[1] matches the reference (3x8xf32)
func.func @softmax_large(%x: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %c = tcc.constant dense<200.0> : tensor<f32>
  %y = tcc.mul %x, %c : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %0 = tcc.softmax %y {axis = 1 : i64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = tcc.log_softmax %y {axis = 1 : i64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0, %1 : tensor<?x8xf32>, tensor<?x8xf32>
}

// RUN: tcc-run %s --function=log_softmax_last --input=4x16xf32=random --check-reference | FileCheck %s --check-prefix=LOG_SOFTMAX_LAST
// LOG_SOFTMAX_LAST: [SUCCESS] result[0] matches the reference (4x16xf32)
func.func @log_softmax_last(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %0 = tcc.log_softmax %x {axis = -1 : i64} : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// RUN: tcc-run %s --function=log_softmax_axes --input=3x4x5xf32=random --check-reference | FileCheck %s --check-prefix=LOG_SOFTMAX_AXES
// LOG_SOFTMAX_AXES: [SUCCESS] result[0] matches the reference (3x4x5xf32)
// LOG_SOFTMAX_AXES: [SUCCESS] result[1] matches the reference (3x4x5xf32)
func.func @log_softmax_axes(%x: tensor<3x4x5xf32>) -> (tensor<3x4x5xf32>, tensor<3x4x5xf32>) {
  %0 = tcc.log_softmax %x {axis = 0 : i64} : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %1 = tcc.log_softmax %x {axis = 1 : i64} : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return %0, %1 : tensor<3x4x5xf32>, tensor<3x4x5xf32>
}

// A fully dynamic softmax with a long row (vectorized paths), and 1-D.
// RUN: tcc-run %s --function=softmax_dyn_long --input=3x200xf32=random --input=37xf32=random --check-reference | FileCheck %s --check-prefix=SOFTMAX_DYN_LONG
// SOFTMAX_DYN_LONG: [SUCCESS] result[0] matches the reference (3x200xf32)
// SOFTMAX_DYN_LONG: [SUCCESS] result[1] matches the reference (37xf32)
func.func @softmax_dyn_long(%x: tensor<?x?xf32>, %y: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tcc.log_softmax %y {axis = 0 : i64} : (tensor<?xf32>) -> tensor<?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?xf32>
}

// Scaled scores -> softmax (the unfused attention pattern, NaiveAttention).
// RUN: tcc-run %s --function=scaled_softmax --input=2x4x8x8xf32=random --check-reference | FileCheck %s --check-prefix=SCALED_SOFTMAX
// SCALED_SOFTMAX: [SUCCESS] result[0] matches the reference (2x4x8x8xf32)
func.func @scaled_softmax(%s: tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32> {
  %c = tcc.constant dense<0.125> : tensor<f32>
  %0 = tcc.mul %s, %c : (tensor<?x4x8x8xf32>, tensor<f32>) -> tensor<?x4x8x8xf32>
  %1 = tcc.softmax %0 {axis = -1 : i64} : (tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
  return %1 : tensor<?x4x8x8xf32>
}

// f64 softmax.
// RUN: tcc-run %s --function=softmax_f64 --input=3x9xf64=random --check-reference | FileCheck %s --check-prefix=SOFTMAX_F64
// SOFTMAX_F64: [SUCCESS] result[0] matches the reference (3x9xf64)
func.func @softmax_f64(%x: tensor<?x9xf64>) -> tensor<?x9xf64> {
  %0 = tcc.softmax %x {axis = -1 : i64} : (tensor<?x9xf64>) -> tensor<?x9xf64>
  return %0 : tensor<?x9xf64>
}

// NaN, +inf and all -inf rows: the compiled max ignores NaN (one vmaxps),
// yet a NaN row is all NaN, as in the reference, because its sum is; +inf
// and all -inf rows are NaN too (inf - inf), and a -inf entry gives 0.
// RUN: tcc-run %s --function=softmax_special --input="4x16xf32=1 2 nan 4 5 6 7 8 9 10 11 12 13 14 15 16 1 2 3 inf 5 6 7 8 9 10 11 12 13 14 15 16 -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf 1 -inf 3 4 5 6 7 8 9 10 11 12 13 14 15 16" --check-reference | FileCheck %s --check-prefix=SOFTMAX_SPECIAL
// RUN: tcc-run %s --function=softmax_special --input="4x16xf32=1 2 nan 4 5 6 7 8 9 10 11 12 13 14 15 16 1 2 3 inf 5 6 7 8 9 10 11 12 13 14 15 16 -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf 1 -inf 3 4 5 6 7 8 9 10 11 12 13 14 15 16" | FileCheck %s --check-prefix=SOFTMAX_SPECIAL_VALUES
// SOFTMAX_SPECIAL: [SUCCESS] result[0] matches the reference (4x16xf32)
// SOFTMAX_SPECIAL: [SUCCESS] result[1] matches the reference (4x16xf32)
// SOFTMAX_SPECIAL_VALUES: result[0]: 4x16xf32=[nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan][{{-?}}nan
// SOFTMAX_SPECIAL_VALUES-SAME: ][{{[0-9.e-]+}} 0 {{[0-9.e-]+}}
// SOFTMAX_SPECIAL_VALUES: result[1]: 4x16xf32=[nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan]
// SOFTMAX_SPECIAL_VALUES-SAME: ][{{[0-9.e-]+}} -inf {{[0-9.e-]+}}
func.func @softmax_special(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = tcc.log_softmax %x {axis = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<4x16xf32>
}
