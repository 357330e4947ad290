// tcc.grid_sample through the CPU pipeline and the reference evaluator:
// every mode, padding mode and align_corners against values PyTorch's
// F.grid_sample gives for the same input (x = 1..12 as [1, 1, 3, 4], three
// sample points, one outside x, on a dynamic [N, Ho, Wo, 2] grid), then
// larger random cases against the reference, static and dynamic shapes,
// and the runtime check of the batch sizes.

// bilinear: zeros, border, reflection, each without and with align_corners.
// RUN: tcc-run %s --function=bilinear --input="1x1x3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x1x3x2xf32=-1.3 0.2 0.45 -0.8 1.2 1.1" --expected_output="1x1x1x3xf32=0 2.72 0.42" --expected_output="1x1x1x3xf32=3.19 3.975 7.56" --expected_output="1x1x1x3xf32=6.2 3.4 12" --expected_output="1x1x1x3xf32=5.8 3.975 12" --expected_output="1x1x1x3xf32=6.3 3.4 12" --expected_output="1x1x1x3xf32=6.25 3.975 11.3" | FileCheck %s --check-prefix=BILINEAR
// RUN: tcc-run %s --function=bilinear --reference --input="1x1x3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x1x3x2xf32=-1.3 0.2 0.45 -0.8 1.2 1.1" --expected_output="1x1x1x3xf32=0 2.72 0.42" --expected_output="1x1x1x3xf32=3.19 3.975 7.56" --expected_output="1x1x1x3xf32=6.2 3.4 12" --expected_output="1x1x1x3xf32=5.8 3.975 12" --expected_output="1x1x1x3xf32=6.3 3.4 12" --expected_output="1x1x1x3xf32=6.25 3.975 11.3" | FileCheck %s --check-prefix=BILINEAR
// BILINEAR: [SUCCESS] result[5] matches (1x1x1x3xf32)
func.func @bilinear(%x: tensor<?x1x3x4xf32>, %g: tensor<?x?x?x2xf32>) -> (tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>) {
  %r0 = tcc.grid_sample %x, %g {mode = "bilinear", padding_mode = "zeros", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r1 = tcc.grid_sample %x, %g {mode = "bilinear", padding_mode = "zeros", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r2 = tcc.grid_sample %x, %g {mode = "bilinear", padding_mode = "border", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r3 = tcc.grid_sample %x, %g {mode = "bilinear", padding_mode = "border", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r4 = tcc.grid_sample %x, %g {mode = "bilinear", padding_mode = "reflection", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r5 = tcc.grid_sample %x, %g {mode = "bilinear", padding_mode = "reflection", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>
}

// nearest: zeros, border, reflection, each without and with align_corners.
// RUN: tcc-run %s --function=nearest --input="1x1x3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x1x3x2xf32=-1.3 0.2 0.45 -0.8 1.2 1.1" --expected_output="1x1x1x3xf32=0 3 0" --expected_output="1x1x1x3xf32=5 3 12" --expected_output="1x1x1x3xf32=5 3 12" --expected_output="1x1x1x3xf32=5 3 12" --expected_output="1x1x1x3xf32=5 3 12" --expected_output="1x1x1x3xf32=5 3 12" | FileCheck %s --check-prefix=NEAREST
// RUN: tcc-run %s --function=nearest --reference --input="1x1x3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x1x3x2xf32=-1.3 0.2 0.45 -0.8 1.2 1.1" --expected_output="1x1x1x3xf32=0 3 0" --expected_output="1x1x1x3xf32=5 3 12" --expected_output="1x1x1x3xf32=5 3 12" --expected_output="1x1x1x3xf32=5 3 12" --expected_output="1x1x1x3xf32=5 3 12" --expected_output="1x1x1x3xf32=5 3 12" | FileCheck %s --check-prefix=NEAREST
// NEAREST: [SUCCESS] result[5] matches (1x1x1x3xf32)
func.func @nearest(%x: tensor<?x1x3x4xf32>, %g: tensor<?x?x?x2xf32>) -> (tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>) {
  %r0 = tcc.grid_sample %x, %g {mode = "nearest", padding_mode = "zeros", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r1 = tcc.grid_sample %x, %g {mode = "nearest", padding_mode = "zeros", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r2 = tcc.grid_sample %x, %g {mode = "nearest", padding_mode = "border", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r3 = tcc.grid_sample %x, %g {mode = "nearest", padding_mode = "border", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r4 = tcc.grid_sample %x, %g {mode = "nearest", padding_mode = "reflection", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r5 = tcc.grid_sample %x, %g {mode = "nearest", padding_mode = "reflection", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>
}

// bicubic: zeros, border, reflection, each without and with align_corners.
// RUN: tcc-run %s --function=bicubic --input="1x1x3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x1x3x2xf32=-1.3 0.2 0.45 -0.8 1.2 1.1" --expected_output="1x1x1x3xf32=-0.42417 2.70637 0.349445" --expected_output="1x1x1x3xf32=3.40166 4.25459 8.21895" --expected_output="1x1x1x3xf32=6.55699 3.112 12.2456" --expected_output="1x1x1x3xf32=5.98591 3.84887 12.3533" --expected_output="1x1x1x3xf32=6.63224 3.016 12.75" --expected_output="1x1x1x3xf32=6.44219 3.48382 11.8205" | FileCheck %s --check-prefix=BICUBIC
// RUN: tcc-run %s --function=bicubic --reference --input="1x1x3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12" --input="1x1x3x2xf32=-1.3 0.2 0.45 -0.8 1.2 1.1" --expected_output="1x1x1x3xf32=-0.42417 2.70637 0.349445" --expected_output="1x1x1x3xf32=3.40166 4.25459 8.21895" --expected_output="1x1x1x3xf32=6.55699 3.112 12.2456" --expected_output="1x1x1x3xf32=5.98591 3.84887 12.3533" --expected_output="1x1x1x3xf32=6.63224 3.016 12.75" --expected_output="1x1x1x3xf32=6.44219 3.48382 11.8205" | FileCheck %s --check-prefix=BICUBIC
// BICUBIC: [SUCCESS] result[5] matches (1x1x1x3xf32)
func.func @bicubic(%x: tensor<?x1x3x4xf32>, %g: tensor<?x?x?x2xf32>) -> (tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>) {
  %r0 = tcc.grid_sample %x, %g {mode = "bicubic", padding_mode = "zeros", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r1 = tcc.grid_sample %x, %g {mode = "bicubic", padding_mode = "zeros", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r2 = tcc.grid_sample %x, %g {mode = "bicubic", padding_mode = "border", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r3 = tcc.grid_sample %x, %g {mode = "bicubic", padding_mode = "border", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r4 = tcc.grid_sample %x, %g {mode = "bicubic", padding_mode = "reflection", align_corners = false} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  %r5 = tcc.grid_sample %x, %g {mode = "bicubic", padding_mode = "reflection", align_corners = true} : (tensor<?x1x3x4xf32>, tensor<?x?x?x2xf32>) -> tensor<?x1x?x?xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>, tensor<?x1x?x?xf32>
}
// Random images and grids reaching past the edges (random values are in
// [-1, 1); the grid is scaled by 1.5), a batch of 2 and 3 channels, every
// option off too; bicubic reflection in bf16 (computed in f32).
// RUN: tcc-run %s --function=random_grid --input=2x3x7x9xf32=random --input=2x5x6x2xf32=random --check-reference | FileCheck %s --check-prefix=RAND
// RUN: tcc-run %s --function=random_grid --no-fuse --no-plan-memory --no-vectorize --no-parallel --input=2x3x7x9xf32=random --input=2x5x6x2xf32=random --check-reference | FileCheck %s --check-prefix=RAND
// RAND: [SUCCESS] result[2] matches the reference
func.func @random_grid(%x: tensor<?x3x?x?xf32>, %g: tensor<?x?x?x2xf32>) -> (tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32>) {
  %s = tcc.constant dense<1.5> : tensor<f32>
  %gs = tcc.mul %g, %s : (tensor<?x?x?x2xf32>, tensor<f32>) -> tensor<?x?x?x2xf32>
  %a = tcc.grid_sample %x, %gs : (tensor<?x3x?x?xf32>, tensor<?x?x?x2xf32>) -> tensor<?x3x?x?xf32>
  %b = tcc.grid_sample %x, %gs {mode = "nearest", padding_mode = "border", align_corners = true} : (tensor<?x3x?x?xf32>, tensor<?x?x?x2xf32>) -> tensor<?x3x?x?xf32>
  %c = tcc.grid_sample %x, %gs {mode = "bicubic", padding_mode = "reflection"} : (tensor<?x3x?x?xf32>, tensor<?x?x?x2xf32>) -> tensor<?x3x?x?xf32>
  return %a, %b, %c : tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32>
}

// RUN: tcc-run %s --function=static_bf16 --input=1x4x8x8xbf16=random --input=1x8x8x2xbf16=random --check-reference --atol=2e-2 | FileCheck %s --check-prefix=BF16
// BF16: [SUCCESS] result[0] matches the reference
func.func @static_bf16(%x: tensor<1x4x8x8xbf16>, %g: tensor<1x8x8x2xbf16>) -> tensor<1x4x8x8xbf16> {
  %0 = tcc.grid_sample %x, %g {mode = "bicubic", padding_mode = "reflection", align_corners = true} : (tensor<1x4x8x8xbf16>, tensor<1x8x8x2xbf16>) -> tensor<1x4x8x8xbf16>
  return %0 : tensor<1x4x8x8xbf16>
}

// A grid of another batch size than x is an error: the entry guard
// (symbolic shapes unify the two batch dims) reports it before any kernel.
// RUN: not tcc-run %s --function=random_grid --input=2x3x7x9xf32=random --input=1x5x6x2xf32=random 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: input 1 dim 0 must equal input 0 dim 0 (s0): 1 vs 2
