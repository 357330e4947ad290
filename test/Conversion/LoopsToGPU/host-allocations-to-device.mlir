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

// Host code reading an argument (a device pointer in the cuda ABI): an
// error naming the load, not a crash at run time.
func.func @host_reads_argument(%shape: memref<3xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{host code would read device memory}}
  %v = memref.load %shape[%c0] : memref<3xi64>
  return %v : i64
}

// -----

// Host code writing a buffer that now lives on the device.
func.func @host_writes_device_buffer(%v: f32) -> memref<f32> {
  %a = memref.alloc() : memref<f32>
  // expected-error @+1 {{host code would write device memory}}
  memref.store %v, %a[] : memref<f32>
  return %a : memref<f32>
}
