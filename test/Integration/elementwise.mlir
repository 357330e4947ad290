// Elementwise binary and unary ops: compiled code vs the reference evaluator,
// static and dynamic shapes, numpy broadcasting of ranks and size-1 dims.
// Every RUN line must print [SUCCESS]; tcc-run exits 1 on a mismatch.

// ---- binary ops, f32 -------------------------------------------------------

// RUN: tcc-run %s --function=add_static --input=4x8xf32=random --input=4x8xf32=random --check-reference | FileCheck %s --check-prefix=ADD_STATIC
// ADD_STATIC: [SUCCESS] result[0] matches the reference (4x8xf32)
func.func @add_static(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// RUN: tcc-run %s --function=add_bcast --input=4x8xf32=random --input=8xf32=random --check-reference | FileCheck %s --check-prefix=ADD_BCAST
// ADD_BCAST: [SUCCESS] result[0] matches the reference (4x8xf32)
func.func @add_bcast(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = tcc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// Both dims dynamic, same runtime shape.
// RUN: tcc-run %s --function=add_dyn2 --input=3x5xf32=random --input=3x5xf32=random --check-reference | FileCheck %s --check-prefix=ADD_DYN2
// ADD_DYN2: [SUCCESS] result[0] matches the reference (3x5xf32)
func.func @add_dyn2(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = tcc.add %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Size-1 dims stretch on both sides: [4,1] - [1,8] -> [4,8].
// RUN: tcc-run %s --function=sub_size1 --input=4x1xf32=random --input=1x8xf32=random --check-reference | FileCheck %s --check-prefix=SUB_SIZE1
// SUB_SIZE1: [SUCCESS] result[0] matches the reference (4x8xf32)
func.func @sub_size1(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.sub %a, %b : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Rank broadcast plus size-1 stretch with a dynamic leading dim:
// [?,1,8] * [3,1] -> [?,3,8].
// RUN: tcc-run %s --function=mul_rank3 --input=2x1x8xf32=random --input=3x1xf32=random --check-reference | FileCheck %s --check-prefix=MUL_RANK3
// MUL_RANK3: [SUCCESS] result[0] matches the reference (2x3x8xf32)
func.func @mul_rank3(%a: tensor<?x1x8xf32>, %b: tensor<3x1xf32>) -> tensor<?x3x8xf32> {
  %0 = tcc.mul %a, %b : (tensor<?x1x8xf32>, tensor<3x1xf32>) -> tensor<?x3x8xf32>
  return %0 : tensor<?x3x8xf32>
}

// Rank-0 operand.
// RUN: tcc-run %s --function=mul_scalar --input=2x3x4xf32=random --input=f32=2.5 --check-reference | FileCheck %s --check-prefix=MUL_SCALAR
// MUL_SCALAR: [SUCCESS] result[0] matches the reference (2x3x4xf32)
func.func @mul_scalar(%a: tensor<?x3x?xf32>, %s: tensor<f32>) -> tensor<?x3x?xf32> {
  %0 = tcc.mul %s, %a : (tensor<f32>, tensor<?x3x?xf32>) -> tensor<?x3x?xf32>
  return %0 : tensor<?x3x?xf32>
}

// Division by |b| + 0.5 (kept away from zero).
// RUN: tcc-run %s --function=div_f32 --input=5x8xf32=random --input=5x8xf32=random --check-reference | FileCheck %s --check-prefix=DIV_F32
// DIV_F32: [SUCCESS] result[0] matches the reference (5x8xf32)
func.func @div_f32(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %half = tcc.constant dense<0.5> : tensor<f32>
  %ab = tcc.abs %b : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %d = tcc.add %ab, %half : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %0 = tcc.div %a, %d : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// RUN: tcc-run %s --function=div_bcast --input=3x4x6xf32=random --check-reference | FileCheck %s --check-prefix=DIV_BCAST
// DIV_BCAST: [SUCCESS] result[0] matches the reference (3x4x6xf32)
func.func @div_bcast(%a: tensor<3x4x6xf32>) -> tensor<3x4x6xf32> {
  %c = tcc.constant dense<[[1.0], [2.0], [-4.0], [0.25]]> : tensor<4x1xf32>
  %0 = tcc.div %a, %c : (tensor<3x4x6xf32>, tensor<4x1xf32>) -> tensor<3x4x6xf32>
  return %0 : tensor<3x4x6xf32>
}

// RUN: tcc-run %s --function=maximum_minimum --input=4x8xf32=random --input=8xf32=random --input=f32=0.25 --check-reference | FileCheck %s --check-prefix=MAXMIN
// MAXMIN: [SUCCESS] result[0] matches the reference (4x8xf32)
// MAXMIN: [SUCCESS] result[1] matches the reference (4x8xf32)
func.func @maximum_minimum(%a: tensor<?x8xf32>, %b: tensor<8xf32>, %s: tensor<f32>)
    -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %0 = tcc.maximum %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %1 = tcc.minimum %a, %s : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  return %0, %1 : tensor<?x8xf32>, tensor<?x8xf32>
}

// NaN propagates through maximum/minimum (PyTorch semantics).
// RUN: tcc-run %s --function=maximum_nan --input="4xf32=nan 1 -2 nan" --input="4xf32=0 nan 3 nan" --check-reference | FileCheck %s --check-prefix=MAX_NAN
// MAX_NAN: [SUCCESS] result[0] matches the reference (4xf32)
// MAX_NAN: [SUCCESS] result[1] matches the reference (4xf32)
func.func @maximum_nan(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tcc.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tcc.minimum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// pow with positive bases exp(a) and mixed-sign exponents.
// RUN: tcc-run %s --function=pow_f32 --input=4x8xf32=random --input=4x8xf32=random --check-reference | FileCheck %s --check-prefix=POW_F32
// POW_F32: [SUCCESS] result[0] matches the reference (4x8xf32)
func.func @pow_f32(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %base = tcc.exp %a : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %three = tcc.constant dense<3.0> : tensor<f32>
  %e = tcc.mul %b, %three : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %0 = tcc.pow %base, %e : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// pow with a broadcast constant exponent (x^2, x^0.5 style).
// RUN: tcc-run %s --function=pow_const --input=3x4xf32=random --check-reference | FileCheck %s --check-prefix=POW_CONST
// POW_CONST: [SUCCESS] result[0] matches the reference (3x4xf32)
func.func @pow_const(%a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %base = tcc.abs %a : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %e = tcc.constant dense<[2.0, 0.5, 3.0, -1.5]> : tensor<4xf32>
  %one = tcc.constant dense<1.0> : tensor<f32>
  %b1 = tcc.add %base, %one : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %0 = tcc.pow %b1, %e : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// A chain of binaries (exercises fusion of several elementwise ops).
// RUN: tcc-run %s --function=chain --input=2x3x8xf32=random --input=8xf32=random --input=3x1xf32=random --check-reference | FileCheck %s --check-prefix=CHAIN
// CHAIN: [SUCCESS] result[0] matches the reference (2x3x8xf32)
func.func @chain(%a: tensor<?x3x8xf32>, %b: tensor<8xf32>, %c: tensor<3x1xf32>) -> tensor<?x3x8xf32> {
  %0 = tcc.add %a, %b : (tensor<?x3x8xf32>, tensor<8xf32>) -> tensor<?x3x8xf32>
  %1 = tcc.mul %0, %c : (tensor<?x3x8xf32>, tensor<3x1xf32>) -> tensor<?x3x8xf32>
  %2 = tcc.sub %1, %a : (tensor<?x3x8xf32>, tensor<?x3x8xf32>) -> tensor<?x3x8xf32>
  %3 = tcc.maximum %2, %0 : (tensor<?x3x8xf32>, tensor<?x3x8xf32>) -> tensor<?x3x8xf32>
  return %3 : tensor<?x3x8xf32>
}

// f64.
// RUN: tcc-run %s --function=add_f64 --input=3x4xf64=random --input=4xf64=random --check-reference | FileCheck %s --check-prefix=ADD_F64
// ADD_F64: [SUCCESS] result[0] matches the reference (3x4xf64)
func.func @add_f64(%a: tensor<?x4xf64>, %b: tensor<4xf64>) -> tensor<?x4xf64> {
  %0 = tcc.mul %a, %b : (tensor<?x4xf64>, tensor<4xf64>) -> tensor<?x4xf64>
  %1 = tcc.add %0, %a : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  return %1 : tensor<?x4xf64>
}

// ---- binary ops, integers --------------------------------------------------

// RUN: tcc-run %s --function=add_mul_i32 --input=4x8xi32=random --input=8xi32=random --check-reference | FileCheck %s --check-prefix=ADD_MUL_I32
// ADD_MUL_I32: [SUCCESS] result[0] matches the reference (4x8xi32)
// ADD_MUL_I32: [SUCCESS] result[1] matches the reference (4x8xi32)
// ADD_MUL_I32: [SUCCESS] result[2] matches the reference (4x8xi32)
func.func @add_mul_i32(%a: tensor<?x8xi32>, %b: tensor<8xi32>)
    -> (tensor<?x8xi32>, tensor<?x8xi32>, tensor<?x8xi32>) {
  %0 = tcc.add %a, %b : (tensor<?x8xi32>, tensor<8xi32>) -> tensor<?x8xi32>
  %1 = tcc.mul %a, %b : (tensor<?x8xi32>, tensor<8xi32>) -> tensor<?x8xi32>
  %2 = tcc.sub %1, %0 : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>
  return %0, %1, %2 : tensor<?x8xi32>, tensor<?x8xi32>, tensor<?x8xi32>
}

// Integer division truncates toward zero; max/min on integers.
// RUN: tcc-run %s --function=div_i32 --input="8xi32=7 -7 9 -9 1 0 100 -3" --check-reference | FileCheck %s --check-prefix=DIV_I32
// DIV_I32: [SUCCESS] result[0] matches the reference (8xi32)
// DIV_I32: [SUCCESS] result[1] matches the reference (8xi32)
// DIV_I32: [SUCCESS] result[2] matches the reference (8xi32)
func.func @div_i32(%a: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
  %c = tcc.constant dense<[2, 2, -4, -4, 3, 5, -7, 2]> : tensor<8xi32>
  %0 = tcc.div %a, %c : (tensor<?xi32>, tensor<8xi32>) -> tensor<?xi32>
  %1 = tcc.maximum %a, %c : (tensor<?xi32>, tensor<8xi32>) -> tensor<?xi32>
  %2 = tcc.minimum %a, %c : (tensor<?xi32>, tensor<8xi32>) -> tensor<?xi32>
  return %0, %1, %2 : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}

// i64 and i8.
// RUN: tcc-run %s --function=int_widths --input=3x4xi64=random --input=4xi64=random --input=3x4xi8=random --input=4xi8=random --check-reference | FileCheck %s --check-prefix=INT_WIDTHS
// INT_WIDTHS: [SUCCESS] result[0] matches the reference (3x4xi64)
// INT_WIDTHS: [SUCCESS] result[1] matches the reference (3x4xi8)
func.func @int_widths(%a: tensor<?x4xi64>, %b: tensor<4xi64>, %c: tensor<?x4xi8>, %d: tensor<4xi8>)
    -> (tensor<?x4xi64>, tensor<?x4xi8>) {
  %0 = tcc.mul %a, %b : (tensor<?x4xi64>, tensor<4xi64>) -> tensor<?x4xi64>
  %1 = tcc.add %c, %d : (tensor<?x4xi8>, tensor<4xi8>) -> tensor<?x4xi8>
  return %0, %1 : tensor<?x4xi64>, tensor<?x4xi8>
}

// ---- unary ops ---------------------------------------------------------------

// RUN: tcc-run %s --function=unary_any_sign --input=4x16xf32=random --check-reference | FileCheck %s --check-prefix=UNARY_ANY
// UNARY_ANY-COUNT-9: [SUCCESS] result
func.func @unary_any_sign(%x: tensor<?x16xf32>)
    -> (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>,
        tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>,
        tensor<?x16xf32>) {
  %three = tcc.constant dense<3.0> : tensor<f32>
  %s = tcc.mul %x, %three : (tensor<?x16xf32>, tensor<f32>) -> tensor<?x16xf32>
  %0 = tcc.neg %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %1 = tcc.exp %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %2 = tcc.abs %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %3 = tcc.tanh %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %4 = tcc.sigmoid %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %5 = tcc.relu %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %6 = tcc.silu %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %7 = tcc.erf %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %8 = tcc.gelu %s : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>
}

// Every unary op on a static shape.
// RUN: tcc-run %s --function=unary_static --input=3x20xf32=random --check-reference | FileCheck %s --check-prefix=UNARY_STATIC
// UNARY_STATIC-COUNT-13: [SUCCESS] result[{{[0-9]+}}] matches the reference (3x20xf32)
func.func @unary_static(%x: tensor<3x20xf32>)
    -> (tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>,
        tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>,
        tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>,
        tensor<3x20xf32>) {
  %two = tcc.constant dense<2.0> : tensor<f32>
  %s = tcc.mul %x, %two : (tensor<3x20xf32>, tensor<f32>) -> tensor<3x20xf32>
  %p = tcc.exp %x : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %0 = tcc.neg %s : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %1 = tcc.exp %s : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %2 = tcc.log %p : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %3 = tcc.sqrt %p : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %4 = tcc.rsqrt %p : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %5 = tcc.abs %s : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %6 = tcc.tanh %s : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %7 = tcc.sigmoid %s : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %8 = tcc.relu %s : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %9 = tcc.silu %s : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %10 = tcc.erf %s : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %11 = tcc.gelu %s {approximate = "none"} : (tensor<3x20xf32>) -> tensor<3x20xf32>
  %12 = tcc.gelu %s {approximate = "tanh"} : (tensor<3x20xf32>) -> tensor<3x20xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xf32>
}

// log/sqrt/rsqrt on strictly positive inputs |x| + 0.1 and exp(x).
// RUN: tcc-run %s --function=unary_positive --input=4x16xf32=random --check-reference | FileCheck %s --check-prefix=UNARY_POS
// UNARY_POS-COUNT-4: [SUCCESS] result
func.func @unary_positive(%x: tensor<?x16xf32>)
    -> (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>) {
  %eps = tcc.constant dense<0.1> : tensor<f32>
  %a = tcc.abs %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %p = tcc.add %a, %eps : (tensor<?x16xf32>, tensor<f32>) -> tensor<?x16xf32>
  %e = tcc.exp %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %0 = tcc.log %p : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %1 = tcc.sqrt %p : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %2 = tcc.rsqrt %p : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %3 = tcc.log %e : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %0, %1, %2, %3 : tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>
}

// Each unary op on its own, static shape (each is the whole fusion group).
// RUN: tcc-run %s --function=sqrt_static --input=3x5xf32=random --check-reference | FileCheck %s --check-prefix=SQRT_STATIC
// SQRT_STATIC: [SUCCESS] result[0] matches the reference (3x5xf32)
func.func @sqrt_static(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tcc.exp %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %0 = tcc.sqrt %e : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// RUN: tcc-run %s --function=rsqrt_static --input=3x5xf32=random --check-reference | FileCheck %s --check-prefix=RSQRT_STATIC
// RSQRT_STATIC: [SUCCESS] result[0] matches the reference (3x5xf32)
func.func @rsqrt_static(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tcc.exp %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %0 = tcc.rsqrt %e : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// RUN: tcc-run %s --function=gelu_modes --input=2x3x16xf32=random --check-reference | FileCheck %s --check-prefix=GELU_MODES
// GELU_MODES: [SUCCESS] result[0] matches the reference (2x3x16xf32)
// GELU_MODES: [SUCCESS] result[1] matches the reference (2x3x16xf32)
func.func @gelu_modes(%x: tensor<?x3x16xf32>) -> (tensor<?x3x16xf32>, tensor<?x3x16xf32>) {
  %four = tcc.constant dense<4.0> : tensor<f32>
  %s = tcc.mul %x, %four : (tensor<?x3x16xf32>, tensor<f32>) -> tensor<?x3x16xf32>
  %0 = tcc.gelu %s {approximate = "none"} : (tensor<?x3x16xf32>) -> tensor<?x3x16xf32>
  %1 = tcc.gelu %s {approximate = "tanh"} : (tensor<?x3x16xf32>) -> tensor<?x3x16xf32>
  return %0, %1 : tensor<?x3x16xf32>, tensor<?x3x16xf32>
}

// erf over [-6, 6]: both sides of the clamp at |x| = 4 of the rational
// approximation (MathApproximations.cpp), on a long row (16-lane chunks of
// four rows) and a short one.
// RUN: tcc-run %s --function=erf_long_rows --input=64x4096xf32=random --check-reference | FileCheck %s --check-prefix=ERF_RANGE
// RUN: tcc-run %s --function=erf_range --input=3x7xf32=random --check-reference | FileCheck %s --check-prefix=ERF_RANGE
// ERF_RANGE-COUNT-2: [SUCCESS] result
func.func @erf_long_rows(%x: tensor<64x4096xf32>) -> (tensor<64x4096xf32>, tensor<64x4096xf32>) {
  %six = tcc.constant dense<6.0> : tensor<f32>
  %s = tcc.mul %x, %six : (tensor<64x4096xf32>, tensor<f32>) -> tensor<64x4096xf32>
  %0 = tcc.erf %s : (tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %1 = tcc.gelu %s : (tensor<64x4096xf32>) -> tensor<64x4096xf32>
  return %0, %1 : tensor<64x4096xf32>, tensor<64x4096xf32>
}
func.func @erf_range(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %six = tcc.constant dense<6.0> : tensor<f32>
  %s = tcc.mul %x, %six : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %0 = tcc.erf %s : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tcc.gelu %s : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// exp over [-100, 100] (MathApproximations.cpp): overflow to +inf past
// ln FLT_MAX, subnormals below ln FLT_MIN, the polynomial between; long
// rows (4 x 16 chunks) and a handful of edge values with their expected
// results, exact to the last subnormal bit (atol 0).
// RUN: tcc-run %s --function=exp_range --input=64x4096xf32=random --check-reference | FileCheck %s --check-prefix=EXP_RANGE
// EXP_RANGE: [SUCCESS] result[0] matches the reference (64x4096xf32)
// RUN: tcc-run %s --function=exp_edges --input="8xf32=0 1 -1 88.7 89 -87.4 -100 10" --expected_output="8xf32=1 2.7182817 0.36787945 3.3259e38 inf 1.10322e-38 3.7835e-44 22026.465" --rtol=1e-4 --atol=0 | FileCheck %s --check-prefix=EXP_EDGES
// EXP_EDGES: [SUCCESS]
// 16 lanes take the AVX-512 form (vscalefps, where the host has it; the
// polynomial elsewhere): subnormal results, +-inf, NaN and the clamps'
// edges.
// RUN: tcc-run %s --function=exp_edges16 --input="16xf32=0 1 -1 88.7 89 -87.4 -100 10 -inf inf nan 88.72 -103.2 -104.5 0.3465 -0.3466" --expected_output="16xf32=1 2.7182817 0.36787945 3.3259e38 inf 1.10322e-38 3.7835e-44 22026.465 0 inf nan 3.39318e38 1.4013e-45 0 1.4141 0.70709" --rtol=1e-4 --atol=0 | FileCheck %s --check-prefix=EXP_EDGES16
// EXP_EDGES16: [SUCCESS]
func.func @exp_range(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %k = tcc.constant dense<100.0> : tensor<f32>
  %s = tcc.mul %x, %k : (tensor<64x4096xf32>, tensor<f32>) -> tensor<64x4096xf32>
  %0 = tcc.exp %s : (tensor<64x4096xf32>) -> tensor<64x4096xf32>
  return %0 : tensor<64x4096xf32>
}
func.func @exp_edges(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tcc.exp %x : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @exp_edges16(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = tcc.exp %x : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// neg/abs/relu on integers.
// RUN: tcc-run %s --function=unary_i32 --input=4x8xi32=random --check-reference | FileCheck %s --check-prefix=UNARY_I32
// UNARY_I32-COUNT-3: [SUCCESS] result
func.func @unary_i32(%x: tensor<?x8xi32>) -> (tensor<?x8xi32>, tensor<?x8xi32>, tensor<?x8xi32>) {
  %0 = tcc.neg %x : (tensor<?x8xi32>) -> tensor<?x8xi32>
  %1 = tcc.abs %x : (tensor<?x8xi32>) -> tensor<?x8xi32>
  %2 = tcc.relu %x : (tensor<?x8xi32>) -> tensor<?x8xi32>
  return %0, %1, %2 : tensor<?x8xi32>, tensor<?x8xi32>, tensor<?x8xi32>
}

// Unary chain on f64.
// RUN: tcc-run %s --function=unary_f64 --input=3x7xf64=random --check-reference | FileCheck %s --check-prefix=UNARY_F64
// UNARY_F64: [SUCCESS] result[0] matches the reference (3x7xf64)
func.func @unary_f64(%x: tensor<?x7xf64>) -> tensor<?x7xf64> {
  %0 = tcc.tanh %x : (tensor<?x7xf64>) -> tensor<?x7xf64>
  %1 = tcc.sigmoid %0 : (tensor<?x7xf64>) -> tensor<?x7xf64>
  %2 = tcc.gelu %1 {approximate = "tanh"} : (tensor<?x7xf64>) -> tensor<?x7xf64>
  %3 = tcc.silu %2 : (tensor<?x7xf64>) -> tensor<?x7xf64>
  %4 = tcc.erf %3 : (tensor<?x7xf64>) -> tensor<?x7xf64>
  return %4 : tensor<?x7xf64>
}

// ---- trigonometric, hyperbolic and rounding ops, rem ------------------------
// Inputs kept inside each function's domain: asin/acos/atanh of 0.9 tanh(x),
// acosh of 1 + exp(x). 4x37 runs the vector body and its remainder; the
// dynamic form runs the same ops on ?x?.

// RUN: tcc-run %s --function=math_static --input=4x37xf32=random --check-reference | FileCheck %s --check-prefix=MATH_STATIC
// RUN: tcc-run %s --function=math_dynamic --input=3x19xf32=random --check-reference | FileCheck %s --check-prefix=MATH_STATIC
// MATH_STATIC-COUNT-14: [SUCCESS] result[{{[0-9]+}}] matches the reference
// MATH_STATIC-NOT: FAILURE
func.func @math_static(%x: tensor<4x37xf32>)
    -> (tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>,
        tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>,
        tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>,
        tensor<4x37xf32>, tensor<4x37xf32>) {
  %k = tcc.constant dense<0.9> : tensor<f32>
  %one = tcc.constant dense<1.0> : tensor<f32>
  %five = tcc.constant dense<5.0> : tensor<f32>
  %t = tcc.tanh %x : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %u = tcc.mul %t, %k : (tensor<4x37xf32>, tensor<f32>) -> tensor<4x37xf32>
  %e = tcc.exp %x : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %g = tcc.add %e, %one : (tensor<4x37xf32>, tensor<f32>) -> tensor<4x37xf32>
  %w = tcc.mul %x, %five : (tensor<4x37xf32>, tensor<f32>) -> tensor<4x37xf32>
  %0 = tcc.sin %w : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %1 = tcc.cos %w : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %2 = tcc.tan %x : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %3 = tcc.asin %u : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %4 = tcc.acos %u : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %5 = tcc.atan %w : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %6 = tcc.sinh %x : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %7 = tcc.cosh %x : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %8 = tcc.asinh %w : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %9 = tcc.acosh %g : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %10 = tcc.atanh %u : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %11 = tcc.floor %w : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %12 = tcc.ceil %w : (tensor<4x37xf32>) -> tensor<4x37xf32>
  %13 = tcc.round %w : (tensor<4x37xf32>) -> tensor<4x37xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>, tensor<4x37xf32>
}
func.func @math_dynamic(%x: tensor<?x?xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>,
        tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>,
        tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>,
        tensor<?x?xf32>, tensor<?x?xf32>) {
  %k = tcc.constant dense<0.9> : tensor<f32>
  %one = tcc.constant dense<1.0> : tensor<f32>
  %five = tcc.constant dense<5.0> : tensor<f32>
  %t = tcc.tanh %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %u = tcc.mul %t, %k : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %e = tcc.exp %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %g = tcc.add %e, %one : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %w = tcc.mul %x, %five : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %0 = tcc.sin %w : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tcc.cos %w : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = tcc.tan %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = tcc.asin %u : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %4 = tcc.acos %u : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %5 = tcc.atan %w : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %6 = tcc.sinh %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %7 = tcc.cosh %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %8 = tcc.asinh %w : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %9 = tcc.acosh %g : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %10 = tcc.atanh %u : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %11 = tcc.floor %w : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %12 = tcc.ceil %w : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %13 = tcc.round %w : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

// rem: the dividend's sign, floats (fmod) and integers (C's %), broadcast.
// RUN: tcc-run %s --function=rem_float --input=5x8xf32=random --input=8xf32=random --check-reference | FileCheck %s --check-prefix=REM
// RUN: tcc-run %s --function=rem_int --input="5x8xi32=0 -14 21 13 -26 300 -100 2 0 -7 14 39 -13 200 -300 1 0 -21 7 26 -39 100 -200 3 0 -14 21 13 -26 300 -100 2 0 -7 14 39 -13 200 -300 1" --check-reference | FileCheck %s --check-prefix=REM
// REM: [SUCCESS] result[0] matches the reference
func.func @rem_float(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %ten = tcc.constant dense<10.0> : tensor<f32>
  %s = tcc.mul %a, %ten : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %0 = tcc.rem %s, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
func.func @rem_int(%a: tensor<5x8xi32>) -> tensor<5x8xi32> {
  %d = tcc.constant dense<[3, -3, 5, -5, 7, 1, -1, 4]> : tensor<8xi32>
  %0 = tcc.rem %a, %d : (tensor<5x8xi32>, tensor<8xi32>) -> tensor<5x8xi32>
  return %0 : tensor<5x8xi32>
}
