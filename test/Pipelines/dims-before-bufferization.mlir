// Before one-shot bufferization every dynamic size is the function-level
// value it is: a later group's loops run to the argument's dim, not to the
// dim of the earlier group's loop result. (The bufferization analysis
// compares slices by value bounds; with dims of loop results each
// comparison walked the chain of groups back to the arguments: 3.0 of the
// 3.8 s a transformer layer's pipeline took.)
// RUN: tcc-opt %s --tcc-cpu-pipeline --mlir-print-ir-before=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s
// RUN: tcc-run %s --input="3x64xf32=random" --check-reference | FileCheck %s --check-prefix=OK

// CHECK-LABEL: func.func @two_groups
//       CHECK:   %[[B:.+]] = tensor.dim %arg0, %c0
//       CHECK:   scf.for %{{.+}} = %c0 to %[[B]] step
//       CHECK:   scf.for %{{.+}} = %c0 to %[[B]] step
//       CHECK:   scf.for %{{.+}} = %c0 to %[[B]] step
//   CHECK-NOT:   tensor.dim
//       CHECK:   return
// OK-NOT: FAIL
// OK: matches the reference
func.func @two_groups(%x: tensor<?x64xf32> {tcc.shape = #tcc.shape<[B, 64]>}) -> tensor<?x64xf32> {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %1 = tcc.softmax %0 {axis = 0 : i64} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %1 : tensor<?x64xf32>
}
