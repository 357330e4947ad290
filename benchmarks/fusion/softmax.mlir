// Softmax over rows of 4096, written as separate ops (max, subtract, exp,
// sum, divide): --fuse recognizes it and makes it one reduction group.
func.func @softmax(%x: tensor<16384x4096xf32>) -> tensor<16384x4096xf32> {
  %m = tcc.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : (tensor<16384x4096xf32>) -> tensor<16384x1xf32>
  %d = tcc.sub %x, %m : (tensor<16384x4096xf32>, tensor<16384x1xf32>) -> tensor<16384x4096xf32>
  %e = tcc.exp %d : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %s = tcc.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : (tensor<16384x4096xf32>) -> tensor<16384x1xf32>
  %y = tcc.div %e, %s : (tensor<16384x4096xf32>, tensor<16384x1xf32>) -> tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}
