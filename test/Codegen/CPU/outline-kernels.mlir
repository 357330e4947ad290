// RUN: tcc-opt %s --tcc-outline-kernels --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-outline-kernels="dedup=false" --split-input-file | FileCheck %s --check-prefix=NODEDUP
// RUN: tcc-opt %s --tcc-outline-kernels="min-ops=100" --split-input-file | FileCheck %s --check-prefix=LARGE

// Two blocks' copies of one group (the same loops over other buffers) and
// a third, different nest: two kernels, the first called twice; the
// constants are cloned in, the buffers passed.
// CHECK-LABEL: func.func @blocks
//  CHECK-SAME:   (%[[X:.+]]: memref<64x128xf32>, %[[Y:.+]]: memref<64x128xf32>, %[[Z:.+]]: memref<64x128xf32>)
//       CHECK:   call @blocks_kernel(%[[X]], %[[Y]]) : (memref<64x128xf32>, memref<64x128xf32>) -> ()
//       CHECK:   call @blocks_kernel(%[[Y]], %[[Z]]) : (memref<64x128xf32>, memref<64x128xf32>) -> ()
//       CHECK:   call @blocks_kernel_1(%[[Z]], %[[X]]) : (memref<64x128xf32>, memref<64x128xf32>) -> ()
//   CHECK-NOT:   scf.for
//       CHECK: func.func private @blocks_kernel(%[[A:.+]]: memref<64x128xf32>, %[[B:.+]]: memref<64x128xf32>) attributes {passthrough = ["noinline"]}
//   CHECK-DAG:   arith.constant 2.000000e+00 : f32
//   CHECK-DAG:   arith.constant 64 : index
//       CHECK:   scf.for
//       CHECK:     memref.load %[[A]]
//       CHECK:     memref.store %{{.+}}, %[[B]]
//   CHECK-NOT: func.func private @blocks_kernel_0
//       CHECK: func.func private @blocks_kernel_1(
//       CHECK:   arith.constant 3.000000e+00 : f32
// Without dedup, three kernels.
// NODEDUP-LABEL: func.func @blocks
//       NODEDUP:   call @blocks_kernel(
//       NODEDUP:   call @blocks_kernel_0(
//       NODEDUP:   call @blocks_kernel_1(
// Parallel nests are outlined whatever their size.
// LARGE-LABEL: func.func @blocks
//       LARGE:   call @blocks_kernel(
func.func @blocks(%x: memref<64x128xf32>, %y: memref<64x128xf32>, %z: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x128xf32>
      %u = arith.mulf %v, %two : f32
      %w = arith.addf %u, %v : f32
      memref.store %w, %y[%i, %j] : memref<64x128xf32>
    }
  } {tcc.parallel}
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %v = memref.load %y[%i, %j] : memref<64x128xf32>
      %u = arith.mulf %v, %two : f32
      %w = arith.addf %u, %v : f32
      memref.store %w, %z[%i, %j] : memref<64x128xf32>
    }
  } {tcc.parallel}
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %v = memref.load %z[%i, %j] : memref<64x128xf32>
      %u = arith.mulf %v, %three : f32
      %w = arith.addf %u, %v : f32
      memref.store %w, %x[%i, %j] : memref<64x128xf32>
    }
  } {tcc.parallel}
  return
}

// -----

// A dynamic size is an argument; a nest's results (a sum carried through
// iter_args) are the kernel's.
// CHECK-LABEL: func.func @dynamic_sum
//  CHECK-SAME:   (%[[X:.+]]: memref<?xf32>, %[[N:.+]]: index)
//       CHECK:   %[[S:.+]] = call @dynamic_sum_kernel(%[[N]], %[[X]]) : (index, memref<?xf32>) -> vector<16xf32>
//       CHECK:   return %[[S]] : vector<16xf32>
//       CHECK: func.func private @dynamic_sum_kernel(%{{.+}}: index, %{{.+}}: memref<?xf32>) -> vector<16xf32> attributes {passthrough = ["noinline"]}
//       CHECK:   %[[R:.+]] = scf.for
//       CHECK:   return %[[R]] : vector<16xf32>
// Other nests smaller than min-ops stay where they are.
// LARGE-LABEL: func.func @dynamic_sum
//   LARGE-NOT:   call
//       LARGE:   scf.for
func.func @dynamic_sum(%x: memref<?xf32>, %n: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %s = scf.for %i = %c0 to %n step %c16 iter_args(%acc = %zero) -> (vector<16xf32>) {
    %v = vector.load %x[%i] : memref<?xf32>, vector<16xf32>
    %a = arith.addf %acc, %v : vector<16xf32>
    %b = arith.mulf %a, %a : vector<16xf32>
    %c = arith.addf %b, %v : vector<16xf32>
    %d = arith.subf %c, %a : vector<16xf32>
    %e = arith.mulf %d, %d : vector<16xf32>
    scf.yield %e : vector<16xf32>
  }
  return %s : vector<16xf32>
}

// -----

// Scalar loops that are no group's tiles (bufferization's deallocation
// helper) stay: LLVM inlines them and drops the allocations they read.
// CHECK-LABEL: func.func private @scalar_helper
//   CHECK-NOT:   call
//       CHECK:   scf.for
func.func private @scalar_helper(%x: memref<?xindex>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %v = memref.load %x[%i] : memref<?xindex>
    %a = arith.addi %acc, %v : index
    %b = arith.muli %a, %a : index
    %c = arith.addi %b, %v : index
    %d = arith.subi %c, %a : index
    %e = arith.muli %d, %d : index
    scf.yield %e : index
  }
  return %s : index
}

// -----

// A relayout: a loop of row copies, far below min-ops, is outlined all
// the same, and a second block's copy calls the same kernel.
// CHECK-LABEL: func.func @relayouts
//  CHECK-SAME:   (%[[X:.+]]: memref<17x?x768xf32>, %[[Y:.+]]: memref<?x17x768xf32>, %[[Z:.+]]: memref<?x17x768xf32>, %[[N:.+]]: index)
//       CHECK:   call @relayouts_kernel(%[[N]], %[[Y]], %[[X]])
//       CHECK:   call @relayouts_kernel(%[[N]], %[[Z]], %[[X]])
//   CHECK-NOT:   scf.for
//       CHECK: func.func private @relayouts_kernel(
//       CHECK:   memref.copy
//   CHECK-NOT: func.func private @relayouts_kernel_0
func.func @relayouts(%x: memref<17x?x768xf32>, %y: memref<?x17x768xf32>,
                     %z: memref<?x17x768xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c17 = arith.constant 17 : index
  scf.for %i = %c0 to %c17 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %from = memref.subview %y[%j, %i, 0] [1, 1, 768] [1, 1, 1] : memref<?x17x768xf32> to memref<1x1x768xf32, strided<[13056, 768, 1], offset: ?>>
      %to = memref.subview %x[%i, %j, 0] [1, 1, 768] [1, 1, 1] : memref<17x?x768xf32> to memref<1x1x768xf32, strided<[?, 768, 1], offset: ?>>
      memref.copy %from, %to : memref<1x1x768xf32, strided<[13056, 768, 1], offset: ?>> to memref<1x1x768xf32, strided<[?, 768, 1], offset: ?>>
    }
  } {tcc.parallel}
  scf.for %i = %c0 to %c17 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %from = memref.subview %z[%j, %i, 0] [1, 1, 768] [1, 1, 1] : memref<?x17x768xf32> to memref<1x1x768xf32, strided<[13056, 768, 1], offset: ?>>
      %to = memref.subview %x[%i, %j, 0] [1, 1, 768] [1, 1, 1] : memref<17x?x768xf32> to memref<1x1x768xf32, strided<[?, 768, 1], offset: ?>>
      memref.copy %from, %to : memref<1x1x768xf32, strided<[13056, 768, 1], offset: ?>> to memref<1x1x768xf32, strided<[?, 768, 1], offset: ?>>
    }
  } {tcc.parallel}
  return
}

// -----

// A serial copy loop (a small tensor: no threads) is outlined too.
// CHECK-LABEL: func.func @serial_copy
//       CHECK:   call @serial_copy_kernel(
//   CHECK-NOT:   scf.for
//       CHECK: func.func private @serial_copy_kernel(
//       CHECK:   memref.copy
func.func @serial_copy(%x: memref<4x8xf32>, %y: memref<8x4xf32, strided<[1, 8]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %from = memref.subview %x[%i, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %to = memref.subview %y[0, %i] [8, 1] [1, 1] : memref<8x4xf32, strided<[1, 8]>> to memref<8x1xf32, strided<[1, 8], offset: ?>>
    %row = memref.collapse_shape %from [[0, 1]] : memref<1x8xf32, strided<[8, 1], offset: ?>> into memref<8xf32, strided<[1], offset: ?>>
    %col = memref.collapse_shape %to [[0, 1]] : memref<8x1xf32, strided<[1, 8], offset: ?>> into memref<8xf32, strided<[1], offset: ?>>
    memref.copy %row, %col : memref<8xf32, strided<[1], offset: ?>> to memref<8xf32, strided<[1], offset: ?>>
  }
  return
}
