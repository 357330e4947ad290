//===- my-opt.cpp - a compiler that embeds tcc's passes -------------------===//
//
// Another compiler's driver: it registers tcc's dialects and passes next
// to its own, and its own pipeline calls tcc's pipeline builders
// (tcc/Pipelines/Pipelines.h) after a pass of its own.
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/InitAll.h"
#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

namespace {
/// This project's own pass: reports how many fusion groups (kernels) tcc's
/// fuse pass formed, as a remark on each function.
struct CountGroupsPass
    : PassWrapper<CountGroupsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountGroupsPass)
  StringRef getArgument() const override { return "my-count-groups"; }
  StringRef getDescription() const override {
    return "Remarks the number of tcc fusion groups per function";
  }
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      unsigned groups = 0;
      func.walk([&](tcc::fusion::GroupOp) { ++groups; });
      func.emitRemark() << "my-count-groups: " << groups
                        << " fusion groups";
    });
  }
};

struct MyPipelineOptions : PassPipelineOptions<MyPipelineOptions> {
  Option<bool> lowerToLLVM{*this, "llvm",
                           llvm::cl::desc("Lower all the way to LLVM"),
                           llvm::cl::init(false)};
};
} // namespace

int main(int argc, char **argv) {
  DialectRegistry registry;
  tcc::registerAllDialects(registry);
  registerAllPasses();
  tcc::registerAllPasses();
  PassRegistration<CountGroupsPass>();

  // tcc's fusion pass, this project's pass, then tcc's lowering (which
  // keeps the groups formed).
  PassPipelineRegistration<MyPipelineOptions>(
      "my-pipeline", "tcc fusion, my-count-groups, then tcc's lowering",
      [](OpPassManager &pm, const MyPipelineOptions &options) {
        pm.addPass(tcc::createFusePass());
        pm.addPass(std::make_unique<CountGroupsPass>());
        tcc::CPUPipelineOptions tccOptions;
        if (options.lowerToLLVM)
          tcc::buildCPUPipeline(pm, tccOptions);
        else
          tcc::buildTCCToLinalgPipeline(pm, tccOptions);
      });
  return asMainReturnCode(
      MlirOptMain(argc, argv, "my-opt: a compiler embedding tcc\n", registry));
}
