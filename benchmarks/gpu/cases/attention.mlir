// Attention through the runtime's fused kernel (tcc-attention-to-library,
// tcc_lib.attention), each checked on the device against the reference
// evaluator: plain [B, H, S, 64] bf16 operands with a dynamic batch and a
// sequence that is no multiple of the kernel's 64-row tiles; f16 with a
// head dim of 128, causal, more keys than queries; one head (rank 3) with
// q read at an odd offset (the kernel's element-by-element form); and
// ViT's form, q, k and v read straight out of the fused QKV projection and
// the result written in [B, S, heads, dim] order. f32 (the CUDA-core
// kernel, head dim 64): ViT's shape with a dynamic batch, and causal with
// more keys than queries and one head read at an odd offset.
func.func @attention_bf16(%q: tensor<?x12x197x64xbf16> {tcc.shape = #tcc.shape<[B, 12, 197, 64]>},
                          %k: tensor<?x12x197x64xbf16> {tcc.shape = #tcc.shape<[B, 12, 197, 64]>},
                          %v: tensor<?x12x197x64xbf16> {tcc.shape = #tcc.shape<[B, 12, 197, 64]>})
    -> tensor<?x12x197x64xbf16> {
  %o = tcc.attention %q, %k, %v : (tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>, tensor<?x12x197x64xbf16>) -> tensor<?x12x197x64xbf16>
  return %o : tensor<?x12x197x64xbf16>
}

func.func @causal_f16_d128(%q: tensor<2x4x100x128xf16>, %k: tensor<2x4x150x128xf16>,
                           %v: tensor<2x4x150x128xf16>) -> tensor<2x4x100x128xf16> {
  %o = tcc.attention %q, %k, %v {is_causal = true, scale = 0.05 : f32}
      : (tensor<2x4x100x128xf16>, tensor<2x4x150x128xf16>, tensor<2x4x150x128xf16>) -> tensor<2x4x100x128xf16>
  return %o : tensor<2x4x100x128xf16>
}

func.func @one_head_offset(%x: tensor<?x50x65xbf16> {tcc.shape = #tcc.shape<[B, 50, 65]>},
                           %k: tensor<?x130x64xbf16> {tcc.shape = #tcc.shape<[B, 130, 64]>},
                           %v: tensor<?x130x64xbf16> {tcc.shape = #tcc.shape<[B, 130, 64]>})
    -> tensor<?x50x64xbf16> {
  %q = tcc.slice %x {starts = array<i64: 0, 0, 1>, ends = array<i64: 9223372036854775807, 50, 65>, steps = array<i64: 1, 1, 1>}
      : (tensor<?x50x65xbf16>) -> tensor<?x50x64xbf16>
  %o = tcc.attention %q, %k, %v : (tensor<?x50x64xbf16>, tensor<?x130x64xbf16>, tensor<?x130x64xbf16>) -> tensor<?x50x64xbf16>
  return %o : tensor<?x50x64xbf16>
}

func.func @vit_qkv_bf16(%qkv: tensor<?x77x768xbf16> {tcc.shape = #tcc.shape<[B, 77, 768]>})
    -> tensor<?x77x256xbf16> {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %b = tensor.dim %qkv, %c0 : tensor<?x77x768xbf16>
  %bi = arith.index_cast %b : index to i64
  %c77 = arith.constant 77 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c64 = arith.constant 64 : i64
  %c256 = arith.constant 256 : i64
  %one = arith.constant 1 : i64
  %s5 = tensor.from_elements %bi, %c77, %c3, %c4, %c64 : tensor<5xi64>
  %qkv5 = tcc.reshape %qkv, %s5 : (tensor<?x77x768xbf16>, tensor<5xi64>) -> tensor<?x77x3x4x64xbf16>
  %t = tcc.transpose %qkv5 {permutation = array<i64: 2, 0, 3, 1, 4>}
      : (tensor<?x77x3x4x64xbf16>) -> tensor<3x?x4x77x64xbf16>
  %s4 = tensor.from_elements %bi, %c4, %c77, %c64 : tensor<4xi64>
  %q1 = tcc.slice %t {starts = array<i64: 0, 0, 0, 0, 0>, ends = array<i64: 1, 9223372036854775807, 4, 77, 64>, steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x4x77x64xbf16>) -> tensor<1x?x4x77x64xbf16>
  %q = tcc.reshape %q1, %s4 : (tensor<1x?x4x77x64xbf16>, tensor<4xi64>) -> tensor<?x4x77x64xbf16>
  %k1 = tcc.slice %t {starts = array<i64: 1, 0, 0, 0, 0>, ends = array<i64: 2, 9223372036854775807, 4, 77, 64>, steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x4x77x64xbf16>) -> tensor<1x?x4x77x64xbf16>
  %k = tcc.reshape %k1, %s4 : (tensor<1x?x4x77x64xbf16>, tensor<4xi64>) -> tensor<?x4x77x64xbf16>
  %v1 = tcc.slice %t {starts = array<i64: 2, 0, 0, 0, 0>, ends = array<i64: 3, 9223372036854775807, 4, 77, 64>, steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x4x77x64xbf16>) -> tensor<1x?x4x77x64xbf16>
  %v = tcc.reshape %v1, %s4 : (tensor<1x?x4x77x64xbf16>, tensor<4xi64>) -> tensor<?x4x77x64xbf16>
  %a = tcc.attention %q, %k, %v : (tensor<?x4x77x64xbf16>, tensor<?x4x77x64xbf16>, tensor<?x4x77x64xbf16>) -> tensor<?x4x77x64xbf16>
  %at = tcc.transpose %a {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x4x77x64xbf16>) -> tensor<?x77x4x64xbf16>
  %s3 = tensor.from_elements %bi, %c77, %c256 : tensor<3xi64>
  %o = tcc.reshape %at, %s3 : (tensor<?x77x4x64xbf16>, tensor<3xi64>) -> tensor<?x77x256xbf16>
  return %o : tensor<?x77x256xbf16>
}

func.func @attention_f32(%q: tensor<?x12x197x64xf32> {tcc.shape = #tcc.shape<[B, 12, 197, 64]>},
                         %k: tensor<?x12x197x64xf32> {tcc.shape = #tcc.shape<[B, 12, 197, 64]>},
                         %v: tensor<?x12x197x64xf32> {tcc.shape = #tcc.shape<[B, 12, 197, 64]>})
    -> tensor<?x12x197x64xf32> {
  %o = tcc.attention %q, %k, %v : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  return %o : tensor<?x12x197x64xf32>
}

func.func @causal_offset_f32(%x: tensor<2x50x65xf32>, %k: tensor<2x130x64xf32>,
                             %v: tensor<2x130x64xf32>) -> tensor<2x50x64xf32> {
  %q = tcc.slice %x {starts = array<i64: 0, 0, 1>, ends = array<i64: 2, 50, 65>, steps = array<i64: 1, 1, 1>}
      : (tensor<2x50x65xf32>) -> tensor<2x50x64xf32>
  %o = tcc.attention %q, %k, %v {is_causal = true, scale = 0.1 : f32}
      : (tensor<2x50x64xf32>, tensor<2x130x64xf32>, tensor<2x130x64xf32>) -> tensor<2x50x64xf32>
  return %o : tensor<2x50x64xf32>
}
