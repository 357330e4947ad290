// REQUIRES: ptxas
// UNSUPPORTED: cuda-device
// tcc-run --device=cuda on a machine without a GPU: the function compiles
// (in process, as tcc-compile --target=cuda builds it) and loading the library is a
// clean error naming the missing driver; no temporary files are left.
// RUN: rm -rf %t && mkdir %t
// RUN: env TMPDIR=%t not tcc-run %s --device=cuda --input=2x4xf32=random --check-reference 2>&1 | FileCheck %s --check-prefix=NODRIVER
// RUN: ls %t | count 0
// NODRIVER: tcc-run: error: cannot load {{.+}}libmodel.so: libcuda.so.1{{.+}}(a cuda library needs the NVIDIA driver and a GPU)

// Options of the CPU pipeline and its JIT, and the modes that do not
// compile, are errors with --device=cuda.
// RUN: not tcc-run %s --device=cuda --input=2x4xf32=random --no-vectorize 2>&1 | FileCheck %s --check-prefix=CPUONLY
// CPUONLY: tcc-run: error: --no-vectorize applies to --device=cpu only
// RUN: not tcc-run %s --device=cuda --input=2x4xf32=random --buckets=B:1,8 2>&1 | FileCheck %s --check-prefix=BUCKETS
// BUCKETS: tcc-run: error: --buckets applies to --device=cpu only
// RUN: not tcc-run %s --device=cuda --input=2x4xf32=random --reference 2>&1 | FileCheck %s --check-prefix=REFERENCE
// REFERENCE: tcc-run: error: --device=cuda compiles and runs the function: not with --library or --reference
// RUN: not tcc-run %s --device=gpu --input=2x4xf32=random 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: Cannot find option named 'gpu'

func.func @relu(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
