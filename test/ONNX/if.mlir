// REQUIRES: onnx
// ONNX If. A run-time condition: each branch a private function of the
// outer values it reads, the node an scf.if calling the taken one; the
// result's rows are dynamic where the branches disagree (3 x 4 against an
// empty 0 x 4). A condition known at import (dim 1 of x is 4) converts
// the taken branch in place: no second scf.if, no tcc.neg.
// RUN: tcc-import-onnx %S/Inputs/if_branches.textproto | FileCheck %s --check-prefix=IMPORT
// IMPORT: func.func @main(%arg0: tensor<?x4xf32> {{.*}}, %arg1: tensor<i1> {{.*}}) -> (tensor<?x4xf32>, tensor<?x4xf32>)
// IMPORT: %[[FLAG:.+]] = tensor.extract %arg1[] : tensor<i1>
// IMPORT: scf.if %[[FLAG]] -> (tensor<?x4xf32>) {
// IMPORT: func.call @main_pick_then(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
// IMPORT: } else {
// IMPORT: %[[EMPTY:.+]] = func.call @main_pick_else() : () -> tensor<0x4xf32>
// IMPORT: tensor.cast %[[EMPTY]] : tensor<0x4xf32> to tensor<?x4xf32>
// IMPORT-NOT: scf.if
// IMPORT: tcc.relu %arg0
// IMPORT: func.func private @main_pick_then(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32>
// IMPORT: tcc.mul %arg0
// IMPORT: func.func private @main_pick_else() -> tensor<0x4xf32>
// IMPORT-NOT: tcc.neg

// Compiled, both ways, and through the reference evaluator (values by hand).
// RUN: tcc-import-onnx %S/Inputs/if_branches.textproto -o %t.mlir
// RUN: tcc-run %t.mlir --input="3x4xf32=-1 2 3 4 5 -6 7 8 9 10 11 -12" --input="i1=1" --expected_output="3x4xf32=-2 4 6 8 10 -12 14 16 18 20 22 -24" --expected_output="3x4xf32=0 2 3 4 5 0 7 8 9 10 11 0" | FileCheck %s --check-prefix=OK
// RUN: tcc-run %t.mlir --input="3x4xf32=-1 2 3 4 5 -6 7 8 9 10 11 -12" --input="i1=0" --expected_output="0x4xf32" --expected_output="3x4xf32=0 2 3 4 5 0 7 8 9 10 11 0" | FileCheck %s --check-prefix=OK
// RUN: tcc-run %t.mlir --reference --input="2x4xf32=1 -2 3 -4 5 6 7 8" --input="i1=1" --expected_output="2x4xf32=2 -4 6 -8 10 12 14 16" --expected_output="2x4xf32=1 0 3 0 5 6 7 8" | FileCheck %s --check-prefix=OK
// RUN: tcc-run %t.mlir --reference --input="2x4xf32=1 -2 3 -4 5 6 7 8" --input="i1=0" --expected_output="0x4xf32" --expected_output="2x4xf32=1 0 3 0 5 6 7 8" | FileCheck %s --check-prefix=OK
// OK-NOT: FAIL
// OK: [SUCCESS] result[1] matches

// Branches of different ranks are an import error naming the node.
// RUN: not tcc-import-onnx %S/Inputs/if_rank_mismatch.textproto 2>&1 | FileCheck %s --check-prefix=RANKS
// RANKS: ONNX node 'ranks' (If, opset 17): output 0: the branches yield tensors of different ranks or element types
