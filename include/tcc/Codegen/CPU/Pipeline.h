//===- Pipeline.h - the cpu pipeline ----------------------------*- C++ -*-===//
//
// tcc -> LLVM dialect for a CPU (x86-64; AVX-512 where the target has it):
// the shared stages (Codegen/Common/Pipeline.h), then this target's vector,
// memory-traffic and thread passes and the LLVM conversions. The result
// runs in an ExecutionEngine or becomes an object file (lib/AOT).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_CPU_PIPELINE_H
#define TCC_CODEGEN_CPU_PIPELINE_H

#include "tcc/Codegen/CPU/Passes.h"
#include "tcc/Codegen/Common/Pipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tcc {

/// Options of the cpu pipeline (`--tcc-cpu-pipeline="fuse=false ..."`, the
/// C API's pipeline options, the tools' flags).
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Form fusion groups; false: every op is "
                                   "a kernel of its own (the unfused "
                                   "baseline; ops already in groups stay)"),
                    llvm::cl::init(true)};
  Option<std::string> mcpu{
      *this, "mcpu",
      llvm::cl::desc("CPU to compile for where the module has no "
                     "#tcc.target: host (this machine) or an LLVM CPU name "
                     "(x86-64-v3, znver4)"),
      llvm::cl::init("host")};
  Option<std::string> fusionTarget{
      *this, "fusion-target",
      llvm::cl::desc("Weigh fusion and plan memory for this kind of target "
                     "(cpu, cuda) instead of the module's; the code is "
                     "still for the CPU")};
  Option<bool> convLibrary{
      *this, "conv-library",
      llvm::cl::desc("Convolutions become oneDNN calls (tcc-conv-to-"
                     "library). Default: on where tcc is built with "
                     "oneDNN"),
#ifdef TCC_HAVE_DNNL
      llvm::cl::init(true)};
#else
      llvm::cl::init(false)};
#endif
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
  Option<bool> outlineKernels{
      *this, "outline-kernels",
      llvm::cl::desc("Compile each group's loop nest as a function, once for "
                     "identical nests (tcc-outline-kernels)"),
      llvm::cl::init(true)};
  Option<bool> vectorize{*this, "vectorize",
                         llvm::cl::desc("Tile and vectorize fusion groups"),
                         llvm::cl::init(true)};
  ListOption<std::string> specialize{
      *this, "specialize",
      llvm::cl::desc("NAME=VALUE pairs that fix size symbols (B=8): a static "
                     "compile of a dynamic function")};
  Option<AVX512Mode> avx512{
      *this, "avx512",
      llvm::cl::desc("Emit AVX-512-only instructions (table lookups in erf "
                     "and exp, vscalefps in exp)"),
      llvm::cl::init(AVX512Mode::Auto),
      llvm::cl::values(
          clEnumValN(AVX512Mode::Auto, "auto",
                     "when the target CPU has AVX-512"),
          clEnumValN(AVX512Mode::On, "on", "always"),
          clEnumValN(AVX512Mode::Off, "off", "never"))};

  /// The shared stages' part of these options.
  TCCToLinalgOptions toLinalgOptions() const;

  /// Whether compiling writes files besides the code (reports, drawings):
  /// such a compile must run, not come from the compile cache.
  bool writesFiles() const {
    return !fusionReport.empty() || !fusionDot.empty() ||
           !memoryReport.empty() || !memoryPlanSvg.empty();
  }
};

/// tcc -> LLVM dialect for the CPU: fusion, memory planning, lowering,
/// bufferization, vectorization, LLVM. A module without a #tcc.target gets
/// one for `mcpu`.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_CPU_PIPELINE_H
