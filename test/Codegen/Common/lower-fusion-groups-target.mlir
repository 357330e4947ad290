// The register tiles follow the module's #tcc.target: one module compiled
// for two CPUs gets 8 x 32 tiles with K steps of 16 where the CPU has
// AVX-512 (16 f32 lanes) and 8 x 16 tiles with K steps of 8 where it has
// AVX2 (8 lanes). Without a target the host's width applies; vector-lanes
// still overrides the target.
// RUN: tcc-opt %s --tcc-attach-target="mcpu=skylake-avx512" --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups | FileCheck %s --check-prefix=AVX512
// RUN: tcc-opt %s --tcc-attach-target="mcpu=x86-64-v3" --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups | FileCheck %s --check-prefix=AVX2
// RUN: tcc-opt %s --tcc-attach-target="mcpu=x86-64-v3" --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups="vector-lanes=16" | FileCheck %s --check-prefix=LANES16

// AVX512: module attributes {tcc.target = #tcc.target<"cpu", arch = "skylake-avx512"{{.*}}vector_bits = 512
// AVX512-LABEL: func.func @matmul
//       AVX512:   vector.contract {{.*}} : vector<8x16xf32>, vector<16x32xf32> into vector<8x32xf32>
//   AVX512-NOT:   vector<8x16xf32> into vector<8x16xf32>

// LANES16-LABEL: func.func @matmul
//       LANES16:   vector.contract {{.*}} : vector<8x16xf32>, vector<16x32xf32> into vector<8x32xf32>

// AVX2: module attributes {tcc.target = #tcc.target<"cpu", arch = "x86-64-v3"{{.*}}vector_bits = 256
// AVX2-LABEL: func.func @matmul
//       AVX2:   vector.contract {{.*}} : vector<8x8xf32>, vector<8x16xf32> into vector<8x16xf32>
//   AVX2-NOT:   vector<8x32xf32>
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tcc.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
