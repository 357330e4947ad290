// layer_norm / rms_norm / batch_norm: compiled code vs the reference
// evaluator, static and dynamic shapes, normalizing one or several dims.

// RUN: tcc-run %s --function=layer_norm_last --input=4x32xf32=random --input=32xf32=random --input=32xf32=random --check-reference | FileCheck %s --check-prefix=LN_LAST
// LN_LAST: [SUCCESS] result[0] matches the reference (4x32xf32)
func.func @layer_norm_last(%x: tensor<?x32xf32>, %w: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %0 = tcc.layer_norm %x, %w, %b {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// Static 3-D, axis 2, epsilon 1e-6 (the ViT setting).
// RUN: tcc-run %s --function=layer_norm_static --input=2x5x16xf32=random --input=16xf32=random --input=16xf32=random --check-reference | FileCheck %s --check-prefix=LN_STATIC
// LN_STATIC: [SUCCESS] result[0] matches the reference (2x5x16xf32)
func.func @layer_norm_static(%x: tensor<2x5x16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<2x5x16xf32> {
  %0 = tcc.layer_norm %x, %w, %b {axis = 2 : i64, epsilon = 1.0e-06 : f32} : (tensor<2x5x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x5x16xf32>
  return %0 : tensor<2x5x16xf32>
}

// Normalize over the last two dims (weight/bias of shape [5, 8]); default epsilon.
// RUN: tcc-run %s --function=layer_norm_two_dims --input=3x5x8xf32=random --input=5x8xf32=random --input=5x8xf32=random --check-reference | FileCheck %s --check-prefix=LN_TWO
// LN_TWO: [SUCCESS] result[0] matches the reference (3x5x8xf32)
func.func @layer_norm_two_dims(%x: tensor<?x5x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5x8xf32>) -> tensor<?x5x8xf32> {
  %0 = tcc.layer_norm %x, %w, %b {axis = 1 : i64} : (tensor<?x5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<?x5x8xf32>
  return %0 : tensor<?x5x8xf32>
}

// Dynamic normalized dim.
// RUN: tcc-run %s --function=layer_norm_dyn_feature --input=3x24xf32=random --input=24xf32=random --input=24xf32=random --check-reference | FileCheck %s --check-prefix=LN_DYNF
// LN_DYNF: [SUCCESS] result[0] matches the reference (3x24xf32)
func.func @layer_norm_dyn_feature(%x: tensor<?x?xf32>, %w: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = tcc.layer_norm %x, %w, %b {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Layer norm on rows with a large mean offset (100 + x): a one-pass variance
// E[x^2] - E[x]^2 loses ~1% of the variance here (output errors ~5e-3), a
// two-pass one only the f32 rounding of the mean (~5e-5), hence the looser
// but still discriminating tolerance.
// RUN: tcc-run %s --function=layer_norm_offset --input=4x64xf32=random --input=64xf32=random --input=64xf32=random --check-reference --rtol=1e-3 --atol=5e-4 | FileCheck %s --check-prefix=LN_OFFSET
// LN_OFFSET: [SUCCESS] result[0] matches the reference (4x64xf32)
func.func @layer_norm_offset(%x: tensor<?x64xf32>, %w: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<?x64xf32> {
  %c = tcc.constant dense<100.0> : tensor<f32>
  %y = tcc.add %x, %c : (tensor<?x64xf32>, tensor<f32>) -> tensor<?x64xf32>
  %0 = tcc.layer_norm %y, %w, %b {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// RUN: tcc-run %s --function=rms_norm_last --input=4x32xf32=random --input=32xf32=random --check-reference | FileCheck %s --check-prefix=RMS_LAST
// RMS_LAST: [SUCCESS] result[0] matches the reference (4x32xf32)
func.func @rms_norm_last(%x: tensor<?x32xf32>, %w: tensor<32xf32>) -> tensor<?x32xf32> {
  %0 = tcc.rms_norm %x, %w {axis = -1 : i64, epsilon = 1.0e-06 : f32} : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// RUN: tcc-run %s --function=rms_norm_static_two_dims --input=2x3x4x8xf32=random --input=4x8xf32=random --check-reference | FileCheck %s --check-prefix=RMS_TWO
// RMS_TWO: [SUCCESS] result[0] matches the reference (2x3x4x8xf32)
func.func @rms_norm_static_two_dims(%x: tensor<2x3x4x8xf32>, %w: tensor<4x8xf32>) -> tensor<2x3x4x8xf32> {
  %0 = tcc.rms_norm %x, %w {axis = 2 : i64} : (tensor<2x3x4x8xf32>, tensor<4x8xf32>) -> tensor<2x3x4x8xf32>
  return %0 : tensor<2x3x4x8xf32>
}

// batch_norm (inference) on NCHW with a positive variance exp(v).
// RUN: tcc-run %s --function=batch_norm_nchw --input=2x4x5x5xf32=random --input=4xf32=random --input=4xf32=random --input=4xf32=random --input=4xf32=random --check-reference | FileCheck %s --check-prefix=BN_NCHW
// BN_NCHW: [SUCCESS] result[0] matches the reference (2x4x5x5xf32)
func.func @batch_norm_nchw(%x: tensor<?x4x5x5xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<?x4x5x5xf32> {
  %var = tcc.exp %v : (tensor<4xf32>) -> tensor<4xf32>
  %0 = tcc.batch_norm %x, %s, %b, %m, %var {epsilon = 1.0e-05 : f32} : (tensor<?x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32>
  return %0 : tensor<?x4x5x5xf32>
}

// batch_norm on [N, C] (BatchNorm1d) and on a static [N, C, L]; default epsilon.
// RUN: tcc-run %s --function=batch_norm_1d --input=3x6xf32=random --input=2x6x7xf32=random --input=6xf32=random --input=6xf32=random --input=6xf32=random --input=6xf32=random --check-reference | FileCheck %s --check-prefix=BN_1D
// BN_1D: [SUCCESS] result[0] matches the reference (3x6xf32)
// BN_1D: [SUCCESS] result[1] matches the reference (2x6x7xf32)
func.func @batch_norm_1d(%x: tensor<?x6xf32>, %y: tensor<2x6x7xf32>, %s: tensor<6xf32>, %b: tensor<6xf32>, %m: tensor<6xf32>, %v: tensor<6xf32>) -> (tensor<?x6xf32>, tensor<2x6x7xf32>) {
  %var = tcc.abs %v : (tensor<6xf32>) -> tensor<6xf32>
  %0 = tcc.batch_norm %x, %s, %b, %m, %var : (tensor<?x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<?x6xf32>
  %1 = tcc.batch_norm %y, %s, %b, %m, %var {epsilon = 1.0e-03 : f32} : (tensor<2x6x7xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x7xf32>
  return %0, %1 : tensor<?x6xf32>, tensor<2x6x7xf32>
}

// Norm followed by an activation and a residual (fusion candidates).
// RUN: tcc-run %s --function=norm_act_residual --input=3x48xf32=random --input=48xf32=random --input=48xf32=random --check-reference | FileCheck %s --check-prefix=NORM_ACT
// NORM_ACT: [SUCCESS] result[0] matches the reference (3x48xf32)
func.func @norm_act_residual(%x: tensor<?x48xf32>, %w: tensor<48xf32>, %b: tensor<48xf32>) -> tensor<?x48xf32> {
  %0 = tcc.layer_norm %x, %w, %b : (tensor<?x48xf32>, tensor<48xf32>, tensor<48xf32>) -> tensor<?x48xf32>
  %1 = tcc.relu %0 : (tensor<?x48xf32>) -> tensor<?x48xf32>
  %2 = tcc.rms_norm %1, %w : (tensor<?x48xf32>, tensor<48xf32>) -> tensor<?x48xf32>
  %3 = tcc.add %2, %x : (tensor<?x48xf32>, tensor<?x48xf32>) -> tensor<?x48xf32>
  return %3 : tensor<?x48xf32>
}
