//===- DeduplicateKernels.cpp - merge identical outlined kernels -*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Passes.h"
#include "tcc/Transforms/FunctionEquivalence.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_DEDUPLICATEKERNELSPASS
#include "tcc/Codegen/CUDA/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

struct DeduplicateKernelsPass
    : tcc::impl::DeduplicateKernelsPassBase<DeduplicateKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Per gpu.module: duplicate kernel name -> the kernel kept.
    DenseMap<StringAttr, DenseMap<StringAttr, StringAttr>> replaced;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      tcc::EquivalentFunctions kept;
      auto &renames = replaced[gpuModule.getNameAttr()];
      for (auto kernel :
           llvm::make_early_inc_range(gpuModule.getOps<gpu::GPUFuncOp>())) {
        if (!kernel.isKernel())
          continue;
        if (FunctionOpInterface same = kept.findOrKeep(kernel)) {
          renames[kernel.getNameAttr()] = same.getNameAttr();
          kernel.erase();
        }
      }
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto inModule = replaced.find(launch.getKernelModuleName());
      if (inModule == replaced.end())
        return;
      auto to = inModule->second.find(launch.getKernelName());
      if (to == inModule->second.end())
        return;
      launch.setKernelAttr(SymbolRefAttr::get(
          launch.getKernelModuleName(), {FlatSymbolRefAttr::get(to->second)}));
    });
  }
};

} // namespace
