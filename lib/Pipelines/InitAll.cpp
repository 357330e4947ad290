//===- InitAll.cpp - register everything tcc provides -----------*- C++ -*-===//
#include "tcc/InitAll.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Conversion/TCCGPUToLLVM/TCCGPUToLLVM.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Dialect/TCCGPU/IR/TCCGPUOps.h"
#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::tcc::registerAllDialects(DialectRegistry &registry) {
  registry.insert<TCCDialect, fusion::FusionDialect,
                  tcc_gpu::TCCGPUDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu.module -> PTX/cubin serialization (the cuda pipeline) translates
  // the kernels' LLVM and NVVM dialects to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  // tcc_gpu ops lower inside gpu-to-llvm, where tokens are streams.
  registerConvertTCCGPUToLLVMInterface(registry);
}

void mlir::tcc::registerAllPasses() {
  registerTCCTransformsPasses();
  registerTCCConversionPasses();
  registerTCCPipelines();
}
