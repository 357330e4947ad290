// REQUIRES: ptxas, cuda-device
// tcc-run --device=cuda on a GPU: each function is built by tcc-compile
// --target=cuda and checked against the reference evaluator. (CI machines
// without a GPU skip this; benchmarks/gpu/device_sweep.sh runs every
// --check-reference line of test/Integration on the H200.)

// A pointwise chain with a dynamic batch (vector accesses).
// RUN: tcc-run %s --device=cuda --function=bias_relu --input=3x256xf32=random --input=256xf32=random --check-reference | FileCheck %s --check-prefix=BIAS_RELU
// BIAS_RELU: [SUCCESS] result[0] matches the reference (3x256xf32)
func.func @bias_relu(%x: tensor<?x256xf32>, %b: tensor<256xf32>) -> tensor<?x256xf32> {
  %0 = tcc.add %x, %b : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %1 = tcc.relu %0 : (tensor<?x256xf32>) -> tensor<?x256xf32>
  return %1 : tensor<?x256xf32>
}

// A row group (softmax) in bf16.
// RUN: tcc-run %s --device=cuda --function=softmax_bf16 --input=5x768xbf16=random --check-reference | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: [SUCCESS] result[0] matches the reference (5x768xbf16)
func.func @softmax_bf16(%x: tensor<?x768xbf16>) -> tensor<?x768xbf16> {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<?x768xbf16>) -> tensor<?x768xbf16>
  return %0 : tensor<?x768xbf16>
}

// Host code reading device memory (gather's index check, staged through a
// host copy), and a data-dependent result size (nonzero).
// RUN: tcc-run %s --device=cuda --function=gather_rows --input=10x6xf32=random --input="4xi64=0 9 -1 3" --check-reference | FileCheck %s --check-prefix=GATHER
// GATHER: [SUCCESS] result[0] matches the reference (4x6xf32)
func.func @gather_rows(%table: tensor<10x6xf32>, %ids: tensor<?xi64>) -> tensor<?x6xf32> {
  %0 = tcc.gather %table, %ids {axis = 0 : i64} : (tensor<10x6xf32>, tensor<?xi64>) -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}
// RUN: tcc-run %s --device=cuda --function=nonzero --input="2x4xf32=0 1 0 2 3 0 0 4" --expected_output="4x2xi64=0 1 0 3 1 0 1 3" | FileCheck %s --check-prefix=NONZERO
// NONZERO: [SUCCESS] result[0] matches (4x2xi64)
func.func @nonzero(%x: tensor<?x4xf32>) -> tensor<?x2xi64> {
  %0 = tcc.nonzero %x : (tensor<?x4xf32>) -> tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// A gather index out of range: the library's error, exit code 1.
// RUN: not tcc-run %s --device=cuda --function=gather_rows --input=10x6xf32=random --input="1xi64=10" 2>&1 | FileCheck %s --check-prefix=OUT_OF_RANGE
// OUT_OF_RANGE: index out of range
