//===- Pipelines.h - tcc's registered pass pipelines ------------*- C++ -*-===//
//
// The pipelines are plain functions so that other compilers can add tcc's
// lowering to their own pass managers; tcc-opt registers them by name.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_PIPELINES_PIPELINES_H
#define TCC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#ifndef TCC_CUDA_PATH // set by CMake (TCC_CUDA_PATH)
#define TCC_CUDA_PATH "/usr/local/cuda"
#endif

namespace mlir::tcc {

struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Form fusion groups; false: every op is "
                                   "a kernel of its own (the unfused "
                                   "baseline; ops already in groups stay)"),
                    llvm::cl::init(true)};
  Option<std::string> fusionTarget{
      *this, "fusion-target",
      llvm::cl::desc("Target the fusion cost model weighs for (cpu, cuda)"),
      llvm::cl::init("cpu")};
  Option<bool> attentionLibrary{
      *this, "attention-library",
      llvm::cl::desc("Attention groups become the CUDA runtime's fused "
                     "attention kernel (tcc-attention-to-library; cuda "
                     "only)"),
      llvm::cl::init(false)};
  Option<bool> convLibrary{
      *this, "conv-library",
      llvm::cl::desc("Convolutions become library calls (tcc-conv-to-"
                     "library): oneDNN for the cpu pipeline, cuDNN for the "
                     "cuda one (its option cudnn). Default: on where tcc "
                     "is built with oneDNN"),
#ifdef TCC_HAVE_DNNL
      llvm::cl::init(true)};
#else
      llvm::cl::init(false)};
#endif
  Option<std::string> convLibraryTarget{
      *this, "conv-library-target",
      llvm::cl::desc("Whose library the convolutions call: cpu (oneDNN, "
                     "host buffers) or cuda (cuDNN; the cuda pipeline sets "
                     "it)"),
      llvm::cl::init("cpu")};
  Option<bool> gemmLibrary{
      *this, "gemm-library",
      llvm::cl::desc("f32 linears and matmuls become oneDNN calls (tcc-"
                     "linear-to-library; the cpu pipeline only). Default: "
                     "on where tcc is built with oneDNN"),
#ifdef TCC_HAVE_DNNL
      llvm::cl::init(true)};
#else
      llvm::cl::init(false)};
#endif
  Option<int64_t> gemmLibraryMinMacs{
      *this, "gemm-library-min-macs",
      llvm::cl::desc("Smallest product (multiply-adds) that goes to oneDNN, "
                     "checked per call where sizes are open (docs/"
                     "layout.md: below it the call's fixed cost outweighs "
                     "the faster kernel)"),
      llvm::cl::init(262144)};
  Option<bool> selectLayout{
      *this, "select-layout",
      llvm::cl::desc("Choose NCHW or channels-last per convolution by the "
                     "target's cost model (--select-layout)"),
      llvm::cl::init(true)};
  Option<std::string> fusionReport{
      *this, "fusion-report",
      llvm::cl::desc("Write the fusion report (JSON) to this file")};
  Option<std::string> fusionDot{
      *this, "fusion-dot",
      llvm::cl::desc("Write the grouped graph (Graphviz DOT) to this file")};
  ListOption<std::string> fusionReportSizes{
      *this, "fusion-report-sizes",
      llvm::cl::desc("NAME=VALUE sizes at which the fusion report evaluates "
                     "bytes")};
  Option<bool> planMemory{*this, "plan-memory",
                          llvm::cl::desc("Plan intermediates into one arena"),
                          llvm::cl::init(true)};
  Option<bool> memoryReorder{
      *this, "memory-reorder",
      llvm::cl::desc("Reorder independent ops when that lowers the arena's "
                     "peak"),
      llvm::cl::init(false)};
  Option<std::string> memoryReport{
      *this, "memory-report",
      llvm::cl::desc("Write the memory plan (JSON) to this file; bytes are "
                     "evaluated at fusion-report-sizes")};
  Option<bool> workspace{
      *this, "workspace",
      llvm::cl::desc("Take the arena from the caller's workspace "
                     "(tcc_workspace) instead of allocating it per call"),
      llvm::cl::init(false)};
  Option<std::string> memoryPlanSvg{
      *this, "memory-plan-svg",
      llvm::cl::desc("Draw the memory plan (SVG) to this file")};
  Option<bool> parallel{*this, "parallel",
                        llvm::cl::desc("Run large groups' tile loops on all "
                                       "cores (OpenMP)"),
                        llvm::cl::init(true)};
  Option<bool> vectorize{*this, "vectorize",
                         llvm::cl::desc("Tile and vectorize fusion groups"),
                         llvm::cl::init(true)};
  ListOption<std::string> specialize{
      *this, "specialize",
      llvm::cl::desc("NAME=VALUE pairs that fix size symbols (B=8): a static "
                     "compile of a dynamic function")};
  enum class AVX512 { Auto, On, Off };
  Option<AVX512> avx512{
      *this, "avx512",
      llvm::cl::desc("Emit AVX-512-only instructions (table lookups in erf and exp, vscalefps in exp)"),
      llvm::cl::init(AVX512::Auto),
      llvm::cl::values(
          clEnumValN(AVX512::Auto, "auto", "when the host CPU has AVX-512"),
          clEnumValN(AVX512::On, "on", "always"),
          clEnumValN(AVX512::Off, "off", "never"))};
};

/// Options of the cuda pipeline (NVIDIA GPUs through NVVM).
struct CUDAPipelineOptions : public PassPipelineOptions<CUDAPipelineOptions> {
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Form fusion groups (weighed for cuda)"),
                    llvm::cl::init(true)};
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU architecture (sm_90: H100, "
                                          "H200)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA version as an LLVM feature (+ptx80 or newer: "
                     "sm_90 needs PTX 8.0)"),
      llvm::cl::init("+ptx80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel binary embedded in the host module: isa (PTX "
                     "text), bin (cubin, runs ptxas from PATH) or fatbin"),
      llvm::cl::init("bin")};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit: ptxas (bin/) and libdevice "
                     "(nvvm/libdevice/)"),
      llvm::cl::init(TCC_CUDA_PATH)};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("Threads per block"),
                            llvm::cl::init(256)};
  ListOption<std::string> specialize{
      *this, "specialize",
      llvm::cl::desc("NAME=VALUE pairs that fix size symbols (B=8)")};
  Option<bool> cublaslt{
      *this, "cublaslt",
      llvm::cl::desc("Matrix products through cuBLASLt (tcc_gpu.gemm) "
                     "instead of generated kernels"),
      llvm::cl::init(true)};
  Option<bool> flashAttention{
      *this, "flash-attention",
      llvm::cl::desc("f16/bf16 attention through the runtime's fused "
                     "kernel (tcc_gpu.attention) where it applies"),
      llvm::cl::init(true)};
  Option<bool> cudnn{
      *this, "cudnn",
      llvm::cl::desc("Convolutions through cuDNN (tcc_gpu.conv2d, with a "
                     "residual add and ReLU) where they apply"),
      llvm::cl::init(true)};
  Option<int64_t> gemmMinRows{
      *this, "gemm-min-rows",
      llvm::cl::desc("Smallest static row count given to cuBLASLt (fewer: "
                     "a generated matvec kernel)"),
      llvm::cl::init(16)};
  // Off by default: correct (all of test/Integration on the H200), but the
  // planned group results come back as copy kernels after the groups (the
  // robot policy: 10 launches instead of 6; ViT-B/16 bf16 batch 32: 3.58
  // instead of 3.07 ms). The caching allocator serves the blocks meanwhile.
  Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("Plan intermediates into one device arena (one "
                     "allocation per call) instead of a device block each"),
      llvm::cl::init(false)};
  Option<bool> gemmDispatch{
      *this, "gemm-dispatch",
      llvm::cl::desc("Dynamic row counts: a host branch between cuBLASLt "
                     "and generated code at gemm-min-rows"),
      llvm::cl::init(false)};
};

/// tcc -> LLVM dialect for the host plus GPU kernels for NVIDIA GPUs: each
/// fusion group's ops become kernels (gpu.launch, one per fused linalg op
/// for now), the kernels NVVM -> PTX (-> cubin) embedded as gpu.binary, and
/// the host code calls the mgpu* runtime functions (launches, device
/// allocations) that a CUDA runtime library provides.
void buildCUDAPipeline(OpPassManager &pm, const CUDAPipelineOptions &options);

/// tcc (or already fused tcc) -> linalg on tensors, one loop nest per group.
void buildTCCToLinalgPipeline(OpPassManager &pm,
                              const CPUPipelineOptions &options);

/// tcc -> LLVM dialect for the host CPU: fusion, memory planning, lowering,
/// bufferization, vectorization, LLVM. The result runs in an ExecutionEngine
/// or is translated to an object file.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Registers "tcc-to-linalg" and "tcc-cpu-pipeline" with the pass registry.
void registerTCCPipelines();

} // namespace mlir::tcc

#endif // TCC_PIPELINES_PIPELINES_H
