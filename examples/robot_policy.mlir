// RobotPolicy: the real-time control policy network (obs_dim 256,
// action_dim 12), without the optional LSTM history branch:
//
//   features = ReLU(LN(Linear(512 -> 256)(ReLU(LN(Linear(256 -> 512)(obs))))))
//   actions  = policy_head(features)   Linear(256 -> 12)
//   value    = value_head(features)    Linear(256 -> 1)
//
// LayerNorm uses PyTorch's default epsilon 1e-5.
//
// Arguments (weights are inputs; nn.Linear weights are [out, in]):
//    0 obs         [B, 256]    observations (batch B dynamic)
//    1 enc0_w      [512, 256]  encoder[0].weight
//    2 enc0_b      [512]       encoder[0].bias
//    3 ln0_w       [512]       encoder[1].weight (LayerNorm)
//    4 ln0_b       [512]       encoder[1].bias
//    5 enc3_w      [256, 512]  encoder[3].weight
//    6 enc3_b      [256]       encoder[3].bias
//    7 ln1_w       [256]       encoder[4].weight (LayerNorm)
//    8 ln1_b       [256]       encoder[4].bias
//    9 policy_w    [12, 256]   policy_head.weight
//   10 policy_b    [12]        policy_head.bias
//   11 value_w     [1, 256]    value_head.weight
//   12 value_b     [1]         value_head.bias
// Results: actions [B, 12], value [B, 1].
//
// Run (B = 2):
//   tcc-run examples/robot_policy.mlir --function=robot_policy \
//     --input=2x256xf32=random --input=512x256xf32=random --input=512xf32=random \
//     --input=512xf32=random --input=512xf32=random \
//     --input=256x512xf32=random --input=256xf32=random \
//     --input=256xf32=random --input=256xf32=random \
//     --input=12x256xf32=random --input=12xf32=random \
//     --input=1x256xf32=random --input=1xf32=random --check-reference

func.func @robot_policy(%obs: tensor<?x256xf32> {tcc.shape = #tcc.shape<[B, 256]>, tcc.name = "obs"},
                        %enc0_w: tensor<512x256xf32>, %enc0_b: tensor<512xf32>,
                        %ln0_w: tensor<512xf32>, %ln0_b: tensor<512xf32>,
                        %enc3_w: tensor<256x512xf32>, %enc3_b: tensor<256xf32>,
                        %ln1_w: tensor<256xf32>, %ln1_b: tensor<256xf32>,
                        %policy_w: tensor<12x256xf32>, %policy_b: tensor<12xf32>,
                        %value_w: tensor<1x256xf32>, %value_b: tensor<1xf32>)
    -> (tensor<?x12xf32>, tensor<?x1xf32>) {
  // encoder
  %h0 = tcc.linear %obs, %enc0_w, %enc0_b
      : (tensor<?x256xf32>, tensor<512x256xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %n0 = tcc.layer_norm %h0, %ln0_w, %ln0_b {axis = 1 : i64, epsilon = 1.0e-05 : f32}
      : (tensor<?x512xf32>, tensor<512xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %a0 = tcc.relu %n0 : (tensor<?x512xf32>) -> tensor<?x512xf32>
  %h1 = tcc.linear %a0, %enc3_w, %enc3_b
      : (tensor<?x512xf32>, tensor<256x512xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %n1 = tcc.layer_norm %h1, %ln1_w, %ln1_b {axis = 1 : i64, epsilon = 1.0e-05 : f32}
      : (tensor<?x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %features = tcc.relu %n1 : (tensor<?x256xf32>) -> tensor<?x256xf32>
  // heads
  %actions = tcc.linear %features, %policy_w, %policy_b
      : (tensor<?x256xf32>, tensor<12x256xf32>, tensor<12xf32>) -> tensor<?x12xf32>
  %value = tcc.linear %features, %value_w, %value_b
      : (tensor<?x256xf32>, tensor<1x256xf32>, tensor<1xf32>) -> tensor<?x1xf32>
  return %actions, %value : tensor<?x12xf32>, tensor<?x1xf32>
}
