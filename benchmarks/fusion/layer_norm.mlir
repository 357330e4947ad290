// LayerNorm over rows of 4096, written as separate ops (mean, subtract,
// square, mean, rsqrt, multiply, scale, shift): --fuse recognizes it and
// makes it one reduction group.
func.func @layer_norm(%x: tensor<16384x4096xf32>, %w: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<16384x4096xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<16384x4096xf32>) -> tensor<16384x1xf32>
  %d = tcc.sub %x, %mean : (tensor<16384x4096xf32>, tensor<16384x1xf32>) -> tensor<16384x4096xf32>
  %sq = tcc.mul %d, %d : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<16384x4096xf32>) -> tensor<16384x1xf32>
  %ve = tcc.add %var, %eps : (tensor<16384x1xf32>, tensor<f32>) -> tensor<16384x1xf32>
  %inv = tcc.rsqrt %ve : (tensor<16384x1xf32>) -> tensor<16384x1xf32>
  %n = tcc.mul %d, %inv : (tensor<16384x4096xf32>, tensor<16384x1xf32>) -> tensor<16384x4096xf32>
  %s = tcc.mul %n, %w : (tensor<16384x4096xf32>, tensor<4096xf32>) -> tensor<16384x4096xf32>
  %y = tcc.add %s, %b : (tensor<16384x4096xf32>, tensor<4096xf32>) -> tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}
