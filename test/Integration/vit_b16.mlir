// The whole ViT-B/16 (examples/vit_b16.mlir, from scripts/gen_vit_b16.py).
//
// The committed example is what the generator writes:
// RUN: python3 %tcc_src/scripts/gen_vit_b16.py -o %t.vit_b16.mlir
// RUN: diff %t.vit_b16.mlir %examples/vit_b16.mlir
//
// One encoder block (the generator's --blocks 1: patch embedding, class
// token, position embedding, block, norm, head), B = 1, compiled for the
// CPU against the reference evaluator; tolerances as for the ViT block in
// examples.mlir (random weights in [-1, 1)):
// RUN: python3 %tcc_src/scripts/gen_vit_b16.py --blocks 1 -o %t.vit1.mlir
// RUN: tcc-run %t.vit1.mlir --random-inputs --check-reference --rtol=1e-3 --atol=1e-2 | FileCheck %s --check-prefix=CPU
// CPU: [SUCCESS] result[0] matches the reference (1x1000xf32)
//
// The 12-block model through the cuda pipeline: each block's attention is
// one call of the runtime's fused f32 kernel (tccAttention, on the CUDA
// cores), the 50 other products (patch embedding, 12 x qkv, proj, fc1,
// fc2, head) cuBLASLt calls, and all generated kernels are in one
// gpu.module (one libdevice link, one ptxas run). Without the fused kernel
// (flash-attention=false), q k^T and p v are products too: 74.
// RUN: tcc-opt %examples/vit_b16.mlir --tcc-cuda-pipeline="format=isa" -o %t.vit_f32.llvm.mlir
// RUN: FileCheck %s --check-prefix=CUDA < %t.vit_f32.llvm.mlir
// RUN: FileCheck %s --check-prefix=F32-ATTENTION < %t.vit_f32.llvm.mlir
// RUN: tcc-opt %examples/vit_b16.mlir --tcc-cuda-pipeline="format=isa flash-attention=false" | FileCheck %s --check-prefix=UNFUSED
// CUDA-LABEL: llvm.func @vit_b16(
// CUDA-COUNT-50: llvm.call @tccGemm(
// CUDA-NOT: llvm.call @tccGemm(
// CUDA: llvm.return
// F32-ATTENTION-LABEL: llvm.func @vit_b16(
// F32-ATTENTION-COUNT-12: llvm.call @tccAttention(
// F32-ATTENTION-NOT: llvm.call @tccAttention(
// UNFUSED-LABEL: llvm.func @vit_b16(
// UNFUSED-COUNT-74: llvm.call @tccGemm(
// UNFUSED-NOT: llvm.call @tccAttention(
// CUDA: gpu.binary @vit_b16_kernels
// CUDA-NOT: gpu.binary
//
// The bf16 model (gen_vit_b16.py --dtype bf16): each block's attention is
// one call of the runtime's fused kernel (tccAttention), reading q, k and v
// out of the QKV projection's buffer; the 50 other products (patch
// embedding, 12 x qkv, proj, fc1, fc2, head) go to cuBLASLt.
// RUN: python3 %tcc_src/scripts/gen_vit_b16.py --dtype bf16 -o %t.vit_bf16.mlir
// RUN: tcc-opt %t.vit_bf16.mlir --tcc-cuda-pipeline="format=isa" -o %t.vit_bf16.llvm.mlir
// RUN: FileCheck %s --check-prefix=BF16 < %t.vit_bf16.llvm.mlir
// RUN: FileCheck %s --check-prefix=BF16-ATTENTION < %t.vit_bf16.llvm.mlir
// BF16-LABEL: llvm.func @vit_b16(
// BF16-COUNT-50: llvm.call @tccGemm(
// BF16-NOT: llvm.call @tccGemm(
// BF16-ATTENTION-LABEL: llvm.func @vit_b16(
// BF16-ATTENTION-COUNT-12: llvm.call @tccAttention(
// BF16-ATTENTION-NOT: llvm.call @tccAttention(
