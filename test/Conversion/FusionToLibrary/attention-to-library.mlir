// RUN: tcc-opt %s --tcc-attention-to-library --split-input-file | FileCheck %s

// The plain form: q, k and v are the group's inputs, read in place; the
// result is a new dense buffer. The batch is dynamic: the leading dims are
// compared at run time, the sequence lengths are static and equal.
// CHECK-LABEL: func.func @plain
//  CHECK-SAME:   %[[Q:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xbf16>, %[[K:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xbf16>, %[[V:[a-zA-Z0-9_]+]]: tensor<?x12x197x64xbf16>
//   CHECK-NOT:   fusion.group
//       CHECK:   %[[QB:.+]] = bufferization.to_buffer %[[Q]] read_only
//       CHECK:   %[[KB:.+]] = bufferization.to_buffer %[[K]] read_only
//       CHECK:   %[[VB:.+]] = bufferization.to_buffer %[[V]] read_only
//       CHECK:   cf.assert %{{.+}}, "tcc.attention: q and k leading dims differ"
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?x12x197x64xbf16>
//       CHECK:   %[[OV:.+]] = memref.reinterpret_cast %[[OUT]]
//       CHECK:   tcc_lib.attention %{{.+}}, %{{.+}}, %{{.+}} into %[[OV]] {scale = 1.250000e-01 : f32}
//  CHECK-SAME:     memref<?x?x?x64xbf16, strided<[?, ?, ?, ?], offset: ?>>
//       CHECK:   %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
//       CHECK:   return %[[R]]
func.func @plain(%q: tensor<?x12x197x64xbf16>, %k: tensor<?x12x197x64xbf16>, %v: tensor<?x12x197x64xbf16>) -> tensor<?x12x197x64xbf16> {
  %0 = fusion.group "attention"(%q, %k, %v : tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>) -> tensor<?x12x197x64xbf16> {
  ^bb0(%a: tensor<?x12x197x64xbf16>, %b: tensor<?x12x197x64xbf16>, %c: tensor<?x12x197x64xbf16>):
    %1 = tcc.attention %a, %b, %c : (tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>) -> tensor<?x12x197x64xbf16>
    fusion.yield %1 : tensor<?x12x197x64xbf16>
  }
  return %0 : tensor<?x12x197x64xbf16>
}

// -----

// One head (rank 3), f16, causal, static: k is transposed inside the group,
// so the kernel reads k's own buffer through a view whose rows are k's dim
// 2 and whose columns are k's dim 1. Static sizes need no run-time
// comparison; the scale attribute is kept.
// CHECK-LABEL: func.func @one_head_transposed_k
//       CHECK:   %[[KB:.+]] = bufferization.to_buffer %arg1 read_only
//       CHECK:   %{{.+}}, %{{.+}}, %[[KS:.+]]:3, %[[KST:.+]]:3 = memref.extract_strided_metadata %[[KB]]
//   CHECK-NOT:   cf.assert
//       CHECK:   %[[KV:.+]] = memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [%[[KS]]#0, %[[KS]]#2, 64], strides: [%[[KST]]#0, %[[KST]]#2, %[[KST]]#1]
//       CHECK:   tcc_lib.attention %{{.+}}, %[[KV]], %{{.+}} into %{{.+}} {is_causal = true, scale = 5.000000e-01 : f32}
//  CHECK-SAME:     memref<?x?x64xf16
func.func @one_head_transposed_k(%q: tensor<2x8x64xf16>, %k: tensor<2x64x8xf16>, %v: tensor<2x8x64xf16>) -> tensor<2x8x64xf16> {
  %0 = fusion.group "attention"(%k, %q, %v : tensor<2x64x8xf16>, tensor<2x8x64xf16>, tensor<2x8x64xf16>) -> tensor<2x8x64xf16> {
  ^bb0(%a: tensor<2x64x8xf16>, %b: tensor<2x8x64xf16>, %c: tensor<2x8x64xf16>):
    %1 = tcc.transpose %a {permutation = array<i64: 0, 2, 1>} : (tensor<2x64x8xf16>) -> tensor<2x8x64xf16>
    %2 = tcc.attention %b, %1, %c {is_causal = true, scale = 0.5 : f32} : (tensor<2x8x64xf16>, tensor<2x8x64xf16>, tensor<2x8x64xf16>) -> tensor<2x8x64xf16>
    fusion.yield %2 : tensor<2x8x64xf16>
  }
  return %0 : tensor<2x8x64xf16>
}

// -----

// ViT's form (static sequence, dynamic batch): q, k and v are followed
// through the unit reshapes and the transposing copy groups to the slices
// of the QKV projection; the copies and reshapes go away and the kernel
// reads [B, 77, 1, 4, 64] slices as [B, 4, 77, 64] (dims 0, 3, 1, 4). The
// result is written through the group's final transpose into a
// [B, 77, 4, 64] buffer, which keeps the group's size expression.
// CHECK-LABEL: func.func @vit_qkv
//   CHECK-NOT:   fusion.group
//   CHECK-DAG:   %[[QS:.+]] = tcc.slice %{{.+}} {ends = array<i64: 9223372036854775807, 77, 1, 4, 64>
//   CHECK-DAG:   %[[QB:.+]] = bufferization.to_buffer %[[QS]] read_only : tensor<?x77x1x4x64xbf16>
//       CHECK:   %[[QBASE:[a-z_0-9]+]], %[[QOFF:[a-z_0-9]+]], %[[QSZ:[a-z_0-9]+]]:5, %[[QST:[a-z_0-9]+]]:5 = memref.extract_strided_metadata %[[QB]]
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?x77x4x64xbf16>
//       CHECK:   %[[QV:.+]] = memref.reinterpret_cast %[[QBASE]] to offset: [%[[QOFF]]], sizes: [%[[QSZ]]#0, %[[QSZ]]#3, %[[QSZ]]#1, 64], strides: [%[[QST]]#0, %[[QST]]#3, %[[QST]]#1, %[[QST]]#4]
//       CHECK:   tcc_lib.attention %[[QV]]
//       CHECK:   %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable {tcc.shape = #tcc.shape<[B, 77, 4, 64]>}
//       CHECK:   tcc.reshape %[[R]]
func.func @vit_qkv(%arg0: tensor<?x77x768xbf16>) -> tensor<?x77x256xbf16> {
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x77x768xbf16>
  %0 = arith.index_cast %dim : index to i64
  %c77_i64 = arith.constant 77 : i64
  %c3_i64 = arith.constant 3 : i64
  %c4_i64 = arith.constant 4 : i64
  %c64_i64 = arith.constant 64 : i64
  %c256_i64 = arith.constant 256 : i64
  %from_elements = tensor.from_elements %0, %c77_i64, %c3_i64, %c4_i64, %c64_i64 : tensor<5xi64>
  %1 = tcc.reshape %arg0, %from_elements : (tensor<?x77x768xbf16>, tensor<5xi64>) -> tensor<?x77x3x4x64xbf16>
  %from_elements_0 = tensor.from_elements %0, %c4_i64, %c77_i64, %c64_i64 : tensor<4xi64>
  %2 = tcc.slice %1 {ends = array<i64: 9223372036854775807, 77, 1, 4, 64>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : (tensor<?x77x3x4x64xbf16>) -> tensor<?x77x1x4x64xbf16>
  %3 = fusion.group "copy"(%2 : tensor<?x77x1x4x64xbf16>) -> tensor<1x?x4x77x64xbf16> {
  ^bb0(%arg1: tensor<?x77x1x4x64xbf16>):
    %13 = tcc.transpose %arg1 {permutation = array<i64: 2, 0, 3, 1, 4>} : (tensor<?x77x1x4x64xbf16>) -> tensor<1x?x4x77x64xbf16>
    fusion.yield %13 : tensor<1x?x4x77x64xbf16>
  }
  %4 = tcc.reshape %3, %from_elements_0 : (tensor<1x?x4x77x64xbf16>, tensor<4xi64>) -> tensor<?x4x77x64xbf16>
  %5 = tcc.slice %1 {ends = array<i64: 9223372036854775807, 77, 2, 4, 64>, starts = array<i64: 0, 0, 1, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : (tensor<?x77x3x4x64xbf16>) -> tensor<?x77x1x4x64xbf16>
  %6 = fusion.group "copy"(%5 : tensor<?x77x1x4x64xbf16>) -> tensor<1x?x4x77x64xbf16> {
  ^bb0(%arg1: tensor<?x77x1x4x64xbf16>):
    %13 = tcc.transpose %arg1 {permutation = array<i64: 2, 0, 3, 1, 4>} : (tensor<?x77x1x4x64xbf16>) -> tensor<1x?x4x77x64xbf16>
    fusion.yield %13 : tensor<1x?x4x77x64xbf16>
  }
  %7 = tcc.reshape %6, %from_elements_0 : (tensor<1x?x4x77x64xbf16>, tensor<4xi64>) -> tensor<?x4x77x64xbf16>
  %8 = tcc.slice %1 {ends = array<i64: 9223372036854775807, 77, 3, 4, 64>, starts = array<i64: 0, 0, 2, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : (tensor<?x77x3x4x64xbf16>) -> tensor<?x77x1x4x64xbf16>
  %9 = fusion.group "copy"(%8 : tensor<?x77x1x4x64xbf16>) -> tensor<1x?x4x77x64xbf16> {
  ^bb0(%arg1: tensor<?x77x1x4x64xbf16>):
    %13 = tcc.transpose %arg1 {permutation = array<i64: 2, 0, 3, 1, 4>} : (tensor<?x77x1x4x64xbf16>) -> tensor<1x?x4x77x64xbf16>
    fusion.yield %13 : tensor<1x?x4x77x64xbf16>
  }
  %10 = tcc.reshape %9, %from_elements_0 : (tensor<1x?x4x77x64xbf16>, tensor<4xi64>) -> tensor<?x4x77x64xbf16>
  %11 = fusion.group "attention"(%4, %7, %10 : tensor<?x4x77x64xbf16>, tensor<?x4x77x64xbf16>, tensor<?x4x77x64xbf16>) -> tensor<?x77x4x64xbf16> attributes {tcc.shape = #tcc.shape<[B, 77, 4, 64]>} {
  ^bb0(%arg1: tensor<?x4x77x64xbf16>, %arg2: tensor<?x4x77x64xbf16>, %arg3: tensor<?x4x77x64xbf16>):
    %13 = tcc.attention %arg1, %arg2, %arg3 : (tensor<?x4x77x64xbf16>, tensor<?x4x77x64xbf16>, tensor<?x4x77x64xbf16>) -> tensor<?x4x77x64xbf16>
    %14 = tcc.transpose %13 {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x4x77x64xbf16>) -> tensor<?x77x4x64xbf16>
    fusion.yield %14 : tensor<?x77x4x64xbf16>
  }
  %from_elements_1 = tensor.from_elements %0, %c77_i64, %c256_i64 : tensor<3xi64>
  %12 = tcc.reshape %11, %from_elements_1 : (tensor<?x77x4x64xbf16>, tensor<3xi64>) -> tensor<?x77x256xbf16>
  return %12 : tensor<?x77x256xbf16>
}

// -----

// A reshape with two dynamic dims could split them differently: the walk
// stops there, the transposing copy stays and the kernel reads its result.
// CHECK-LABEL: func.func @two_dynamic_dims
//       CHECK:   %[[C:.+]] = fusion.group "copy"
//       CHECK:   %[[R:.+]] = tcc.reshape %[[C]]
//       CHECK:   bufferization.to_buffer %[[R]] read_only
//       CHECK:   tcc_lib.attention
func.func @two_dynamic_dims(%x: tensor<?x?x1x4x64xbf16>, %k: tensor<?x4x?x64xbf16>, %v: tensor<?x4x?x64xbf16>, %s: tensor<4xi64>) -> tensor<?x4x?x64xbf16> {
  %0 = fusion.group "copy"(%x : tensor<?x?x1x4x64xbf16>) -> tensor<1x?x4x?x64xbf16> {
  ^bb0(%a: tensor<?x?x1x4x64xbf16>):
    %1 = tcc.transpose %a {permutation = array<i64: 2, 0, 3, 1, 4>} : (tensor<?x?x1x4x64xbf16>) -> tensor<1x?x4x?x64xbf16>
    fusion.yield %1 : tensor<1x?x4x?x64xbf16>
  }
  %q = tcc.reshape %0, %s : (tensor<1x?x4x?x64xbf16>, tensor<4xi64>) -> tensor<?x4x?x64xbf16>
  %2 = fusion.group "attention"(%q, %k, %v : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  ^bb0(%a: tensor<?x4x?x64xbf16>, %b: tensor<?x4x?x64xbf16>, %c: tensor<?x4x?x64xbf16>):
    %3 = tcc.attention %a, %b, %c : (tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16>
    fusion.yield %3 : tensor<?x4x?x64xbf16>
  }
  return %2 : tensor<?x4x?x64xbf16>
}

// -----

// What the kernels do not compute stays a group for the generic lowering:
// f32 with a head dim of 128, a mask, a head dim of 96, and a group with
// more than transposes.
// CHECK-LABEL: func.func @not_for_the_kernel
//   CHECK-NOT:   tcc_lib.attention
//   CHECK-NOT:   bufferization.to_buffer
//       CHECK:   fusion.group "attention"
//       CHECK:   fusion.group "attention"
//       CHECK:   fusion.group "attention"
//       CHECK:   fusion.group "attention"
func.func @not_for_the_kernel(%q32: tensor<2x4x16x128xf32>, %q: tensor<2x4x16x64xbf16>, %m: tensor<16x16xi1>, %q96: tensor<2x4x16x96xbf16>)
    -> (tensor<2x4x16x128xf32>, tensor<2x4x16x64xbf16>, tensor<2x4x16x96xbf16>, tensor<2x4x16x64xbf16>) {
  %0 = fusion.group "attention"(%q32 : tensor<2x4x16x128xf32>) -> tensor<2x4x16x128xf32> {
  ^bb0(%a: tensor<2x4x16x128xf32>):
    %r = tcc.attention %a, %a, %a : (tensor<2x4x16x128xf32>, tensor<2x4x16x128xf32>, tensor<2x4x16x128xf32>) -> tensor<2x4x16x128xf32>
    fusion.yield %r : tensor<2x4x16x128xf32>
  }
  %1 = fusion.group "attention"(%q, %m : tensor<2x4x16x64xbf16>, tensor<16x16xi1>) -> tensor<2x4x16x64xbf16> {
  ^bb0(%a: tensor<2x4x16x64xbf16>, %b: tensor<16x16xi1>):
    %r = tcc.attention %a, %a, %a, %b : (tensor<2x4x16x64xbf16>, tensor<2x4x16x64xbf16>, tensor<2x4x16x64xbf16>, tensor<16x16xi1>) -> tensor<2x4x16x64xbf16>
    fusion.yield %r : tensor<2x4x16x64xbf16>
  }
  %2 = fusion.group "attention"(%q96 : tensor<2x4x16x96xbf16>) -> tensor<2x4x16x96xbf16> {
  ^bb0(%a: tensor<2x4x16x96xbf16>):
    %r = tcc.attention %a, %a, %a : (tensor<2x4x16x96xbf16>, tensor<2x4x16x96xbf16>, tensor<2x4x16x96xbf16>) -> tensor<2x4x16x96xbf16>
    fusion.yield %r : tensor<2x4x16x96xbf16>
  }
  %3 = fusion.group "attention"(%q : tensor<2x4x16x64xbf16>) -> tensor<2x4x16x64xbf16> {
  ^bb0(%a: tensor<2x4x16x64xbf16>):
    %r = tcc.attention %a, %a, %a : (tensor<2x4x16x64xbf16>, tensor<2x4x16x64xbf16>, tensor<2x4x16x64xbf16>) -> tensor<2x4x16x64xbf16>
    %n = tcc.neg %r : (tensor<2x4x16x64xbf16>) -> tensor<2x4x16x64xbf16>
    fusion.yield %n : tensor<2x4x16x64xbf16>
  }
  return %0, %1, %2, %3 : tensor<2x4x16x128xf32>, tensor<2x4x16x64xbf16>, tensor<2x4x16x96xbf16>, tensor<2x4x16x64xbf16>
}

// -----

// f32 with a head dim of 64 goes to the f32 kernel (the CUDA cores).
// CHECK-LABEL: func.func @f32_heads
//   CHECK-NOT:   fusion.group
//       CHECK:   tcc_lib.attention %{{.+}}, %{{.+}}, %{{.+}} into %{{.+}} {scale = 1.250000e-01 : f32}
//  CHECK-SAME:     xf32
func.func @f32_heads(%q: tensor<2x4x16x64xf32>) -> tensor<2x4x16x64xf32> {
  %0 = fusion.group "attention"(%q : tensor<2x4x16x64xf32>) -> tensor<2x4x16x64xf32> {
  ^bb0(%a: tensor<2x4x16x64xf32>):
    %r = tcc.attention %a, %a, %a : (tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>) -> tensor<2x4x16x64xf32>
    fusion.yield %r : tensor<2x4x16x64xf32>
  }
  return %0 : tensor<2x4x16x64xf32>
}
