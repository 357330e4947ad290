// tcc-compile: a module to a shared library with the C ABI of
// include/tcc/Runtime/tcc_model.h and a JSON manifest; tcc-run --library
// runs the library's entries and compares them with the reference
// evaluator on the source.

// RUN: rm -rf %t && mkdir -p %t
// RUN: tcc-compile %s -o %t/libmodel.so
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/libmodel.json
// MANIFEST:      "entries": [
// MANIFEST:          "checks": [
// MANIFEST-NEXT:       "input 0 (x) dim 1 == 16",
// MANIFEST-NEXT:       "input 1 dim 0 == input 0 (x) dim 0 (N)",
// MANIFEST-NEXT:       "input 1 dim 1 == 16"
// MANIFEST-NEXT:     ],
// MANIFEST-NEXT:     "inputs": [
// MANIFEST-NEXT:       {
// MANIFEST-NEXT:         "dtype": "f32",
// MANIFEST-NEXT:         "rank": 2,
// MANIFEST-NEXT:         "shape": [
// MANIFEST-NEXT:           "N",
// MANIFEST-NEXT:           "16"
// MANIFEST:          "name": "scaled_softmax",
// MANIFEST:          "results": [
// MANIFEST:              "shape": [
// MANIFEST-NEXT:           "N",
// MANIFEST-NEXT:           "16"
// MANIFEST:          "symbols": [
// MANIFEST-NEXT:       {
// MANIFEST-NEXT:         "dim": 0,
// MANIFEST-NEXT:         "input": 0,
// MANIFEST-NEXT:         "name": "N"
// MANIFEST:          "name": "concat_rows",
// MANIFEST:      "format": "tcc-model-1",
// MANIFEST:      "target": "cpu",

// Both entries, several sizes (one library serves every N), against the
// reference.
// RUN: tcc-run %s --library=%t/libmodel.so --function=scaled_softmax --input=3x16xf32=random --input=3x16xf32=random --check-reference | FileCheck %s --check-prefix=RUN3
// RUN: tcc-run %s --library=%t/libmodel.so --function=scaled_softmax --input=1000x16xf32=random --input=1000x16xf32=random --check-reference | FileCheck %s --check-prefix=RUN1000
// RUN: tcc-run %s --library=%t/libmodel.so --function=concat_rows --input=2x3xi32=random --input=5x3xi32=random --check-reference | FileCheck %s --check-prefix=CONCAT
// Results that alias an input or each other are copied, so each result
// owns its buffer (tcc_release frees it once).
// RUN: tcc-run %s --library=%t/libmodel.so --function=passthrough --input=4x3xf32=random --check-reference | FileCheck %s --check-prefix=ALIAS
// ALIAS: [SUCCESS] result[0] matches the reference (4x3xf32)
// ALIAS: [SUCCESS] result[1] matches the reference (4x3xf32)
// ALIAS: [SUCCESS] result[2] matches the reference (4x3xf32)
// RUN3: [SUCCESS] result[0] matches the reference (3x16xf32)
// RUN3: [SUCCESS] result[1] matches the reference (3x1xf32)
// RUN1000: [SUCCESS] result[0] matches the reference (1000x16xf32)
// CONCAT: [SUCCESS] result[0] matches the reference (7x3xi32)

// Inputs that break the signature: clear errors, nothing runs.
// RUN: not tcc-run %s --library=%t/libmodel.so --function=scaled_softmax --input=3x16xf32=random --input=4x16xf32=random 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: tcc-run: error: scaled_softmax: input sizes [3, 16], [4, 16] violate input 1 dim 0 == input 0 (x) dim 0 (N)
// RUN: not tcc-run %s --library=%t/libmodel.so --function=scaled_softmax --input=3x8xf32=random --input=3x8xf32=random 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: tcc-run: error: scaled_softmax: input sizes [3, 8], [3, 8] violate input 0 (x) dim 1 == 16
// RUN: not tcc-run %s --library=%t/libmodel.so --function=scaled_softmax --input=3x16xf64=random --input=3x16xf32=random 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: tcc-run: error: scaled_softmax: input 0 must have dtype f32, got f64
// RUN: not tcc-run %s --library=%t/libmodel.so --function=scaled_softmax --input=3x16xf32=random 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: tcc-run: error: scaled_softmax takes 2 inputs and gives 2 results, got 1 and 2
// RUN: not tcc-run %s --library=%t/libmodel.so --function=concat_rows --input=2x3x1xi32=random --input=5x3xi32=random 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: tcc-run: error: concat_rows: input 0 must have rank 2, got 3

// Bad uses of the tool itself.
// RUN: not tcc-compile %s -o %t/model.txt 2>&1 | FileCheck %s --check-prefix=NOTSO
// NOTSO: tcc-compile: error: -o: expected a shared library name ending in .so, got '{{.*}}model.txt'
// RUN: not tcc-compile %S/Inputs/no-public.mlir -o %t/libnone.so 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: tcc-compile: error: {{.*}}no-public.mlir has no public function to export
// RUN: not tcc-run %s --function=scaled_softmax --library=%t/missing.so --input=3x16xf32=random 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tcc-run: error: cannot load {{.*}}missing.so

func.func @scaled_softmax(%x: tensor<?x16xf32> {tcc.shape = #tcc.shape<[N, 16]>, tcc.name = "x"}, %y: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x1xf32>) {
  %s = tcc.mul %x, %y : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  %p = tcc.softmax %s {axis = 1 : i64} : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %m = tcc.reduce_max %s {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  return %p, %m : tensor<?x16xf32>, tensor<?x1xf32>
}

func.func @concat_rows(%a: tensor<?x3xi32>, %b: tensor<?x3xi32>) -> tensor<?x3xi32> {
  %c = tcc.concat %a, %b {axis = 0 : i64} : (tensor<?x3xi32>, tensor<?x3xi32>) -> tensor<?x3xi32>
  return %c : tensor<?x3xi32>
}

func.func @passthrough(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %n = tcc.neg %a : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %a, %n, %n : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}
