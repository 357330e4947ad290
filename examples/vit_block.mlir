// One ViT-B/16 encoder block (timm's VisionTransformer Block, pre-norm):
//
//   x1  = x + proj(attention(LN1(x)))
//   out = x1 + fc2(gelu(fc1(LN2(x1))))
//
// with 12 heads of 64 dims, 197 tokens (196 patches + class token), hidden
// 768, MLP 3072, LayerNorm epsilon 1e-6 and exact (erf) GELU. The attention
// is the fused-QKV form: qkv = linear(768 -> 2304), reshape to
// [B, 197, 3, 12, 64], permute to [3, B, 12, 197, 64], q/k/v = qkv[0..2],
// scaled_dot_product_attention (scale 1/sqrt(64)), then back to [B, 197, 768].
//
// Arguments (weights are inputs; nn.Linear weights are [out, in]):
//    0 x       [B, 197, 768]     input tokens (batch B dynamic)
//    1 ln1_w   [768]             norm1.weight
//    2 ln1_b   [768]             norm1.bias
//    3 qkv_w   [2304, 768]       attn.qkv.weight
//    4 qkv_b   [2304]            attn.qkv.bias
//    5 proj_w  [768, 768]        attn.proj.weight
//    6 proj_b  [768]             attn.proj.bias
//    7 ln2_w   [768]             norm2.weight
//    8 ln2_b   [768]             norm2.bias
//    9 fc1_w   [3072, 768]       mlp.fc1.weight
//   10 fc1_b   [3072]            mlp.fc1.bias
//   11 fc2_w   [768, 3072]       mlp.fc2.weight
//   12 fc2_b   [768]             mlp.fc2.bias
// Result: [B, 197, 768].
//
// Run (B = 1):
//   tcc-run examples/vit_block.mlir --function=vit_block \
//     --input=1x197x768xf32=random --input=768xf32=random --input=768xf32=random \
//     --input=2304x768xf32=random --input=2304xf32=random \
//     --input=768x768xf32=random --input=768xf32=random \
//     --input=768xf32=random --input=768xf32=random \
//     --input=3072x768xf32=random --input=3072xf32=random \
//     --input=768x3072xf32=random --input=768xf32=random --check-reference

func.func @vit_block(%x: tensor<?x197x768xf32>,
                     %ln1_w: tensor<768xf32>, %ln1_b: tensor<768xf32>,
                     %qkv_w: tensor<2304x768xf32>, %qkv_b: tensor<2304xf32>,
                     %proj_w: tensor<768x768xf32>, %proj_b: tensor<768xf32>,
                     %ln2_w: tensor<768xf32>, %ln2_b: tensor<768xf32>,
                     %fc1_w: tensor<3072x768xf32>, %fc1_b: tensor<3072xf32>,
                     %fc2_w: tensor<768x3072xf32>, %fc2_b: tensor<768xf32>)
    -> tensor<?x197x768xf32> {
  // ---- attention branch ----
  %ln1 = tcc.layer_norm %x, %ln1_w, %ln1_b {axis = 2 : i64, epsilon = 1.0e-06 : f32}
      : (tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
  %qkv = tcc.linear %ln1, %qkv_w, %qkv_b
      : (tensor<?x197x768xf32>, tensor<2304x768xf32>, tensor<2304xf32>) -> tensor<?x197x2304xf32>
  %qkv5 = tcc.reshape %qkv : (tensor<?x197x2304xf32>) -> tensor<?x197x3x12x64xf32>
  %qkvT = tcc.transpose %qkv5 {permutation = array<i64: 2, 0, 3, 1, 4>}
      : (tensor<?x197x3x12x64xf32>) -> tensor<3x?x12x197x64xf32>
  %q1 = tcc.slice %qkvT {starts = array<i64: 0, 0, 0, 0, 0>,
                         ends = array<i64: 1, 9223372036854775807, 12, 197, 64>,
                         steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x12x197x64xf32>) -> tensor<1x?x12x197x64xf32>
  %k1 = tcc.slice %qkvT {starts = array<i64: 1, 0, 0, 0, 0>,
                         ends = array<i64: 2, 9223372036854775807, 12, 197, 64>,
                         steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x12x197x64xf32>) -> tensor<1x?x12x197x64xf32>
  %v1 = tcc.slice %qkvT {starts = array<i64: 2, 0, 0, 0, 0>,
                         ends = array<i64: 3, 9223372036854775807, 12, 197, 64>,
                         steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x12x197x64xf32>) -> tensor<1x?x12x197x64xf32>
  %q = tcc.reshape %q1 : (tensor<1x?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %k = tcc.reshape %k1 : (tensor<1x?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %v = tcc.reshape %v1 : (tensor<1x?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %attn = tcc.attention %q, %k, %v
      : (tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>, tensor<?x12x197x64xf32>) -> tensor<?x12x197x64xf32>
  %attnT = tcc.transpose %attn {permutation = array<i64: 0, 2, 1, 3>}
      : (tensor<?x12x197x64xf32>) -> tensor<?x197x12x64xf32>
  %merged = tcc.reshape %attnT : (tensor<?x197x12x64xf32>) -> tensor<?x197x768xf32>
  %proj = tcc.linear %merged, %proj_w, %proj_b
      : (tensor<?x197x768xf32>, tensor<768x768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
  %x1 = tcc.add %x, %proj
      : (tensor<?x197x768xf32>, tensor<?x197x768xf32>) -> tensor<?x197x768xf32>

  // ---- MLP branch ----
  %ln2 = tcc.layer_norm %x1, %ln2_w, %ln2_b {axis = 2 : i64, epsilon = 1.0e-06 : f32}
      : (tensor<?x197x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
  %fc1 = tcc.linear %ln2, %fc1_w, %fc1_b
      : (tensor<?x197x768xf32>, tensor<3072x768xf32>, tensor<3072xf32>) -> tensor<?x197x3072xf32>
  %act = tcc.gelu %fc1 {approximate = "none"}
      : (tensor<?x197x3072xf32>) -> tensor<?x197x3072xf32>
  %fc2 = tcc.linear %act, %fc2_w, %fc2_b
      : (tensor<?x197x3072xf32>, tensor<768x3072xf32>, tensor<768xf32>) -> tensor<?x197x768xf32>
  %out = tcc.add %x1, %fc2
      : (tensor<?x197x768xf32>, tensor<?x197x768xf32>) -> tensor<?x197x768xf32>
  return %out : tensor<?x197x768xf32>
}
