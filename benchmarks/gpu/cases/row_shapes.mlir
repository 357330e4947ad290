// Row groups at row lengths the register form does not divide evenly
// (1000 columns over 64 threads: the last of each thread's 16 columns is
// guarded) and at a dynamic row length (the loop form over memory).
func.func @softmax_odd(%x: tensor<?x1000xf32> {tcc.shape = #tcc.shape<[N, 1000]>}) -> tensor<?x1000xf32> {
  %y = tcc.softmax %x {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}

func.func @rms_norm_dynamic(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[N, C]>}, %w: tensor<?xf32> {tcc.shape = #tcc.shape<[C]>}) -> tensor<?x?xf32> {
  %eps = tcc.constant dense<1.0e-06> : tensor<f32>
  %sq = tcc.mul %x, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %ms = tcc.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %me = tcc.add %ms, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %inv = tcc.rsqrt %me : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = tcc.mul %x, %inv : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %y = tcc.mul %n, %w : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
