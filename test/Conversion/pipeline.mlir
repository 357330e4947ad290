// RUN: tcc-opt %s --tcc-cpu-pipeline | FileCheck %s
// RUN: tcc-opt %s --tcc-cpu-pipeline | FileCheck %s --check-prefix=LOWERED

// The CPU pipeline takes tcc all the way to the LLVM dialect: every public
// function becomes an llvm.func marked llvm.emit_c_interface plus its
// _mlir_ciface_ wrapper (results returned through the first pointer: the
// entry guards' i64 status, then the tensors), and no op of a higher-level
// dialect is left.

// LOWERED-NOT: {{^ *(%[^ ]+ = )?"?(tcc|fusion|linalg|tensor|bufferization|memref|scf|vector|affine|arith|math|cf|func)\.}}
// LOWERED-NOT: builtin.unrealized_conversion_cast
// LOWERED-NOT: fusion.group

// CHECK-LABEL: llvm.func @mlp(
//  CHECK-SAME:   attributes {llvm.emit_c_interface
// CHECK-LABEL: llvm.func @_mlir_ciface_mlp(
//  CHECK-SAME:   %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
//  CHECK-SAME:   llvm.emit_c_interface
//       CHECK:   llvm.call @mlp(
func.func @mlp(%x: tensor<8x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<8x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %1 = tcc.gelu %0 : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// Dynamic batch: the status comes first in the result struct.
// CHECK-LABEL: llvm.func @dynamic_softmax(
//  CHECK-SAME:   -> !llvm.struct<(i64, struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>)>
//  CHECK-SAME:   attributes {llvm.emit_c_interface
// CHECK-LABEL: llvm.func @_mlir_ciface_dynamic_softmax(
//  CHECK-SAME:   %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
func.func @dynamic_softmax(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = tcc.add %x, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %1 = tcc.softmax %0 {axis = -1 : i64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %1 : tensor<?x8xf32>
}

// CHECK-LABEL: llvm.func @conv_bn_relu_pool(
//  CHECK-SAME:   attributes {llvm.emit_c_interface
// CHECK-LABEL: llvm.func @_mlir_ciface_conv_bn_relu_pool(
func.func @conv_bn_relu_pool(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %c: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  %1 = tcc.batch_norm %0, %c, %c, %c, %c : (tensor<1x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %2 = tcc.relu %1 : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %3 = tcc.max_pool2d %2 {kernel_size = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
  return %3 : tensor<1x8x4x4xf32>
}

// bf16 data movement with a dynamic dim; the gather's index check aborts
// at runtime.
// CHECK-LABEL: llvm.func @embedding(
//  CHECK-SAME:   attributes {llvm.emit_c_interface
//       CHECK:   llvm.call @abort
// CHECK-LABEL: llvm.func @_mlir_ciface_embedding(
func.func @embedding(%t: tensor<16x8xbf16>, %i: tensor<?xi64>) -> tensor<?x2x4xbf16> {
  %0 = tcc.gather %t, %i : (tensor<16x8xbf16>, tensor<?xi64>) -> tensor<?x8xbf16>
  %1 = tcc.reshape %0 : (tensor<?x8xbf16>) -> tensor<?x2x4xbf16>
  return %1 : tensor<?x2x4xbf16>
}
