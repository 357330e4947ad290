// A linear with bias and ReLU over a dynamic batch (cuda-library.mlir).
func.func @linear_relu(%x: tensor<?x256xf32> {tcc.shape = #tcc.shape<[N, 256]>},
                       %w: tensor<512x256xf32>, %b: tensor<512xf32>)
    -> tensor<?x512xf32> {
  %y = tcc.linear %x, %w, %b : (tensor<?x256xf32>, tensor<512x256xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %r = tcc.relu %y : (tensor<?x512xf32>) -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}
