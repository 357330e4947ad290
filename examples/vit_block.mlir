// One ViT-B/16 encoder block (timm's VisionTransformer Block, pre-norm):
//
//   x1  = x + proj(attention(LN1(x)))
//   out = x1 + fc2(gelu(fc1(LN2(x1))))
//
// with 12 heads of 64 dims, S tokens (197 at 224x224: 196 patches + class
// token), hidden 768, MLP 3072, LayerNorm epsilon 1e-6 and exact (erf) GELU.
// The attention is the fused-QKV form: qkv = linear(768 -> 2304), reshape to
// [B, S, 3, 12, 64], permute to [3, B, 12, S, 64], q/k/v = qkv[0..2],
// scaled_dot_product_attention (scale 1/sqrt(64)), then back to [B, S, 768].
// Batch B and sequence length S are both dynamic: the reshapes take their
// sizes from tensor.dim (what torch.export's view(B, S, 3, 12, 64) becomes),
// and one compile serves every B and S (`--specialize=S=197` compiles the
// static version).
//
// Arguments (weights are inputs; nn.Linear weights are [out, in]):
//    0 x       [B, S, 768]       input tokens (B and S dynamic)
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
// Result: [B, S, 768].
//
// Run (B = 1):
//   tcc-run examples/vit_block.mlir --function=vit_block \
//     --input=1x197x768xf32=random --input=768xf32=random --input=768xf32=random \
//     --input=2304x768xf32=random --input=2304xf32=random \
//     --input=768x768xf32=random --input=768xf32=random \
//     --input=768xf32=random --input=768xf32=random \
//     --input=3072x768xf32=random --input=3072xf32=random \
//     --input=768x3072xf32=random --input=768xf32=random --check-reference

func.func @vit_block(%x: tensor<?x?x768xf32> {tcc.shape = #tcc.shape<[B, S, 768]>, tcc.name = "x"},
                     %ln1_w: tensor<768xf32>, %ln1_b: tensor<768xf32>,
                     %qkv_w: tensor<2304x768xf32>, %qkv_b: tensor<2304xf32>,
                     %proj_w: tensor<768x768xf32>, %proj_b: tensor<768xf32>,
                     %ln2_w: tensor<768xf32>, %ln2_b: tensor<768xf32>,
                     %fc1_w: tensor<3072x768xf32>, %fc1_b: tensor<3072xf32>,
                     %fc2_w: tensor<768x3072xf32>, %fc2_b: tensor<768xf32>)
    -> tensor<?x?x768xf32> {
  // ---- sizes for the reshapes ----
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bi = tensor.dim %x, %c0 : tensor<?x?x768xf32>
  %si = tensor.dim %x, %c1 : tensor<?x?x768xf32>
  %b = arith.index_cast %bi : index to i64
  %s = arith.index_cast %si : index to i64
  %n3 = arith.constant 3 : i64
  %n12 = arith.constant 12 : i64
  %n64 = arith.constant 64 : i64
  %n768 = arith.constant 768 : i64
  %qkv_shape = tensor.from_elements %b, %s, %n3, %n12, %n64 : tensor<5xi64>
  %head_shape = tensor.from_elements %b, %n12, %s, %n64 : tensor<4xi64>
  %merged_shape = tensor.from_elements %b, %s, %n768 : tensor<3xi64>

  // ---- attention branch ----
  %ln1 = tcc.layer_norm %x, %ln1_w, %ln1_b {axis = 2 : i64, epsilon = 1.0e-06 : f32}
      : (tensor<?x?x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x?x768xf32>
  %qkv = tcc.linear %ln1, %qkv_w, %qkv_b
      : (tensor<?x?x768xf32>, tensor<2304x768xf32>, tensor<2304xf32>) -> tensor<?x?x2304xf32>
  %qkv5 = tcc.reshape %qkv, %qkv_shape : (tensor<?x?x2304xf32>, tensor<5xi64>) -> tensor<?x?x3x12x64xf32>
  %qkvT = tcc.transpose %qkv5 {permutation = array<i64: 2, 0, 3, 1, 4>}
      : (tensor<?x?x3x12x64xf32>) -> tensor<3x?x12x?x64xf32>
  %q1 = tcc.slice %qkvT {starts = array<i64: 0, 0, 0, 0, 0>,
                         ends = array<i64: 1, 9223372036854775807, 12, 9223372036854775807, 64>,
                         steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x12x?x64xf32>) -> tensor<1x?x12x?x64xf32>
  %k1 = tcc.slice %qkvT {starts = array<i64: 1, 0, 0, 0, 0>,
                         ends = array<i64: 2, 9223372036854775807, 12, 9223372036854775807, 64>,
                         steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x12x?x64xf32>) -> tensor<1x?x12x?x64xf32>
  %v1 = tcc.slice %qkvT {starts = array<i64: 2, 0, 0, 0, 0>,
                         ends = array<i64: 3, 9223372036854775807, 12, 9223372036854775807, 64>,
                         steps = array<i64: 1, 1, 1, 1, 1>}
      : (tensor<3x?x12x?x64xf32>) -> tensor<1x?x12x?x64xf32>
  %q = tcc.reshape %q1, %head_shape : (tensor<1x?x12x?x64xf32>, tensor<4xi64>) -> tensor<?x12x?x64xf32>
  %k = tcc.reshape %k1, %head_shape : (tensor<1x?x12x?x64xf32>, tensor<4xi64>) -> tensor<?x12x?x64xf32>
  %v = tcc.reshape %v1, %head_shape : (tensor<1x?x12x?x64xf32>, tensor<4xi64>) -> tensor<?x12x?x64xf32>
  %attn = tcc.attention %q, %k, %v
      : (tensor<?x12x?x64xf32>, tensor<?x12x?x64xf32>, tensor<?x12x?x64xf32>) -> tensor<?x12x?x64xf32>
  %attnT = tcc.transpose %attn {permutation = array<i64: 0, 2, 1, 3>}
      : (tensor<?x12x?x64xf32>) -> tensor<?x?x12x64xf32>
  %merged = tcc.reshape %attnT, %merged_shape : (tensor<?x?x12x64xf32>, tensor<3xi64>) -> tensor<?x?x768xf32>
  %proj = tcc.linear %merged, %proj_w, %proj_b
      : (tensor<?x?x768xf32>, tensor<768x768xf32>, tensor<768xf32>) -> tensor<?x?x768xf32>
  %x1 = tcc.add %x, %proj
      : (tensor<?x?x768xf32>, tensor<?x?x768xf32>) -> tensor<?x?x768xf32>

  // ---- MLP branch ----
  %ln2 = tcc.layer_norm %x1, %ln2_w, %ln2_b {axis = 2 : i64, epsilon = 1.0e-06 : f32}
      : (tensor<?x?x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x?x768xf32>
  %fc1 = tcc.linear %ln2, %fc1_w, %fc1_b
      : (tensor<?x?x768xf32>, tensor<3072x768xf32>, tensor<3072xf32>) -> tensor<?x?x3072xf32>
  %act = tcc.gelu %fc1 {approximate = "none"}
      : (tensor<?x?x3072xf32>) -> tensor<?x?x3072xf32>
  %fc2 = tcc.linear %act, %fc2_w, %fc2_b
      : (tensor<?x?x3072xf32>, tensor<768x3072xf32>, tensor<768xf32>) -> tensor<?x?x768xf32>
  %out = tcc.add %x1, %fc2
      : (tensor<?x?x768xf32>, tensor<?x?x768xf32>) -> tensor<?x?x768xf32>
  return %out : tensor<?x?x768xf32>
}
