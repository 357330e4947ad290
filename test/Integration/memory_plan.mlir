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

// The examples with and without the plan (and with the workspace): the
// same answers as the reference evaluator.
// RUN: tcc-run %examples/robot_policy.mlir --random-inputs --dim-size=5 --check-reference --no-plan-memory | FileCheck %s --check-prefix=EX_ROBOT
// RUN: tcc-run %examples/robot_policy.mlir --random-inputs --dim-size=5 --check-reference --memory-reorder --workspace=grow | FileCheck %s --check-prefix=EX_ROBOT
// EX_ROBOT-COUNT-2: [SUCCESS] result
// RUN: tcc-run %examples/conv_block.mlir --random-inputs --sizes=B=1 --check-reference --rtol=1e-3 --atol=1e-3 --no-plan-memory | FileCheck %s --check-prefix=EX_CONV
// RUN: tcc-run %examples/conv_block.mlir --random-inputs --sizes=B=1 --check-reference --rtol=1e-3 --atol=1e-3 --memory-reorder | FileCheck %s --check-prefix=EX_CONV
// EX_CONV: [SUCCESS] result[0] matches the reference (1x64x28x28xf32)
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=9 --check-reference --rtol=1e-3 --atol=0.1 --no-plan-memory | FileCheck %s --check-prefix=EX_VIT
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=9 --check-reference --rtol=1e-3 --atol=0.1 --memory-reorder | FileCheck %s --check-prefix=EX_VIT
// EX_VIT: [SUCCESS] result[0] matches the reference (2x9x768xf32)

// The copy's result and the pointwise group's (in place) are one view of
// an arena of one 64 x 128 f32 buffer; the multi-output group's first
// result is planned too.
// No heap allocation for intermediates on the hot path: the compiled
// code's malloc is counted (tcc-run --count-allocations, through the
// allocator the JIT binds) over calls after a warm-up. Each call allocates
// the arena and its results, nothing else: no per-tile scratch (it is on the
// stack of the thread running the tile), no per-group temporaries (they are
// slices of the arena), at static and dynamic sizes, a sequence of 4000
// included (the attention's score rows go on the stack while they fit).
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=50 --count-allocations | FileCheck %s --check-prefix=ALLOC_VIT
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=1,S=4000 --count-allocations | FileCheck %s --check-prefix=ALLOC_VIT
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=50 --count-allocations --no-parallel | FileCheck %s --check-prefix=ALLOC_VIT
// ALLOC_VIT: heap allocations per call: 2 (results: 1)
// With a workspace the arena is not allocated either: only the result.
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=9 --count-allocations --workspace=grow --check-reference --rtol=1e-3 --atol=0.1 | FileCheck %s --check-prefix=WS_VIT
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=9 --count-allocations --workspace=67108864 --check-reference --rtol=1e-3 --atol=0.1 | FileCheck %s --check-prefix=WS_VIT
// A static compile (the arena's size a constant) takes the workspace too,
// and so does a compile without a plan (the scratch pass's own arena;
// generated code only: without a plan, the result of a per-call library
// dispatch, an scf.if, is no temporary of the function's block, and stays
// a heap allocation).
// RUN: tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=9 --specialize=B=2,S=9 --count-allocations --workspace=grow --check-reference --rtol=1e-3 --atol=0.1 | FileCheck %s --check-prefix=WS_VIT
// RUN: tcc-run %examples/robot_policy.mlir --random-inputs --sizes=B=2 --no-plan-memory --no-library --count-allocations --workspace=grow --check-reference | FileCheck %s --check-prefix=WS_ROBOT
// WS_ROBOT: heap allocations per call: 2 (results: 2)
// WS_VIT: heap allocations per call: 1 (results: 1)
// WS_VIT: [SUCCESS] result[0] matches the reference (2x9x768xf32)
// A workspace smaller than the call needs: a clear error, nothing written
// past it.
// RUN: not tcc-run %examples/vit_block.mlir --random-inputs --sizes=B=2,S=9 --workspace=4096 2>&1 | FileCheck %s --check-prefix=WS_SMALL
// WS_SMALL: tcc-run: error: the workspace passed has 4096 bytes, this call needs {{[0-9]+}} (it ran on a temporary block instead)
// RUN: not tcc-run %examples/vit_block.mlir --random-inputs --workspace=lots 2>&1 | FileCheck %s --check-prefix=WS_BAD
// WS_BAD: tcc-run: error: --workspace takes a byte count or 'grow', got 'lots'
// RUN: tcc-run %examples/robot_policy.mlir --random-inputs --sizes=B=3 --count-allocations --no-library | FileCheck %s --check-prefix=ALLOC_ROBOT
// ALLOC_ROBOT: heap allocations per call: 3 (results: 2)
// With oneDNN the encoder's linears are chosen per call (tcc-linear-to-
// library), and the heads' [B, 13] temporary reads its size off that
// choice's result (an scf.if), which the arena's placement cannot see
// through: it stays a heap allocation (docs/layout.md, known gaps).
// RUN: tcc-run %examples/robot_policy.mlir --random-inputs --sizes=B=3 --count-allocations | FileCheck %s --check-prefix=ALLOC_ROBOT_LIB
// ALLOC_ROBOT_LIB: heap allocations per call: 4 (results: 2)
// RUN: tcc-run %examples/conv_block.mlir --random-inputs --sizes=B=2 --count-allocations --no-library | FileCheck %s --check-prefix=ALLOC_CONV
// ALLOC_CONV: heap allocations per call: 2 (results: 1)
// Through oneDNN, a convolution whose batch norm stays generated code
// writes a buffer of its own (not planned): one more per convolution. A
// convolution that takes its whole group along writes its planned place
// (conv_library.mlir).
// RUN: %if dnnl %{ tcc-run %examples/conv_block.mlir --random-inputs --sizes=B=2 --count-allocations | FileCheck %s --check-prefix=ALLOC_CONV_LIB %}
// ALLOC_CONV_LIB: heap allocations per call: 4 (results: 1)
// A softmax over rows of 4096 keeps a row block's exp and partial sums per
// tile: on the stack. No intermediate outside the group, so no arena.
// RUN: tcc-run %s --function=softmax_rows --input=64x4096xf32=random --count-allocations --check-reference | FileCheck %s --check-prefix=ALLOC_SOFTMAX
// ALLOC_SOFTMAX: heap allocations per call: 1 (results: 1)
// ALLOC_SOFTMAX: [SUCCESS] result[0] matches the reference (64x4096xf32)

// RUN: tcc-opt %s --tcc-to-linalg | FileCheck %s --check-prefix=PLANNED
// PLANNED-LABEL: func.func @in_place_chain
//       PLANNED:   %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<32768xi8>
//       PLANNED:   %[[VIEW:.+]] = memref.view %[[ARENA]][%c0{{.*}}][] : memref<32768xi8> to memref<64x128xf32>
//   PLANNED-NOT:   memref.view
//   PLANNED-NOT:   memref.alloc
//       PLANNED:   return
// PLANNED-LABEL: func.func @multi_output
//       PLANNED:   memref.alloc() {alignment = 64 : i64, tcc.arena_alloc} : memref<2048xi8>

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

func.func @softmax_rows(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<64x4096xf32>) -> tensor<64x1xf32>
  %d = tcc.sub %x, %m : (tensor<64x4096xf32>, tensor<64x1xf32>) -> tensor<64x4096xf32>
  %e = tcc.exp %d : (tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<64x4096xf32>) -> tensor<64x1xf32>
  %y = tcc.div %e, %s : (tensor<64x4096xf32>, tensor<64x1xf32>) -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}

// Regression (the ONNX test test_sce_mean_no_weight_ii_log_prob_expanded,
// as imported): a log-softmax returned through a unit-dim transpose and
// reshape, also read by later groups; the identity copy it became lowered
// to a view of the softmax's planned buffer, which a later group reused.
// RUN: tcc-run %s --function=returned_softmax_view --input=3x5xf32=random --input="3xi64=2 4 1" --check-reference | FileCheck %s --check-prefix=RETURNED_VIEW
// RETURNED_VIEW-COUNT-2: [SUCCESS]
// RETURNED_VIEW-NOT: FAILED
func.func @returned_softmax_view(%arg0: tensor<3x5xf32>, %arg1: tensor<3xi64>) -> (tensor<f32>, tensor<3x5xf32>) {
  %0 = tcc.reshape %arg0 : (tensor<3x5xf32>) -> tensor<3x5x1xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 0, 2, 1>} : (tensor<3x5x1xf32>) -> tensor<3x1x5xf32>
  %2 = tcc.log_softmax %1 {axis = 2 : i64} : (tensor<3x1x5xf32>) -> tensor<3x1x5xf32>
  %3 = tcc.transpose %2 {permutation = array<i64: 0, 2, 1>} : (tensor<3x1x5xf32>) -> tensor<3x5x1xf32>
  %4 = tcc.reshape %3 : (tensor<3x5x1xf32>) -> tensor<3x5xf32>
  %5 = tcc.constant dense<2> : tensor<i64>
  %6 = tcc.cmp %arg1, %5 {predicate = "ne"} : (tensor<3xi64>, tensor<i64>) -> tensor<3xi1>
  %7 = tcc.constant dense<0> : tensor<i64>
  %8 = tcc.select %6, %arg1, %7 : (tensor<3xi1>, tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  %9 = tcc.reshape %8 : (tensor<3xi64>) -> tensor<3x1xi64>
  %10 = tcc.constant dense<[[0, 1, 2, 3, 4]]> : tensor<1x5xi64>
  %11 = tcc.cmp %9, %10 {predicate = "eq"} : (tensor<3x1xi64>, tensor<1x5xi64>) -> tensor<3x5xi1>
  %12 = tcc.constant dense<0.000000e+00> : tensor<f32>
  %13 = tcc.select %11, %4, %12 : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %14 = tcc.reduce_sum %13 {axes = array<i64: 1>} : (tensor<3x5xf32>) -> tensor<3xf32>
  %15 = tcc.neg %14 : (tensor<3xf32>) -> tensor<3xf32>
  %16 = tcc.constant dense<0.000000e+00> : tensor<f32>
  %17 = tcc.constant dense<1.000000e+00> : tensor<f32>
  %18 = tcc.select %6, %17, %16 : (tensor<3xi1>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %19 = tcc.mul %15, %18 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %20 = tcc.reduce_sum %19 {axes = array<i64: 0>} : (tensor<3xf32>) -> tensor<f32>
  %21 = tcc.reduce_sum %18 {axes = array<i64: 0>} : (tensor<3xf32>) -> tensor<f32>
  %22 = tcc.div %20, %21 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %22, %4 : tensor<f32>, tensor<3x5xf32>
}
