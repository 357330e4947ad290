//===- Pipelines.h - tcc's registered pass pipelines ------------*- C++ -*-===//
//
// The pipelines are plain functions so that other compilers can add tcc's
// lowering to their own pass managers; tcc-opt registers them by name:
//   tcc-to-linalg      the shared stages (Codegen/Common/Pipeline.h);
//   tcc-cpu-pipeline   to the LLVM dialect for a CPU (Codegen/CPU);
//   tcc-cuda-pipeline  to host LLVM plus NVVM kernels (Codegen/CUDA).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_PIPELINES_PIPELINES_H
#define TCC_PIPELINES_PIPELINES_H

#include "tcc/Codegen/CPU/Pipeline.h"
#include "tcc/Codegen/CUDA/Pipeline.h"
#include "tcc/Codegen/Common/Pipeline.h"

namespace mlir::tcc {

/// tcc-to-linalg as registered: the shared stages with the cpu pipeline's
/// options (what they do on the CPU).
void buildTCCToLinalgPipeline(OpPassManager &pm,
                              const CPUPipelineOptions &options);

/// Registers tcc-to-linalg, tcc-cpu-pipeline and tcc-cuda-pipeline with
/// the pass registry.
void registerTCCPipelines();

} // namespace mlir::tcc

#endif // TCC_PIPELINES_PIPELINES_H
