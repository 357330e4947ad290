// User errors given to tcc-run: each is one clear message and exit code 1
// (`not` fails the test on exit code 0 and on a crash).

func.func @add_bcast(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = tcc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

func.func @scalar(%a: tensor<f32>) -> tensor<f32> {
  %0 = tcc.neg %a : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// ---- wrong static dim --------------------------------------------------------------

// RUN: not tcc-run %s --function=add_bcast --input=4x9xf32=random --input=8xf32=random 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: not tcc-run %s --function=add_bcast --input=4x9xf32=random --input=8xf32=random --check-reference 2>&1 | FileCheck %s --check-prefix=DIM
// DIM: tcc-run: error: input 0 dim 1: expected 8, got 9
// DIM-NOT: SUCCESS

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf32=random --input=7xf32=random 2>&1 | FileCheck %s --check-prefix=DIM1
// DIM1: tcc-run: error: input 1 dim 0: expected 8, got 7

// The reference evaluator checks the same.
// RUN: not tcc-run %s --function=add_bcast --input=4x9xf32=random --input=8xf32=random --reference 2>&1 | FileCheck %s --check-prefix=DIM_REF
// DIM_REF: tcc-run: error: input 0: expected shape ?x8xf32, got 4x9xf32

// ---- wrong rank ------------------------------------------------------------------------

// RUN: not tcc-run %s --function=add_bcast --input=4x8x1xf32=random --input=8xf32=random 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: tcc-run: error: input 0: expected rank 2 (?x8xf32), got rank 3 (4x8x1xf32)

// RUN: not tcc-run %s --function=scalar --input=1xf32=random 2>&1 | FileCheck %s --check-prefix=RANK0
// RANK0: tcc-run: error: input 0: expected rank 0 (f32), got rank 1 (1xf32)

// ---- wrong element type ----------------------------------------------------------------

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf16=random --input=8xf32=random 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: tcc-run: error: input 0: expected ?x8xf32, got element type f16

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf32=random --input=8xi32=random 2>&1 | FileCheck %s --check-prefix=DTYPE1
// DTYPE1: tcc-run: error: input 1: expected 8xf32, got element type i32

// RUN: not tcc-run %s --function=add_bcast --input=4x8xi32=random --input=8xf32=random --reference 2>&1 | FileCheck %s --check-prefix=DTYPE_REF
// DTYPE_REF: tcc-run: error: input 0: expected type ?x8xf32, got 4x8xi32

// ---- wrong number of inputs --------------------------------------------------------------

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf32=random 2>&1 | FileCheck %s --check-prefix=TOO_FEW
// TOO_FEW: tcc-run: error: function 'add_bcast' expects 2 inputs, got 1

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf32=random --input=8xf32=random --input=8xf32=random --check-reference 2>&1 | FileCheck %s --check-prefix=TOO_MANY
// TOO_MANY: tcc-run: error: function 'add_bcast' expects 2 inputs, got 3

// RUN: not tcc-run %s --function=add_bcast 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: tcc-run: error: function 'add_bcast' expects 2 inputs, got 0

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf32=random --reference 2>&1 | FileCheck %s --check-prefix=TOO_FEW_REF
// TOO_FEW_REF: tcc-run: error: expected 2 inputs, got 1

// ---- missing function ----------------------------------------------------------------------

// RUN: not tcc-run %s --function=does_not_exist --input=4x8xf32=random 2>&1 | FileCheck %s --check-prefix=NO_FUNC
// NO_FUNC: tcc-run: error: no function named 'does_not_exist' in {{.*}}errors.mlir (use --function=NAME)

// Without --function and with several public functions, 'main' is looked up.
// RUN: not tcc-run %s --input=4x8xf32=random 2>&1 | FileCheck %s --check-prefix=NO_MAIN
// NO_MAIN: tcc-run: error: no function named 'main' in {{.*}}errors.mlir (use --function=NAME)

// ---- malformed input specs -------------------------------------------------------------------

// RUN: not tcc-run %s --function=add_bcast --input=4x8xq32=random --input=8xf32=random 2>&1 | FileCheck %s --check-prefix=BAD_TYPE
// BAD_TYPE: tcc-run: error: input 0: unknown element type 'q32'

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf32=abc --input=8xf32=random 2>&1 | FileCheck %s --check-prefix=BAD_VALUE
// BAD_VALUE: tcc-run: error: input 0: invalid f32 value 'abc'

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf32=random --input=@%t.does-not-exist.npy 2>&1 | FileCheck %s --check-prefix=NO_FILE
// NO_FILE: tcc-run: error: input 1: {{.*}}does-not-exist.npy: cannot open file for reading

// ---- bad flag combination ----------------------------------------------------------------------

// RUN: not tcc-run %s --function=add_bcast --input=4x8xf32=random --input=8xf32=random --check-reference --reference 2>&1 | FileCheck %s --check-prefix=FLAGS
// FLAGS: tcc-run: error: --check-reference compares compiled code with the reference; do not combine it with --reference

// ---- unparsable module -----------------------------------------------------------------------

// RUN: echo "func.func @f(" > %t.bad.mlir
// RUN: not tcc-run %t.bad.mlir --function=f 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: tcc-run: error: could not parse {{.*}}.bad.mlir
