// tcc-run-lib: runs a library without MLIR (the GPU machine's runner) on
// inputs given as specs, compared with .npy files the reference evaluator
// wrote; a mismatch fails.

// RUN: rm -rf %t && mkdir -p %t
// RUN: tcc-compile %s -o %t/libnorm.so
// RUN: tcc-run %s --reference --input=33x128xf32=random --input=128xf32=random --output=@%t/expected.npy
// RUN: tcc-run-lib %t/libnorm.so --input=33x128xf32=random --input=128xf32=random --expected_output=@%t/expected.npy --benchmark=3 | FileCheck %s
// CHECK: [SUCCESS] result[0] matches the expected output (33x128xf32)
// CHECK: library call (tcc_run, device copies excluded): median {{[0-9.]+}} us
// Other inputs (another seed): the comparison fails, exit code 1.
// RUN: not tcc-run-lib %t/libnorm.so --seed=7 --input=33x128xf32=random --input=128xf32=random --expected_output=@%t/expected.npy | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: [FAILURE] result[0] does not match the expected output (33x128xf32)
// RUN: not tcc-run-lib %t/libnorm.so --input=33x64xf32=random --input=128xf32=random 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: tcc-run-lib: error: rms_scale: input sizes [33, 64], [128] violate input 0 dim 1 == 128
// RUN: not tcc-run-lib %t/libnorm.so --bogus 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: tcc-run-lib: error: unknown argument '--bogus'

func.func @rms_scale(%x: tensor<?x128xf32>, %w: tensor<128xf32>) -> tensor<?x128xf32> {
  %y = tcc.rms_norm %x, %w {axis = 1 : i64, epsilon = 1.0e-6 : f32} : (tensor<?x128xf32>, tensor<128xf32>) -> tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}
