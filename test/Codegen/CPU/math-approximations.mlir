// RUN: tcc-opt %s --tcc-lower-vectors=avx512=off --split-input-file | FileCheck %s

// f32 erf, vector or scalar: clamped to [-4, 4], x * P(x^2) / Q(x^2) with a
// true division, clamped to [-1, 1]. Unordered compares keep a NaN a NaN.
// CHECK-LABEL: func.func @erf_f32
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: vector<16xf32>
//   CHECK-NOT:   math.erf
//   CHECK-DAG:   %[[M4:.+]] = arith.constant dense<-4.000000e+00> : vector<16xf32>
//   CHECK-DAG:   %[[P4:.+]] = arith.constant dense<4.000000e+00> : vector<16xf32>
//       CHECK:   %[[GE:.+]] = arith.cmpf uge, %[[X]], %[[M4]]
//       CHECK:   %[[LO:.+]] = arith.select %[[GE]], %[[X]], %[[M4]]
//       CHECK:   %[[LE:.+]] = arith.cmpf ule, %[[LO]], %[[P4]]
//       CHECK:   %[[C:.+]] = arith.select %[[LE]], %[[LO]], %[[P4]]
//       CHECK:   %[[X2:.+]] = arith.mulf %[[C]], %[[C]]
//  CHECK-COUNT-6:   math.fma {{.*}}%[[X2]]
//       CHECK:   %[[P:.+]] = arith.mulf %[[C]],
//  CHECK-COUNT-4:   math.fma {{.*}}%[[X2]]
//       CHECK:   arith.divf %[[P]], %{{.+}} : vector<16xf32>
//       CHECK:   arith.cmpf uge
//       CHECK:   arith.cmpf ule
//   CHECK-NOT:   math.erf
//       CHECK:   return
func.func @erf_f32(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.erf %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// CHECK-LABEL: func.func @erf_scalar_f32
//   CHECK-NOT:   math.erf
//       CHECK:   arith.divf %{{.+}}, %{{.+}} : f32
func.func @erf_scalar_f32(%x: f32) -> f32 {
  %0 = math.erf %x : f32
  return %0 : f32
}

// erf(c * x) with a constant c > 0 used only there (GELU's x / sqrt(2)):
// c goes into the coefficients, x is clamped to [-4 / c, 4 / c] and the
// product is not formed. The numerator's lowest coefficient is c times
// erf's (-0.0160960333 * 0.70710678), the denominator's is erf's own.
// CHECK-LABEL: func.func @erf_of_scaled
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: vector<16xf32>
//   CHECK-DAG:   %[[P0:.+]] = arith.constant dense<-0.011381614> : vector<16xf32>
//   CHECK-DAG:   %[[Q0:.+]] = arith.constant dense<-0.0142647391> : vector<16xf32>
//   CHECK-DAG:   %[[LO:.+]] = arith.constant dense<-5.65685415> : vector<16xf32>
//   CHECK-NOT:   arith.mulf %[[X]], %{{.+}}
//       CHECK:   arith.cmpf uge, %[[X]], %[[LO]]
//       CHECK:   math.fma %{{.+}}, %{{.+}}, %[[P0]]
//       CHECK:   math.fma %{{.+}}, %{{.+}}, %[[Q0]]
//       CHECK:   arith.divf
//   CHECK-NOT:   math.erf
func.func @erf_of_scaled(%x: vector<16xf32>) -> vector<16xf32> {
  %c = arith.constant dense<0.707106769> : vector<16xf32>
  %u = arith.mulf %x, %c : vector<16xf32>
  %0 = math.erf %u : vector<16xf32>
  return %0 : vector<16xf32>
}

// The product is used elsewhere too: it stays, and erf clamps it to
// [-4, 4] as usual.
// CHECK-LABEL: func.func @erf_of_shared_product
//   CHECK-DAG:   %[[M4:.+]] = arith.constant dense<-4.000000e+00> : vector<16xf32>
//       CHECK:   %[[U:.+]] = arith.mulf
//       CHECK:   arith.cmpf uge, %[[U]], %[[M4]]
//   CHECK-NOT:   math.erf
//       CHECK:   arith.addf %{{.+}}, %[[U]]
func.func @erf_of_shared_product(%x: vector<16xf32>) -> vector<16xf32> {
  %c = arith.constant dense<0.707106769> : vector<16xf32>
  %u = arith.mulf %x, %c : vector<16xf32>
  %0 = math.erf %u : vector<16xf32>
  %1 = arith.addf %0, %u : vector<16xf32>
  return %1 : vector<16xf32>
}

// f32 exp: 2^n * e^r with n from the magic-number rounding, 2^(n-1) built
// from its bits as two factors 2^h * 2^g (h = (n-1) >> 1), so that results
// below FLT_MIN are subnormals, a degree-5 polynomial for 2 * e^r, then
// +inf above ln FLT_MAX and 0 below ln 2^-150 (ordered compares: NaN
// stays NaN).
// CHECK-LABEL: func.func @exp_f32
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: vector<16xf32>
//   CHECK-NOT:   math.exp
//       CHECK:   %[[T:.+]] = math.fma %[[X]], %{{.+}}, %{{.+}} : vector<16xf32>
//       CHECK:   arith.subf %[[T]]
//  CHECK-COUNT-7:   math.fma
//   CHECK-NOT:   math.fma
//       CHECK:   %[[BITS:.+]] = arith.bitcast %[[T]] : vector<16xf32> to vector<16xi32>
//       CHECK:   %[[E:.+]] = arith.subi %[[BITS]]
//       CHECK:   %[[H:.+]] = arith.shrsi %[[E]]
//       CHECK:   %[[G:.+]] = arith.subi %[[E]], %[[H]]
//   CHECK-DAG:   arith.addi %[[H]]
//   CHECK-DAG:   arith.addi %[[G]]
//       CHECK:   arith.shli
//       CHECK:   arith.mulf
//       CHECK:   arith.mulf
//       CHECK:   arith.cmpf ogt, %[[X]]
//       CHECK:   arith.cmpf olt, %[[X]]
//   CHECK-NOT:   math.exp
//       CHECK:   return
func.func @exp_f32(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// Other element types are not rewritten by these patterns: f64 erf and exp
// stay (a libm call and an LLVM intrinsic later).
// CHECK-LABEL: func.func @erf_f64
//       CHECK:   math.erf %{{.+}} : vector<4xf64>
//       CHECK:   math.exp %{{.+}} : vector<4xf64>
func.func @erf_f64(%x: vector<4xf64>) -> (vector<4xf64>, vector<4xf64>) {
  %0 = math.erf %x : vector<4xf64>
  %1 = math.exp %x : vector<4xf64>
  return %0, %1 : vector<4xf64>, vector<4xf64>
}

// -----

// A maximum / minimum that may ignore NaN and the sign of zero (softmax's
// row max) is a compare and a select, which x86 matches to one vmaxps /
// vminps; without both flags it keeps NaN-propagating semantics.
// CHECK-LABEL: func.func @max_min_without_nan
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: vector<16xf32>, %[[B:[a-zA-Z0-9_]+]]: vector<16xf32>
//       CHECK:   %[[GT:.+]] = arith.cmpf ogt, %[[A]], %[[B]] : vector<16xf32>
//       CHECK:   %[[MAX:.+]] = arith.select %[[GT]], %[[A]], %[[B]]
//       CHECK:   %[[LT:.+]] = arith.cmpf olt, %[[MAX]], %[[B]] : vector<16xf32>
//       CHECK:   %[[MIN:.+]] = arith.select %[[LT]], %[[MAX]], %[[B]]
//       CHECK:   %[[KEEP:.+]] = arith.maximumf %[[MIN]], %[[B]] fastmath<nnan> : vector<16xf32>
//       CHECK:   arith.minimumf %[[KEEP]], %[[B]] : vector<16xf32>
func.func @max_min_without_nan(%a: vector<16xf32>, %b: vector<16xf32>) -> vector<16xf32> {
  %0 = arith.maximumf %a, %b fastmath<nnan,nsz> : vector<16xf32>
  %1 = arith.minimumf %0, %b fastmath<nnan,nsz> : vector<16xf32>
  %2 = arith.maximumf %1, %b fastmath<nnan> : vector<16xf32>
  %3 = arith.minimumf %2, %b : vector<16xf32>
  return %3 : vector<16xf32>
}
