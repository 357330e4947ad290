// RUN: tcc-opt %s --tcc-contractions-to-gemms --split-input-file | FileCheck %s
// RUN: tcc-opt %s --tcc-contractions-to-gemms="dispatch=true" --split-input-file | FileCheck %s --check-prefix=DISPATCH

// A linear as bufferization leaves it (zero fill, x . w^T read as (n, k),
// then bias + ReLU into a second buffer): one gemm on a transposed view
// of w, with the bias and ReLU as its epilogue, into the epilogue's
// buffer; the fill, the product's buffer and both generics are gone. The
// row count is dynamic: the library takes it (with dispatch, a branch on
// the row count keeps the generated ops for fewer than 16 rows).
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @linear_bias_relu
//  CHECK-SAME:   %[[X:.+]]: memref<?x256xf32>, %[[W:.+]]: memref<512x256xf32>, %[[B:.+]]: memref<512xf32>
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?x512xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   %[[WT:.+]] = memref.transpose %[[W]] (d0, d1) -> (d1, d0) : memref<512x256xf32> to memref<256x512xf32, strided<[1, 256]>>
//       CHECK:   tcc_lib.gemm %[[X]], %[[WT]] bias %[[B]] into %[[OUT]] {epilogue = "relu"}
//   CHECK-NOT:   linalg.
//       CHECK:   return %[[OUT]]
// DISPATCH-LABEL: func.func @linear_bias_relu
//       DISPATCH:   %[[ROWS:.+]] = arith.muli
//       DISPATCH:   %[[MANY:.+]] = arith.cmpi sge, %[[ROWS]], %c16
//       DISPATCH:   scf.if %[[MANY]] {
//       DISPATCH:     tcc_lib.gemm
//       DISPATCH:   } else {
//       DISPATCH:     linalg.fill
//       DISPATCH:     linalg.generic
//       DISPATCH:     linalg.generic
//       DISPATCH:   }
func.func @linear_bias_relu(%x: memref<?x256xf32>, %w: memref<512x256xf32>,
                            %b: memref<512xf32>) -> memref<?x512xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x256xf32>
  %p = memref.alloc(%n) : memref<?x512xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<?x512xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<?x256xf32>, memref<512x256xf32>)
      outs(%p : memref<?x512xf32>) {
  ^bb0(%a: f32, %v: f32, %acc: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc(%n) : memref<?x512xf32>
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : memref<?x512xf32>, memref<512xf32>)
      outs(%out : memref<?x512xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %p : memref<?x512xf32>
  return %out : memref<?x512xf32>
}

// -----

// Bias and residual added in place into the product (fc2 + residual): the
// residual is the library's c. A 3-D input's leading dims merge into M.
#x3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#w3 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#y3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bias3 = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @linear_residual
//  CHECK-SAME:   %[[X:[a-z0-9]+]]: memref<4x50x64xf32>, %[[W:[a-z0-9]+]]: memref<64x32xf32>, %[[B:[a-z0-9]+]]: memref<32xf32>, %[[R:[a-z0-9]+]]: memref<4x50x32xf32>
//       CHECK:   %[[P:.+]] = memref.alloc() : memref<4x50x32xf32>
//   CHECK-DAG:   %[[XC:.+]] = memref.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : memref<4x50x64xf32> into memref<200x64xf32>
//   CHECK-DAG:   %[[PC:.+]] = memref.collapse_shape %[[P]] {{\[}}[0, 1], [2]]
//   CHECK-DAG:   %[[RC:.+]] = memref.collapse_shape %[[R]] {{\[}}[0, 1], [2]]
//       CHECK:   tcc_lib.gemm %[[XC]], %[[W]] c %[[RC]] bias %[[B]] into %[[PC]] : memref<200x64xf32>, memref<64x32xf32> c memref<200x32xf32> bias memref<32xf32> into memref<200x32xf32>
//   CHECK-NOT:   linalg.
func.func @linear_residual(%x: memref<4x50x64xf32>, %w: memref<64x32xf32>,
                           %b: memref<32xf32>, %r: memref<4x50x32xf32>)
    -> memref<4x50x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<4x50x32xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<4x50x32xf32>)
  linalg.generic {indexing_maps = [#x3, #w3, #y3],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x50x64xf32>, memref<64x32xf32>)
      outs(%p : memref<4x50x32xf32>) {
  ^bb0(%a: f32, %v: f32, %acc: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id3, #bias3, #id3, #id3],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %b, %r : memref<4x50x32xf32>, memref<32xf32>, memref<4x50x32xf32>)
      outs(%p : memref<4x50x32xf32>) {
  ^bb0(%v: f32, %bias: f32, %res: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %t = arith.addf %res, %s : f32
    linalg.yield %t : f32
  }
  return %p : memref<4x50x32xf32>
}

// -----

// An epilogue the library cannot do (GELU) stays a generic of its own, and
// a product without a fill accumulates into what is there (c = d).
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d2, d1)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gelu_and_accumulate
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %[[P:.+]] : memref<64x32xf32>, memref<32x48xf32> into memref<64x48xf32>
//       CHECK:   linalg.generic
//       CHECK:     math.erf
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} c %[[ACC:[a-z0-9_]+]] into %[[ACC]]
func.func @gelu_and_accumulate(%x: memref<64x32xf32>, %w: memref<32x48xf32>,
                               %acc: memref<64x48xf32>) -> memref<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %p = memref.alloc() : memref<64x48xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<64x48xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x32xf32>, memref<32x48xf32>)
      outs(%p : memref<64x48xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%p : memref<64x48xf32>) outs(%p : memref<64x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.erf %v : f32
    %h = arith.mulf %v, %half : f32
    %g = math.fma %h, %e, %h : f32
    linalg.yield %g : f32
  }
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x32xf32>, memref<32x48xf32>)
      outs(%acc : memref<64x48xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  return %p : memref<64x48xf32>
}

// -----

// The epilogue is not taken when the product is read after it: the
// product must be in memory.
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d2, d1)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @product_read_later
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %[[P:.+]] : memref<64x32xf32>
//   CHECK-NOT:   bias
//       CHECK:   linalg.generic
//       CHECK:   return %{{.+}}, %[[P]]
func.func @product_read_later(%x: memref<64x32xf32>, %w: memref<32x48xf32>,
                              %b: memref<48xf32>)
    -> (memref<64x48xf32>, memref<64x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<64x48xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<64x48xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x32xf32>, memref<32x48xf32>)
      outs(%p : memref<64x48xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<64x48xf32>
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : memref<64x48xf32>, memref<48xf32>)
      outs(%out : memref<64x48xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    linalg.yield %s : f32
  }
  return %out, %p : memref<64x48xf32>, memref<64x48xf32>
}

// -----

// Attention's q k^T with the heads inside the rows (q and k are views of
// the fused qkv buffer, [B, S, 12, 64]): the batch dims (B, 12) have no
// common stride, so q and k are copied dense in the library's order ([B,
// 12, S, 64]; k keeps its innermost dim and is read transposed), one
// batched gemm of B x 12 products.
#q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
#k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
#s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @scores_heads_inside_rows
//       CHECK:   %[[QD:.+]] = memref.alloc({{.+}}) : memref<?x12x?x64xf32>
//       CHECK:   memref.copy %{{.+}}, %[[QD]] : memref<?x12x?x64xf32, strided<[?, 64, 2304, 1]>> to memref<?x12x?x64xf32>
//       CHECK:   %[[KD:.+]] = memref.alloc({{.+}}) : memref<?x12x?x64xf32>
//       CHECK:   memref.copy %{{.+}}, %[[KD]] : memref<?x12x?x64xf32, strided<[?, 64, 2304, 1], offset: 768>> to memref<?x12x?x64xf32>
//       CHECK:   %[[KC:.+]] = memref.collapse_shape %[[KD]] {{\[}}[0, 1], [2], [3]]
//       CHECK:   %[[KT:.+]] = memref.transpose %[[KC]] (d0, d1, d2) -> (d0, d2, d1)
//       CHECK:   tcc_lib.gemm %{{.+}}, %[[KT]] into %{{.+}} : memref<?x?x64xf32>, memref<?x64x?xf32, strided<[?, 1, 64]>> into memref<?x?x?xf32>
//       CHECK:   memref.dealloc %[[QD]]
//       CHECK:   memref.dealloc %[[KD]]
func.func @scores_heads_inside_rows(
    %q: memref<?x?x12x64xf32, strided<[?, 2304, 64, 1]>>,
    %k: memref<?x?x12x64xf32, strided<[?, 2304, 64, 1], offset: 768>>,
    %out: memref<?x12x?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<?x12x?x?xf32>)
  linalg.generic {indexing_maps = [#q, #k, #s],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<?x?x12x64xf32, strided<[?, 2304, 64, 1]>>,
                   memref<?x?x12x64xf32, strided<[?, 2304, 64, 1], offset: 768>>)
      outs(%out : memref<?x12x?x?xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not given to the library: a few static rows (the robot policy's batch
// of one: the matvec kernel is faster). A product of f16 inputs
// accumulated in f32 is: a and b in f16, d in f32.
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @few_rows_and_f16
//   CHECK-NOT:   tcc_lib.gemm
//       CHECK:   linalg.generic
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %{{.+}} : memref<64x32xf16>, memref<32x48xf16, strided<[1, 32]>> into memref<64x48xf32>
//   CHECK-NOT:   linalg.generic
func.func @few_rows_and_f16(%x: memref<1x256xf32>, %w: memref<512x256xf32>,
                            %o: memref<1x512xf32>, %h: memref<64x32xf16>,
                            %v: memref<48x32xf16>, %acc: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x256xf32>, memref<512x256xf32>)
      outs(%o : memref<1x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x48xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %v : memref<64x32xf16>, memref<48x32xf16>)
      outs(%acc : memref<64x48xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Bufferization reuses one scratch buffer for two weights' per-call
// transposes (two blocks' fc2): each transpose is read up to the next one
// into the buffer, so both fold into their products' reads and the buffer
// goes away.
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d2, d1)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @shared_transpose_scratch
//  CHECK-SAME:   %[[X:[a-z0-9]+]]: memref<64x32xf32>, %[[W1:[a-z0-9]+]]: memref<48x32xf32>, %[[W2:[a-z0-9]+]]: memref<48x32xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   tcc_lib.gemm %[[X]], %{{.+}} into
//       CHECK:   tcc_lib.gemm %[[X]], %{{.+}} into
//   CHECK-NOT:   linalg.transpose
//   CHECK-NOT:   memref.alloc() : memref<32x48xf32>
func.func @shared_transpose_scratch(%x: memref<64x32xf32>, %w1: memref<48x32xf32>,
                                    %w2: memref<48x32xf32>, %o1: memref<64x48xf32>,
                                    %o2: memref<64x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<32x48xf32>
  linalg.transpose ins(%w1 : memref<48x32xf32>) outs(%t : memref<32x48xf32>) permutation = [1, 0]
  linalg.fill ins(%zero : f32) outs(%o1 : memref<64x48xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %t : memref<64x32xf32>, memref<32x48xf32>)
      outs(%o1 : memref<64x48xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  linalg.transpose ins(%w2 : memref<48x32xf32>) outs(%t : memref<32x48xf32>) permutation = [1, 0]
  linalg.fill ins(%zero : f32) outs(%o2 : memref<64x48xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %t : memref<64x32xf32>, memref<32x48xf32>)
      outs(%o2 : memref<64x48xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<32x48xf32>
  return
}

// -----

// bf16 linear + bias (one rounding, after the bias): the library writes
// bf16 with the bias as its epilogue, straight into the op's output.
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @bf16_linear_bias
//  CHECK-SAME:   %[[X:[a-z0-9]+]]: memref<?x256xbf16>, %[[W:[a-z0-9]+]]: memref<512x256xbf16>, %[[B:[a-z0-9]+]]: memref<512xbf16>
//       CHECK:   %[[OUT:.+]] = memref.alloc(%{{.+}}) : memref<?x512xbf16>
//       CHECK:   tcc_lib.gemm %[[X]], %{{.+}} bias %[[B]] into %[[OUT]] : {{.+}} into memref<?x512xbf16>
//   CHECK-NOT:   linalg.
//   CHECK-NOT:   xf32>
//       CHECK:   return %[[OUT]]
func.func @bf16_linear_bias(%x: memref<?x256xbf16>, %w: memref<512x256xbf16>,
                            %b: memref<512xbf16>) -> memref<?x512xbf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x256xbf16>
  %p = memref.alloc(%n) : memref<?x512xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<?x512xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<?x256xbf16>, memref<512x256xbf16>)
      outs(%p : memref<?x512xf32>) {
  ^bb0(%a: bf16, %v: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %ve = arith.extf %v : bf16 to f32
    %m = arith.mulf %ae, %ve : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc(%n) : memref<?x512xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : memref<?x512xf32>, memref<512xbf16>)
      outs(%out : memref<?x512xbf16>) {
  ^bb0(%v: f32, %bias: bf16, %o: bf16):
    %be = arith.extf %bias : bf16 to f32
    %s = arith.addf %v, %be : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %p : memref<?x512xf32>
  return %out : memref<?x512xbf16>
}

// -----

// bf16 fc1 + bias + GELU: the library adds the bias and rounds into a new
// bf16 buffer; the GELU op reads that instead of the f32 product (and no
// longer the bias). The f32 product's buffer is gone.
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @bf16_bias_then_gelu
//  CHECK-SAME:   %[[X:[a-z0-9]+]]: memref<64x256xbf16>, %[[W:[a-z0-9]+]]: memref<512x256xbf16>, %[[B:[a-z0-9]+]]: memref<512xbf16>
//   CHECK-NOT:   xf32>
//       CHECK:   %[[OUT:.+]] = memref.alloc() : memref<64x512xbf16>
//       CHECK:   %[[D:.+]] = memref.alloc() : memref<64x512xbf16>
//       CHECK:   tcc_lib.gemm %[[X]], %{{.+}} bias %[[B]] into %[[D]]
//       CHECK:   linalg.generic {{.+}} ins(%[[D]] : memref<64x512xbf16>) outs(%[[OUT]] : memref<64x512xbf16>)
//  CHECK-NEXT:   ^bb0(%[[IN:.+]]: bf16, %{{.+}}: bf16):
//  CHECK-NEXT:     arith.extf %[[IN]]
//       CHECK:     math.erf
//       CHECK:   memref.dealloc %[[D]]
//   CHECK-NOT:   xf32>
//       CHECK:   return %[[OUT]]
func.func @bf16_bias_then_gelu(%x: memref<64x256xbf16>, %w: memref<512x256xbf16>,
                               %b: memref<512xbf16>) -> memref<64x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %p = memref.alloc() : memref<64x512xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<64x512xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x256xbf16>, memref<512x256xbf16>)
      outs(%p : memref<64x512xf32>) {
  ^bb0(%a: bf16, %v: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %ve = arith.extf %v : bf16 to f32
    %m = arith.mulf %ae, %ve : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<64x512xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : memref<64x512xf32>, memref<512xbf16>)
      outs(%out : memref<64x512xbf16>) {
  ^bb0(%v: f32, %bias: bf16, %o: bf16):
    %be = arith.extf %bias : bf16 to f32
    %s = arith.addf %v, %be : f32
    %r = arith.truncf %s : f32 to bf16
    %e = arith.extf %r : bf16 to f32
    %t = math.erf %e : f32
    %g = arith.mulf %t, %half : f32
    %h = arith.truncf %g : f32 to bf16
    linalg.yield %h : bf16
  }
  memref.dealloc %p : memref<64x512xf32>
  return %out : memref<64x512xbf16>
}

// -----

// Not rounded by the library: the op reads the f32 product itself (here
// doubled before rounding), so d stays f32 and the op stays as it is.
// The bias stays in the op too (the sum is not all it computes).
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @bf16_product_read_in_f32
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %[[P:.+]] : {{.+}} into memref<64x512xf32>
//       CHECK:   linalg.generic {{.+}} ins(%[[P]], %{{.+}} : memref<64x512xf32>, memref<512xbf16>)
func.func @bf16_product_read_in_f32(%x: memref<64x256xbf16>, %w: memref<512x256xbf16>,
                                    %b: memref<512xbf16>) -> memref<64x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<64x512xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<64x512xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x256xbf16>, memref<512x256xbf16>)
      outs(%p : memref<64x512xf32>) {
  ^bb0(%a: bf16, %v: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %ve = arith.extf %v : bf16 to f32
    %m = arith.mulf %ae, %ve : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<64x512xbf16>
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : memref<64x512xf32>, memref<512xbf16>)
      outs(%out : memref<64x512xbf16>) {
  ^bb0(%v: f32, %bias: bf16, %o: bf16):
    %be = arith.extf %bias : bf16 to f32
    %v2 = arith.addf %v, %v : f32
    %s = arith.addf %v2, %be : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %p : memref<64x512xf32>
  return %out : memref<64x512xbf16>
}

// -----

// The product's buffer is reused later as scratch, written whole before
// anything reads it: the epilogue still joins. A later op that reads the
// old contents first keeps the product (see @product_read_later).
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#w = affine_map<(d0, d1, d2) -> (d2, d1)>
#y = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @product_buffer_reused
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} bias %{{.+}} into %[[OUT:[a-z0-9_]+]] :
//       CHECK:   linalg.generic {{.+}} ins(%[[OUT]] : memref<64x48xf32>)
func.func @product_buffer_reused(%x: memref<64x32xf32>, %w: memref<32x48xf32>,
                                 %b: memref<48xf32>) -> memref<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<64x48xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<64x48xf32>)
  linalg.generic {indexing_maps = [#x, #w, #y],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x32xf32>, memref<32x48xf32>)
      outs(%p : memref<64x48xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<64x48xf32>
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : memref<64x48xf32>, memref<48xf32>)
      outs(%out : memref<64x48xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    linalg.yield %s : f32
  }
  // %p as scratch: written whole (its old contents unread), then read.
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%out : memref<64x48xf32>) outs(%p : memref<64x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  }
  %r = memref.alloc() : memref<64x48xf32>
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%p : memref<64x48xf32>) outs(%r : memref<64x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<64x48xf32>
  return %r : memref<64x48xf32>
}

// -----

// Attention's p v in bf16: the next op only rounds the product while it
// transposes it ([B, H, S, D] to [B, S, H, D]), after bufferization freed
// p. The library rounds (d in bf16), the op transposes that, and the free
// of p moves after it (the call takes the op's place).
#p = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#t = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
// CHECK-LABEL: func.func @pv_bf16_transposed
//  CHECK-SAME:   %[[P:[a-z0-9]+]]: memref<2x12x197x197xbf16>
//       CHECK:   %[[D:.+]] = memref.alloc() : memref<2x12x197x64xbf16>
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %{{.+}} : {{.+}} into memref<24x197x64xbf16>
//       CHECK:   linalg.generic {{.+}} ins(%[[D]] : memref<2x12x197x64xbf16>) outs(%{{.+}} : memref<2x197x12x64xbf16>)
//   CHECK-DAG:   memref.dealloc %[[D]]
//   CHECK-DAG:   memref.dealloc %[[P]]
//   CHECK-NOT:   xf32>
func.func @pv_bf16_transposed(%pr: memref<2x12x197x197xbf16>, %v: memref<2x12x197x64xbf16>,
                              %out: memref<2x197x12x64xbf16>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<2x12x197x64xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<2x12x197x64xf32>)
  linalg.generic {indexing_maps = [#p, #v, #o],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%pr, %v : memref<2x12x197x197xbf16>, memref<2x12x197x64xbf16>)
      outs(%acc : memref<2x12x197x64xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %m = arith.mulf %ae, %be : f32
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  }
  memref.dealloc %pr : memref<2x12x197x197xbf16>
  linalg.generic {indexing_maps = [#id, #t], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc : memref<2x12x197x64xf32>) outs(%out : memref<2x197x12x64xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r = arith.truncf %a : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %acc : memref<2x12x197x64xf32>
  return
}
