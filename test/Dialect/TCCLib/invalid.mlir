// RUN: tcc-opt %s --split-input-file --verify-diagnostics

func.func @rank(%a: memref<2x3x4x5xf32>, %b: memref<5x6xf32>,
                %d: memref<2x3x4x6xf32>) {
  // expected-error @+1 {{expects d of rank 2 or 3 (batched), got 4}}
  tcc_lib.gemm %a, %b into %d
      : memref<2x3x4x5xf32>, memref<5x6xf32> into memref<2x3x4x6xf32>
  return
}

// -----

func.func @types(%a: memref<4x5xf16>, %b: memref<5x6xf32>,
                 %d: memref<4x6xf32>) {
  // expected-error @+1 {{expects a, b and d of one element type, or f16/bf16 a and b with an f32 d}}
  tcc_lib.gemm %a, %b into %d
      : memref<4x5xf16>, memref<5x6xf32> into memref<4x6xf32>
  return
}

// -----

func.func @bf16_into_f16(%a: memref<4x5xbf16>, %b: memref<5x6xbf16>,
                         %d: memref<4x6xf16>) {
  // expected-error @+1 {{expects a, b and d of one element type, or f16/bf16 a and b with an f32 d}}
  tcc_lib.gemm %a, %b into %d
      : memref<4x5xbf16>, memref<5x6xbf16> into memref<4x6xf16>
  return
}

// -----

func.func @inner(%a: memref<4x5xf32>, %b: memref<7x6xf32>,
                 %d: memref<4x6xf32>) {
  // expected-error @+1 {{a has 5 columns but b has 7 rows}}
  tcc_lib.gemm %a, %b into %d
      : memref<4x5xf32>, memref<7x6xf32> into memref<4x6xf32>
  return
}

// -----

func.func @rows(%a: memref<3x5xf32>, %b: memref<5x6xf32>,
                %d: memref<4x6xf32>) {
  // expected-error @+1 {{a has 3 rows but d has 4}}
  tcc_lib.gemm %a, %b into %d
      : memref<3x5xf32>, memref<5x6xf32> into memref<4x6xf32>
  return
}

// -----

func.func @bias(%a: memref<4x5xf32>, %b: memref<5x6xf32>,
                %bias: memref<4xf32>, %d: memref<4x6xf32>) {
  // expected-error @+1 {{expects bias of d's element type and shape [N]}}
  tcc_lib.gemm %a, %b bias %bias into %d
      : memref<4x5xf32>, memref<5x6xf32> bias memref<4xf32>
        into memref<4x6xf32>
  return
}

// -----

func.func @batch(%a: memref<2x4x5xf32>, %b: memref<3x5x6xf32>,
                 %d: memref<2x4x6xf32>) {
  // expected-error @+1 {{expects one batch size for a, b and d}}
  tcc_lib.gemm %a, %b into %d
      : memref<2x4x5xf32>, memref<3x5x6xf32> into memref<2x4x6xf32>
  return
}

// -----

func.func @epilogue(%a: memref<4x5xf32>, %b: memref<5x6xf32>,
                    %d: memref<4x6xf32>) {
  // expected-error @+1 {{has unknown epilogue 'silu'; expected none, relu, gelu or gelu_tanh}}
  tcc_lib.gemm %a, %b into %d {epilogue = "silu"}
      : memref<4x5xf32>, memref<5x6xf32> into memref<4x6xf32>
  return
}

// -----

// cuBLASLt has no erf GELU epilogue: a GELU is for host calls only.
func.func @gelu_on_stream(%a: memref<4x5xf32>, %b: memref<5x6xf32>,
                          %d: memref<4x6xf32>) {
  %t0 = gpu.wait async
  // expected-error @+1 {{has a GELU epilogue on a stream: only host calls (no async token) take one}}
  %t1 = tcc_lib.gemm async [%t0] %a, %b into %d {epilogue = "gelu"}
      : memref<4x5xf32>, memref<5x6xf32> into memref<4x6xf32>
  return
}

// -----

func.func @residual(%a: memref<4x5xf32>, %b: memref<5x6xf32>,
                    %c: memref<4x7xf32>, %d: memref<4x6xf32>) {
  // expected-error @+1 {{expects c of d's shape}}
  tcc_lib.gemm %a, %b c %c into %d
      : memref<4x5xf32>, memref<5x6xf32> c memref<4x7xf32>
        into memref<4x6xf32>
  return
}

// -----

func.func @attention_rank(%q: memref<2x64xbf16>) {
  // expected-error @+1 {{expects operands of rank 3 or 4, got 2}}
  tcc_lib.attention %q, %q, %q into %q {scale = 1.0 : f32}
      : memref<2x64xbf16>, memref<2x64xbf16>, memref<2x64xbf16> into memref<2x64xbf16>
  return
}

// -----

func.func @attention_types(%q: memref<2x8x64xbf16>, %k: memref<2x8x64xf16>) {
  // expected-error @+1 {{expects q, k, v and out of one element type}}
  tcc_lib.attention %q, %k, %q into %q {scale = 1.0 : f32}
      : memref<2x8x64xbf16>, memref<2x8x64xf16>, memref<2x8x64xbf16> into memref<2x8x64xbf16>
  return
}

// -----

func.func @attention_f32_d128(%q: memref<2x8x128xf32>) {
  // expected-error @+1 {{expects a head dim of 64 for f32, got 128}}
  tcc_lib.attention %q, %q, %q into %q {scale = 1.0 : f32}
      : memref<2x8x128xf32>, memref<2x8x128xf32>, memref<2x8x128xf32> into memref<2x8x128xf32>
  return
}

// -----

func.func @attention_f64(%q: memref<2x8x64xf64>) {
  // expected-error @+1 {{operand #0 must be memref of 16-bit float or bfloat16 type or 32-bit float values}}
  tcc_lib.attention %q, %q, %q into %q {scale = 1.0 : f32}
      : memref<2x8x64xf64>, memref<2x8x64xf64>, memref<2x8x64xf64> into memref<2x8x64xf64>
  return
}

// -----

func.func @attention_head_dim(%q: memref<2x8x96xbf16>) {
  // expected-error @+1 {{expects a static head dim of 64 or 128, got 96}}
  tcc_lib.attention %q, %q, %q into %q {scale = 1.0 : f32}
      : memref<2x8x96xbf16>, memref<2x8x96xbf16>, memref<2x8x96xbf16> into memref<2x8x96xbf16>
  return
}

// -----

func.func @attention_dynamic_head_dim(%q: memref<2x8x?xbf16>) {
  // expected-error @+1 {{expects a static head dim of 64 or 128, got ?}}
  tcc_lib.attention %q, %q, %q into %q {scale = 1.0 : f32}
      : memref<2x8x?xbf16>, memref<2x8x?xbf16>, memref<2x8x?xbf16> into memref<2x8x?xbf16>
  return
}

// -----

func.func @attention_value_dim(%q: memref<2x8x64xbf16>, %v: memref<2x8x128xbf16>) {
  // expected-error @+1 {{expects q, k, v and out of one head dim}}
  tcc_lib.attention %q, %q, %v into %q {scale = 1.0 : f32}
      : memref<2x8x64xbf16>, memref<2x8x64xbf16>, memref<2x8x128xbf16> into memref<2x8x64xbf16>
  return
}

// -----

func.func @attention_batch(%q: memref<2x8x64xbf16>, %k: memref<3x8x64xbf16>) {
  // expected-error @+1 {{expects one size of dim 0 for all}}
  tcc_lib.attention %q, %k, %k into %q {scale = 1.0 : f32}
      : memref<2x8x64xbf16>, memref<3x8x64xbf16>, memref<3x8x64xbf16> into memref<2x8x64xbf16>
  return
}

// -----

func.func @attention_rows(%q: memref<2x8x64xbf16>, %k: memref<2x9x64xbf16>, %v: memref<2x10x64xbf16>) {
  // expected-error @+1 {{expects as many v rows as k rows}}
  tcc_lib.attention %q, %k, %v into %q {scale = 1.0 : f32}
      : memref<2x8x64xbf16>, memref<2x9x64xbf16>, memref<2x10x64xbf16> into memref<2x8x64xbf16>
  return
}

// -----

func.func @attention_out_rows(%q: memref<2x8x64xbf16>, %o: memref<2x9x64xbf16>) {
  // expected-error @+1 {{expects as many out rows as q rows}}
  tcc_lib.attention %q, %q, %q into %o {scale = 1.0 : f32}
      : memref<2x8x64xbf16>, memref<2x8x64xbf16>, memref<2x8x64xbf16> into memref<2x9x64xbf16>
  return
}

// -----

func.func @conv_types(%x: memref<1x4x8x8xf32>, %w: memref<4x4x3x3xf16>, %y: memref<1x4x6x6xf32>) {
  // expected-error @+1 {{expects x, weight and out of one element type}}
  tcc_lib.conv2d %x, %w into %y : memref<1x4x8x8xf32>, memref<4x4x3x3xf16> into memref<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups(%x: memref<1x6x8x8xf32>, %w: memref<4x4x3x3xf32>, %y: memref<1x4x6x6xf32>) {
  // expected-error @+1 {{expects x's 6 channels to be groups (2) x the weight's 4}}
  tcc_lib.conv2d %x, %w into %y {groups = 2 : i64} : memref<1x6x8x8xf32>, memref<4x4x3x3xf32> into memref<1x4x6x6xf32>
  return
}

// -----

func.func @conv_out_size(%x: memref<1x4x8x8xf32>, %w: memref<4x4x3x3xf32>, %y: memref<1x4x8x8xf32>) {
  // expected-error @+1 {{expects out dim 2 of size 6, got 8}}
  tcc_lib.conv2d %x, %w into %y : memref<1x4x8x8xf32>, memref<4x4x3x3xf32> into memref<1x4x8x8xf32>
  return
}

// -----

func.func @conv_padding(%x: memref<1x4x8x8xf32>, %w: memref<4x4x3x3xf32>, %y: memref<1x4x8x8xf32>) {
  // expected-error @+1 {{expects two padding, got 4}}
  tcc_lib.conv2d %x, %w into %y {padding = array<i64: 1, 1, 1, 1>} : memref<1x4x8x8xf32>, memref<4x4x3x3xf32> into memref<1x4x8x8xf32>
  return
}

// -----

func.func @conv_residual(%x: memref<1x4x8x8xf32>, %w: memref<4x4x3x3xf32>, %y: memref<1x4x6x6xf32>, %r: memref<1x4x6x5xf32>) {
  // expected-error @+1 {{expects residual of out's shape}}
  tcc_lib.conv2d %x, %w residual %r into %y : memref<1x4x8x8xf32>, memref<4x4x3x3xf32> residual memref<1x4x6x5xf32> into memref<1x4x6x6xf32>
  return
}

// -----

func.func @conv_activation(%x: memref<1x4x8x8xf32>, %w: memref<4x4x3x3xf32>, %y: memref<1x4x6x6xf32>) {
  // expected-error @+1 {{has unknown activation 'gelu'; expected none or relu}}
  tcc_lib.conv2d %x, %w into %y {activation = "gelu"} : memref<1x4x8x8xf32>, memref<4x4x3x3xf32> into memref<1x4x6x6xf32>
  return
}
