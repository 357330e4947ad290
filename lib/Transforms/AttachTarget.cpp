//===- AttachTarget.cpp - the module's #tcc.target --------------*- C++ -*-===//
//
// The pipelines' first pass: a module that does not say which machine it
// is compiled for gets the target the pipeline's options describe (built
// in include/tcc/Target/Target.h). A target already on the module (the
// tools put the one their flags name) is kept, but it must be of the
// pipeline's kind.
//
//===----------------------------------------------------------------------===//

#include "tcc/Target/Target.h"
#include "tcc/Transforms/Passes.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_ATTACHTARGETPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

struct AttachTargetPass : tcc::impl::AttachTargetPassBase<AttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (auto existing = module->getAttrOfType<TargetAttr>(kTargetAttr)) {
      if (existing.getKind() != kind) {
        module.emitError("tcc-attach-target: the module's #tcc.target is '")
            << existing.getKind() << "', this pipeline compiles for '" << kind
            << "'";
        return signalPassFailure();
      }
      return;
    }
    TargetOptions options;
    options.kind = kind;
    options.mcpu = mcpu;
    options.chip = chip;
    options.ptxFeatures = ptx;
    std::string error;
    FailureOr<TargetAttr> target = buildTarget(&getContext(), options, error);
    if (failed(target)) {
      module.emitError("tcc-attach-target: ") << error;
      return signalPassFailure();
    }
    module->setAttr(kTargetAttr, *target);
  }
};

} // namespace
