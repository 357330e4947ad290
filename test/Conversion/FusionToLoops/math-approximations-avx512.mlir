// RUN: tcc-opt %s --tcc-lower-vectors=avx512=true --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-lower-vectors --split-input-file | FileCheck %s --check-prefix=PORTABLE

// With AVX-512, f32 exp over whole zmm registers scales by 2^n with
// vscalefps: x clamped to [-104, 89] (NaN kept), n by the magic-number
// rounding, r = x - n ln 2 in two FMAs, a degree-5 polynomial, then one
// scalef per 16 lanes: no exponent-field integer ops, no limit selects.
// CHECK-LABEL: func.func @exp_zmm
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: vector<32xf32>
//   CHECK-NOT:   math.exp
//   CHECK-DAG:   %[[LO:.+]] = arith.constant dense<-1.040000e+02> : vector<32xf32>
//   CHECK-DAG:   %[[HI:.+]] = arith.constant dense<8.900000e+01> : vector<32xf32>
//       CHECK:   arith.cmpf uge, %[[X]], %[[LO]]
//       CHECK:   arith.cmpf ule
//  CHECK-COUNT-8:   math.fma
//   CHECK-NOT:   arith.shli
//       CHECK:   vector.extract_strided_slice {{.*}}offsets = [0]
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.512"
//  CHECK-SAME:     (vector<16xf32>, vector<16xf32>, vector<16xf32>, i16, i32) -> vector<16xf32>
//       CHECK:   vector.extract_strided_slice {{.*}}offsets = [16]
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.512"
//   CHECK-NOT:   math.exp
//   CHECK-NOT:   arith.select
//       CHECK:   return

// Without the option: the portable form (exponent bits, limit selects).
// PORTABLE-LABEL: func.func @exp_zmm
//   PORTABLE-NOT:   llvm.call_intrinsic
//       PORTABLE:   arith.shli
//       PORTABLE:   arith.select
func.func @exp_zmm(%x: vector<32xf32>) -> vector<32xf32> {
  %0 = math.exp %x : vector<32xf32>
  return %0 : vector<32xf32>
}

// -----

// Lane counts that do not fill zmm registers, and 2-D vectors of them, keep
// the portable form.
// CHECK-LABEL: func.func @exp_partial
//   CHECK-NOT:   llvm.call_intrinsic
//       CHECK:   arith.shli
//       CHECK:   return
func.func @exp_partial(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// A 1 x 64 tile (a row chunk) is flattened and scaled as four zmm.
// CHECK-LABEL: func.func @exp_row_chunk
//   CHECK-NOT:   math.exp
// CHECK-COUNT-4:   llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.512"
//   CHECK-NOT:   llvm.call_intrinsic
//       CHECK:   return %{{.+}} : vector<1x64xf32>
func.func @exp_row_chunk(%x: vector<1x64xf32>) -> vector<1x64xf32> {
  %0 = math.exp %x : vector<1x64xf32>
  return %0 : vector<1x64xf32>
}
