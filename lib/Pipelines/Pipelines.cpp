//===- Pipelines.cpp - tcc's registered pass pipelines ----------*- C++ -*-===//
//
// The builders live with their stages (lib/Codegen/{Common,CPU,CUDA}/
// Pipeline.cpp); this file gives them their names.
//
//===----------------------------------------------------------------------===//

#include "tcc/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::tcc;

void mlir::tcc::buildTCCToLinalgPipeline(OpPassManager &pm,
                                         const CPUPipelineOptions &options) {
  buildTCCToLinalgPipeline(pm, options.toLinalgOptions());
}

void mlir::tcc::registerTCCPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "tcc-to-linalg",
      "Fuse, plan memory and lower tcc to linalg on tensors (one loop nest "
      "per fusion group)",
      [](OpPassManager &pm, const CPUPipelineOptions &options) {
        buildTCCToLinalgPipeline(pm, options);
      });
  PassPipelineRegistration<CPUPipelineOptions>(
      "tcc-cpu-pipeline", "Lower tcc to the LLVM dialect for the host CPU",
      buildCPUPipeline);
  PassPipelineRegistration<CUDAPipelineOptions>(
      "tcc-cuda-pipeline",
      "Lower tcc to host LLVM dialect plus NVVM kernels (PTX or cubin) for "
      "NVIDIA GPUs",
      buildCUDAPipeline);
}
