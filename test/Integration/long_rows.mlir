// Long static rows (4096 f32) take the row-block path: 4 rows per tile
// (66 rows: a peeled remainder of 2), 4-vector chunks with partial
// reductions, CSE of the shared exp. Compared with the reference evaluator
// on the hand-written forms of benchmarks/fusion/ at a smaller row count.
// RUN: tcc-run %s --function=softmax --random-inputs --check-reference | FileCheck %s --check-prefix=SM
// SM: [SUCCESS] result[0] matches the reference (66x4096xf32)
// RUN: tcc-run %s --function=layer_norm --random-inputs --check-reference | FileCheck %s --check-prefix=LN
// LN: [SUCCESS] result[0] matches the reference (66x4096xf32)
// RUN: tcc-run %s --function=bias_gelu --random-inputs --check-reference | FileCheck %s --check-prefix=GELU
// GELU: [SUCCESS] result[0] matches the reference (66x4096xf32)
// A mean alone, its rows in tiles of 4 (static 66: a remainder of 2;
// dynamic: 1027 rows), and the unfused layer_norm, whose means are such
// groups:
// RUN: tcc-run %s --function=mean --random-inputs --check-reference | FileCheck %s --check-prefix=MEAN
// MEAN: [SUCCESS] result[0] matches the reference (66x1xf32)
// RUN: tcc-run %s --function=mean_dynamic --random-inputs --dim-size=1027 --check-reference | FileCheck %s --check-prefix=MEAND
// MEAND: [SUCCESS] result[0] matches the reference (1027x1xf32)
// RUN: tcc-run %s --function=layer_norm --no-fuse --random-inputs --check-reference | FileCheck %s --check-prefix=LN
// The norms' groups take rows in pairs (their passes only reread the
// input): odd static row counts leave a one-row remainder.
// RUN: tcc-run %s --function=layer_norm_odd --random-inputs --check-reference | FileCheck %s --check-prefix=LNODD
// LNODD: [SUCCESS] result[0] matches the reference (65x1024xf32)
// RUN: tcc-run %s --function=rms_norm_odd --random-inputs --check-reference | FileCheck %s --check-prefix=RMSODD
// RMSODD: [SUCCESS] result[0] matches the reference (67x2048xf32)

func.func @softmax(%x: tensor<66x4096xf32>) -> tensor<66x4096xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<66x4096xf32>) -> tensor<66x1xf32>
  %d = tcc.sub %x, %m : (tensor<66x4096xf32>, tensor<66x1xf32>) -> tensor<66x4096xf32>
  %e = tcc.exp %d : (tensor<66x4096xf32>) -> tensor<66x4096xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<66x4096xf32>) -> tensor<66x1xf32>
  %y = tcc.div %e, %s : (tensor<66x4096xf32>, tensor<66x1xf32>) -> tensor<66x4096xf32>
  return %y : tensor<66x4096xf32>
}

func.func @layer_norm(%x: tensor<66x4096xf32>, %w: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<66x4096xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<66x4096xf32>) -> tensor<66x1xf32>
  %d = tcc.sub %x, %mean : (tensor<66x4096xf32>, tensor<66x1xf32>) -> tensor<66x4096xf32>
  %sq = tcc.mul %d, %d : (tensor<66x4096xf32>, tensor<66x4096xf32>) -> tensor<66x4096xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<66x4096xf32>) -> tensor<66x1xf32>
  %ve = tcc.add %var, %eps : (tensor<66x1xf32>, tensor<f32>) -> tensor<66x1xf32>
  %inv = tcc.rsqrt %ve : (tensor<66x1xf32>) -> tensor<66x1xf32>
  %n = tcc.mul %d, %inv : (tensor<66x4096xf32>, tensor<66x1xf32>) -> tensor<66x4096xf32>
  %s = tcc.mul %n, %w : (tensor<66x4096xf32>, tensor<4096xf32>) -> tensor<66x4096xf32>
  %y = tcc.add %s, %b : (tensor<66x4096xf32>, tensor<4096xf32>) -> tensor<66x4096xf32>
  return %y : tensor<66x4096xf32>
}

func.func @bias_gelu(%x: tensor<66x4096xf32>, %b: tensor<4096xf32>) -> tensor<66x4096xf32> {
  %0 = tcc.add %x, %b : (tensor<66x4096xf32>, tensor<4096xf32>) -> tensor<66x4096xf32>
  %1 = tcc.gelu %0 {approximate = "none"} : (tensor<66x4096xf32>) -> tensor<66x4096xf32>
  return %1 : tensor<66x4096xf32>
}

func.func @mean(%x: tensor<66x4096xf32>) -> tensor<66x1xf32> {
  %m = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<66x4096xf32>) -> tensor<66x1xf32>
  return %m : tensor<66x1xf32>
}

func.func @mean_dynamic(%x: tensor<?x4096xf32>) -> tensor<?x1xf32> {
  %m = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x4096xf32>) -> tensor<?x1xf32>
  return %m : tensor<?x1xf32>
}

func.func @layer_norm_odd(%x: tensor<65x1024xf32>, %w: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<65x1024xf32> {
  %y = tcc.layer_norm %x, %w, %b {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<65x1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tensor<65x1024xf32>
  return %y : tensor<65x1024xf32>
}

func.func @rms_norm_odd(%x: tensor<67x2048xf32>, %w: tensor<2048xf32>) -> tensor<67x2048xf32> {
  %y = tcc.rms_norm %x, %w {axis = 1 : i64, epsilon = 1.0e-5 : f32} : (tensor<67x2048xf32>, tensor<2048xf32>) -> tensor<67x2048xf32>
  return %y : tensor<67x2048xf32>
}
