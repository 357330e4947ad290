// An scf.if over private branch functions (what an ONNX If with a
// run-time condition imports as): compiled code against values worked out
// by hand and against the reference evaluator, with the condition an
// input and computed by the function itself (sum(x) > 0), for both
// branches and a dynamic row count that differs between them.

// RUN: tcc-run %s --function=pick --input="2x4xf32=1 -2 3 -4 5 6 7 8" --input="i1=1" --expected_output="2x4xf32=2 -4 6 -8 10 12 14 16" | FileCheck %s --check-prefix=OK
// RUN: tcc-run %s --function=pick --input="2x4xf32=1 -2 3 -4 5 6 7 8" --input="i1=0" --expected_output="0x4xf32" | FileCheck %s --check-prefix=OK
// RUN: tcc-run %s --function=pick --input="3x4xf32=random" --input="i1=1" --check-reference | FileCheck %s --check-prefix=OK
// RUN: tcc-run %s --function=pick --input="3x4xf32=random" --input="i1=0" --check-reference | FileCheck %s --check-prefix=OK
// RUN: tcc-run %s --function=computed --input="5xf32=1 2 3 -1 -2" --expected_output="5xf32=2 4 6 -2 -4" --expected_output="5xf32=4 5 6 2 1" | FileCheck %s --check-prefix=OK
// RUN: tcc-run %s --function=computed --input="5xf32=1 2 -3 -1 -2" --expected_output="5xf32=-1 -2 3 1 2" --expected_output="5xf32=-2 -1 -6 -4 -5" | FileCheck %s --check-prefix=OK
// RUN: tcc-run %s --function=computed --input="37xf32=random" --check-reference | FileCheck %s --check-prefix=OK
// OK: [SUCCESS] result[0] matches
// OK-NOT: FAILED

func.func @pick(%x: tensor<?x4xf32>, %flag: tensor<i1>) -> tensor<?x4xf32> {
  %f = tensor.extract %flag[] : tensor<i1>
  %r = scf.if %f -> (tensor<?x4xf32>) {
    %t = func.call @twice(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    scf.yield %t : tensor<?x4xf32>
  } else {
    %e = func.call @none() : () -> tensor<0x4xf32>
    %c = tensor.cast %e : tensor<0x4xf32> to tensor<?x4xf32>
    scf.yield %c : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}

func.func private @twice(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %two = tcc.constant dense<2.0> : tensor<f32>
  %y = tcc.mul %x, %two : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

func.func private @none() -> tensor<0x4xf32> {
  %e = tcc.constant dense<> : tensor<0x4xf32>
  return %e : tensor<0x4xf32>
}

// The condition from the data; both branches read x and the sum, and the
// second result is computed after the branch from both.
func.func @computed(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %s = tcc.reduce_sum %x {axes = array<i64: 0>} : (tensor<?xf32>) -> tensor<f32>
  %zero = tcc.constant dense<0.0> : tensor<f32>
  %pos = tcc.cmp %s, %zero {predicate = "gt"} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %p = tensor.extract %pos[] : tensor<i1>
  %r = scf.if %p -> (tensor<?xf32>) {
    %t = func.call @twice1(%x) : (tensor<?xf32>) -> tensor<?xf32>
    scf.yield %t : tensor<?xf32>
  } else {
    %n = func.call @negate(%x) : (tensor<?xf32>) -> tensor<?xf32>
    scf.yield %n : tensor<?xf32>
  }
  %after = tcc.add %x, %s : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %r, %after : tensor<?xf32>, tensor<?xf32>
}

func.func private @twice1(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = tcc.add %x, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func private @negate(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = tcc.neg %x : (tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
