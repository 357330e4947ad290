//===- AttachNVVMTarget.cpp - kernels for the module's chip -----*- C++ -*-===//
//
// Upstream's nvvm-attach-target takes the chip and PTX version as options;
// this pass reads them from the module's #tcc.target instead, so the
// kernels are built for the same chip the cost models weighed.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Passes.h"
#include "tcc/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_ATTACHNVVMTARGETPASS
#include "tcc/Codegen/CUDA/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

struct AttachNVVMTargetPass
    : tcc::impl::AttachNVVMTargetPassBase<AttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetAttr target = lookupTarget(module);
    if (!target.isCUDA()) {
      module.emitError("tcc-attach-nvvm-target: the module's target is '")
          << target.getKind() << "', not cuda";
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    ArrayAttr link =
        libdevice.empty() ? ArrayAttr() : b.getStrArrayAttr({libdevice});
    auto nvvm = NVVM::NVVMTargetAttr::get(
        ctx, /*optLevel=*/2, "nvptx64-nvidia-cuda", target.getArch(),
        target.getFeatures(), /*targetFlags=*/nullptr, link);
    module.walk([&](gpu::GPUModuleOp kernels) {
      SmallVector<Attribute> targets;
      if (ArrayAttr existing = kernels.getTargetsAttr())
        llvm::append_range(targets, existing);
      targets.push_back(nvvm);
      kernels.setTargetsAttr(b.getArrayAttr(targets));
    });
  }
};

} // namespace
