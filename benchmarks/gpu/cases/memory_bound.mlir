// The memory-bound ops of ../shared/anchors/torch_anchors.py
// (memory_bound_ops), as PyTorch writes them, at its shape [16384, 4096]:
// F.layer_norm(x, (N,), w, b, 1e-5), torch.softmax(x, -1),
// F.gelu(x + b), torch.relu(x + b) * w, and a copy (tcc.neg) for the
// bandwidth yardstick. prepare_check.py compiles this file as it is (f32)
// and with every tensor in bf16; device_check.sh times both.
func.func @layer_norm(%x: tensor<16384x4096xf32>, %w: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<16384x4096xf32> {
  %y = tcc.layer_norm %x, %w, %b {axis = 1 : i64, epsilon = 1.0e-05 : f32}
      : (tensor<16384x4096xf32>, tensor<4096xf32>, tensor<4096xf32>) -> tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}

func.func @softmax(%x: tensor<16384x4096xf32>) -> tensor<16384x4096xf32> {
  %y = tcc.softmax %x {axis = 1 : i64} : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}

func.func @bias_gelu(%x: tensor<16384x4096xf32>, %b: tensor<4096xf32>) -> tensor<16384x4096xf32> {
  %0 = tcc.add %x, %b : (tensor<16384x4096xf32>, tensor<4096xf32>) -> tensor<16384x4096xf32>
  %1 = tcc.gelu %0 {approximate = "none"} : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  return %1 : tensor<16384x4096xf32>
}

func.func @add_relu_mul(%x: tensor<16384x4096xf32>, %b: tensor<4096xf32>, %w: tensor<4096xf32>) -> tensor<16384x4096xf32> {
  %0 = tcc.add %x, %b : (tensor<16384x4096xf32>, tensor<4096xf32>) -> tensor<16384x4096xf32>
  %1 = tcc.relu %0 : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %2 = tcc.mul %1, %w : (tensor<16384x4096xf32>, tensor<4096xf32>) -> tensor<16384x4096xf32>
  return %2 : tensor<16384x4096xf32>
}

func.func @copy(%x: tensor<16384x4096xf32>) -> tensor<16384x4096xf32> {
  %0 = tcc.neg %x : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  return %0 : tensor<16384x4096xf32>
}
