// RUN: tcc-opt %s --tcc-host-allocations-to-device --split-input-file --verify-diagnostics | FileCheck %s

// Host buffers live on the device: alloc (static and dynamic sizes),
// copy and dealloc become their (synchronous) gpu forms, which
// gpu-async-region later chains with the launches; the kernel's own memory
// ops are left alone.
// CHECK-LABEL: func.func @host_buffers
//  CHECK-SAME:   %[[N:[a-zA-Z0-9_]+]]: index, %[[IN:[a-zA-Z0-9_]+]]: memref<?xf32>
//       CHECK:   %[[A:.+]] = gpu.alloc  (%[[N]]) : memref<?xf32>
//       CHECK:   %[[B:.+]] = gpu.alloc  () : memref<16xf32>
//       CHECK:   gpu.memcpy  %[[A]], %[[IN]] : memref<?xf32>, memref<?xf32>
//       CHECK:   gpu.launch
//       CHECK:     memref.load %[[A]]
//       CHECK:     memref.store %{{.+}}, %[[B]]
//       CHECK:   gpu.dealloc  %[[B]] : memref<16xf32>
//       CHECK:   return %[[A]]
//   CHECK-NOT:   memref.alloc
func.func @host_buffers(%n: index, %in: memref<?xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<?xf32> to memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %a[%c0] : memref<?xf32>
    memref.store %e, %b[%c0] : memref<16xf32>
    gpu.terminator
  }
  memref.dealloc %b : memref<16xf32>
  return %a : memref<?xf32>
}

// -----

func.func @host_stack(%v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{a stack buffer on the host cannot be used by GPU kernels}}
  %s = memref.alloca() : memref<4xf32>
  memref.store %v, %s[%c0] : memref<4xf32>
  %r = memref.load %s[%c0] : memref<4xf32>
  return %r : f32
}

// -----

// A constant read by a kernel is copied into device memory where it is
// read; freed at the return it reaches, not on the early exit before it.
memref.global "private" constant @scale : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
// CHECK-LABEL: func.func @constant
//       CHECK:   cf.cond_br
//       CHECK:   return
//       CHECK:   %[[G:.+]] = memref.get_global @scale
//       CHECK:   %[[D:.+]] = gpu.alloc  () : memref<4xf32>
//       CHECK:   gpu.memcpy  %[[D]], %[[G]]
//       CHECK:   gpu.launch
//       CHECK:     memref.load %[[D]]
//       CHECK:   gpu.dealloc  %[[D]]
//       CHECK:   return
func.func @constant(%ok: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.cond_br %ok, ^run, ^exit
^exit:
  return
^run:
  %g = memref.get_global @scale : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %g[%c0] : memref<4xf32>
    memref.store %e, %out[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A copy out of a strided view (a slice of a merged linear's result) is
// not one block of memory: an element-wise parallel loop (a kernel, once
// tcc-parallel-loops-to-gpu runs), not a gpu.memcpy. Loops already there
// are left alone.
// CHECK-LABEL: func.func @strided_copy
//  CHECK-SAME:   %[[V:[a-zA-Z0-9_]+]]: memref<?x12xf32, strided<[13, 1]>>
//       CHECK:   %[[D:.+]] = gpu.alloc
//       CHECK:   %[[N:.+]] = memref.dim %[[V]], %{{.+}}
//       CHECK:   scf.parallel (%[[I:.+]], %[[J:.+]]) = (%{{.+}}, %{{.+}}) to (%[[N]], %{{.+}})
//       CHECK:     %[[E:.+]] = memref.load %[[V]][%[[I]], %[[J]]]
//       CHECK:     memref.store %[[E]], %[[D]][%[[I]], %[[J]]]
//   CHECK-NOT:   gpu.memcpy
func.func @strided_copy(%v: memref<?x12xf32, strided<[13, 1]>>, %n: index) -> memref<?x12xf32> {
  %a = memref.alloc(%n) : memref<?x12xf32>
  memref.copy %v, %a : memref<?x12xf32, strided<[13, 1]>> to memref<?x12xf32>
  return %a : memref<?x12xf32>
}

// -----

// The shape of a memref.reshape is read by the host (the reshape builds a
// descriptor from it): its buffer stays in host memory.
// CHECK-LABEL: func.func @reshape_shape
//       CHECK:   %[[SHAPE:.+]] = memref.alloc() : memref<2xi64>
//       CHECK:   memref.store %{{.+}}, %[[SHAPE]]
//       CHECK:   memref.reshape %{{.+}}(%[[SHAPE]])
//       CHECK:   memref.dealloc %[[SHAPE]]
//   CHECK-NOT:   gpu.alloc
func.func @reshape_shape(%x: memref<?xf32>, %n: i64) -> memref<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : i64
  %shape = memref.alloc() : memref<2xi64>
  memref.store %n, %shape[%c0] : memref<2xi64>
  memref.store %c4, %shape[%c1] : memref<2xi64>
  %r = memref.reshape %x(%shape) : (memref<?xf32>, memref<2xi64>) -> memref<?x4xf32>
  memref.dealloc %shape : memref<2xi64>
  return %r : memref<?x4xf32>
}

// -----

// A constant that host code loads from keeps being read in host memory;
// kernels read its device copy.
// CHECK-LABEL: func.func @host_reads_constant
//       CHECK:   %[[G:.+]] = memref.get_global @shape
//       CHECK:   %[[D:.+]] = gpu.alloc  () : memref<2xi64>
//       CHECK:   gpu.memcpy  %[[D]], %[[G]]
//       CHECK:   memref.load %[[G]][
//       CHECK:   gpu.launch
//       CHECK:     memref.load %[[D]][
memref.global "private" constant @shape : memref<2xi64> = dense<[3, 4]>
func.func @host_reads_constant(%out: memref<2xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.get_global @shape : memref<2xi64>
  %v = memref.load %g[%c0] : memref<2xi64>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %e = memref.load %g[%c1] : memref<2xi64>
    memref.store %e, %out[%c0] : memref<2xi64>
    gpu.terminator
  }
  return %v : i64
}

// -----

// Host code reading an argument (a device pointer in the cuda ABI) reads
// a host copy, through the same view; the copy is freed before the return.
// CHECK-LABEL: func.func @host_reads_argument
//  CHECK-SAME:   %[[SHAPE:[a-zA-Z0-9_]+]]: memref<3xi64>
//       CHECK:   %[[COPY:.+]] = memref.alloc() : memref<3xi64>
//  CHECK-NEXT:   gpu.memcpy  %[[COPY]], %[[SHAPE]]
//  CHECK-NEXT:   %[[VIEW:.+]] = memref.subview %[[COPY]][1] [2] [1]
//  CHECK-NEXT:   %[[V:.+]] = memref.load %[[VIEW]][
//  CHECK-NEXT:   %[[W:.+]] = memref.load %[[COPY]][
//  CHECK-NEXT:   arith.addi %[[V]], %[[W]]
//  CHECK-NEXT:   memref.dealloc %[[COPY]]
//  CHECK-NEXT:   return
func.func @host_reads_argument(%shape: memref<3xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %tail = memref.subview %shape[1] [2] [1] : memref<3xi64> to memref<2xi64, strided<[1], offset: 1>>
  %v = memref.load %tail[%c0] : memref<2xi64, strided<[1], offset: 1>>
  %w = memref.load %shape[%c0] : memref<3xi64>
  %s = arith.addi %v, %w : i64
  return %s : i64
}

// -----

// A count a one-thread kernel wrote is copied again after each kernel:
// a host read after a launch never sees a stale copy.
// CHECK-LABEL: func.func @host_reads_after_kernel
//       CHECK:   %[[D:.+]] = gpu.alloc  () : memref<i64>
//       CHECK:   %[[C1:.+]] = memref.alloc() : memref<i64>
//  CHECK-NEXT:   gpu.memcpy  %[[C1]], %[[D]]
//  CHECK-NEXT:   memref.load %[[C1]][]
//  CHECK-NEXT:   memref.dealloc %[[C1]]
//  CHECK-NEXT:   gpu.launch
//       CHECK:   %[[C2:.+]] = memref.alloc() : memref<i64>
//  CHECK-NEXT:   gpu.memcpy  %[[C2]], %[[D]]
//  CHECK-NEXT:   memref.load %[[C2]][]
func.func @host_reads_after_kernel(%v: i64) -> (i64, i64) {
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<i64>
  %first = memref.load %a[] : memref<i64>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    memref.store %v, %a[] : memref<i64>
    gpu.terminator
  }
  %second = memref.load %a[] : memref<i64>
  memref.dealloc %a : memref<i64>
  return %first, %second : i64, i64
}

// -----

// A host loop over device memory (a data-dependent compaction, like
// tcc.nonzero's count) is staged once as a whole, not a copy per
// iteration: the buffers it reads and writes are copied to the host before
// it, and what it wrote goes back to the device before the return.
// CHECK-LABEL: func.func @host_loop
//  CHECK-SAME:   %[[IN:[a-zA-Z0-9_]+]]: memref<?xf32>
//       CHECK:   %[[OUT:.+]] = gpu.alloc
//       CHECK:   %[[HIN:.+]] = memref.alloc(%{{.+}}) : memref<?xf32>
//  CHECK-NEXT:   gpu.memcpy  %[[HIN]], %[[IN]]
//       CHECK:   %[[HOUT:.+]] = memref.alloc(%{{.+}}) : memref<?xi64>
//  CHECK-NEXT:   gpu.memcpy  %[[HOUT]], %[[OUT]]
//  CHECK-NEXT:   %[[COUNT:.+]] = scf.for
//   CHECK-NOT:     gpu.memcpy
//       CHECK:     memref.load %[[HIN]]
//       CHECK:     memref.store %{{.+}}, %[[HOUT]]
//       CHECK:   memref.dealloc %[[HIN]]
//  CHECK-NEXT:   gpu.memcpy  %[[OUT]], %[[HOUT]]
//  CHECK-NEXT:   memref.dealloc %[[HOUT]]
//  CHECK-NEXT:   return %[[COUNT]], %[[OUT]]
func.func @host_loop(%in: memref<?xf32>) -> (index, memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %in, %c0 : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xi64>
  %count = scf.for %i = %c0 to %n step %c1 iter_args(%k = %c0) -> (index) {
    %x = memref.load %in[%i] : memref<?xf32>
    %nz = arith.cmpf une, %x, %zero : f32
    %i64 = arith.index_cast %i : index to i64
    memref.store %i64, %out[%k] : memref<?xi64>
    %inc = arith.index_castui %nz : i1 to index
    %next = arith.addi %k, %inc : index
    scf.yield %next : index
  }
  return %count, %out : index, memref<?xi64>
}

// -----

// A host loop that also launches a kernel is staged block by block: the
// kernel sees the host's writes, and the host sees the kernel's.
// CHECK-LABEL: func.func @host_loop_with_kernel
//       CHECK:   scf.for
//       CHECK:     %[[H:.+]] = memref.alloc() : memref<4xf32>
//  CHECK-NEXT:     gpu.memcpy  %[[H]], %[[BUF:.+]] :
//  CHECK-NEXT:     memref.store %{{.+}}, %[[H]]
//  CHECK-NEXT:     gpu.memcpy  %[[BUF]], %[[H]]
//  CHECK-NEXT:     memref.dealloc %[[H]]
//  CHECK-NEXT:     gpu.launch
func.func @host_loop_with_kernel(%buf: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %v, %buf[%i] : memref<4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
      %e = memref.load %buf[%c0] : memref<4xf32>
      memref.store %e, %buf[%c1] : memref<4xf32>
      gpu.terminator
    }
  }
  return
}

// -----

// A strided argument is not one block to copy: an error naming the read.
func.func @host_reads_strided_argument(%v: memref<4xf32, strided<[2]>>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{host code would access a strided device buffer}}
  %e = memref.load %v[%c0] : memref<4xf32, strided<[2]>>
  return %e : f32
}
