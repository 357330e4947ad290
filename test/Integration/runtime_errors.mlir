// Errors that only show at run time in compiled code (a dynamic dim that
// disagrees with another operand's, a gather index out of range) are a
// message and exit code 1, like every other tcc-run user error: sizes are
// the entry guards' job, data-dependent checks (gather indices) are a
// compiled cf.assert whose message tcc-run reports.

func.func @add_dyn(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = tcc.add %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @gather(%x: tensor<5x2xf32>, %i: tensor<3xi32>) -> tensor<3x2xf32> {
  %0 = tcc.gather %x, %i : (tensor<5x2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

func.func @gather_elements(%x: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = tcc.gather_elements %x, %i {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// gather_elements: an index out of range, and indices with more rows than
// x (they would read past it), in the reference and in compiled code.
// RUN: not tcc-run %s --function=gather_elements --input=2x3xf32=random --input="2x1xi64=0 3" --reference 2>&1 | FileCheck %s --check-prefix=GEL_RANGE_REF
// GEL_RANGE_REF: index 3 is out of range for axis 1 of size 3
// RUN: not tcc-run %s --function=gather_elements --input=2x3xf32=random --input="2x1xi64=0 3" 2>&1 | FileCheck %s --check-prefix=GEL_RANGE
// GEL_RANGE: tcc.gather_elements: index out of range
// RUN: not tcc-run %s --function=gather_elements --input=2x3xf32=random --input="3x1xi64=0 1 2" --reference 2>&1 | FileCheck %s --check-prefix=GEL_ROWS_REF
// GEL_ROWS_REF: indices dim 0 (3) exceeds x's (2)
// RUN: not tcc-run %s --function=gather_elements --input=2x3xf32=random --input="3x1xi64=0 1 2" 2>&1 | FileCheck %s --check-prefix=GEL_ROWS
// GEL_ROWS: tcc.gather_elements: indices dim 0 exceeds x's

// The reference evaluator already reports these.
// RUN: not tcc-run %s --function=add_dyn --input=3x5xf32=random --input=3x4xf32=random --reference 2>&1 | FileCheck %s --check-prefix=DYN_REF
// DYN_REF: tcc-run: error: 'tcc.add' at loc({{.*}}): cannot broadcast 3x5xf32 and 3x4xf32
// RUN: not tcc-run %s --function=gather --input=5x2xf32=random --input="3xi32=0 5 1" --reference 2>&1 | FileCheck %s --check-prefix=GATHER_REF
// GATHER_REF: tcc-run: error: 'tcc.gather' at loc({{.*}}): index 5 is out of range for axis 0 of size 5

// Compiled code: --symbolic-shapes ties the two dynamic dims, so the entry
// guard rejects the call before anything runs (host check and compiled
// guard word it the same).
// RUN: not tcc-run %s --function=add_dyn --input=3x5xf32=random --input=3x4xf32=random 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not tcc-run %s --function=add_dyn --input=3x5xf32=random --input=3x4xf32=random --no-host-shape-checks 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: tcc-run: error: input 1 dim 1 must equal input 0 dim 1 (s1): 4 vs 5
// RUN: not tcc-run %s --function=gather --input=5x2xf32=random --input="3xi32=0 5 1" 2>&1 | FileCheck %s --check-prefix=GATHER
// GATHER: tcc.gather: index out of range
// GATHER: tcc-run: error: compiled code aborted: a runtime check failed
