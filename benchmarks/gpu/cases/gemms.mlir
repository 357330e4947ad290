// Matrix products that tcc-contractions-to-gemms gives to cuBLASLt, with
// each epilogue form: bias + ReLU (dynamic rows), bias + residual, a GELU
// that stays a kernel of its own, a batched product of attention's shape
// (q k^T), a 3-D input whose leading dims merge into M, and an operand
// transposed (a^T b through tcc.transpose).
func.func @linear_relu(%x: tensor<?x256xf32> {tcc.shape = #tcc.shape<[N, 256]>},
                       %w: tensor<512x256xf32>, %b: tensor<512xf32>)
    -> tensor<?x512xf32> {
  %y = tcc.linear %x, %w, %b : (tensor<?x256xf32>, tensor<512x256xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %r = tcc.relu %y : (tensor<?x512xf32>) -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}

func.func @linear_residual(%x: tensor<64x384xf32>, %w: tensor<384x384xf32>,
                           %b: tensor<384xf32>, %res: tensor<64x384xf32>)
    -> tensor<64x384xf32> {
  %y = tcc.linear %x, %w, %b : (tensor<64x384xf32>, tensor<384x384xf32>, tensor<384xf32>) -> tensor<64x384xf32>
  %o = tcc.add %res, %y : (tensor<64x384xf32>, tensor<64x384xf32>) -> tensor<64x384xf32>
  return %o : tensor<64x384xf32>
}

func.func @linear_gelu(%x: tensor<?x?x128xf32> {tcc.shape = #tcc.shape<[B, S, 128]>},
                       %w: tensor<512x128xf32>, %b: tensor<512xf32>)
    -> tensor<?x?x512xf32> {
  %y = tcc.linear %x, %w, %b : (tensor<?x?x128xf32>, tensor<512x128xf32>, tensor<512xf32>) -> tensor<?x?x512xf32>
  %g = tcc.gelu %y {approximate = "none"} : (tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  return %g : tensor<?x?x512xf32>
}

func.func @scores(%q: tensor<?x12x?x64xf32> {tcc.shape = #tcc.shape<[B, 12, S, 64]>},
                  %k: tensor<?x12x?x64xf32> {tcc.shape = #tcc.shape<[B, 12, S, 64]>})
    -> tensor<?x12x?x?xf32> {
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>}
      : (tensor<?x12x?x64xf32>) -> tensor<?x12x64x?xf32>
  %s = tcc.matmul %q, %kt : (tensor<?x12x?x64xf32>, tensor<?x12x64x?xf32>) -> tensor<?x12x?x?xf32>
  return %s : tensor<?x12x?x?xf32>
}

func.func @matmul_at(%a: tensor<96x200xf32>, %b: tensor<96x160xf32>)
    -> tensor<200x160xf32> {
  %at = tcc.transpose %a {permutation = array<i64: 1, 0>}
      : (tensor<96x200xf32>) -> tensor<200x96xf32>
  %c = tcc.matmul %at, %b : (tensor<200x96xf32>, tensor<96x160xf32>) -> tensor<200x160xf32>
  return %c : tensor<200x160xf32>
}

// A ViT-B/16 MLP's products (timing, at 32 x 197 rows): fc1 + GELU and
// fc2 + bias + residual.
func.func @fc1_gelu(%x: tensor<?x768xf32> {tcc.shape = #tcc.shape<[N, 768]>},
                    %w: tensor<3072x768xf32>, %b: tensor<3072xf32>)
    -> tensor<?x3072xf32> {
  %y = tcc.linear %x, %w, %b : (tensor<?x768xf32>, tensor<3072x768xf32>, tensor<3072xf32>) -> tensor<?x3072xf32>
  %g = tcc.gelu %y {approximate = "none"} : (tensor<?x3072xf32>) -> tensor<?x3072xf32>
  return %g : tensor<?x3072xf32>
}

func.func @fc2_residual(%h: tensor<?x3072xf32> {tcc.shape = #tcc.shape<[N, 3072]>},
                        %w: tensor<768x3072xf32>, %b: tensor<768xf32>,
                        %r: tensor<?x768xf32> {tcc.shape = #tcc.shape<[N, 768]>})
    -> tensor<?x768xf32> {
  %y = tcc.linear %h, %w, %b : (tensor<?x3072xf32>, tensor<768x3072xf32>, tensor<768xf32>) -> tensor<?x768xf32>
  %o = tcc.add %r, %y : (tensor<?x768xf32>, tensor<?x768xf32>) -> tensor<?x768xf32>
  return %o : tensor<?x768xf32>
}

// bf16 and f16 products (inputs in half precision, accumulated in f32 by
// cuBLASLt, rounded back with the bias by a kernel).
func.func @linear_bf16(%x: tensor<?x256xbf16> {tcc.shape = #tcc.shape<[N, 256]>},
                       %w: tensor<512x256xbf16>, %b: tensor<512xbf16>)
    -> tensor<?x512xbf16> {
  %y = tcc.linear %x, %w, %b : (tensor<?x256xbf16>, tensor<512x256xbf16>, tensor<512xbf16>) -> tensor<?x512xbf16>
  return %y : tensor<?x512xbf16>
}

func.func @matmul_f16(%a: tensor<?x12x64x64xf16> {tcc.shape = #tcc.shape<[B, 12, 64, 64]>},
                      %b: tensor<?x12x64x96xf16> {tcc.shape = #tcc.shape<[B, 12, 64, 96]>})
    -> tensor<?x12x64x96xf16> {
  %c = tcc.matmul %a, %b : (tensor<?x12x64x64xf16>, tensor<?x12x64x96xf16>) -> tensor<?x12x64x96xf16>
  return %c : tensor<?x12x64x96xf16>
}

// fc1 + GELU in bf16 (timing, at 32 x 197 rows).
func.func @fc1_gelu_bf16(%x: tensor<?x768xbf16> {tcc.shape = #tcc.shape<[N, 768]>},
                         %w: tensor<3072x768xbf16>, %b: tensor<3072xbf16>)
    -> tensor<?x3072xbf16> {
  %y = tcc.linear %x, %w, %b : (tensor<?x768xbf16>, tensor<3072x768xbf16>, tensor<3072xbf16>) -> tensor<?x3072xbf16>
  %g = tcc.gelu %y {approximate = "none"} : (tensor<?x3072xbf16>) -> tensor<?x3072xbf16>
  return %g : tensor<?x3072xbf16>
}
