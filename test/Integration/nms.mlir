// tcc.nms through the CPU pipeline: selections worked out by hand (the
// ONNX backend tests' boxes) and random boxes against the reference
// evaluator (onnxruntime's greedy loop, written apart from the lowering).

// Six boxes [y1, x1, y2, x2]: three overlapping near the origin, two near
// y = 10, one at y = 100; scores 0.9 0.75 0.6 0.95 0.5 0.3. By descending
// score: 3 (kept), 0 (kept), 1 (IoU 0.82 with 0: suppressed), 2
// (suppressed by 0), 4 (by 3), 5 (kept).
// RUN: tcc-run %s --function=one_class --input="1x6x4xf32=0 0 1 1 0 0.1 1 1.1 0 -0.1 1 0.9 0 10 1 11 0 10.1 1 11.1 0 100 1 101" --input="1x1x6xf32=0.9 0.75 0.6 0.95 0.5 0.3" --expected_output="3x3xi64=0 0 3 0 0 0 0 0 5" | FileCheck %s --check-prefix=ONE
// RUN: tcc-run %s --function=one_class --reference --input="1x6x4xf32=0 0 1 1 0 0.1 1 1.1 0 -0.1 1 0.9 0 10 1 11 0 10.1 1 11.1 0 100 1 101" --input="1x1x6xf32=0.9 0.75 0.6 0.95 0.5 0.3" --expected_output="3x3xi64=0 0 3 0 0 0 0 0 5" | FileCheck %s --check-prefix=ONE
// Flipped corners ([y2, x2, y1, x1] for some boxes) select the same boxes.
// RUN: tcc-run %s --function=one_class --input="1x6x4xf32=1 1 0 0 0 0.1 1 1.1 0 0.9 1 -0.1 0 10 1 11 1 10.1 0 11.1 1 101 0 100" --input="1x1x6xf32=0.9 0.75 0.6 0.95 0.5 0.3" --expected_output="3x3xi64=0 0 3 0 0 0 0 0 5" | FileCheck %s --check-prefix=ONE
// No boxes at all: no rows.
// RUN: tcc-run %s --function=one_class --input=1x0x4xf32 --input=1x1x0xf32 --expected_output=0x3xi64 | FileCheck %s --check-prefix=ONE
// ONE: [SUCCESS] result[0] matches ({{[03]}}x3xi64)
func.func @one_class(%b: tensor<1x?x4xf32>, %s: tensor<1x1x?xf32>) -> tensor<?x3xi64> {
  %0 = tcc.nms %b, %s {iou_threshold = 5.000000e-01 : f64} : (tensor<1x?x4xf32>, tensor<1x1x?xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// A score threshold (0.4: box 5 goes) and at most 2 per class (box 5 would
// be third anyway), in center form: [xc, yc, w, h] of the same boxes.
// RUN: tcc-run %s --function=thresholds --input="1x6x4xf32=0.5 0.5 1 1 0.5 0.6 1 1 0.5 0.4 1 1 0.5 10.5 1 1 0.5 10.6 1 1 0.5 100.5 1 1" --input="1x1x6xf32=0.9 0.75 0.6 0.95 0.5 0.3" --expected_output="2x3xi64=0 0 3 0 0 0" | FileCheck %s --check-prefix=THR
// THR: [SUCCESS] result[0] matches (2x3xi64)
func.func @thresholds(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<?x3xi64> {
  %0 = tcc.nms %b, %s {center_point_box = true, iou_threshold = 5.000000e-01 : f64, max_output_per_class = 2 : i64, score_threshold = 4.000000e-01 : f64} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// Random boxes, two batches of three classes, against the reference; f16
// boxes (IoU in f32); a limit of 0 selects nothing.
// RUN: tcc-run %s --function=random --input=2x300x4xf32=random --input=2x3x300xf32=random --input=3x50x4xf16=random --input=3x2x50xf16=random --check-reference | FileCheck %s --check-prefix=RAND
// RUN: tcc-run %s --function=random --no-fuse --no-vectorize --no-parallel --input=1x40x4xf32=random --input=1x4x40xf32=random --input=1x7x4xf16=random --input=1x1x7xf16=random --check-reference | FileCheck %s --check-prefix=RAND
// RAND: [SUCCESS] result[2] matches the reference
func.func @random(%b: tensor<?x?x4xf32>, %s: tensor<?x?x?xf32>, %h: tensor<?x?x4xf16>, %t: tensor<?x?x?xf16>) -> (tensor<?x3xi64>, tensor<?x3xi64>, tensor<?x3xi64>) {
  %0 = tcc.nms %b, %s {iou_threshold = 3.000000e-01 : f64, score_threshold = 2.000000e-01 : f64, max_output_per_class = 7 : i64} : (tensor<?x?x4xf32>, tensor<?x?x?xf32>) -> tensor<?x3xi64>
  %1 = tcc.nms %h, %t {iou_threshold = 1.000000e-01 : f64} : (tensor<?x?x4xf16>, tensor<?x?x?xf16>) -> tensor<?x3xi64>
  %2 = tcc.nms %b, %s {iou_threshold = 3.000000e-01 : f64, max_output_per_class = 0 : i64} : (tensor<?x?x4xf32>, tensor<?x?x?xf32>) -> tensor<?x3xi64>
  return %0, %1, %2 : tensor<?x3xi64>, tensor<?x3xi64>, tensor<?x3xi64>
}

// Scores whose batch differs from the boxes' fail the entry guards (the
// symbolic shapes give both one symbol).
// RUN: not tcc-run %s --function=random --input=2x30x4xf32=random --input=1x3x30xf32=random --input=1x5x4xf16=random --input=1x1x5xf16=random 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: input 1 dim 0 must equal input 0 dim 0 (s0): 1 vs 2
