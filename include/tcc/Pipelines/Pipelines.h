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
};

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
