// The bandwidth yardstick compiled by tcc: one read and one write per
// element (negation, so nothing folds it away).
func.func @copy(%x: tensor<16384x4096xf32>) -> tensor<16384x4096xf32> {
  %0 = tcc.neg %x : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  return %0 : tensor<16384x4096xf32>
}
