// Softmax over rows of 4096 with a dynamic row count (the GPU check).
func.func @softmax(%x: tensor<?x4096xf32> {tcc.shape = #tcc.shape<[N, 4096]>}) -> tensor<?x4096xf32> {
  %y = tcc.softmax %x {axis = 1 : i64} : (tensor<?x4096xf32>) -> tensor<?x4096xf32>
  return %y : tensor<?x4096xf32>
}
