// Bias add then exact (erf) GELU (the GPU check).
func.func @bias_gelu(%x: tensor<?x3072xf32> {tcc.shape = #tcc.shape<[N, 3072]>}, %b: tensor<3072xf32>) -> tensor<?x3072xf32> {
  %0 = tcc.add %x, %b : (tensor<?x3072xf32>, tensor<3072xf32>) -> tensor<?x3072xf32>
  %1 = tcc.gelu %0 {approximate = "none"} : (tensor<?x3072xf32>) -> tensor<?x3072xf32>
  return %1 : tensor<?x3072xf32>
}
