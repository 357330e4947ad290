// RUN: tcc-opt %s --symbolic-shapes --split-input-file | FileCheck %s
// RUN: tcc-opt %s --symbolic-shapes --split-input-file | tcc-opt --symbolic-shapes --split-input-file | FileCheck %s --check-prefix=TWICE

// Regression tests for bugs found in review (each case says what used to
// happen).

// A lower bound of 0 on an expression with a negative term is a fact (it
// says B >= S) and must be kept for the entry guards. Before the fix the constraint
// is dropped from tcc.constraints: sizes are never negative, so min = 0 is
// taken for "no lower bound", and a call with B < S runs unchecked.
// CHECK-LABEL: func.func @lower_bound_zero
//  CHECK-SAME:   tcc.constraints = ["{{[^"]*(B - S|S <= B|B >= S)[^"]*}}"]
// TWICE-LABEL: func.func @lower_bound_zero
//  TWICE-SAME:   tcc.constraints = ["{{[^"]*(B - S|S <= B|B >= S)[^"]*}}"]
func.func @lower_bound_zero(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["B - S >= 0"]} {
  return %x : tensor<?x?xf32>
}

// -----

// The CPU pipeline runs the pass twice (before and after fusion): a second
// run must not repeat the equalities the first one wrote. Before the fix the result
// is ["B * 2 == B", "B * 2 == B"].
// CHECK-LABEL: func.func @equality_written_once
//  CHECK-SAME:   attributes {tcc.constraints = ["B * 2 == B"]}
// TWICE-LABEL: func.func @equality_written_once
//  TWICE-SAME:   attributes {tcc.constraints = ["B * 2 == B"]}
func.func @equality_written_once(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32> {
  %0 = tcc.concat %x, %x {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = tcc.add %0, %x : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
