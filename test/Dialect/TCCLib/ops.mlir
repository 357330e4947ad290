// RUN: tcc-opt %s | tcc-opt | FileCheck %s

// CHECK-LABEL: func.func @gemm
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %{{.+}} : memref<?x768xf32>, memref<768x3072xf32, strided<[1, 768]>> into memref<?x3072xf32>
//       CHECK:   %[[T:.+]] = tcc_lib.gemm async [%{{.+}}] %{{.+}}, %{{.+}} c %{{.+}} bias %{{.+}} into %{{.+}} {epilogue = "relu"}
//  CHECK-SAME:     : memref<?x768xf32>, memref<768x3072xf32, strided<[1, 768]>> c memref<?x3072xf32> bias memref<3072xf32> into memref<?x3072xf32>
//       CHECK:   tcc_lib.gemm async %{{.+}}, %{{.+}} into %{{.+}} : memref<12x?x64xbf16>, memref<12x64x?xbf16> into memref<12x?x?xbf16>
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %{{.+}} : memref<4x8x16xf16>, memref<16x32xf16> into memref<4x8x32xf16>
//       CHECK:   tcc_lib.gemm %{{.+}}, %{{.+}} into %{{.+}} : memref<4x8x16xbf16>, memref<16x32xbf16> into memref<4x8x32xf32>
func.func @gemm(%x: memref<?x768xf32>, %w: memref<3072x768xf32>,
                %b: memref<3072xf32>, %r: memref<?x3072xf32>,
                %y: memref<?x3072xf32>, %t: !gpu.async.token,
                %q: memref<12x?x64xbf16>, %k: memref<12x64x?xbf16>,
                %s: memref<12x?x?xbf16>, %a3: memref<4x8x16xf16>,
                %b2: memref<16x32xf16>, %d3: memref<4x8x32xf16>,
                %a3b: memref<4x8x16xbf16>, %b2b: memref<16x32xbf16>,
                %d3f: memref<4x8x32xf32>) {
  %wt = memref.transpose %w (d0, d1) -> (d1, d0)
      : memref<3072x768xf32> to memref<768x3072xf32, strided<[1, 768]>>
  tcc_lib.gemm %x, %wt into %y
      : memref<?x768xf32>, memref<768x3072xf32, strided<[1, 768]>>
        into memref<?x3072xf32>
  %t1 = tcc_lib.gemm async [%t] %x, %wt c %r bias %b into %y
      {epilogue = "relu"}
      : memref<?x768xf32>, memref<768x3072xf32, strided<[1, 768]>>
        c memref<?x3072xf32> bias memref<3072xf32> into memref<?x3072xf32>
  %t2 = tcc_lib.gemm async %q, %k into %s
      : memref<12x?x64xbf16>, memref<12x64x?xbf16> into memref<12x?x?xbf16>
  tcc_lib.gemm %a3, %b2 into %d3
      : memref<4x8x16xf16>, memref<16x32xf16> into memref<4x8x32xf16>
  tcc_lib.gemm %a3b, %b2b into %d3f
      : memref<4x8x16xbf16>, memref<16x32xbf16> into memref<4x8x32xf32>
  return
}

// tcc_lib.attention: [batch, heads, rows, dim] or one head [batch, rows,
// dim] strided views, causal or not, with and without a token.
// CHECK-LABEL: func.func @attention
//       CHECK:   tcc_lib.attention %{{.+}}, %{{.+}}, %{{.+}} into %{{.+}} {scale = 1.250000e-01 : f32}
//       CHECK:   %{{.+}} = tcc_lib.attention async [%{{.+}}] %{{.+}}, %{{.+}}, %{{.+}} into %{{.+}} {is_causal = true, scale = 5.000000e-01 : f32}
func.func @attention(%q: memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>,
                     %o: memref<?x12x197x64xbf16, strided<[151296, 64, 768, 1]>>,
                     %h: memref<2x100x128xf16>, %t: !gpu.async.token) {
  tcc_lib.attention %q, %q, %q into %o {scale = 0.125 : f32}
      : memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>,
        memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>,
        memref<?x12x197x64xbf16, strided<[453888, 64, 2304, 1]>>
        into memref<?x12x197x64xbf16, strided<[151296, 64, 768, 1]>>
  %t1 = tcc_lib.attention async [%t] %h, %h, %h into %h {is_causal = true, scale = 0.5 : f32}
      : memref<2x100x128xf16>, memref<2x100x128xf16>, memref<2x100x128xf16>
        into memref<2x100x128xf16>
  return
}

// tcc_lib.conv2d: NCHW or channels-last views, with the default attributes
// elided, a bias, a residual, ReLU and groups; with and without a token.
// CHECK-LABEL: func.func @conv2d
//       CHECK:   tcc_lib.conv2d %{{.+}}, %{{.+}} into %{{.+}} : memref<?x64x56x56xf32>
//       CHECK:   %{{.+}} = tcc_lib.conv2d async [%{{.+}}] %{{.+}}, %{{.+}} bias %{{.+}} residual %{{.+}} into %{{.+}} {activation = "relu", groups = 2 : i64, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>}
//  CHECK-SAME:     : memref<4x8x9x9xbf16, strided<[648, 1, 72, 8]>>, memref<6x4x3x3xbf16> bias memref<6xbf16> residual memref<4x6x5x5xbf16> into memref<4x6x5x5xbf16>
func.func @conv2d(%x: memref<?x64x56x56xf32>, %w: memref<64x64x3x3xf32>,
                  %y: memref<?x64x54x54xf32>,
                  %xh: memref<4x8x9x9xbf16, strided<[648, 1, 72, 8]>>,
                  %wh: memref<6x4x3x3xbf16>, %b: memref<6xbf16>,
                  %r: memref<4x6x5x5xbf16>, %t: !gpu.async.token) {
  tcc_lib.conv2d %x, %w into %y
      : memref<?x64x56x56xf32>, memref<64x64x3x3xf32> into memref<?x64x54x54xf32>
  %t1 = tcc_lib.conv2d async [%t] %xh, %wh bias %b residual %r into %r
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 2 : i64,
       activation = "relu"}
      : memref<4x8x9x9xbf16, strided<[648, 1, 72, 8]>>, memref<6x4x3x3xbf16>
        bias memref<6xbf16> residual memref<4x6x5x5xbf16> into memref<4x6x5x5xbf16>
  return
}
