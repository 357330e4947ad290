// The compile cache (docs/compile-cache.md), each process a new one: a cold
// compile misses and stores the object code, the same module and options
// hit (no pipeline, no LLVM), a changed option is another key, a corrupt
// entry is detected, removed and rebuilt, a compile that writes a report
// always runs; tcc-compile's libraries (and manifests) come from the cache
// too and run.
// RUN: rm -rf %t.cache %t.lib %t.warm && mkdir -p %t.lib %t.warm
// RUN: env TCC_CACHE_DIR=%t.cache TCC_CACHE_LOG=1 tcc-run %s --input="4xf32=1 2 3 4" --expected_output="4xf32=3 5 7 9" 2>&1 | FileCheck %s --check-prefix=COLD
// COLD: tcc-cache: miss tcc-[[KEY:[0-9a-f]+]].a
// COLD: tcc-cache: store tcc-[[KEY]].a
// COLD: [SUCCESS] result[0] matches
// RUN: env TCC_CACHE_DIR=%t.cache TCC_CACHE_LOG=1 tcc-run %s --input="4xf32=1 2 3 4" --expected_output="4xf32=3 5 7 9" 2>&1 | FileCheck %s --check-prefix=WARM
// WARM: tcc-cache: hit tcc-{{[0-9a-f]+}}.a
// WARM-NOT: tcc-cache: store
// WARM: [SUCCESS] result[0] matches
// RUN: env TCC_CACHE_DIR=%t.cache TCC_CACHE_LOG=1 tcc-run %s --no-fuse --input="4xf32=1 2 3 4" --expected_output="4xf32=3 5 7 9" 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %python -c "import glob; [open(f, 'r+b').write(b'garbage!') for f in glob.glob('%t.cache/tcc-*.a')]"
// RUN: env TCC_CACHE_DIR=%t.cache TCC_CACHE_LOG=1 tcc-run %s --input="4xf32=1 2 3 4" --expected_output="4xf32=3 5 7 9" 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: tcc-cache: corrupt tcc-[[KEY:[0-9a-f]+]].a
// CORRUPT: tcc-cache: store tcc-[[KEY]].a
// CORRUPT: [SUCCESS] result[0] matches
// RUN: env TCC_CACHE_DIR=%t.cache TCC_CACHE_LOG=1 tcc-run %s --fusion-report=%t.report.json --input="4xf32=1 2 3 4" --expected_output="4xf32=3 5 7 9" 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT-NOT: tcc-cache
// REPORT: [SUCCESS] result[0] matches
// RUN: env TCC_CACHE_DIR=%t.cache TCC_CACHE_LOG=1 tcc-compile %s -o %t.lib/libaxpb.so 2>&1 | FileCheck %s --check-prefix=LIB_COLD
// LIB_COLD: tcc-cache: miss tcc-[[LIB:[0-9a-f]+]].so
// LIB_COLD: tcc-cache: store tcc-[[LIB]].so
// LIB_COLD: tcc-cache: store tcc-[[LIB]].json
// RUN: env TCC_CACHE_DIR=%t.cache TCC_CACHE_LOG=1 tcc-compile %s -o %t.warm/libaxpb.so 2>&1 | FileCheck %s --check-prefix=LIB_WARM
// LIB_WARM: tcc-cache: hit tcc-[[LIB:[0-9a-f]+]].so
// LIB_WARM: tcc-cache: hit tcc-[[LIB]].json
// LIB_WARM-NOT: store
// RUN: tcc-run %s --reference --input="4xf32=1 2 3 4" --output=@%t.warm/expected.npy
// RUN: tcc-run-lib %t.warm/libaxpb.so --input="4xf32=1 2 3 4" --expected_output=@%t.warm/expected.npy | FileCheck %s --check-prefix=LIB_OK
// LIB_OK: [SUCCESS] result[0] matches
// Off: nothing is looked up or stored.
// RUN: env TCC_CACHE_DIR=off TCC_CACHE_LOG=1 tcc-run %s --input="4xf32=1 2 3 4" 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: tcc-cache

func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %two = tcc.constant dense<2.0> : tensor<f32>
  %one = tcc.constant dense<1.0> : tensor<f32>
  %0 = tcc.mul %x, %two : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  %1 = tcc.add %0, %one : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
