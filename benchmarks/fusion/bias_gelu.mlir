// Bias add then exact (erf) GELU, two ops: one pointwise group.
func.func @bias_gelu(%x: tensor<16384x4096xf32>, %b: tensor<4096xf32>) -> tensor<16384x4096xf32> {
  %0 = tcc.add %x, %b : (tensor<16384x4096xf32>, tensor<4096xf32>) -> tensor<16384x4096xf32>
  %1 = tcc.gelu %0 {approximate = "none"} : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  return %1 : tensor<16384x4096xf32>
}
