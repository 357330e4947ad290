//===- SymbolicShapes.cpp - the --symbolic-shapes pass ----------*- C++ -*-===//
//
// Runs SymbolicShapeAnalysis on each function and writes its result into the
// IR (see include/tcc/Analysis/SymbolicShapes.h for the rules).
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Transforms/Passes.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_SYMBOLICSHAPESPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {
struct SymbolicShapesPass
    : tcc::impl::SymbolicShapesPassBase<SymbolicShapesPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Only single-block bodies (tcc's functions): branches would need
    // shapes joined across blocks.
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    SmallVector<std::pair<std::string, int64_t>> fixed;
    for (const std::string &item : specialize) {
      std::optional<SizeBinding> size = parseSizeBinding(item);
      if (!size) {
        func.emitError() << "specialize: expected NAME=VALUE with a "
                            "non-negative integer, got '"
                         << item << "'";
        return signalPassFailure();
      }
      fixed.push_back({size->name, size->value});
    }
    FailureOr<SymbolicShapeAnalysis> analysis =
        SymbolicShapeAnalysis::run(func, fixed);
    if (failed(analysis))
      return signalPassFailure();
    analysis->annotate(func);
  }
};
} // namespace
