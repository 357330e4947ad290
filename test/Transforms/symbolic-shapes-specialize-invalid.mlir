// RUN: not tcc-opt %s --symbolic-shapes='specialize=B=80' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tcc-opt %s --symbolic-shapes='specialize=B=12' 2>&1 | FileCheck %s --check-prefix=DIVISOR
// RUN: not tcc-opt %s --symbolic-shapes='specialize=Q=8' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tcc-opt %s --symbolic-shapes='specialize=B' 2>&1 | FileCheck %s --check-prefix=NO-VALUE
// RUN: not tcc-opt %s --symbolic-shapes='specialize=B=-1' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not tcc-opt %s --symbolic-shapes='specialize=B=eight' 2>&1 | FileCheck %s --check-prefix=NOT-INT
// RUN: not tcc-opt %s --symbolic-shapes='specialize=B=8,B=16' 2>&1 | FileCheck %s --check-prefix=TWICE

// Bad values for --symbolic-shapes' `specialize` option: each is one error
// on the function, naming the symbol and the value. Values are checked
// against the function's constraints; an unknown name lists the names the
// function has (the user's, then s0, s1, ... for unnamed dims).

// RANGE: error: specializing B: B = 80 outside [1, 64]
// RANGE-NEXT: func.func @f(
// DIVISOR: error: specializing B: B = 12 is not a multiple of 8
// DIVISOR-NEXT: func.func @f(
// UNKNOWN: error: cannot specialize Q: no argument dim is named so (names: B, S, s0, s1)
// UNKNOWN-NEXT: func.func @f(
// NO-VALUE: error: specialize: expected NAME=VALUE with a non-negative integer, got 'B'
// NEGATIVE: error: specialize: expected NAME=VALUE with a non-negative integer, got 'B=-1'
// NOT-INT: error: specialize: expected NAME=VALUE with a non-negative integer, got 'B=eight'
// TWICE: error: specializing B: 8 vs 16
func.func @f(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}, %w: tensor<?x?xf32>) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["1 <= B <= 64", "B % 8 == 0"]} {
  %0 = tcc.matmul %x, %w : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
