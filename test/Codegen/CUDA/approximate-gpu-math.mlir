// RUN: tcc-opt %s --pass-pipeline="builtin.module(gpu.module(tcc-approximate-gpu-math))" | FileCheck %s

// GELU's 1 + erf(x) in a kernel: erfc(|x|) from the fast reciprocal, a
// degree-5 polynomial and exp2, then 2 - y or y by x's sign; no erf is
// left. Both forms: the sum, and fma(h, erf, h) after canonicalization
// distributed 0.5 x over it (h * (1 + erf)).
// CHECK-LABEL: gpu.func @gelu_forms
//  CHECK-SAME:   (%[[X:.+]]: f32, %[[H:.+]]: f32)
//   CHECK-NOT:   math.erf
//       CHECK:   %[[AX:.+]] = math.absf %[[X]]
//       CHECK:   %[[D:.+]] = math.fma %[[AX]], %{{.+}}, %{{.+}} : f32
//       CHECK:   %[[T:.+]] = nvvm.rcp.approx.ftz.f %[[D]] : f32
//       CHECK:   math.exp2
//       CHECK:   %[[Y:.+]] = arith.mulf
//       CHECK:   %[[TWO_MINUS:.+]] = arith.subf %{{.+}}, %[[Y]]
//       CHECK:   %[[POS:.+]] = arith.cmpf oge, %[[X]]
//       CHECK:   %[[SUM:.+]] = arith.select %[[POS]], %[[TWO_MINUS]], %[[Y]]
//       CHECK:   nvvm.rcp.approx.ftz.f
//       CHECK:   %[[SUM2:.+]] = arith.select
//       CHECK:   %[[SCALED:.+]] = arith.mulf %[[H]], %[[SUM2]]
//       CHECK:   gpu.return %[[SUM]], %[[SCALED]]
gpu.module @kernels {
  gpu.func @gelu_forms(%x: f32, %h: f32) -> (f32, f32) {
    %one = arith.constant 1.0 : f32
    %e = math.erf %x : f32
    %s = arith.addf %one, %e : f32
    %e2 = math.erf %x : f32
    %g = math.fma %h, %e2, %h : f32
    gpu.return %s, %g : f32, f32
  }

// GELU as the lowering leaves it, fma(h, erf(z), h) with h = 0.5 x and
// z = x / sqrt 2 of the same x: the scales fold into the constants (p b,
// a a_i, -log2(e) b^2), so neither product is left; y = x - x q for
// x >= 0 and x q below. A second GELU with a = 0.25 gives 2a x - x q as an
// fma. A scale of erf's argument that is not positive, or h and z of
// different values, keep the h (1 + erf) form.
// CHECK-LABEL: gpu.func @whole_gelu
//  CHECK-SAME:   (%[[X:.+]]: f32, %[[W:.+]]: f32)
//   CHECK-NOT:   math.erf
//   CHECK-NOT:   arith.mulf %[[X]], %cst
//       CHECK:   %[[AX:.+]] = math.absf %[[X]]
//       CHECK:   %[[D:.+]] = math.fma %[[AX]], %{{.+}}, %{{.+}} : f32
//       CHECK:   %[[T:.+]] = nvvm.rcp.approx.ftz.f %[[D]] : f32
//       CHECK:   %[[E:.+]] = math.exp2
//       CHECK:   %[[Q:.+]] = arith.mulf %{{.+}}, %[[E]]
//       CHECK:   %[[XQ:.+]] = arith.mulf %[[X]], %[[Q]]
//       CHECK:   %[[POS:.+]] = arith.cmpf oge, %[[X]]
//       CHECK:   %[[UP:.+]] = arith.subf %[[X]], %[[XQ]]
//       CHECK:   %[[G:.+]] = arith.select %[[POS]], %[[UP]], %[[XQ]]
//       CHECK:   %[[XQ2:.+]] = arith.mulf %[[X]], %{{.+}}
//       CHECK:   %[[NEG:.+]] = arith.negf %[[XQ2]]
//       CHECK:   %[[UP2:.+]] = math.fma %[[X]], %{{.+}}, %[[NEG]]
//       CHECK:   %[[G2:.+]] = arith.select %{{.+}}, %[[UP2]], %[[XQ2]]
//       CHECK:   %[[KEPT:.+]] = arith.mulf %{{.+}}, %{{.+}}
//       CHECK:   nvvm.rcp.approx.ftz.f
//       CHECK:   arith.select
//       CHECK:   %[[MIXED:.+]] = arith.mulf
//       CHECK:   gpu.return %[[G]], %[[G2]], %{{.+}}, %{{.+}}
  gpu.func @whole_gelu(%x: f32, %w: f32) -> (f32, f32, f32, f32) {
    %half = arith.constant 0.5 : f32
    %quarter = arith.constant 0.25 : f32
    %rsqrt2 = arith.constant 0.70710678 : f32
    %neg = arith.constant -0.70710678 : f32
    %h = arith.mulf %x, %half : f32
    %z = arith.mulf %rsqrt2, %x : f32
    %e = math.erf %z : f32
    %g = math.fma %h, %e, %h : f32
    %h2 = arith.mulf %x, %quarter : f32
    %z2 = arith.mulf %x, %rsqrt2 : f32
    %e2 = math.erf %z2 : f32
    %g2 = math.fma %h2, %e2, %h2 : f32
    %h3 = arith.mulf %x, %half : f32
    %z3 = arith.mulf %x, %neg : f32
    %e3 = math.erf %z3 : f32
    %g3 = math.fma %h3, %e3, %h3 : f32
    %h4 = arith.mulf %w, %half : f32
    %z4 = arith.mulf %x, %rsqrt2 : f32
    %e4 = math.erf %z4 : f32
    %g4 = math.fma %h4, %e4, %h4 : f32
    gpu.return %g, %g2, %g3, %g4 : f32, f32, f32, f32
  }

// erf with another use, a sum with 2, fma(h, erf, other) and f16 keep
// libdevice's erf.
// CHECK-LABEL: gpu.func @kept
//   CHECK-NOT:   nvvm.rcp.approx
//   CHECK-COUNT-4: math.erf
//   CHECK-NOT:   nvvm.rcp.approx
  gpu.func @kept(%x: f32, %h: f32, %y: f16) -> (f32, f32, f32, f32, f16) {
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %oneh = arith.constant 1.0 : f16
    %e = math.erf %x : f32
    %s = arith.addf %one, %e : f32
    %e2 = math.erf %h : f32
    %s2 = arith.addf %two, %e2 : f32
    %e3 = math.erf %x : f32
    %g = math.fma %h, %e3, %x : f32
    %e4 = math.erf %y : f16
    %s4 = arith.addf %oneh, %e4 : f16
    gpu.return %s, %e, %s2, %g, %s4 : f32, f32, f32, f32, f16
  }
}
