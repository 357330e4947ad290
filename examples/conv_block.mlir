// A ResNet basic block (64 channels, 56x56, stride 1, identity shortcut)
// followed by a 2x2 max pool:
//
//   y   = relu(bn1(conv1(x)))          conv 3x3, padding 1, no bias
//   y   = bn2(conv2(y))                conv 3x3, padding 1, no bias
//   y   = relu(y + x)                  residual
//   out = max_pool2d(y, 2x2)           [B, 64, 28, 28]
//
// batch_norm is the inference form with running statistics, epsilon 1e-5.
//
// Arguments (weights are inputs; conv weights are OIHW):
//    0 x         [B, 64, 56, 56]   input (NCHW, batch B dynamic)
//    1 conv1_w   [64, 64, 3, 3]
//    2 bn1_w     [64]              bn1.weight (scale)
//    3 bn1_b     [64]              bn1.bias
//    4 bn1_mean  [64]              bn1.running_mean
//    5 bn1_var   [64]              bn1.running_var (must be >= 0)
//    6 conv2_w   [64, 64, 3, 3]
//    7 bn2_w     [64]
//    8 bn2_b     [64]
//    9 bn2_mean  [64]
//   10 bn2_var   [64]              (must be >= 0)
// Result: [B, 64, 28, 28].
//
// Run (B = 2; the variances are given a positive splat value):
//   tcc-run examples/conv_block.mlir --function=conv_block \
//     --input=2x64x56x56xf32=random --input=64x64x3x3xf32=random \
//     --input=64xf32=random --input=64xf32=random --input=64xf32=random --input=64xf32=0.5 \
//     --input=64x64x3x3xf32=random \
//     --input=64xf32=random --input=64xf32=random --input=64xf32=random --input=64xf32=2 \
//     --check-reference

func.func @conv_block(%x: tensor<?x64x56x56xf32> {tcc.shape = #tcc.shape<[B, 64, 56, 56]>, tcc.name = "x"},
                      %conv1_w: tensor<64x64x3x3xf32>,
                      %bn1_w: tensor<64xf32>, %bn1_b: tensor<64xf32>,
                      %bn1_mean: tensor<64xf32>, %bn1_var: tensor<64xf32>,
                      %conv2_w: tensor<64x64x3x3xf32>,
                      %bn2_w: tensor<64xf32>, %bn2_b: tensor<64xf32>,
                      %bn2_mean: tensor<64xf32>, %bn2_var: tensor<64xf32>)
    -> tensor<?x64x28x28xf32> {
  %c1 = tcc.conv2d %x, %conv1_w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
  %b1 = tcc.batch_norm %c1, %bn1_w, %bn1_b, %bn1_mean, %bn1_var {epsilon = 1.0e-05 : f32}
      : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
  %r1 = tcc.relu %b1 : (tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32>
  %c2 = tcc.conv2d %r1, %conv2_w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
  %b2 = tcc.batch_norm %c2, %bn2_w, %bn2_b, %bn2_mean, %bn2_var {epsilon = 1.0e-05 : f32}
      : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
  %sum = tcc.add %b2, %x
      : (tensor<?x64x56x56xf32>, tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32>
  %r2 = tcc.relu %sum : (tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32>
  %out = tcc.max_pool2d %r2 {kernel_size = array<i64: 2, 2>}
      : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
  return %out : tensor<?x64x28x28xf32>
}
