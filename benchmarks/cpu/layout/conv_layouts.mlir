// One ResNet-18 convolution (64 -> 64 channels, 3x3, 56x56) in each
// layout, for the kernel speeds --select-layout's cpu cost model uses
// (docs/layout.md has the command and the figures).
func.func @nchw(%x: tensor<?x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<?x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<?x64x56x56xf32>
  return %0 : tensor<?x64x56x56xf32>
}
func.func @nhwc(%x: tensor<?x56x56x64xf32>, %w: tensor<64x3x3x64xf32>) -> tensor<?x56x56x64xf32> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>, layout = "NHWC"} : (tensor<?x56x56x64xf32>, tensor<64x3x3x64xf32>) -> tensor<?x56x56x64xf32>
  return %0 : tensor<?x56x56x64xf32>
}
func.func @transpose(%x: tensor<?x64x56x56xf32>) -> tensor<?x56x56x64xf32> {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : (tensor<?x64x56x56xf32>) -> tensor<?x56x56x64xf32>
  return %0 : tensor<?x56x56x64xf32>
}
