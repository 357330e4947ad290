// The C ABI from C: a program that includes only tcc_model.h, linked
// against the library, checks results against its own double-precision
// softmax and the error codes. The library needs no MLIR at run time.

// RUN: rm -rf %t && mkdir -p %t
// RUN: tcc-compile %s -o %t/libsoftmax.so
// RUN: cc -std=c11 -Wall -Werror -I%tcc_include %S/Inputs/c_abi_main.c -L%t -lsoftmax -Wl,-rpath,%t -lm -o %t/main
// RUN: %t/main | FileCheck %s
// CHECK: mismatch: 3 scaled_softmax: input sizes [5, 16], [4, 16] violate input 1 dim 0 == input 0 (x) dim 0 (N)
// CHECK: unknown: 1 no entry named 'nope'
// CHECK: graph: 6 CUDA graphs need a library built with --target=cuda no handle
// CHECK: stream: 6 a stream needs a library built with --target=cuda
// CHECK: entries: 1, first scaled_softmax
// CHECK: ok
// RUN: readelf -d %t/libsoftmax.so | FileCheck %s --check-prefix=DEPS --implicit-check-not=MLIR --implicit-check-not=LLVM
// DEPS: NEEDED

func.func @scaled_softmax(%x: tensor<?x16xf32> {tcc.shape = #tcc.shape<[N, 16]>, tcc.name = "x"}, %y: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x1xf32>) {
  %s = tcc.mul %x, %y : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  %p = tcc.softmax %s {axis = 1 : i64} : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %m = tcc.reduce_max %s {axes = array<i64: 1>, keep_dims = true} : (tensor<?x16xf32>) -> tensor<?x1xf32>
  return %p, %m : tensor<?x16xf32>, tensor<?x1xf32>
}
