//===- UseWorkspace.cpp - the arena from the caller's workspace -*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Passes.h"
#include "tcc/Transforms/MemoryPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_USEWORKSPACEPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kWorkspaceFn = "tcc_workspace";

struct UseWorkspacePass : tcc::impl::UseWorkspacePassBase<UseWorkspacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::AllocOp> arenas;
    module.walk([&](memref::AllocOp a) {
      if (a->hasAttr(tcc::kArenaAllocAttr) && a.getType().getRank() == 1)
        arenas.push_back(a);
    });
    if (arenas.empty())
      return;
    MLIRContext *ctx = &getContext();
    auto bufType = MemRefType::get({ShapedType::kDynamic},
                                   IntegerType::get(ctx, 8));
    auto fnType = FunctionType::get(ctx, {IndexType::get(ctx)}, {bufType});
    auto decl = module.lookupSymbol<func::FuncOp>(kWorkspaceFn);
    if (!decl) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      decl = func::FuncOp::create(b, module.getLoc(), kWorkspaceFn, fnType);
      decl.setPrivate();
      decl->setAttr("llvm.emit_c_interface", b.getUnitAttr());
    } else if (decl.getFunctionType() != fnType) {
      decl.emitError("tcc-use-workspace: @")
          << kWorkspaceFn << " exists with another type";
      return signalPassFailure();
    }
    for (memref::AllocOp a : arenas) {
      OpBuilder b(a);
      Value bytes = a.getDynamicSizes().empty()
                        ? arith::ConstantIndexOp::create(
                              b, a.getLoc(), a.getType().getNumElements())
                              .getResult()
                        : a.getDynamicSizes()[0];
      auto call = func::CallOp::create(b, a.getLoc(), decl, ValueRange{bytes});
      Value buffer = call.getResult(0);
      // The workspace outlives the call: no free.
      for (Operation *user : llvm::make_early_inc_range(a->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      // The arena's users (views) take any i8 buffer.
      for (OpOperand &use : llvm::make_early_inc_range(a->getUses()))
        use.set(buffer);
      a->erase();
    }
  }
};

} // namespace
