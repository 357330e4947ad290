// RUN: tcc-opt %s --tcc-deduplicate-kernels --split-input-file | FileCheck %s

// Two blocks of a model outline the same kernel twice (@k1 is @k0 under
// another name): one is kept and both launches use it. @k2 differs by a
// constant, @k3 by an attribute (its block size), @k4 by its argument
// type: all kept.
// CHECK-LABEL: gpu.module @m_kernels
//       CHECK:   gpu.func @k0
//   CHECK-NOT:   gpu.func @k1
//       CHECK:   gpu.func @k2
//       CHECK:   gpu.func @k3
//       CHECK:   gpu.func @k4
// CHECK-LABEL: func.func @m
//       CHECK:   gpu.launch_func @m_kernels::@k0
//       CHECK:   gpu.launch_func @m_kernels::@k0
//       CHECK:   gpu.launch_func @m_kernels::@k2
//       CHECK:   gpu.launch_func @m_kernels::@k3
//       CHECK:   gpu.launch_func @m_kernels::@k4
module attributes {gpu.container_module} {
  gpu.module @m_kernels {
    gpu.func @k0(%a: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %a[%c0] : memref<8xf32>
      gpu.return
    }
    gpu.func @k1(%a: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %a[%c0] : memref<8xf32>
      gpu.return
    }
    gpu.func @k2(%a: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %two = arith.constant 2.0 : f32
      memref.store %two, %a[%c0] : memref<8xf32>
      gpu.return
    }
    gpu.func @k3(%a: memref<8xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %a[%c0] : memref<8xf32>
      gpu.return
    }
    gpu.func @k4(%a: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %a[%c0] : memref<16xf32>
      gpu.return
    }
  }
  func.func @m(%a: memref<8xf32>, %b: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m_kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    gpu.launch_func @m_kernels::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    gpu.launch_func @m_kernels::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    gpu.launch_func @m_kernels::@k3 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    gpu.launch_func @m_kernels::@k4 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<16xf32>)
    return
  }
}
