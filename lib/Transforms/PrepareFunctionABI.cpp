//===- PrepareFunctionABI.cpp - tcc's calling convention --------*- C++ -*-===//
#include "tcc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PREPAREFUNCTIONABIPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {
struct PrepareFunctionABIPass
    : tcc::impl::PrepareFunctionABIPassBase<PrepareFunctionABIPass> {
  using Base::Base;
  void runOnOperation() override {
    Builder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic())
        continue;
      func->setAttr("llvm.emit_c_interface", b.getUnitAttr());
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (isa<TensorType>(func.getArgument(i).getType()))
          func.setArgAttr(i, "bufferization.writable", b.getBoolAttr(false));
    }
  }
};
} // namespace
