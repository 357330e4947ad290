// RUN: tcc-opt %s --tcc-cuda-pipeline="plan-memory=true" --mlir-print-ir-after=tcc-host-allocations-to-device -o /dev/null 2>&1 | FileCheck %s
// RUN: tcc-opt %s --tcc-cuda-pipeline --mlir-print-ir-after=tcc-host-allocations-to-device -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPLAN

// plan-memory on the device: the intermediates between groups (the
// layer_norm's result, read by the product and the residual add) live in
// one gpu.alloc of bytes per call, as 256-byte aligned memref.views.
// Without it (the default), each is a block of its own.
// CHECK-LABEL: func.func @ln_linear_residual
//       CHECK:   %[[ARENA:.+]] = gpu.alloc  (%{{.+}}) : memref<?xi8>
//       CHECK:   memref.view %[[ARENA]][%{{.+}}][%{{.+}}] : memref<?xi8> to memref<?x256xf32>
// NOPLAN-LABEL: func.func @ln_linear_residual
//   NOPLAN-NOT:   memref.view
//       NOPLAN:   gpu.alloc  (%{{.+}}) : memref<?x256xf32>
func.func @ln_linear_residual(%x: tensor<?x256xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>, %w: tensor<256x256xf32>) -> tensor<?x256xf32> {
  %0 = tcc.layer_norm %x, %g, %b {axis = 1 : i64, epsilon = 1.0e-05 : f32}
      : (tensor<?x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %1 = tcc.matmul %0, %w : (tensor<?x256xf32>, tensor<256x256xf32>) -> tensor<?x256xf32>
  %2 = tcc.add %1, %0 : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
  return %2 : tensor<?x256xf32>
}
