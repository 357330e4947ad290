// REQUIRES: ptxas
// tcc-compile --target=cuda: kernels as cubin for sm_90 in a shared library
// whose host code runs the launches through tcc's CUDA runtime (driver
// API). CI has no GPU: this checks the library is built, exports the C ABI,
// needs the driver (libcuda.so.1) and no MLIR, and says in its manifest that
// tensors are device pointers. benchmarks/gpu/device_check.sh runs such
// libraries on a GPU against the reference evaluator.

// RUN: rm -rf %t && mkdir -p %t
// RUN: tcc-compile %s --target=cuda -o %t/libgpu.so
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/libgpu.json
// MANIFEST: "chip": "sm_90",
// MANIFEST: "name": "bias_relu",
// MANIFEST: "memory": "device",
// MANIFEST: "target": "cuda",
// RUN: readelf -d %t/libgpu.so | FileCheck %s --check-prefix=DEPS --implicit-check-not=MLIR --implicit-check-not=LLVM --implicit-check-not=libomp
// DEPS: NEEDED{{.*}}libcuda.so.1
// RUN: nm -D --defined-only %t/libgpu.so | FileCheck %s --check-prefix=SYMS
// SYMS-DAG: T _mlir_ciface_bias_relu
// SYMS-DAG: T tcc_run
// SYMS-DAG: T tcc_release
// SYMS-DAG: T tcc_graph_create
// SYMS-DAG: T tcc_graph_launch
// SYMS-DAG: T tcc_graph_destroy
// SYMS-DAG: T tcc_run_on_stream
// SYMS-DAG: T tcc_graph_launch_on_stream
// The kernel modules' loaders are constructors in .init_array (lld, which
// tcc-compile prefers, does not run a .ctors section).
// RUN: readelf -S %t/libgpu.so | FileCheck %s --check-prefix=CTORS
// CTORS-NOT: .ctors
// CTORS: .init_array
// CTORS-NOT: .ctors
// RUN: nm -D --undefined-only %t/libgpu.so | FileCheck %s --check-prefix=DRIVER
// DRIVER-DAG: U cuLaunchKernel
// DRIVER-DAG: U cuModuleLoadData
// DRIVER-DAG: U cuStreamBeginCapture
// DRIVER-DAG: U cuGraphLaunch

// Another chip: the manifest says so.
// RUN: tcc-compile %s --target=cuda --chip=sm_80 -o %t/libgpu80.so
// RUN: FileCheck %s --check-prefix=SM80 < %t/libgpu80.json
// SM80: "chip": "sm_80",

func.func @bias_relu(%x: tensor<?x64xf32> {tcc.shape = #tcc.shape<[N, 64]>}, %b: tensor<64xf32>) -> tensor<?x64xf32> {
  %0 = tcc.add %x, %b : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %1 = tcc.relu %0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %1 : tensor<?x64xf32>
}

// A linear: its product goes to cuBLASLt, loaded with dlopen at the first
// product (the library does not need it to load), through tccGemm.
// RUN: tcc-compile %S/Inputs/cuda_linear.mlir --target=cuda -o %t/liblinear.so
// RUN: readelf -d %t/liblinear.so | FileCheck %s --check-prefix=LTDEPS --implicit-check-not=cublas
// LTDEPS: NEEDED{{.*}}libcuda.so.1
// RUN: nm %t/liblinear.so | FileCheck %s --check-prefix=GEMM
// GEMM-DAG: {{[tT]}} tccGemm
// GEMM-DAG: U dlopen
// RUN: strings %t/liblinear.so | FileCheck %s --check-prefix=SONAME
// SONAME: libcublasLt.so.13

// bf16 attention: the runtime's fused kernel (tccAttention), its fatbin
// embedded in the library (sm_80 and sm_90 code, and PTX) and loaded
// through the driver; nothing else is needed.
// RUN: tcc-compile %S/Inputs/cuda_attention.mlir --target=cuda -o %t/libattention.so
// RUN: readelf -d %t/libattention.so | FileCheck %s --check-prefix=ATTDEPS --implicit-check-not=cublas --implicit-check-not=cudart
// ATTDEPS: NEEDED{{.*}}libcuda.so.1
// RUN: nm %t/libattention.so | FileCheck %s --check-prefix=ATTENTION
// ATTENTION-DAG: {{[tT]}} tccAttention
// ATTENTION-DAG: {{[rR]}} {{.*}}tcc_flash_attention_fatbin
// ATTENTION-DAG: U cuFuncSetAttribute
// RUN: strings %t/libattention.so | FileCheck %s --check-prefix=KERNELS
// KERNELS: tcc_attention_bf16_d64_vec

// conv_block: its two convolutions go to cuDNN (tccConv), loaded with
// dlopen at the first convolution; the library does not need cuDNN to
// load.
// RUN: tcc-compile %S/../../examples/conv_block.mlir --target=cuda -o %t/libconv.so
// RUN: readelf -d %t/libconv.so | FileCheck %s --check-prefix=CONVDEPS --implicit-check-not=cudnn --implicit-check-not=cudart
// CONVDEPS: NEEDED{{.*}}libcuda.so.1
// RUN: nm %t/libconv.so | FileCheck %s --check-prefix=CONV
// CONV-DAG: {{[tT]}} tccConv
// CONV-DAG: U dlopen
// RUN: strings %t/libconv.so | FileCheck %s --check-prefix=CUDNN
// CUDNN: libcudnn.so.9
