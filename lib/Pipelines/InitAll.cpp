//===- InitAll.cpp - register everything tcc provides -----------*- C++ -*-===//
#include "tcc/InitAll.h"
#include "tcc/Codegen/CPU/Passes.h"
#include "tcc/Codegen/CUDA/Passes.h"
#include "tcc/Codegen/Common/Passes.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Conversion/TCCLibToLLVM/TCCLibToLLVM.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"
#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

using namespace mlir;

void mlir::tcc::registerAllDialects(DialectRegistry &registry) {
  registry.insert<TCCDialect, fusion::FusionDialect,
                  tcc_lib::TCCLibDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu.module -> PTX/cubin serialization (the cuda pipeline) translates
  // the kernels' LLVM and NVVM dialects to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  // tcc_lib ops lower inside gpu-to-llvm, where tokens are streams.
  registerConvertTCCLibToLLVMInterface(registry);
}

/// Registers `alias` as another name of the pass `create` makes, with the
/// same options: the names users know (`--fuse`) next to the tcc- ones.
static void registerPassAlias(StringRef alias,
                              std::function<std::unique_ptr<Pass>()> create) {
  std::string description =
      "Alias of --" + create()->getArgument().str() + " (same options)";
  registerPassPipeline(
      alias, description,
      [create](OpPassManager &pm, StringRef options,
               function_ref<LogicalResult(const Twine &)> errorHandler) {
        std::unique_ptr<Pass> pass = create();
        if (failed(pass->initializeOptions(options, errorHandler)))
          return failure();
        std::optional<StringRef> anchor = pass->getOpName();
        if (anchor && *anchor != pm.getOpAnchorName() &&
            pm.getOpAnchorName() != OpPassManager::getAnyOpAnchorName())
          pm.nest(*anchor).addPass(std::move(pass));
        else
          pm.addPass(std::move(pass));
        return success();
      },
      // --help lists the options under the pass's own name.
      [](function_ref<void(const detail::PassOptions &)>) {});
}

void mlir::tcc::registerAllPasses() {
  registerTCCTransformsPasses();
  registerTCCConversionPasses();
  registerTCCCodegenCommonPasses();
  registerTCCCodegenCPUPasses();
  registerTCCCodegenCUDAPasses();
  registerTCCPipelines();
  registerPassAlias("fuse", [] { return createFusePass(); });
  registerPassAlias("plan-memory", [] { return createPlanMemoryPass(); });
  registerPassAlias("select-layout", [] { return createSelectLayoutPass(); });
  registerPassAlias("verify-memory-plan",
                    [] { return createVerifyMemoryPlanPass(); });
  registerPassAlias("symbolic-shapes",
                    [] { return createSymbolicShapesPass(); });
  registerPassAlias("convert-tcc-to-linalg",
                    [] { return createConvertTCCToLinalgPass(); });
}
