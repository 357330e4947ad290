//===- Pipeline.h - tcc to linalg, shared by both targets -------*- C++ -*-===//
//
// The front of code generation that the cpu and cuda pipelines share:
// shapes, fusion, memory planning, library calls, tcc -> linalg and one
// loop nest per fusion group; then bufferization with the entry guards.
// What machine it weighs for is the module's #tcc.target.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_COMMON_PIPELINE_H
#define TCC_CODEGEN_COMMON_PIPELINE_H

#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace mlir::tcc {

/// What the shared stages do; each target's pipeline fills it in from its
/// own options.
struct TCCToLinalgOptions {
  /// false: every op is a kernel of its own (ops already in groups stay).
  bool fuse = true;
  /// Weigh fusion and plan memory for this kind of target ("cpu", "cuda")
  /// instead of the module's: `tcc-run --fusion-target`.
  std::string fusionTarget;
  std::string fusionReport, fusionDot, memoryReport, memoryPlanSvg;
  /// NAME=VALUE sizes at which the reports evaluate bytes.
  std::vector<std::string> reportSizes;
  bool planMemory = true;
  bool memoryReorder = false;
  bool selectLayout = true;
  /// NAME=VALUE pairs that fix size symbols.
  std::vector<std::string> specialize;
  /// Library calls: attention (cuda), convolutions (oneDNN or cuDNN, as
  /// the target says), linears and matmuls (oneDNN on the cpu).
  bool attentionLibrary = false;
  bool convLibrary = false;
  bool gemmLibrary = false;
  int64_t gemmLibraryMinMacs = 262144;
  /// Tile and vectorize the groups (the cpu); false keeps each group's
  /// ops whole (the cuda pipeline makes kernels of them).
  bool vectorize = true;
};

/// tcc (or already fused tcc) -> linalg on tensors, one loop nest per group.
void buildTCCToLinalgPipeline(OpPassManager &pm,
                              const TCCToLinalgOptions &options);

/// Tensors to memrefs (function boundaries with identity layouts),
/// ownership-based deallocation, and the entry guards that check input
/// sizes before anything runs.
void buildBufferizationPipeline(OpPassManager &pm);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_COMMON_PIPELINE_H
