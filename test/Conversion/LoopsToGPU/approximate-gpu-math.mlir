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
