// RUN: tcc-opt %s --tcc-lower-vectors=avx512=on --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-lower-vectors=avx512=off --split-input-file | FileCheck %s --check-prefix=PORTABLE

// With AVX-512, f32 exp over whole zmm registers: x clamped to [-104, 89]
// (NaN kept), n = round(32 x / ln 2) by the magic-number rounding, b = n / 32
// in one FMA, r = x - b ln 2 in two, 2^((n mod 32) / 32) from a two-register
// vpermi2ps table indexed by t's bits, e^r as 1 + r (c1 + c2 r), and one
// vscalefps by b per 16 lanes: no exponent-field integer ops, no limit
// selects. The zmm steps work on vector<2x16xf32>, a row per register.
// CHECK-LABEL: func.func @exp_zmm
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: vector<32xf32>
//   CHECK-NOT:   math.exp
//   CHECK-DAG:   %[[LO:.+]] = arith.constant dense<-1.040000e+02> : vector<2x16xf32>
//   CHECK-DAG:   %[[HI:.+]] = arith.constant dense<8.900000e+01> : vector<2x16xf32>
//   CHECK-DAG:   %[[TAB0:.+]] = arith.constant dense<[1.000000e+00, 1.0218972, {{.*}}, 1.383910e+00]> : vector<16xf32>
//   CHECK-DAG:   %[[TAB1:.+]] = arith.constant dense<[1.41421354, {{.*}}, 1.95714414]> : vector<16xf32>
//   CHECK-DAG:   %[[SCALE:.+]] = arith.constant dense<46.1662407> : vector<2x16xf32>
//       CHECK:   %[[X0:.+]] = vector.extract_strided_slice %[[X]] {offsets = [0], sizes = [16]
//       CHECK:   %[[XR0:.+]] = vector.insert %[[X0]], %{{.+}} [0] : vector<16xf32> into vector<2x16xf32>
//       CHECK:   %[[X1:.+]] = vector.extract_strided_slice %[[X]] {offsets = [16], sizes = [16]
//       CHECK:   %[[XR:.+]] = vector.insert %[[X1]], %[[XR0]] [1] : vector<16xf32> into vector<2x16xf32>
//       CHECK:   arith.cmpf uge, %[[XR]], %[[LO]]
//       CHECK:   %[[C:.+]] = arith.select
//       CHECK:   arith.cmpf ule, %[[C]], %[[HI]]
//       CHECK:   %[[XC:.+]] = arith.select
//       CHECK:   %[[T:.+]] = math.fma %[[XC]], %[[SCALE]], %{{.+}} : vector<2x16xf32>
//       CHECK:   %[[B:.+]] = math.fma %[[T]], %{{.+}}, %{{.+}} : vector<2x16xf32>
//       CHECK:   %[[R1:.+]] = math.fma %[[B]], %{{.+}}, %[[XC]]
//       CHECK:   %[[R:.+]] = math.fma %[[B]], %{{.+}}, %[[R1]]
//       CHECK:   %[[IDX:.+]] = arith.bitcast %[[T]] : vector<2x16xf32> to vector<2x16xi32>
//       CHECK:   %[[I0:.+]] = vector.extract %[[IDX]][0] : vector<16xi32> from vector<2x16xi32>
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.ps.512"(%[[TAB0]], %[[I0]], %[[TAB1]])
//       CHECK:   vector.extract %[[IDX]][1]
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.ps.512"
//       CHECK:   %[[Q:.+]] = math.fma %{{.+}}, %[[R]], %{{.+}}
//       CHECK:   %[[QR:.+]] = arith.mulf %[[Q]], %[[R]]
//       CHECK:   %[[Y:.+]] = math.fma %[[F:.+]], %[[QR]], %[[F]]
//       CHECK:   %[[Y0:.+]] = vector.extract %[[Y]][0]
//       CHECK:   %[[B0:.+]] = vector.extract %[[B]][0]
//       CHECK:   %[[S0:.+]] = llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.512"(%[[Y0]], %[[B0]], %[[Y0]],
//  CHECK-SAME:     (vector<16xf32>, vector<16xf32>, vector<16xf32>, i16, i32) -> vector<16xf32>
//       CHECK:   vector.extract %[[Y]][1]
//       CHECK:   %[[S1:.+]] = llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.512"
//       CHECK:   %[[R0:.+]] = vector.insert_strided_slice %[[S0]], %{{.+}} {offsets = [0]
//       CHECK:   %[[RES:.+]] = vector.insert_strided_slice %[[S1]], %[[R0]] {offsets = [16]
//   CHECK-NOT:   math.exp
//   CHECK-NOT:   arith.select
//   CHECK-NOT:   arith.shli
//       CHECK:   return %[[RES]] : vector<32xf32>

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

// With AVX-512, f32 erf over whole zmm registers from a table: |x| clamped
// to the centre of the last interval (15 w, w = 3.88 / 14.5; unordered
// compare, NaN kept), k = round(|x| / w) by the magic-number rounding,
// u = |x| - k w, then a degree-5 polynomial in u whose six coefficients are
// vpermps lookups (16-entry tables indexed by t's bits), and x's sign bit
// put back. No division. The constant term's table rises from 0 (erf(0))
// to 1 (from 3.88 on, erf is 1 in f32).
// CHECK-LABEL: func.func @erf_zmm
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: vector<16xf32>
//   CHECK-NOT:   math.erf
//   CHECK-DAG:   %[[SIGN:.+]] = arith.constant dense<-2147483648> : vector<1x16xi32>
//   CHECK-DAG:   %[[C0:.+]] = arith.constant dense<[0.000000e+00, 0.294884384, {{.*}}, 0.99999988, 1.000000e+00]> : vector<16xf32>
//   CHECK-DAG:   %[[C5:.+]] = arith.constant dense<[0.110755369, {{.*}}, 0.000000e+00]> : vector<16xf32>
//   CHECK-DAG:   %[[LIM:.+]] = arith.constant dense<4.01379299> : vector<1x16xf32>
//   CHECK-DAG:   %[[INVW:.+]] = arith.constant dense<3.73711348> : vector<1x16xf32>
//   CHECK-DAG:   %[[NEGW:.+]] = arith.constant dense<-0.267586201> : vector<1x16xf32>
//   CHECK-DAG:   %[[MAGIC:.+]] = arith.constant dense<0x4B400000> : vector<1x16xf32>
//       CHECK:   %[[XR:.+]] = vector.insert %[[X]], %{{.+}} [0] : vector<16xf32> into vector<1x16xf32>
//       CHECK:   %[[A:.+]] = math.absf %[[XR]]
//       CHECK:   %[[LE:.+]] = arith.cmpf ule, %[[A]], %[[LIM]]
//       CHECK:   %[[AC:.+]] = arith.select %[[LE]], %[[A]], %[[LIM]]
//       CHECK:   %[[T:.+]] = math.fma %[[AC]], %[[INVW]], %[[MAGIC]]
//       CHECK:   %[[K:.+]] = arith.subf %[[T]], %[[MAGIC]]
//       CHECK:   %[[U:.+]] = math.fma %[[K]], %[[NEGW]], %[[AC]]
//       CHECK:   %[[IDX:.+]] = arith.bitcast %[[T]] : vector<1x16xf32> to vector<1x16xi32>
//       CHECK:   %[[I0:.+]] = vector.extract %[[IDX]][0]
//       CHECK:   %[[E5:.+]] = llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[C5]], %[[I0]])
// CHECK-COUNT-4:   math.fma %{{.+}}, %[[U]], %{{.+}}
//       CHECK:   %[[E0:.+]] = llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[C0]], %{{.+}})
//       CHECK:   %[[E0R:.+]] = vector.insert %[[E0]], %{{.+}} [0]
//       CHECK:   %[[E:.+]] = math.fma %{{.+}}, %[[U]], %[[E0R]]
//       CHECK:   %[[XBITS:.+]] = arith.bitcast %[[XR]] : vector<1x16xf32> to vector<1x16xi32>
//       CHECK:   %[[S:.+]] = arith.andi %[[XBITS]], %[[SIGN]]
//       CHECK:   %[[EBITS:.+]] = arith.bitcast %[[E]] : vector<1x16xf32> to vector<1x16xi32>
//       CHECK:   %[[R:.+]] = arith.ori %[[EBITS]], %[[S]]
//       CHECK:   arith.bitcast %[[R]] : vector<1x16xi32> to vector<1x16xf32>
//   CHECK-NOT:   arith.divf
//   CHECK-NOT:   math.erf
//       CHECK:   return

// Without the option: the rational function.
// PORTABLE-LABEL: func.func @erf_zmm
//   PORTABLE-NOT:   llvm.call_intrinsic
//       PORTABLE:   arith.divf
func.func @erf_zmm(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.erf %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// erf(c * x) with a constant c > 0 used only there (GELU's x / sqrt(2)): c
// goes into the clamp (15 w / c), the interval scale (c / w, -w / c) and the
// coefficients (u^j's times c^j); the product is not formed.
// CHECK-LABEL: func.func @erf_zmm_of_scaled
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: vector<16xf32>
//   CHECK-DAG:   %[[LIM:.+]] = arith.constant dense<5.67636061> : vector<1x16xf32>
//   CHECK-DAG:   %[[INVW:.+]] = arith.constant dense<2.64253831> : vector<1x16xf32>
//   CHECK-DAG:   %[[NEGW:.+]] = arith.constant dense<-0.378424048> : vector<1x16xf32>
//   CHECK-DAG:   %[[C1:.+]] = arith.constant dense<[0.797884523, {{.*}}]> : vector<16xf32>
//   CHECK-NOT:   arith.mulf
//       CHECK:   %[[A:.+]] = math.absf
//       CHECK:   arith.cmpf ule, %[[A]], %[[LIM]]
//       CHECK:   math.fma %{{.+}}, %[[INVW]]
//       CHECK:   math.fma %{{.+}}, %[[NEGW]]
//       CHECK:   llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[C1]],
//   CHECK-NOT:   math.erf
//       CHECK:   return
func.func @erf_zmm_of_scaled(%x: vector<16xf32>) -> vector<16xf32> {
  %c = arith.constant dense<0.707106769> : vector<16xf32>
  %u = arith.mulf %x, %c : vector<16xf32>
  %0 = math.erf %u : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// Lane counts that do not fill zmm registers, and scalars, keep the
// portable forms.
// CHECK-LABEL: func.func @exp_erf_partial
//   CHECK-NOT:   llvm.call_intrinsic
//       CHECK:   arith.shli
//       CHECK:   arith.divf {{.*}} : vector<8xf32>
//       CHECK:   arith.divf {{.*}} : f32
//       CHECK:   return
func.func @exp_erf_partial(%x: vector<8xf32>, %s: f32) -> (vector<8xf32>, vector<8xf32>, f32) {
  %0 = math.exp %x : vector<8xf32>
  %1 = math.erf %x : vector<8xf32>
  %2 = math.erf %s : f32
  return %0, %1, %2 : vector<8xf32>, vector<8xf32>, f32
}

// -----

// A 1 x 64 tile (a row chunk): four registers, four table lookups, four
// scalefs.
// CHECK-LABEL: func.func @exp_row_chunk
//   CHECK-NOT:   math.exp
// CHECK-COUNT-4:   llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.ps.512"
// CHECK-COUNT-4:   llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.512"
//   CHECK-NOT:   llvm.call_intrinsic
//       CHECK:   return %{{.+}} : vector<1x64xf32>
func.func @exp_row_chunk(%x: vector<1x64xf32>) -> vector<1x64xf32> {
  %0 = math.exp %x : vector<1x64xf32>
  return %0 : vector<1x64xf32>
}

// -----

// A [4, 32] block (a whole small op): eight registers, a row of the
// vector<8x16> each, taken out and put back without shuffles across the
// block.
// CHECK-LABEL: func.func @exp_block
//   CHECK-NOT:   math.exp
// CHECK-COUNT-8:   llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.ps.512"
// CHECK-COUNT-8:   llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.512"
//   CHECK-NOT:   vector<128xf32>
//       CHECK:   return %{{.+}} : vector<4x32xf32>
func.func @exp_block(%x: vector<4x32xf32>) -> vector<4x32xf32> {
  %0 = math.exp %x : vector<4x32xf32>
  return %0 : vector<4x32xf32>
}

// -----

// Rows that do not fill whole registers ([64, 100]: a register would
// straddle two rows) keep the portable forms, on the block as it is.
// CHECK-LABEL: func.func @exp_erf_ragged_rows
//   CHECK-NOT:   llvm.call_intrinsic
//   CHECK-NOT:   vector<6400xf32>
//       CHECK:   arith.shli {{.*}} : vector<64x100xi32>
//       CHECK:   arith.divf {{.*}} : vector<64x100xf32>
//       CHECK:   return
func.func @exp_erf_ragged_rows(%x: vector<64x100xf32>) -> (vector<64x100xf32>, vector<64x100xf32>) {
  %0 = math.exp %x : vector<64x100xf32>
  %1 = math.erf %x : vector<64x100xf32>
  return %0, %1 : vector<64x100xf32>, vector<64x100xf32>
}
