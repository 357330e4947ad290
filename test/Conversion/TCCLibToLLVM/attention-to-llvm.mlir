// RUN: tcc-opt %s --gpu-to-llvm --split-input-file --verify-diagnostics | FileCheck %s

// tcc_lib.attention is a call of tccAttention on the token's stream with
// its descriptor on the stack (28 fields, include/tcc/Runtime/
// AttentionCall.h): element type (bf16: 2), causal, batch, heads, query
// and key rows, head dim, the scale's f32 bits (0.125: 0x3E000000), then
// each of q, k, v and out as address and batch, head, row and column
// strides, read from the views' descriptors (ViT's q straight out of the
// QKV buffer, the output written as [B, S, heads, dim]).
//       CHECK: llvm.func @tccAttention(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func @vit
//       CHECK:   %[[S:.+]] = llvm.call @mgpuStreamCreate()
//       CHECK:   %[[N:.+]] = llvm.mlir.constant(28 : i64) : i64
//       CHECK:   %[[DESC:.+]] = llvm.alloca %[[N]] x i64
//       CHECK:   %[[BF16:.+]] = llvm.mlir.constant(2 : i64) : i64
//  CHECK-NEXT:   %[[F0:.+]] = llvm.getelementptr %[[DESC]][0]
//  CHECK-NEXT:   llvm.store %[[BF16]], %[[F0]]
//       CHECK:   %[[DIM:.+]] = llvm.mlir.constant(64 : i64) : i64
//  CHECK-NEXT:   %[[F6:.+]] = llvm.getelementptr %[[DESC]][6]
//  CHECK-NEXT:   llvm.store %[[DIM]], %[[F6]]
//  CHECK-NEXT:   %[[SCALE:.+]] = llvm.mlir.constant(1040187392 : i64) : i64
//  CHECK-NEXT:   %[[F7:.+]] = llvm.getelementptr %[[DESC]][7]
//  CHECK-NEXT:   llvm.store %[[SCALE]], %[[F7]]
//       CHECK:   llvm.getelementptr %[[DESC]][27]
//       CHECK:   llvm.call @tccAttention(%[[S]], %[[DESC]]) : (!llvm.ptr, !llvm.ptr) -> ()
//       CHECK:   llvm.call @mgpuStreamSynchronize(%[[S]])
func.func @vit(%q: memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>,
               %o: memref<?x12x197x64xbf16, strided<[151296, 64, 768, 1]>>) {
  %t0 = gpu.wait async
  %t1 = tcc_lib.attention async [%t0] %q, %q, %q into %o {scale = 0.125 : f32}
      : memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>,
        memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>,
        memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>
        into memref<?x12x197x64xbf16, strided<[151296, 64, 768, 1]>>
  gpu.wait [%t1]
  return
}

// -----

// One head (rank 3): heads 1, head stride 0.
// CHECK-LABEL: llvm.func @one_head
//       CHECK:   llvm.call @tccAttention
func.func @one_head(%q: memref<2x100x128xf16>) {
  %t0 = gpu.wait async
  %t1 = tcc_lib.attention async [%t0] %q, %q, %q into %q {is_causal = true, scale = 0.5 : f32}
      : memref<2x100x128xf16>, memref<2x100x128xf16>, memref<2x100x128xf16>
        into memref<2x100x128xf16>
  gpu.wait [%t1]
  return
}

// -----

// f32 (the CUDA-core kernel): element type code 0 in field 0.
// CHECK-LABEL: llvm.func @f32_heads
//       CHECK:   %[[F32:.+]] = llvm.mlir.constant(0 : i64) : i64
//  CHECK-NEXT:   %[[F0:.+]] = llvm.getelementptr %{{.+}}[0]
//  CHECK-NEXT:   llvm.store %[[F32]], %[[F0]]
//       CHECK:   llvm.call @tccAttention
func.func @f32_heads(%q: memref<2x4x16x64xf32>) {
  %t0 = gpu.wait async
  %t1 = tcc_lib.attention async [%t0] %q, %q, %q into %q {scale = 0.125 : f32}
      : memref<2x4x16x64xf32>, memref<2x4x16x64xf32>, memref<2x4x16x64xf32>
        into memref<2x4x16x64xf32>
  gpu.wait [%t1]
  return
}

// -----

// Without a stream there is nothing to queue the call on.
func.func @no_stream(%q: memref<2x8x64xbf16>) {
  // expected-error @+1 {{failed to legalize operation 'tcc_lib.attention'}}
  tcc_lib.attention %q, %q, %q into %q {scale = 1.0 : f32}
      : memref<2x8x64xbf16>, memref<2x8x64xbf16>, memref<2x8x64xbf16> into memref<2x8x64xbf16>
  return
}
