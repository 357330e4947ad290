// RUN: tcc-opt %s --fuse --symbolic-shapes --plan-memory="report-file=%t.json svg-file=%t.svg report-sizes=B=4" --verify-memory-plan -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: FileCheck %s --input-file=%t.svg --check-prefix=SVG
// Without a binding the bytes are expressions only.
// RUN: tcc-opt %s --fuse --symbolic-shapes --plan-memory="report-file=%t.sym.json" --verify-memory-plan -o /dev/null
// RUN: FileCheck %s --input-file=%t.sym.json --check-prefix=SYM
// The driver's flags set the same options on the pipeline's pass.
// RUN: tcc-opt %s --tcc-to-linalg --memory-report=%t.drv.json --memory-report-sizes=B=4 -o /dev/null
// RUN: FileCheck %s --input-file=%t.drv.json --check-prefix=DRV
// DRV: "name": "chain",
// DRV: "B": 4

// A [B, 64] chain through two transposes (copy groups) and an exp: the exp
// takes the first copy's bytes in place; the lower bound counts both at the
// op that overwrites, so the arena is below it.
// CHECK:      "functions": [
// CHECK:          "alignment": 64,
// CHECK:          "buffers": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "first_use": 0,
// CHECK-NEXT:         "last_use": 1,
// CHECK-NEXT:         "name": "0:copy",
// CHECK-NEXT:         "offset_bytes": 0,
// CHECK-NEXT:         "offset_expr": "0",
// CHECK-NEXT:         "region": 0,
// CHECK-NEXT:         "size_bytes": 1024,
// CHECK-NEXT:         "size_expr": "B * 256"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "first_use": 1,
// CHECK-NEXT:         "in_place_of": "0:copy",
// CHECK-NEXT:         "last_use": 2,
// CHECK-NEXT:         "name": "1:pointwise",
// CHECK:          "lower_bound_bytes": 2048,
// CHECK-NEXT:     "lower_bound_expr": "B * 512",
// CHECK-NEXT:     "naive_bytes": 2048,
// CHECK-NEXT:     "naive_expr": "B * 512",
// CHECK-NEXT:     "name": "chain",
// CHECK-NEXT:     "peak_bytes": 1024,
// CHECK-NEXT:     "peak_expr": "B * 256",
// CHECK:          "scale": "B",
// CHECK:        "sizes": {
// CHECK-NEXT:     "B": 4
// SYM:          "lower_bound_bytes": "B * 512",
// SYM:          "peak_bytes": "B * 256",
// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: @chain: peak 1.0 KiB, lower bound 2.0 KiB, without reuse 2.0 KiB
// SVG: <rect {{.*}}><title>0:copy: 1.0 KiB at 0 B, ops 0..1</title></rect>
// SVG: <rect {{.*}}><title>1:pointwise: 1.0 KiB at 0 B, ops 1..2, in place of 0:copy</title></rect>
// SVG: </svg>
func.func @chain(%x: tensor<?x64xf32> {tcc.shape = #tcc.shape<[B, 64]>}) -> tensor<64x?xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 1>} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %1 = tcc.exp %0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %2 = tcc.transpose %1 {permutation = array<i64: 1, 0>} : (tensor<?x64xf32>) -> tensor<64x?xf32>
  return %2 : tensor<64x?xf32>
}
