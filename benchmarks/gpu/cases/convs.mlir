// Convolutions through cuDNN (tcc-conv-to-library, tcc_lib.conv2d), each
// checked on the device against the reference evaluator:
//   conv_residual_relu  ResNet's second conv with its epilogue, f32, a
//                       dynamic batch: bias, residual add and ReLU in the
//                       one call (cudnnConvolutionBiasActivationForward);
//   stem_bf16           ResNet's 7x7 stride-2 stem in bf16, with bias
//                       and ReLU;
//   grouped_dilated     groups 4, dilation 2, stride 2 and uneven spatial
//                       sizes (the output sizes computed at run time);
//   residual_no_bias    a residual add without a bias (the unfused path:
//                       the residual copied into the output, the product
//                       accumulated onto it), f16;
//   conv_bn_relu        conv_block's first conv: cuDNN computes the
//                       convolution, the batch norm and ReLU stay a kernel.
func.func @conv_residual_relu(%x: tensor<?x64x28x28xf32> {tcc.shape = #tcc.shape<[B, 64, 28, 28]>},
                              %w: tensor<64x64x3x3xf32>, %b: tensor<64xf32>,
                              %r: tensor<?x64x28x28xf32> {tcc.shape = #tcc.shape<[B, 64, 28, 28]>})
    -> tensor<?x64x28x28xf32> {
  %0 = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : (tensor<?x64x28x28xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<?x64x28x28xf32>
  %1 = tcc.add %0, %r : (tensor<?x64x28x28xf32>, tensor<?x64x28x28xf32>) -> tensor<?x64x28x28xf32>
  %2 = tcc.relu %1 : (tensor<?x64x28x28xf32>) -> tensor<?x64x28x28xf32>
  return %2 : tensor<?x64x28x28xf32>
}

func.func @stem_bf16(%x: tensor<?x3x224x224xbf16> {tcc.shape = #tcc.shape<[B, 3, 224, 224]>},
                     %w: tensor<64x3x7x7xbf16>, %b: tensor<64xbf16>) -> tensor<?x64x112x112xbf16> {
  %0 = tcc.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 3, 3>} : (tensor<?x3x224x224xbf16>, tensor<64x3x7x7xbf16>, tensor<64xbf16>) -> tensor<?x64x112x112xbf16>
  %1 = tcc.relu %0 : (tensor<?x64x112x112xbf16>) -> tensor<?x64x112x112xbf16>
  return %1 : tensor<?x64x112x112xbf16>
}

func.func @grouped_dilated(%x: tensor<2x16x?x?xf32> {tcc.shape = #tcc.shape<[2, 16, H, W]>},
                           %w: tensor<32x4x3x3xf32>) -> tensor<2x32x?x?xf32> {
  %0 = tcc.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>, padding = array<i64: 2, 1>, groups = 4 : i64} : (tensor<2x16x?x?xf32>, tensor<32x4x3x3xf32>) -> tensor<2x32x?x?xf32>
  return %0 : tensor<2x32x?x?xf32>
}

func.func @residual_no_bias(%x: tensor<4x32x20x20xf16>, %w: tensor<32x32x1x1xf16>,
                            %r: tensor<4x32x20x20xf16>) -> tensor<4x32x20x20xf16> {
  %0 = tcc.conv2d %x, %w : (tensor<4x32x20x20xf16>, tensor<32x32x1x1xf16>) -> tensor<4x32x20x20xf16>
  %1 = tcc.add %r, %0 : (tensor<4x32x20x20xf16>, tensor<4x32x20x20xf16>) -> tensor<4x32x20x20xf16>
  return %1 : tensor<4x32x20x20xf16>
}

func.func @conv_bn_relu(%x: tensor<?x64x56x56xf32> {tcc.shape = #tcc.shape<[B, 64, 56, 56]>},
                        %w: tensor<64x64x3x3xf32>, %s: tensor<64xf32>, %t: tensor<64xf32>,
                        %m: tensor<64xf32>) -> tensor<?x64x56x56xf32> {
  // The variance is s * s + 0.5: positive whatever the random inputs.
  %sq = tcc.mul %s, %s : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %half = tcc.constant dense<0.5> : tensor<64xf32>
  %var = tcc.add %sq, %half : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
  %1 = tcc.batch_norm %0, %s, %t, %m, %var : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
  %2 = tcc.relu %1 : (tensor<?x64x56x56xf32>) -> tensor<?x64x56x56xf32>
  return %2 : tensor<?x64x56x56xf32>
}
