// Compiled code with and without the memory plan against the reference
// evaluator: in-place chains (static and dynamic), a multi-output group with
// one planned result, and the examples' plans with reordering.
// RUN: tcc-run %s --function=in_place_chain --input=64x128xf32=random --check-reference | FileCheck %s --check-prefix=CHAIN
// RUN: tcc-run %s --function=in_place_chain --input=64x128xf32=random --check-reference --no-plan-memory | FileCheck %s --check-prefix=CHAIN
// CHAIN: [SUCCESS] result[0] matches the reference (64x128xf32)
// RUN: tcc-run %s --function=dynamic_in_place --input=37x16xf32=random --input=f32=3 --check-reference | FileCheck %s --check-prefix=DYN
// DYN: [SUCCESS] result[0] matches the reference (37x16xf32)
// RUN: tcc-run %s --function=multi_output --input=8x64xf32=random --check-reference | FileCheck %s --check-prefix=MULTI
// MULTI-COUNT-2: [SUCCESS] result
// RUN: tcc-run %s --function=dynamic_in_place --input=5x16xf32=random --input=f32=3 --check-reference --no-plan-memory | FileCheck %s --check-prefix=DYN5
// DYN5: [SUCCESS] result[0] matches the reference (5x16xf32)
// RUN: tcc-run %s --function=multi_output --input=8x64xf32=random --check-reference --no-plan-memory | FileCheck %s --check-prefix=MULTI

// The copy's result and the pointwise group's (in place) are one view of
// an arena of one 64 x 128 f32 buffer; the multi-output group's first
// result is planned too.
// RUN: tcc-opt %s --tcc-to-linalg | FileCheck %s --check-prefix=PLANNED
// PLANNED-LABEL: func.func @in_place_chain
//       PLANNED:   %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<32768xi8>
//       PLANNED:   %[[VIEW:.+]] = memref.view %[[ARENA]][%c0{{.*}}][] : memref<32768xi8> to memref<64x128xf32>
//   PLANNED-NOT:   memref.view
//   PLANNED-NOT:   memref.alloc
//       PLANNED:   return
// PLANNED-LABEL: func.func @multi_output
//       PLANNED:   memref.alloc() {alignment = 64 : i64} : memref<2048xi8>

func.func @in_place_chain(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = fusion.group "copy"(%x : tensor<64x128xf32>) -> tensor<64x128xf32> {
  ^bb0(%a: tensor<64x128xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0, 1>} : (tensor<64x128xf32>) -> tensor<64x128xf32>
    fusion.yield %t : tensor<64x128xf32>
  }
  %1 = fusion.group "pointwise"(%0 : tensor<64x128xf32>) -> tensor<64x128xf32> {
  ^bb0(%a: tensor<64x128xf32>):
    %e = tcc.exp %a : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %n = tcc.neg %e : (tensor<64x128xf32>) -> tensor<64x128xf32>
    fusion.yield %n : tensor<64x128xf32>
  }
  %2 = fusion.group "copy"(%1 : tensor<64x128xf32>) -> tensor<64x128xf32> {
  ^bb0(%a: tensor<64x128xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0, 1>} : (tensor<64x128xf32>) -> tensor<64x128xf32>
    fusion.yield %t : tensor<64x128xf32>
  }
  return %2 : tensor<64x128xf32>
}

func.func @dynamic_in_place(%x: tensor<?x16xf32>, %s: tensor<f32>) -> tensor<?x16xf32> {
  %0 = fusion.group "copy"(%x : tensor<?x16xf32>) -> tensor<?x16xf32> {
  ^bb0(%a: tensor<?x16xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0, 1>} : (tensor<?x16xf32>) -> tensor<?x16xf32>
    fusion.yield %t : tensor<?x16xf32>
  }
  %1 = fusion.group "pointwise"(%0, %s : tensor<?x16xf32>, tensor<f32>) -> tensor<?x16xf32> {
  ^bb0(%a: tensor<?x16xf32>, %b: tensor<f32>):
    %m = tcc.mul %a, %b : (tensor<?x16xf32>, tensor<f32>) -> tensor<?x16xf32>
    %t = tcc.tanh %m : (tensor<?x16xf32>) -> tensor<?x16xf32>
    fusion.yield %t : tensor<?x16xf32>
  }
  %2 = fusion.group "copy"(%1 : tensor<?x16xf32>) -> tensor<?x16xf32> {
  ^bb0(%a: tensor<?x16xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0, 1>} : (tensor<?x16xf32>) -> tensor<?x16xf32>
    fusion.yield %t : tensor<?x16xf32>
  }
  return %2 : tensor<?x16xf32>
}

func.func @multi_output(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %0:2 = fusion.group "reduction"(%x : tensor<8x64xf32>) -> tensor<8x64xf32>, tensor<8x64xf32> {
  ^bb0(%a: tensor<8x64xf32>):
    %e = tcc.exp %a : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %s = tcc.softmax %e {axis = 1 : i64} : (tensor<8x64xf32>) -> tensor<8x64xf32>
    fusion.yield %e, %s : tensor<8x64xf32>, tensor<8x64xf32>
  }
  %1 = fusion.group "copy"(%0#0 : tensor<8x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%a: tensor<8x64xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0, 1>} : (tensor<8x64xf32>) -> tensor<8x64xf32>
    fusion.yield %t : tensor<8x64xf32>
  }
  return %1, %0#1 : tensor<8x64xf32>, tensor<8x64xf32>
}
