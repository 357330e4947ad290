// Weights beside the library (tcc-compile --weights, docs/aot.md): the
// 8 KB weight goes to libw.weights, the 128-byte bias stays inside; the
// library maps the file when loaded and its results match the reference
// evaluator's. Without the file, with a truncated one or with another
// build's, every call fails with a message and nothing runs. Embedded, or
// under auto's 64 MiB, there is no file. The compile cache keeps the file
// with the library.

// RUN: rm -rf %t && mkdir -p %t/a %t/b %t/embed %t/auto %t/warm
// RUN: %python %S/Inputs/weights_model.py 1 > %t/model.mlir
// RUN: %python %S/Inputs/weights_model.py 2 > %t/other.mlir
// RUN: tcc-run %t/model.mlir --reference --input=3x64xf32=random --output=@%t/expected.npy

// RUN: env TCC_CACHE_DIR=off tcc-compile %t/model.mlir --weights=file -o %t/a/libw.so
// RUN: %python -c "import os; print('weights', os.path.getsize('%t/a/libw.weights'))" | FileCheck %s --check-prefix=SIZE
// SIZE: weights 12288
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/a/libw.json
// MANIFEST: "weights": "libw.weights"
// RUN: tcc-run-lib %t/a/libw.so --input=3x64xf32=random --expected_output=@%t/expected.npy | FileCheck %s --check-prefix=OK
// OK: [SUCCESS] result[0] matches the expected output (3x32xf32)

// RUN: mv %t/a/libw.weights %t/a/saved.weights
// RUN: not tcc-run-lib %t/a/libw.so --input=3x64xf32=random 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: the weights file {{.*}}libw.weights cannot be opened: No such file or directory
// RUN: head -c 8192 %t/a/saved.weights > %t/a/libw.weights
// RUN: not tcc-run-lib %t/a/libw.so --input=3x64xf32=random 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error: the weights file {{.*}}libw.weights has 8192 bytes, not 12288
// RUN: env TCC_CACHE_DIR=off tcc-compile %t/other.mlir --weights=file -o %t/b/libw.so
// RUN: cp %t/b/libw.weights %t/a/libw.weights
// RUN: not tcc-run-lib %t/a/libw.so --input=3x64xf32=random 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: the weights file {{.*}}libw.weights belongs to another build of the library
// RUN: cp %t/a/saved.weights %t/a/libw.weights
// RUN: tcc-run-lib %t/a/libw.so --input=3x64xf32=random --expected_output=@%t/expected.npy | FileCheck %s --check-prefix=OK

// RUN: env TCC_CACHE_DIR=off tcc-compile %t/model.mlir --weights=embed -o %t/embed/libw.so
// RUN: env TCC_CACHE_DIR=off tcc-compile %t/model.mlir -o %t/auto/libw.so
// RUN: %python -c "import os; print(sorted(os.listdir('%t/embed')), sorted(os.listdir('%t/auto')))" | FileCheck %s --check-prefix=INSIDE
// INSIDE: ['libw.json', 'libw.so'] ['libw.json', 'libw.so']
// RUN: tcc-run-lib %t/embed/libw.so --input=3x64xf32=random --expected_output=@%t/expected.npy | FileCheck %s --check-prefix=OK
// RUN: not grep weights %t/embed/libw.json

// RUN: env TCC_CACHE_DIR=%t/cache TCC_CACHE_LOG=1 tcc-compile %t/model.mlir --weights=file -o %t/b/libw.so 2>&1 | FileCheck %s --check-prefix=STORE
// STORE: tcc-cache: miss tcc-[[KEY:[0-9a-f]+]].so
// STORE: tcc-cache: store tcc-[[KEY]].weights
// STORE: tcc-cache: store tcc-[[KEY]].so
// STORE: tcc-cache: store tcc-[[KEY]].json
// RUN: env TCC_CACHE_DIR=%t/cache TCC_CACHE_LOG=1 tcc-compile %t/model.mlir --weights=file -o %t/warm/libw.so 2>&1 | FileCheck %s --check-prefix=HIT
// HIT: tcc-cache: hit tcc-[[KEY:[0-9a-f]+]].so
// HIT: tcc-cache: hit tcc-[[KEY]].json
// HIT: tcc-cache: hit tcc-[[KEY]].weights
// HIT-NOT: store
// RUN: tcc-run-lib %t/warm/libw.so --input=3x64xf32=random --expected_output=@%t/expected.npy | FileCheck %s --check-prefix=OK
// Another placement is another key.
// RUN: env TCC_CACHE_DIR=%t/cache TCC_CACHE_LOG=1 tcc-compile %t/model.mlir --weights=embed -o %t/warm/libw.so 2>&1 | FileCheck %s --check-prefix=MISS
// MISS: tcc-cache: miss
// RUN: not ls %t/warm/libw.weights

// RUN: not tcc-compile %t/model.mlir --weights=beside -o %t/a/libx.so 2>&1 | FileCheck %s --check-prefix=BADFLAG
// BADFLAG: Cannot find option named 'beside'

// This file is only the test's script: the model is written by the RUN
// lines above.
