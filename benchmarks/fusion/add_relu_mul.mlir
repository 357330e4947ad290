// relu(x + y) * x, three ops: one pointwise group reading x and y once.
func.func @add_relu_mul(%x: tensor<16384x4096xf32>, %y: tensor<16384x4096xf32>) -> tensor<16384x4096xf32> {
  %0 = tcc.add %x, %y : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %1 = tcc.relu %0 : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %2 = tcc.mul %1, %x : (tensor<16384x4096xf32>, tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  return %2 : tensor<16384x4096xf32>
}
