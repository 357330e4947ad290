// RUN: tcc-opt %s --tcc-constant-globals-to-bytes=min-bytes=4 --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-constant-globals-to-bytes --split-input-file | FileCheck %s --check-prefix=DEFAULT

// A weight as a dense resource: the same blob, typed as bytes; its
// alignment stays.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global private constant @w(dense_resource<w> : tensor<8xi8>) {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<8 x i8>
// Under the default bound (4096 bytes) an 8-byte table keeps its type.
// DEFAULT: llvm.mlir.global private constant @w(dense_resource<w> : tensor<2xf32>) {{.*}} : !llvm.array<2 x f32>
llvm.mlir.global private constant @w(dense_resource<w> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<2 x f32>
llvm.func @read() -> !llvm.ptr {
  %0 = llvm.mlir.addressof @w : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Dense elements, nested arrays as memref.global's lowering types them:
// 1.0f and 2.0f little-endian (0x3F800000, 0x40000000), each row after
// the other; no alignment before, 64 after.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global private constant @m(dense<[0, 0, -128, 63, 0, 0, 0, 64, 0, 0, 0, 64, 0, 0, -128, 63]> : tensor<16xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<16 x i8>
llvm.mlir.global private constant @m(dense<[[1.0, 2.0], [2.0, 1.0]]> : tensor<2x2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x f32>>

// -----

// Negative: a splat (LLVM fills it already), a mutable global, a global
// at the bound, a global with an initializer region.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global private constant @splat(dense<1.000000e+00> : tensor<4xf32>) {{.*}} : !llvm.array<4 x f32>
// CHECK: llvm.mlir.global private @mutable(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {{.*}} : !llvm.array<2 x f32>
// CHECK: llvm.mlir.global private constant @small(dense<[1, 2]> : tensor<2xi16>) {{.*}} : !llvm.array<2 x i16>
// CHECK: llvm.mlir.global private constant @region() {{.*}} : !llvm.array<2 x f32>
llvm.mlir.global private constant @splat(dense<1.0> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
llvm.mlir.global private @mutable(dense<[1.0, 2.0]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
llvm.mlir.global private constant @small(dense<[1, 2]> : tensor<2xi16>) {addr_space = 0 : i32} : !llvm.array<2 x i16>
llvm.mlir.global private constant @region() {addr_space = 0 : i32} : !llvm.array<2 x f32> {
  %0 = llvm.mlir.zero : !llvm.array<2 x f32>
  llvm.return %0 : !llvm.array<2 x f32>
}
