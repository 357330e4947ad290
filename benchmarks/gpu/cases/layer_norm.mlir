// layer_norm over rows of 1024, written as separate ops (the GPU check).
func.func @layer_norm(%x: tensor<?x1024xf32> {tcc.shape = #tcc.shape<[N, 1024]>}, %w: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> {
  %eps = tcc.constant dense<1.0e-05> : tensor<f32>
  %mean = tcc.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %d = tcc.sub %x, %mean : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  %sq = tcc.mul %d, %d : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %var = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %ve = tcc.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %inv = tcc.rsqrt %ve : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %d, %inv : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  %s = tcc.mul %n, %w : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  %y = tcc.add %s, %b : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  return %y : tensor<?x1024xf32>
}
