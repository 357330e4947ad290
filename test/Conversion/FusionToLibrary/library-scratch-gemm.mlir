// REQUIRES: dnnl, avx512
// RUN: tcc-opt %s --tcc-conv-to-library=target=cpu --tcc-linear-to-library --split-input-file | FileCheck %s

// The scratchpad reservation of library-scratch.mlir for GEMMs: oneDNN's
// AVX-512 GEMM kernels (ViT's linears) ask for one, its AVX2 kernels ask
// for none (oneDNN picks its kernels by the host's instructions, not by
// tcc's target), so this part needs an AVX-512 host.

// CHECK-LABEL: func.func @vit_linear
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?x197x2304xf32>
//       CHECK:   %[[S:.+]] = memref.alloc() {alignment = 64 : i64} : memref<{{[1-9][0-9]*}}xi8>
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %[[OUT]] scratch %[[S]]
func.func @vit_linear(%x: tensor<?x197x768xf32>, %w: tensor<2304x768xf32>) -> tensor<?x197x2304xf32> {
  %0 = fusion.group "matmul"(%x, %w : tensor<?x197x768xf32>, tensor<2304x768xf32>) -> tensor<?x197x2304xf32> {
  ^bb0(%a: tensor<?x197x768xf32>, %b: tensor<2304x768xf32>):
    %1 = tcc.linear %a, %b : (tensor<?x197x768xf32>, tensor<2304x768xf32>) -> tensor<?x197x2304xf32>
    fusion.yield %1 : tensor<?x197x2304xf32>
  }
  return %0 : tensor<?x197x2304xf32>
}

// -----

// With a residual the reservation asks for the primitive the call makes
// (a binary-add post-op: the residual is not the output).
// CHECK-LABEL: func.func @vit_linear_residual
//       CHECK:   %[[S:.+]] = memref.alloc() {alignment = 64 : i64} : memref<{{[1-9][0-9]*}}xi8>
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} c %{{.+}} into %{{[^ ]+}} scratch %[[S]]
func.func @vit_linear_residual(%x: tensor<?x197x3072xf32>, %w: tensor<768x3072xf32>, %r: tensor<?x197x768xf32>) -> tensor<?x197x768xf32> {
  %0 = fusion.group "matmul"(%x, %w, %r : tensor<?x197x3072xf32>, tensor<768x3072xf32>, tensor<?x197x768xf32>) -> tensor<?x197x768xf32> {
  ^bb0(%a: tensor<?x197x3072xf32>, %b: tensor<768x3072xf32>, %c: tensor<?x197x768xf32>):
    %1 = tcc.linear %a, %b : (tensor<?x197x3072xf32>, tensor<768x3072xf32>) -> tensor<?x197x768xf32>
    %2 = tcc.add %1, %c : (tensor<?x197x768xf32>, tensor<?x197x768xf32>) -> tensor<?x197x768xf32>
    fusion.yield %2 : tensor<?x197x768xf32>
  }
  return %0 : tensor<?x197x768xf32>
}
