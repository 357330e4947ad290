// RUN: tcc-opt %s --gpu-to-llvm --split-input-file --verify-diagnostics | FileCheck %s

// Inside gpu-to-llvm a token is the stream it stands for: the gemm is a
// call of tccGemm on that stream with its descriptor on the stack (28
// fields: type, epilogue, batch, M, N, K, then address and row, column and
// batch strides of a, b, c and d, then the bias, the inputs' type, the
// bias's stride and whether b is constant), and
// the wait after it synchronizes that same stream.
//       CHECK: llvm.func @tccGemm(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func @gemm
//       CHECK:   %[[S:.+]] = llvm.call @mgpuStreamCreate()
//       CHECK:   %[[N:.+]] = llvm.mlir.constant(28 : i64) : i64
//       CHECK:   %[[DESC:.+]] = llvm.alloca %[[N]] x i64
//       CHECK:   llvm.call @tccGemm(%[[S]], %[[DESC]]) : (!llvm.ptr, !llvm.ptr) -> ()
//       CHECK:   llvm.call @mgpuStreamSynchronize(%[[S]])
//       CHECK:   llvm.call @mgpuStreamDestroy(%[[S]])
func.func @gemm(%x: memref<?x768xf32>, %w: memref<3072x768xf32>,
                %b: memref<3072xf32>, %y: memref<?x3072xf32>) {
  %wt = memref.transpose %w (d0, d1) -> (d1, d0)
      : memref<3072x768xf32> to memref<768x3072xf32, strided<[1, 768]>>
  %t0 = gpu.wait async
  %t1 = tcc_lib.gemm async [%t0] %x, %wt bias %b into %y {epilogue = "relu"}
      : memref<?x768xf32>, memref<768x3072xf32, strided<[1, 768]>>
        bias memref<3072xf32> into memref<?x3072xf32>
  gpu.wait [%t1]
  return
}

// -----

// Without a stream (gpu-async-region has not run) there is nothing to
// queue the call on: the conversion fails.
func.func @no_stream(%a: memref<4x5xf32>, %b: memref<5x6xf32>,
                     %d: memref<4x6xf32>) {
  // expected-error @+1 {{failed to legalize operation 'tcc_lib.gemm'}}
  tcc_lib.gemm %a, %b into %d
      : memref<4x5xf32>, memref<5x6xf32> into memref<4x6xf32>
  return
}
