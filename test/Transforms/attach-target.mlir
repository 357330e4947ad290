// tcc-attach-target: the one builder of #tcc.target, from the options.
// RUN: tcc-opt %s --tcc-attach-target | FileCheck %s --check-prefix=HOST
// RUN: tcc-opt %s --tcc-attach-target="mcpu=x86-64-v3" | FileCheck %s --check-prefix=AVX2
// RUN: tcc-opt %s --tcc-attach-target="mcpu=skylake-avx512" | FileCheck %s --check-prefix=AVX512
// RUN: tcc-opt %s --tcc-attach-target="kind=cuda chip=sm_80" | FileCheck %s --check-prefix=CUDA
// RUN: not tcc-opt %s --tcc-attach-target="mcpu=pentium9" 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: not tcc-opt %s --tcc-attach-target="kind=tpu" 2>&1 | FileCheck %s --check-prefix=BADKIND
// RUN: not tcc-opt %s --tcc-attach-target="kind=cuda chip=gfx90a" 2>&1 | FileCheck %s --check-prefix=BADCHIP

// The host's CPU, with the CPU cost figures.
// HOST: module attributes {tcc.target = #tcc.target<"cpu", arch = "{{[a-z0-9_-]+}}", features = "+{{.*}}", vector_bits = {{512|256|128}}, on_chip_bytes = 1048576, bandwidth = 32000000000, peak_flops = 256000000000, launch_ns = 1024, relayout_bandwidth = 8000000000, alignment = 64

// A named CPU: its own features (AVX2, no AVX-512) and vector width.
// AVX2: tcc.target = #tcc.target<"cpu", arch = "x86-64-v3", features = "{{.*}}+avx2,{{.*}}", vector_bits = 256,
// AVX2-NOT: avx512f
// AVX512: tcc.target = #tcc.target<"cpu", arch = "skylake-avx512", features = "{{.*}}+avx512f,{{.*}}", vector_bits = 512,

// CUDA: tcc.target = #tcc.target<"cuda", arch = "sm_80", features = "+ptx80", vector_bits = 128, on_chip_bytes = 233472, bandwidth = 4800000000000, peak_flops = 67200000000000, launch_ns = 3058, relayout_bandwidth = 3000000000000, alignment = 256, libraries = ["cublaslt", "cudnn"]>

// BADCPU: error: tcc-attach-target: unknown CPU 'pentium9' (an LLVM CPU name such as x86-64-v3, znver4 or skylake-avx512, or host)
// BADKIND: error: tcc-attach-target: unknown target 'tpu' (expected cpu or cuda)
// BADCHIP: error: tcc-attach-target: unknown GPU architecture 'gfx90a' (expected sm_<version>, e.g. sm_90)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
