// RUN: tcc-opt %s --fuse --plan-memory --verify-memory-plan --split-input-file | FileCheck %s
// RUN: tcc-opt %s --fuse --plan-memory=alignment=128 --verify-memory-plan --split-input-file | FileCheck %s --check-prefix=ALIGN128
// RUN: tcc-opt %s --split-input-file --pass-pipeline='builtin.module(fuse,plan-memory{alignment=16},func.func(verify-memory-plan))' | FileCheck %s --check-prefix=ALIGN16

// Invalid alignments: plan-memory-invalid.mlir.

// A chain: each intermediate dies when the next-but-one is made, so buffers
// with disjoint lifetimes share offset 0 and the arena holds two buffers
// where a naive plan holds four. The returned value is not planned.
// CHECK-LABEL: func.func @disjoint_lifetimes_share
//  CHECK-SAME:   attributes {tcc.arena = [{naive = 4096 : i64, scale = "1", size = 2048 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 4096 : i64}
// Transposes are "copy" groups with a buffer of their own; the ops inside a
// group get none.
//       CHECK:   %[[M0:.+]] = fusion.group "matmul"{{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 1024 : i64}}
//       CHECK:   %[[T0:.+]] = fusion.group "copy"(%[[M0]] : tensor<16x16xf32>) -> tensor<16x16xf32> attributes {tcc.buffer = {offset = 1024 : i64, region = 0 : i64, size = 1024 : i64}}
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.transpose %{{.*}} {permutation = array<i64: 1, 0>} :
//       CHECK:   %[[M1:.+]] = fusion.group "matmul"(%[[T0]], {{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 1024 : i64}}
//       CHECK:   %[[T1:.+]] = fusion.group "copy"(%[[M1]] : tensor<16x16xf32>) -> tensor<16x16xf32> attributes {tcc.buffer = {offset = 1024 : i64, region = 0 : i64, size = 1024 : i64}}
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.transpose %{{.*}} {permutation = array<i64: 1, 0>} :
//       CHECK:   %[[M2:.+]] = fusion.group "matmul"(%[[T1]], {{.*}} -> tensor<16x16xf32> {
//   CHECK-NOT:   tcc.buffer
//       CHECK:   return %[[M2]]
// ALIGN128-LABEL: func.func @disjoint_lifetimes_share
//  ALIGN128-SAME:   tcc.arena = [{naive = 4096 : i64, scale = "1", size = 2048 : i64}]
func.func @disjoint_lifetimes_share(%x: tensor<16x16xf32>, %w: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = tcc.matmul %x, %w : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = tcc.matmul %1, %w : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %3 = tcc.transpose %2 {permutation = array<i64: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %4 = tcc.matmul %3, %w : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %4 : tensor<16x16xf32>
}

// -----

// Three 40-byte buffers live at the same time: no two overlap, and every
// offset is a multiple of the alignment (64 by default, 128 or 16 when
// asked for).
// CHECK-LABEL: func.func @overlapping_lifetimes
//  CHECK-SAME:   tcc.arena = [{naive = 192 : i64, scale = "1", size = 192 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 192 : i64
//       CHECK:   fusion.group "pointwise"{{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 40 : i64}}
//       CHECK:   fusion.group "copy"{{.*}}tcc.buffer = {offset = 64 : i64, region = 0 : i64, size = 40 : i64}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "copy"{{.*}}tcc.buffer = {offset = 128 : i64, region = 0 : i64, size = 40 : i64}
//       CHECK:     tcc.transpose
//       CHECK:   %[[R:.+]] = fusion.group "pointwise"{{.*}} -> tensor<10xf32> {
//   CHECK-NOT:   tcc.buffer
//       CHECK:   return %[[R]]
// ALIGN128-LABEL: func.func @overlapping_lifetimes
//  ALIGN128-SAME:   tcc.arena = [{naive = 384 : i64, scale = "1", size = 384 : i64}], tcc.arena_alignment = 128 : i64, tcc.arena_symbols = {}, tcc.naive_size = 384 : i64
//       ALIGN128:   tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 40 : i64}
//       ALIGN128:   tcc.buffer = {offset = 128 : i64, region = 0 : i64, size = 40 : i64}
//       ALIGN128:   tcc.buffer = {offset = 256 : i64, region = 0 : i64, size = 40 : i64}
// ALIGN16-LABEL: func.func @overlapping_lifetimes
//  ALIGN16-SAME:   tcc.arena = [{naive = 144 : i64, scale = "1", size = 144 : i64}], tcc.arena_alignment = 16 : i64, tcc.arena_symbols = {}, tcc.naive_size = 144 : i64
//       ALIGN16:   tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 40 : i64}
//       ALIGN16:   tcc.buffer = {offset = 48 : i64, region = 0 : i64, size = 40 : i64}
//       ALIGN16:   tcc.buffer = {offset = 96 : i64, region = 0 : i64, size = 40 : i64}
func.func @overlapping_lifetimes(%x: tensor<10xf32>) -> tensor<10xf32> {
  %0 = tcc.exp %x : (tensor<10xf32>) -> tensor<10xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 0>} : (tensor<10xf32>) -> tensor<10xf32>
  %2 = tcc.transpose %0 {permutation = array<i64: 0>} : (tensor<10xf32>) -> tensor<10xf32>
  %3 = tcc.add %1, %2 : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
  return %3 : tensor<10xf32>
}

// -----

// Larger buffers are placed first: %c reuses %a's offset, and the small
// %b, live across both (the matmul reads it through a reshape), goes after.
// %a: 4096 B live [0, 1]; %b: 128 B live [1, 4]; %c: 4096 B live [2, 4].
// CHECK-LABEL: func.func @largest_first
//  CHECK-SAME:   tcc.arena = [{naive = 8320 : i64, scale = "1", size = 4224 : i64}]
//       CHECK:   fusion.group "copy"{{.*}}tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 4096 : i64}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "reduction"{{.*}}tcc.buffer = {offset = 4096 : i64, region = 0 : i64, size = 128 : i64}
//       CHECK:   fusion.group "copy"{{.*}}tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 4096 : i64}
//       CHECK:     tcc.transpose
//       CHECK:   tcc.reshape
//   CHECK-NOT:   tcc.buffer
//       CHECK:   fusion.group "matmul"
//   CHECK-NOT:   tcc.buffer
//       CHECK:   return
func.func @largest_first(%x: tensor<32x32xf32>) -> tensor<32x1xf32> {
  %a = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = tcc.reduce_sum %a {axes = array<i64: 0>} : (tensor<32x32xf32>) -> tensor<32xf32>
  %c = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = tcc.reshape %b : (tensor<32xf32>) -> tensor<32x1xf32>
  %d = tcc.matmul %c, %r : (tensor<32x32xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  return %d : tensor<32x1xf32>
}

// -----

// Only intermediates are planned: a value that is returned (directly or
// through a reshape, which aliases it) gets no offset, and constants get none.
// CHECK-LABEL: func.func @returned_not_planned
//  CHECK-SAME:   tcc.arena = [{naive = 128 : i64, scale = "1", size = 128 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 128 : i64
//       CHECK:   %[[C:.+]] = tcc.constant
//   CHECK-NOT:   tcc.buffer
//       CHECK:   %[[E:.+]] = fusion.group "pointwise"{{.*}} -> tensor<2x4xf32> {
//       CHECK:     tcc.exp
//       CHECK:   }
//       CHECK:   %[[R:.+]] = tcc.reshape %[[E]]
//   CHECK-NOT:   tcc.buffer
//       CHECK:   fusion.group "pointwise"{{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 32 : i64}}
//       CHECK:     tcc.relu
//       CHECK:   fusion.group "copy"{{.*}}tcc.buffer = {offset = 64 : i64, region = 0 : i64, size = 32 : i64}
//       CHECK:     tcc.transpose
//       CHECK:   %[[T:.+]] = fusion.group "pointwise"
//   CHECK-NOT:   tcc.buffer
//       CHECK:   return %[[R]], %[[T]]
func.func @returned_not_planned(%x: tensor<2x4xf32>) -> (tensor<8xf32>, tensor<2x4xf32>) {
  %c = tcc.constant dense<1.0> : tensor<2x4xf32>
  %0 = tcc.exp %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = tcc.reshape %0 : (tensor<2x4xf32>) -> tensor<8xf32>
  %2 = tcc.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = tcc.transpose %2 {permutation = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %4 = tcc.sub %3, %c : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1, %4 : tensor<8xf32>, tensor<2x4xf32>
}

// -----

// A reshape is a view of its operand's buffer: it gets no buffer of its own,
// and its uses keep the operand alive. %a is last read through %r by the
// final add, so %b (made after the reshape) cannot reuse %a's memory.
// CHECK-LABEL: func.func @reshape_extends_lifetime
//  CHECK-SAME:   tcc.arena = [{naive = 128 : i64, scale = "1", size = 128 : i64}]
//       CHECK:   %[[A:.+]] = fusion.group "pointwise"{{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 32 : i64}}
//       CHECK:   %[[R:.+]] = tcc.reshape %[[A]]
//   CHECK-NOT:   tcc.buffer
//  CHECK-SAME:   -> tensor<8xf32>
//       CHECK:   %[[B:.+]] = fusion.group "copy"{{.*}}tcc.buffer = {offset = 64 : i64, region = 0 : i64, size = 32 : i64}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "pointwise"(%[[R]], %[[B]] :
func.func @reshape_extends_lifetime(%x: tensor<2x4xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %a = tcc.exp %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tcc.reshape %a : (tensor<2x4xf32>) -> tensor<8xf32>
  %b = tcc.transpose %y {permutation = array<i64: 0>} : (tensor<8xf32>) -> tensor<8xf32>
  %c = tcc.add %r, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// Counterpart: the view's last use comes before %b is made, so %b reuses
// %a's offset. (%a: [0, 2], %t: [2, 4], %b: [3, 4].)
// CHECK-LABEL: func.func @view_dead_before_reuse
//  CHECK-SAME:   tcc.arena = [{naive = 192 : i64, scale = "1", size = 128 : i64}]
//       CHECK:   fusion.group "pointwise"{{.*}}tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 32 : i64}
//       CHECK:   %[[R:.+]] = tcc.reshape
//   CHECK-NOT:   tcc.buffer
//       CHECK:   fusion.group "copy"(%[[R]] : {{.*}}tcc.buffer = {offset = 64 : i64, region = 0 : i64, size = 32 : i64}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "copy"{{.*}}tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 32 : i64}
//       CHECK:     tcc.transpose
func.func @view_dead_before_reuse(%x: tensor<2x4xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %a = tcc.exp %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tcc.reshape %a : (tensor<2x4xf32>) -> tensor<8xf32>
  %t = tcc.transpose %r {permutation = array<i64: 0>} : (tensor<8xf32>) -> tensor<8xf32>
  %b = tcc.transpose %y {permutation = array<i64: 0>} : (tensor<8xf32>) -> tensor<8xf32>
  %c = tcc.add %t, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// Dynamic batch: every intermediate is (batch dim of %arg0) x a constant, so
// they are planned together in a region scaled by s0 = dim 0 of argument 0.
// Offsets and sizes are per unit of s0.
// CHECK-LABEL: func.func @dynamic_batch
//  CHECK-SAME:   attributes {tcc.arena = [{naive = 1088 : i64, scale = "s0", size = 512 : i64}], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {s0 = array<i64: 0, 0>}, tcc.naive_size = 0 : i64}
//       CHECK:   fusion.group "matmul"{{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 256 : i64}}
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<64x?xf32> attributes {tcc.buffer = {offset = 256 : i64, region = 0 : i64, size = 256 : i64}}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<?x64xf32> attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 256 : i64}}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "matmul"{{.*}} attributes {tcc.buffer = {offset = 256 : i64, region = 0 : i64, size = 256 : i64}}
//       CHECK:   fusion.group "reduction"{{.*}} attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 4 : i64}}
//       CHECK:   tcc.reshape
//   CHECK-NOT:   tcc.buffer
//       CHECK:   return
func.func @dynamic_batch(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {
  %0 = tcc.linear %x, %w : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<?x64xf32>) -> tensor<64x?xf32>
  %2 = tcc.transpose %1 {permutation = array<i64: 1, 0>} : (tensor<64x?xf32>) -> tensor<?x64xf32>
  %3 = tcc.linear %2, %w : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %4 = tcc.reduce_sum %3 {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?xf32>
  %5 = tcc.reshape %4 : (tensor<?xf32>) -> tensor<?x1xf32>
  %6 = tcc.add %3, %5 : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  return %6 : tensor<?x64xf32>
}

// -----

// Static and dynamic buffers in one function: one region per product of
// symbols, the static region first. Symbols name (argument, dim): s0 is
// dim 1 of argument 0 (symbols count the dynamic dims of the arguments).
// CHECK-LABEL: func.func @static_and_dynamic_regions
//  CHECK-SAME:   tcc.arena = [{naive = 64 : i64, scale = "1", size = 64 : i64}, {naive = 64 : i64, scale = "s0", size = 64 : i64}]
//  CHECK-SAME:   tcc.arena_symbols = {s0 = array<i64: 0, 1>}
//  CHECK-SAME:   tcc.naive_size = 64 : i64
//       CHECK:   fusion.group "pointwise"{{.*}}tcc.buffer = {offset = 0 : i64, region = 1 : i64, size = 16 : i64}
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<4x?xf32> {
//       CHECK:   fusion.group "pointwise"{{.*}}tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 16 : i64}
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<4xf32> {
func.func @static_and_dynamic_regions(%x: tensor<4x?xf32>, %y: tensor<?x4xf32>, %s: tensor<4xf32>) -> (tensor<4x?xf32>, tensor<4xf32>) {
  %0 = tcc.exp %x : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 0, 1>} : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %2 = tcc.exp %s : (tensor<4xf32>) -> tensor<4xf32>
  %3 = tcc.transpose %2 {permutation = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %3 : tensor<4x?xf32>, tensor<4xf32>
}

// -----

// Two dynamic dims that are both the same argument dim: that buffer's region
// is scaled by s0 * s0, after the region scaled by s0 alone.
// CHECK-LABEL: func.func @squared_symbol
//  CHECK-SAME:   tcc.arena = [{naive = 64 : i64, scale = "s0", size = 64 : i64}, {naive = 64 : i64, scale = "s0 * s0", size = 64 : i64}]
//  CHECK-SAME:   tcc.arena_symbols = {s0 = array<i64: 0, 0>}
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<8x?xf32> attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 32 : i64}}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "matmul"{{.*}}tcc.buffer = {offset = 0 : i64, region = 1 : i64, size = 4 : i64}
//       CHECK:   %[[T:.+]] = fusion.group "copy"{{.*}} -> tensor<?x?xf32> {
//       CHECK:     tcc.transpose
//       CHECK:   return %[[T]]
func.func @squared_symbol(%x: tensor<?x8xf32>) -> tensor<?x?xf32> {
  %t = tcc.transpose %x {permutation = array<i64: 1, 0>} : (tensor<?x8xf32>) -> tensor<8x?xf32>
  %0 = tcc.matmul %x, %t : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// A dynamic size the entry point cannot compute from the arguments (here the
// dims come from a shape operand) is not planned; it keeps its own
// allocation.
// CHECK-LABEL: func.func @unplannable_dynamic
//  CHECK-SAME:   tcc.arena = [], tcc.arena_alignment = 64 : i64, tcc.arena_symbols = {}, tcc.naive_size = 0 : i64
//   CHECK-NOT:   tcc.buffer
//       CHECK:   fusion.group "pointwise"
//   CHECK-NOT:   tcc.buffer
//       CHECK:   fusion.group "copy"
//   CHECK-NOT:   tcc.buffer
//       CHECK:   return
func.func @unplannable_dynamic(%x: tensor<16xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = tcc.reshape %x, %s : (tensor<16xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = tcc.exp %0 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = tcc.transpose %1 {permutation = array<i64: 1, 0>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// -----

// Copy groups (concat, gather, transpose) with dynamic shapes are planned
// like any other buffer: the concat along the static axis and the
// transposes are s0 = dim 0 of argument 0 times 32 bytes and share memory
// when their lifetimes are disjoint (%0: [0, 3], %3: [3, 4], %4: [4, 7]);
// the gather is scaled by its indices' length, s1 = dim 0 of argument 2.
// A concat along the dynamic axis has a size that is a sum (s0 + s1): it
// gets a region of its own, scaled by that expression.
// CHECK-LABEL: func.func @dynamic_copy_groups
//  CHECK-SAME:   tcc.arena = [{naive = 128 : i64, scale = "1", size = 128 : i64}, {naive = 192 : i64, scale = "s0", size = 128 : i64}, {naive = 64 : i64, scale = "s1", size = 64 : i64}, {naive = 64 : i64, scale = "s0 + s1", size = 64 : i64}]
//  CHECK-SAME:   tcc.arena_symbols = {s0 = array<i64: 0, 0>, s1 = array<i64: 2, 0>}
//  CHECK-SAME:   tcc.naive_size = 128 : i64
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<?x8xf32> attributes {tcc.buffer = {offset = 0 : i64, region = 1 : i64, size = 32 : i64}}
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.concat %{{.*}} {axis = 1 : i64} :
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<?x4xf32> attributes {tcc.buffer = {offset = 0 : i64, region = 2 : i64, size = 16 : i64}}
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.gather %{{.*}} :
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<?x4xf32> attributes {tcc.buffer = {offset = 0 : i64, region = 3 : i64, size = 16 : i64}}
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.concat %{{.*}} {axis = 0 : i64} :
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<8x?xf32> attributes {tcc.buffer = {offset = 64 : i64, region = 1 : i64, size = 32 : i64}}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<?x8xf32> attributes {tcc.buffer = {offset = 0 : i64, region = 1 : i64, size = 32 : i64}}
//       CHECK:     tcc.transpose
//       CHECK:   fusion.group "reduction"{{.*}} -> tensor<4xf32> attributes {tcc.buffer = {offset = 64 : i64, region = 0 : i64, size = 16 : i64}}
//       CHECK:   fusion.group "copy"{{.*}} -> tensor<8xf32> attributes {tcc.buffer = {offset = 0 : i64, region = 0 : i64, size = 32 : i64}}
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     tcc.concat
//       CHECK:   %[[R:.+]] = fusion.group "pointwise"{{.*}} -> tensor<?x8xf32> {
//       CHECK:   return %[[R]]
func.func @dynamic_copy_groups(%x: tensor<?x4xf32>, %t: tensor<16x4xf32>, %i: tensor<?xi64>) -> tensor<?x8xf32> {
  %0 = tcc.concat %x, %x {axis = 1 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  %1 = tcc.gather %t, %i : (tensor<16x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  %2 = tcc.concat %x, %1 {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = tcc.transpose %0 {permutation = array<i64: 1, 0>} : (tensor<?x8xf32>) -> tensor<8x?xf32>
  %4 = tcc.transpose %3 {permutation = array<i64: 1, 0>} : (tensor<8x?xf32>) -> tensor<?x8xf32>
  %5 = tcc.reduce_sum %2 {axes = array<i64: 0>} : (tensor<?x4xf32>) -> tensor<4xf32>
  %6 = tcc.concat %5, %5 {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %7 = tcc.add %4, %6 : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %7 : tensor<?x8xf32>
}

// -----

// A value of no bytes (a static size-0 dim, ONNX's test_tril_zero) gets no
// buffer: there is nothing to place (a size-0 entry would fail
// --verify-memory-plan). The exp's result feeds a sort, outside groups.
// CHECK-LABEL: func.func @zero_size_intermediate
//  CHECK-SAME:   tcc.arena = []
//       CHECK:   fusion.group "pointwise"
//   CHECK-NOT:   tcc.buffer
//       CHECK:   tcc.sort
//       CHECK:   return
func.func @zero_size_intermediate(%x: tensor<3x0x5xf32>, %y: tensor<0x5xf32>) -> tensor<3x0x5xf32> {
  %0 = tcc.exp %y : (tensor<0x5xf32>) -> tensor<0x5xf32>
  %v, %i = tcc.sort %0 : (tensor<0x5xf32>) -> (tensor<0x5xf32>, tensor<0x5xi64>)
  %1 = tcc.mul %x, %v : (tensor<3x0x5xf32>, tensor<0x5xf32>) -> tensor<3x0x5xf32>
  return %1 : tensor<3x0x5xf32>
}
