// RUN: tcc-opt %s --plan-memory --verify-memory-plan --split-input-file | FileCheck %s
// RUN: tcc-opt %s --plan-memory=in-place=false --verify-memory-plan --split-input-file | FileCheck %s --check-prefix=NOINPLACE
// RUN: tcc-opt %s --plan-memory=target=cuda --verify-memory-plan --split-input-file | FileCheck %s --check-prefix=CUDA

// A pointwise group whose input dies there writes its result over it: the
// exp takes the copy's bytes, the relu (returned) is not planned. The arena
// holds one buffer; without in-place reuse it holds two. On the GPU target
// offsets and sizes are multiples of 256.
// CHECK-LABEL: func.func @chain_in_place
//  CHECK-SAME:   tcc.arena = [{naive = 512 : i64, scale = "1", size = 256 : i64}], tcc.arena_alignment = 64 : i64
//       CHECK:   fusion.group "copy"{{.*}}tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 256 : i64}
//       CHECK:   fusion.group "pointwise"{{.*}}tcc.buffer = {in_place = 0 : i64, offset = 0 : i64, region = 0 : i64, size = 256 : i64}
//       CHECK:     tcc.exp
// NOINPLACE-LABEL: func.func @chain_in_place
//  NOINPLACE-SAME:   tcc.arena = [{naive = 512 : i64, scale = "1", size = 512 : i64}]
//   NOINPLACE-NOT:   in_place =
// CUDA-LABEL: func.func @chain_in_place
//  CUDA-SAME:   tcc.arena = [{naive = 512 : i64, scale = "1", size = 256 : i64}], tcc.arena_alignment = 256 : i64
func.func @chain_in_place(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = fusion.group "copy"(%x : tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0>} : (tensor<64xf32>) -> tensor<64xf32>
    fusion.yield %t : tensor<64xf32>
  }
  %1 = fusion.group "pointwise"(%0 : tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>):
    %e = tcc.exp %a : (tensor<64xf32>) -> tensor<64xf32>
    fusion.yield %e : tensor<64xf32>
  }
  %2 = fusion.group "pointwise"(%1 : tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>):
    %r = tcc.relu %a : (tensor<64xf32>) -> tensor<64xf32>
    fusion.yield %r : tensor<64xf32>
  }
  return %2 : tensor<64xf32>
}

// -----

// Not in place: the input is still read after the group (%0 by the add;
// the add itself may take %0 over), the input is broadcast inside the group
// (each element feeds eight of the result), the group is a reduction, and a
// dynamic operand could stretch the input at run time.
// CHECK-LABEL: func.func @not_in_place
//       CHECK:   %[[C:.+]] = fusion.group "copy"
//       CHECK:   fusion.group "pointwise"(%[[C]] : tensor<64xf32>) -> tensor<64xf32> {
//       CHECK:   fusion.group "pointwise"(%[[C]], %{{.+}}) -> tensor<64xf32> attributes {tcc.buffer = {in_place = 0 : i64
//       CHECK:   fusion.group "pointwise"{{.*}} -> tensor<8x64xf32> {
//       CHECK:   fusion.group "reduction"{{.*}} -> tensor<64xf32> {
//       CHECK:   fusion.group "pointwise"{{.*}} -> tensor<?xf32> {
//       CHECK:   return
func.func @not_in_place(%x: tensor<64xf32>, %y: tensor<8x64xf32>, %d: tensor<?xf32>) -> (tensor<64xf32>, tensor<8x64xf32>, tensor<64xf32>, tensor<?xf32>) {
  %0 = fusion.group "copy"(%x : tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0>} : (tensor<64xf32>) -> tensor<64xf32>
    fusion.yield %t : tensor<64xf32>
  }
  // %0 lives on past this group.
  %1 = fusion.group "pointwise"(%0 : tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>):
    %e = tcc.exp %a : (tensor<64xf32>) -> tensor<64xf32>
    fusion.yield %e : tensor<64xf32>
  }
  %2 = fusion.group "pointwise"(%0, %1 : tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>, %b: tensor<64xf32>):
    %s = tcc.add %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    fusion.yield %s : tensor<64xf32>
  }
  // Broadcast: each element of %2 feeds eight of the result.
  %3 = fusion.group "pointwise"(%2, %y : tensor<64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%a: tensor<64xf32>, %b: tensor<8x64xf32>):
    %s = tcc.add %a, %b : (tensor<64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    fusion.yield %s : tensor<8x64xf32>
  }
  %4 = fusion.group "copy"(%x : tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0>} : (tensor<64xf32>) -> tensor<64xf32>
    fusion.yield %t : tensor<64xf32>
  }
  // A reduction reads the whole row before writing.
  %5 = fusion.group "reduction"(%4 : tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: tensor<64xf32>):
    %s = tcc.softmax %a {axis = 0 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    fusion.yield %s : tensor<64xf32>
  }
  %6 = fusion.group "copy"(%d : tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: tensor<?xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0>} : (tensor<?xf32>) -> tensor<?xf32>
    fusion.yield %t : tensor<?xf32>
  }
  // %d may be [1] where %6 is [N] or the other way round.
  %7 = fusion.group "pointwise"(%6, %d : tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
    %s = tcc.mul %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    fusion.yield %s : tensor<?xf32>
  }
  return %1, %3, %5, %7 : tensor<64xf32>, tensor<8x64xf32>, tensor<64xf32>, tensor<?xf32>
}

// -----

// Not in place: the buffer comes in twice, once through a reshape (a view)
// that a broadcast reads at other positions.
// CHECK-LABEL: func.func @passed_twice
//       CHECK:   fusion.group "pointwise"{{.*}}tcc.buffer = {offset = {{[0-9]+}} : i64, region = 0 : i64, size = 64 : i64}}
//   CHECK-NOT:   in_place =
//       CHECK:   return
func.func @passed_twice(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = fusion.group "copy"(%x : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    fusion.yield %t : tensor<4x4xf32>
  }
  %r = tcc.reshape %0 {shape = array<i64: 16>} : (tensor<4x4xf32>) -> tensor<16xf32>
  %s = tcc.slice %r {starts = array<i64: 0>, ends = array<i64: 4>, steps = array<i64: 1>} : (tensor<16xf32>) -> tensor<4xf32>
  %1 = fusion.group "pointwise"(%0, %s : tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4xf32>):
    %m = tcc.mul %a, %b : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
    fusion.yield %m : tensor<4x4xf32>
  }
  %2 = fusion.group "copy"(%1 : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    fusion.yield %t : tensor<4x4xf32>
  }
  return %2 : tensor<4x4xf32>
}

// -----

// Dynamic sizes: the pointwise group over [B, 16] overwrites its input of
// the same size expression; a scalar broadcast operand cannot stretch it.
// CHECK-LABEL: func.func @dynamic_in_place
//  CHECK-SAME:   tcc.arena = [{naive = 128 : i64, scale = "B", size = 64 : i64}]
//       CHECK:   fusion.group "pointwise"{{.*}}tcc.buffer = {in_place = 0 : i64, offset = 0 : i64, region = 0 : i64, size = 64 : i64}
func.func @dynamic_in_place(%x: tensor<?x16xf32> {tcc.shape = #tcc.shape<[B, 16]>}, %s: tensor<f32>) -> tensor<?x16xf32> {
  %0 = fusion.group "copy"(%x : tensor<?x16xf32>) -> tensor<?x16xf32> {
  ^bb0(%a: tensor<?x16xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0, 1>} : (tensor<?x16xf32>) -> tensor<?x16xf32>
    fusion.yield %t : tensor<?x16xf32>
  }
  %1 = fusion.group "pointwise"(%0, %s : tensor<?x16xf32>, tensor<f32>) -> tensor<?x16xf32> {
  ^bb0(%a: tensor<?x16xf32>, %b: tensor<f32>):
    %m = tcc.mul %a, %b : (tensor<?x16xf32>, tensor<f32>) -> tensor<?x16xf32>
    fusion.yield %m : tensor<?x16xf32>
  }
  %2 = fusion.group "copy"(%1 : tensor<?x16xf32>) -> tensor<?x16xf32> {
  ^bb0(%a: tensor<?x16xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0, 1>} : (tensor<?x16xf32>) -> tensor<?x16xf32>
    fusion.yield %t : tensor<?x16xf32>
  }
  return %2 : tensor<?x16xf32>
}

// -----

// A multi-output group: each result that is not returned gets its own
// entry, in an array in result order (unit for an unplanned result).
// CHECK-LABEL: func.func @multi_output
//       CHECK:   fusion.group "reduction"{{.*}}tcc.buffer = [{offset = {{[0-9]+}} : i64, region = 0 : i64, size = 256 : i64}, unit]
func.func @multi_output(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0:2 = fusion.group "reduction"(%x : tensor<4x16xf32>) -> tensor<4x16xf32>, tensor<4x16xf32> {
  ^bb0(%a: tensor<4x16xf32>):
    %e = tcc.exp %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %s = tcc.softmax %e {axis = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    fusion.yield %e, %s : tensor<4x16xf32>, tensor<4x16xf32>
  }
  %1 = fusion.group "copy"(%0#0 : tensor<4x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%a: tensor<4x16xf32>):
    %t = tcc.transpose %a {permutation = array<i64: 0, 1>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    fusion.yield %t : tensor<4x16xf32>
  }
  return %1, %0#1 : tensor<4x16xf32>, tensor<4x16xf32>
}
