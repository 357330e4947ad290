// A module that names its target keeps it; one of another kind than the
// pipeline's is an error.
// RUN: tcc-opt %s --split-input-file --tcc-attach-target="mcpu=x86-64-v3" | FileCheck %s
// RUN: tcc-opt %s --split-input-file --verify-diagnostics --tcc-attach-target="kind=cuda" -o /dev/null

// CHECK: tcc.target = #tcc.target<"cpu", arch = "znver4", features = "+avx2,+avx512f", vector_bits = 512
// expected-error @+1 {{tcc-attach-target: the module's #tcc.target is 'cpu', this pipeline compiles for 'cuda'}}
module attributes {tcc.target = #tcc.target<"cpu", arch = "znver4", features = "+avx2,+avx512f", vector_bits = 512, on_chip_bytes = 1048576, bandwidth = 32000000000, peak_flops = 256000000000, launch_ns = 1024, relayout_bandwidth = 8000000000, alignment = 64>} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
