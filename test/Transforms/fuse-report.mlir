// RUN: tcc-opt %s --symbolic-shapes --fuse="report-file=%t.json dot-file=%t.dot report-sizes=B=2" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: FileCheck %s --input-file=%t.dot --check-prefix=DOT
// The tool flags set the same options on the pipeline's fuse pass:
// RUN: tcc-opt %s --tcc-to-linalg --fusion-report=%t2.json --fusion-dot=%t2.dot -o /dev/null
// RUN: FileCheck %s --input-file=%t2.json --check-prefix=TOOL
// RUN: FileCheck %s --input-file=%t2.dot --check-prefix=DOT
// tcc-run evaluates the bytes at the sizes of the call (B = 3 here):
// RUN: tcc-run %s --random-inputs --dim-size=3 --checksum --fusion-report=%t3.json
// RUN: FileCheck %s --input-file=%t3.json --check-prefix=CALL
// RUN: not tcc-opt %s --fuse=target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not tcc-opt %s --fuse="report-sizes=B" 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: not tcc-opt %s --fuse="report-file=%t.missing/dir/r.json" 2>&1 | FileCheck %s --check-prefix=PATH

// linear -> gelu -> layer_norm -> relu: two groups out of four kernels (the
// linear; the norm with the gelu before it and the relu after it); two
// [B, 64] f32 intermediates are no longer written and read back: B * 1024
// bytes saved, checked by hand:
//   before: linear B*128 + 8192 + B*256, gelu B*512, norm B*512 + 512,
//           relu B*512                          = B*1920 + 8704
//   after:  B*128 + 8192 + B*256, B*256 + 512 + B*256 = B*896 + 8704

// CHECK:      "functions": [
// CHECK:          "groups": [
// CHECK:              "bytes_read": {
// CHECK-NEXT:           "expr": "B * 128 + 8192",
// CHECK-NEXT:           "value": 8448
// CHECK:              "id": 0,
// CHECK:              "inputs": [
// CHECK:                  "name": "x",
// CHECK-NEXT:             "shape": "[B, 32]",
// CHECK-NEXT:             "type": "tensor<?x32xf32>"
// CHECK:              "kind": "matmul",
// CHECK:              "ops": [
// CHECK-NEXT:           "tcc.linear"
// CHECK-NEXT:         ],
// CHECK:              "unfused_kernels": 1
// CHECK:              "id": 1,
// CHECK:              "kind": "reduction",
// CHECK:              "ops": [
// CHECK-NEXT:           "tcc.gelu",
// CHECK-NEXT:           "tcc.layer_norm",
// CHECK-NEXT:           "tcc.relu"
// CHECK:              "producers": [
// CHECK-NEXT:           "0",
// CHECK:          "name": "mlp",
// CHECK:          "totals": {
// CHECK-NEXT:         "bytes_after": {
// CHECK-NEXT:           "expr": "B * 896 + 8704",
// CHECK-NEXT:           "value": 10496
// CHECK:            "bytes_before": {
// CHECK-NEXT:           "expr": "B * 1920 + 8704",
// CHECK-NEXT:           "value": 12544
// CHECK:            "bytes_saved": {
// CHECK-NEXT:           "expr": "B * 1024",
// CHECK-NEXT:           "value": 2048
// CHECK:            "kernels_after": 2,
// CHECK-NEXT:         "kernels_before": 4
// CHECK:        "sizes": {
// CHECK-NEXT:     "B": 2
// CHECK:        "target": "cpu"

// TOOL: "kernels_after": 2,
// TOOL: "kernels_before": 4
// CALL: "value": 11392
// CALL: "B": 3

// DOT: digraph fusion {
// DOT:   subgraph "cluster_mlp" {
// DOT:     label="@mlp: 4 -> 2 kernels,
// DOT:     "mlp.arg:x" [shape=ellipse, label="x"];
// DOT:     "mlp.0" [shape=box, label="#0 matmul\ntcc.linear\n
// DOT:     "mlp.arg:x" -> "mlp.0";
// DOT:     "mlp.1" [shape=box, label="#1 reduction\ntcc.gelu\ntcc.layer_norm\ntcc.relu\n
// DOT:     "mlp.0" -> "mlp.1";
// DOT:     "mlp.1" -> "mlp.return";

// TARGET: fuse: unknown target 'tpu' (expected cpu or cuda)
// SIZES: fuse: report-sizes entry 'B' is not NAME=VALUE
// PATH: fuse: cannot write '{{.*}}r.json'

func.func @mlp(%x: tensor<?x32xf32> {tcc.shape = #tcc.shape<[B, 32]>, tcc.name = "x"},
               %w: tensor<64x32xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<?x64xf32> {
  %0 = tcc.linear %x, %w : (tensor<?x32xf32>, tensor<64x32xf32>) -> tensor<?x64xf32>
  %1 = tcc.gelu %0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %2 = tcc.layer_norm %1, %g, %b {axis = 1 : i64} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %3 = tcc.relu %2 : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %3 : tensor<?x64xf32>
}
