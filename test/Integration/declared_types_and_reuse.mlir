// Regressions found in review: each once gave a silent wrong answer or
// corrupted the heap.

// A reduction over the tiled rows consumed by every row (column centering,
// softmax over axis 0): must not be recomputed per row tile into one buffer
// shared by the parallel iterations.
// RUN: tcc-run %s --function=colcenter --input=512x256xf32=random --check-reference | FileCheck %s --check-prefix=COL
// COL: [SUCCESS] result[0] matches the reference (512x256xf32)
// RUN: tcc-run %s --function=colcenter_dyn --input=300x130xf32=random --check-reference | FileCheck %s --check-prefix=COLDYN
// COLDYN: [SUCCESS] result[0] matches the reference (300x130xf32)
// RUN: tcc-run %s --function=softmax_axis0 --input=512x256xf32=random --check-reference | FileCheck %s --check-prefix=SM0
// SM0: [SUCCESS] result[0] matches the reference (512x256xf32)

// A declared result type less static than the inferred one keeps the
// operands' sizes (it once became 1).
// RUN: tcc-run %s --function=less_static --input=4x5xf32=random --check-reference | FileCheck %s --check-prefix=LESS
// LESS: [SUCCESS] result[0] matches the reference (4x5xf32)

// A declared static result over dynamic operands is checked at runtime
// (it once overflowed the result buffer): --symbolic-shapes turns the
// declared size into a fact about the input, which the entry guard checks.
// RUN: tcc-run %s --function=more_static --input=3x4xf32=random --input=4x5xf32=random --check-reference | FileCheck %s --check-prefix=MORE
// MORE: [SUCCESS] result[0] matches the reference (3x5xf32)
// RUN: not tcc-run %s --function=more_static --input=400x4xf32=random --input=4x5xf32=random 2>&1 | FileCheck %s --check-prefix=MORE_BAD
// MORE_BAD: tcc-run: error: input 0 dim 0: expected 3, got 400
// RUN: not tcc-run %s --function=reduce_more_static --input=400x5xf32=random 2>&1 | FileCheck %s --check-prefix=RED_BAD
// RED_BAD: tcc-run: error: input 0 dim 0: expected 3, got 400

// An identity broadcast_to must not make a group result an alias of a
// buffer the memory plan reuses.
// RUN: tcc-run %s --function=identity_alias --input=3x5xf32=random --check-reference | FileCheck %s --check-prefix=ALIAS
// ALIAS: [SUCCESS] result[0] matches the reference (3xf32)
// ALIAS: [SUCCESS] result[1] matches the reference (6xf32)

func.func @colcenter(%x: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %m = tcc.reduce_mean %x {axes = array<i64: 0>} : (tensor<512x256xf32>) -> tensor<256xf32>
  %0 = tcc.sub %x, %m : (tensor<512x256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
  return %0 : tensor<512x256xf32>
}

func.func @colcenter_dyn(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = tcc.reduce_mean %x {axes = array<i64: 0>} : (tensor<?x?xf32>) -> tensor<?xf32>
  %0 = tcc.sub %x, %m : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @softmax_axis0(%x: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %0 = tcc.softmax %x {axis = 0 : i64} : (tensor<512x256xf32>) -> tensor<512x256xf32>
  return %0 : tensor<512x256xf32>
}

func.func @less_static(%a: tensor<4x5xf32>) -> tensor<?x5xf32> {
  %0 = tcc.relu %a : (tensor<4x5xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

func.func @more_static(%a: tensor<?x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = tcc.matmul %a, %b : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

func.func @reduce_more_static(%a: tensor<?x5xf32>) -> tensor<3xf32> {
  %0 = tcc.reduce_sum %a {axes = array<i64: 1>} : (tensor<?x5xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @identity_alias(%x: tensor<?x5xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %a = tcc.reduce_sum %x {axes = array<i64: 1>} : (tensor<?x5xf32>) -> tensor<?xf32>
  %a2 = tcc.neg %a : (tensor<?xf32>) -> tensor<?xf32>
  %b = tcc.broadcast_to %a : (tensor<?xf32>) -> tensor<?xf32>
  %e = tcc.reduce_max %x {axes = array<i64: 1>} : (tensor<?x5xf32>) -> tensor<?xf32>
  %c = tcc.concat %b, %e {axis = 0 : i64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %a2, %c : tensor<?xf32>, tensor<?xf32>
}
