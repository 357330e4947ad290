// tcc.cmp (every predicate), tcc.select and tcc.cast: compiled code vs the
// reference evaluator, static and dynamic shapes, broadcasting.

// ---- cmp ---------------------------------------------------------------------

// Small integers (random i32 values are in [-4, 4]) so equality happens often.
// RUN: tcc-run %s --function=cmp_i32_all --input=6x8xi32=random --input=8xi32=random --check-reference | FileCheck %s --check-prefix=CMP_I32
// CMP_I32-COUNT-6: [SUCCESS] result
func.func @cmp_i32_all(%a: tensor<?x8xi32>, %b: tensor<8xi32>)
    -> (tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x8xi1>) {
  %0 = tcc.cmp %a, %b {predicate = "eq"} : (tensor<?x8xi32>, tensor<8xi32>) -> tensor<?x8xi1>
  %1 = tcc.cmp %a, %b {predicate = "ne"} : (tensor<?x8xi32>, tensor<8xi32>) -> tensor<?x8xi1>
  %2 = tcc.cmp %a, %b {predicate = "lt"} : (tensor<?x8xi32>, tensor<8xi32>) -> tensor<?x8xi1>
  %3 = tcc.cmp %a, %b {predicate = "le"} : (tensor<?x8xi32>, tensor<8xi32>) -> tensor<?x8xi1>
  %4 = tcc.cmp %a, %b {predicate = "gt"} : (tensor<?x8xi32>, tensor<8xi32>) -> tensor<?x8xi1>
  %5 = tcc.cmp %a, %b {predicate = "ge"} : (tensor<?x8xi32>, tensor<8xi32>) -> tensor<?x8xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x8xi1>
}

// Floats with ties and NaN: ordered compares are false on NaN, ne is true.
// RUN: tcc-run %s --function=cmp_f32_all --input="8xf32=1 2 3 nan -0 0.5 -1 nan" --input="8xf32=1 3 2 1 0 0.5 nan nan" --check-reference | FileCheck %s --check-prefix=CMP_F32
// CMP_F32-COUNT-6: [SUCCESS] result
func.func @cmp_f32_all(%a: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  %0 = tcc.cmp %a, %b {predicate = "eq"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %1 = tcc.cmp %a, %b {predicate = "ne"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %2 = tcc.cmp %a, %b {predicate = "lt"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %3 = tcc.cmp %a, %b {predicate = "le"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %4 = tcc.cmp %a, %b {predicate = "gt"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %5 = tcc.cmp %a, %b {predicate = "ge"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>
}

// Broadcast of size-1 dims on both sides against a dynamic batch.
// RUN: tcc-run %s --function=cmp_bcast --input=3x4x1xf32=random --input=1x6xf32=random --check-reference | FileCheck %s --check-prefix=CMP_BCAST
// CMP_BCAST: [SUCCESS] result[0] matches the reference (3x4x6xi1)
// CMP_BCAST: [SUCCESS] result[1] matches the reference (3x4x6xi1)
func.func @cmp_bcast(%a: tensor<?x4x1xf32>, %b: tensor<1x6xf32>) -> (tensor<?x4x6xi1>, tensor<?x4x6xi1>) {
  %0 = tcc.cmp %a, %b {predicate = "lt"} : (tensor<?x4x1xf32>, tensor<1x6xf32>) -> tensor<?x4x6xi1>
  %1 = tcc.cmp %b, %a {predicate = "ge"} : (tensor<1x6xf32>, tensor<?x4x1xf32>) -> tensor<?x4x6xi1>
  return %0, %1 : tensor<?x4x6xi1>, tensor<?x4x6xi1>
}

// Compare i1 tensors.
// RUN: tcc-run %s --function=cmp_i1 --input=16xi1=random --input=16xi1=random --check-reference | FileCheck %s --check-prefix=CMP_I1
// CMP_I1: [SUCCESS] result[0] matches the reference (16xi1)
// CMP_I1: [SUCCESS] result[1] matches the reference (16xi1)
func.func @cmp_i1(%a: tensor<?xi1>, %b: tensor<?xi1>) -> (tensor<?xi1>, tensor<?xi1>) {
  %0 = tcc.cmp %a, %b {predicate = "eq"} : (tensor<?xi1>, tensor<?xi1>) -> tensor<?xi1>
  %1 = tcc.cmp %a, %b {predicate = "ne"} : (tensor<?xi1>, tensor<?xi1>) -> tensor<?xi1>
  return %0, %1 : tensor<?xi1>, tensor<?xi1>
}

// ---- select --------------------------------------------------------------------

// The example from the op description: cond [4,1], on_true [4,8], scalar on_false.
// RUN: tcc-run %s --function=select_bcast --input=4x1xi1=random --input=4x8xf32=random --input=f32=-7.5 --check-reference | FileCheck %s --check-prefix=SELECT_BCAST
// SELECT_BCAST: [SUCCESS] result[0] matches the reference (4x8xf32)
func.func @select_bcast(%c: tensor<4x1xi1>, %a: tensor<4x8xf32>, %b: tensor<f32>) -> tensor<4x8xf32> {
  %r = tcc.select %c, %a, %b : (tensor<4x1xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// cond from a cmp (fused), dynamic shapes: torch.where(a > b, a, b * 2).
// RUN: tcc-run %s --function=select_cmp --input=5x8xf32=random --input=5x8xf32=random --check-reference | FileCheck %s --check-prefix=SELECT_CMP
// SELECT_CMP: [SUCCESS] result[0] matches the reference (5x8xf32)
func.func @select_cmp(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %two = tcc.constant dense<2.0> : tensor<f32>
  %c = tcc.cmp %a, %b {predicate = "gt"} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  %b2 = tcc.mul %b, %two : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %r = tcc.select %c, %a, %b2 : (tensor<?x?xi1>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Integer select where all three operands broadcast: [?,1,4], [3,1], [4].
// RUN: tcc-run %s --function=select_i32 --input=2x1x4xi1=random --input=3x1xi32=random --input=4xi32=random --check-reference | FileCheck %s --check-prefix=SELECT_I32
// SELECT_I32: [SUCCESS] result[0] matches the reference (2x3x4xi32)
func.func @select_i32(%c: tensor<?x1x4xi1>, %a: tensor<3x1xi32>, %b: tensor<4xi32>) -> tensor<?x3x4xi32> {
  %r = tcc.select %c, %a, %b : (tensor<?x1x4xi1>, tensor<3x1xi32>, tensor<4xi32>) -> tensor<?x3x4xi32>
  return %r : tensor<?x3x4xi32>
}

// ---- cast ------------------------------------------------------------------------

// f32 -> f16 / bf16 -> f32 round trips (round to nearest even).
// RUN: tcc-run %s --function=cast_f32_half --input=4x8xf32=random --check-reference | FileCheck %s --check-prefix=CAST_HALF
// CAST_HALF: [SUCCESS] result[0] matches the reference (4x8xf16)
// CAST_HALF: [SUCCESS] result[1] matches the reference (4x8xbf16)
// CAST_HALF: [SUCCESS] result[2] matches the reference (4x8xf32)
// CAST_HALF: [SUCCESS] result[3] matches the reference (4x8xf32)
func.func @cast_f32_half(%x: tensor<?x8xf32>) -> (tensor<?x8xf16>, tensor<?x8xbf16>, tensor<?x8xf32>, tensor<?x8xf32>) {
  %h = tcc.cast %x : (tensor<?x8xf32>) -> tensor<?x8xf16>
  %b = tcc.cast %x : (tensor<?x8xf32>) -> tensor<?x8xbf16>
  %hf = tcc.cast %h : (tensor<?x8xf16>) -> tensor<?x8xf32>
  %bf = tcc.cast %b : (tensor<?x8xbf16>) -> tensor<?x8xf32>
  return %h, %b, %hf, %bf : tensor<?x8xf16>, tensor<?x8xbf16>, tensor<?x8xf32>, tensor<?x8xf32>
}

// Exact rounding checks with zero tolerance: values that are ties or just off
// ties for f16 and bf16, and values beyond the f16 range.
// RUN: tcc-run %s --function=cast_round --input="8xf32=1.00048828125 1.00146484375 1.001953125 -2.0009765625 65504 70000 -1e6 3.0e-8" --check-reference --rtol=0 --atol=0 | FileCheck %s --check-prefix=CAST_ROUND
// CAST_ROUND: [SUCCESS] result[0] matches the reference (8xf32)
// CAST_ROUND: [SUCCESS] result[1] matches the reference (8xf32)
func.func @cast_round(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %h = tcc.cast %x : (tensor<8xf32>) -> tensor<8xf16>
  %b = tcc.cast %x : (tensor<8xf32>) -> tensor<8xbf16>
  %hf = tcc.cast %h : (tensor<8xf16>) -> tensor<8xf32>
  %bf = tcc.cast %b : (tensor<8xbf16>) -> tensor<8xf32>
  return %hf, %bf : tensor<8xf32>, tensor<8xf32>
}

// f32 -> i32 truncates toward zero; f32 -> i1 is x != 0; and back to f32.
// RUN: tcc-run %s --function=cast_f32_int --input=4x8xf32=random --check-reference | FileCheck %s --check-prefix=CAST_INT
// CAST_INT: [SUCCESS] result[0] matches the reference (4x8xi32)
// CAST_INT: [SUCCESS] result[1] matches the reference (4x8xi1)
// CAST_INT: [SUCCESS] result[2] matches the reference (4x8xf32)
// CAST_INT: [SUCCESS] result[3] matches the reference (4x8xf32)
func.func @cast_f32_int(%x: tensor<?x8xf32>) -> (tensor<?x8xi32>, tensor<?x8xi1>, tensor<?x8xf32>, tensor<?x8xf32>) {
  %ten = tcc.constant dense<10.0> : tensor<f32>
  %s = tcc.mul %x, %ten : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %i = tcc.cast %s : (tensor<?x8xf32>) -> tensor<?x8xi32>
  %fi = tcc.cast %i : (tensor<?x8xi32>) -> tensor<?x8xf32>
  %b = tcc.cast %fi : (tensor<?x8xf32>) -> tensor<?x8xi1>
  %fb = tcc.cast %b : (tensor<?x8xi1>) -> tensor<?x8xf32>
  return %i, %b, %fi, %fb : tensor<?x8xi32>, tensor<?x8xi1>, tensor<?x8xf32>, tensor<?x8xf32>
}

// Exact float -> int truncation, including negatives and -0.
// RUN: tcc-run %s --function=cast_trunc --input="8xf32=2.9 -2.9 0.5 -0.5 -0 7 -7 100.99" --check-reference --rtol=0 --atol=0 | FileCheck %s --check-prefix=CAST_TRUNC
// CAST_TRUNC: [SUCCESS] result[0] matches the reference (8xi32)
// CAST_TRUNC: [SUCCESS] result[1] matches the reference (8xi1)
// CAST_TRUNC: [SUCCESS] result[2] matches the reference (8xi64)
func.func @cast_trunc(%x: tensor<8xf32>) -> (tensor<8xi32>, tensor<8xi1>, tensor<8xi64>) {
  %0 = tcc.cast %x : (tensor<8xf32>) -> tensor<8xi32>
  %1 = tcc.cast %x : (tensor<8xf32>) -> tensor<8xi1>
  %2 = tcc.cast %x : (tensor<8xf32>) -> tensor<8xi64>
  return %0, %1, %2 : tensor<8xi32>, tensor<8xi1>, tensor<8xi64>
}

// Integer <-> integer, i1 <-> int, half <-> half, f16 -> i32.
// RUN: tcc-run %s --function=cast_int_mix --input=3x5xi32=random --input=3x5xf16=random --check-reference | FileCheck %s --check-prefix=CAST_MIX
// CAST_MIX: [SUCCESS] result[0] matches the reference (3x5xi1)
// CAST_MIX: [SUCCESS] result[1] matches the reference (3x5xi32)
// CAST_MIX: [SUCCESS] result[2] matches the reference (3x5xi64)
// CAST_MIX: [SUCCESS] result[3] matches the reference (3x5xi8)
// CAST_MIX: [SUCCESS] result[4] matches the reference (3x5xbf16)
// CAST_MIX: [SUCCESS] result[5] matches the reference (3x5xf64)
// CAST_MIX: [SUCCESS] result[6] matches the reference (3x5xf16)
func.func @cast_int_mix(%i: tensor<?x5xi32>, %h: tensor<?x5xf16>)
    -> (tensor<?x5xi1>, tensor<?x5xi32>, tensor<?x5xi64>, tensor<?x5xi8>, tensor<?x5xbf16>, tensor<?x5xf64>, tensor<?x5xf16>) {
  %0 = tcc.cast %i : (tensor<?x5xi32>) -> tensor<?x5xi1>
  %1 = tcc.cast %0 : (tensor<?x5xi1>) -> tensor<?x5xi32>
  %2 = tcc.cast %i : (tensor<?x5xi32>) -> tensor<?x5xi64>
  %3 = tcc.cast %2 : (tensor<?x5xi64>) -> tensor<?x5xi8>
  %4 = tcc.cast %h : (tensor<?x5xf16>) -> tensor<?x5xbf16>
  %5 = tcc.cast %h : (tensor<?x5xf16>) -> tensor<?x5xf64>
  %6 = tcc.cast %i : (tensor<?x5xi32>) -> tensor<?x5xf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<?x5xi1>, tensor<?x5xi32>, tensor<?x5xi64>, tensor<?x5xi8>, tensor<?x5xbf16>, tensor<?x5xf64>, tensor<?x5xf16>
}

// Mask arithmetic: cmp -> cast to f32 -> multiply (a common masking idiom).
// RUN: tcc-run %s --function=mask_mul --input=2x8xf32=random --check-reference | FileCheck %s --check-prefix=MASK_MUL
// MASK_MUL: [SUCCESS] result[0] matches the reference (2x8xf32)
func.func @mask_mul(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %zero = tcc.constant dense<0.0> : tensor<f32>
  %m = tcc.cmp %x, %zero {predicate = "gt"} : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xi1>
  %mf = tcc.cast %m : (tensor<?x8xi1>) -> tensor<?x8xf32>
  %r = tcc.mul %x, %mf : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
