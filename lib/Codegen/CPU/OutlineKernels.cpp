//===- OutlineKernels.cpp - loop nests as functions, deduplicated -*- C++ -*-===//
//
// See the pass description (include/tcc/Codegen/CPU/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Passes.h"
#include "tcc/Transforms/FunctionEquivalence.h"

#include "ViewRoot.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// Operations in `op`, itself included.
int64_t countOps(Operation *op) {
  int64_t n = 0;
  op->walk([&](Operation *) { ++n; });
  return n;
}

/// Whether `op` holds an operation `pred` accepts.
template <typename Pred>
bool holds(Operation *op, Pred pred) {
  return op
      ->walk([&](Operation *inner) {
        return pred(inner) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// A group's tiles: a nest with vector code, a copy or a parallel tile
/// loop (not the scalar loops of bufferization's deallocation helper,
/// whose inlining lets LLVM drop the small allocations it reads). A
/// parallel one is outlined whatever its size: it becomes an OpenMP
/// region, a function of its own to LLVM anyway. So is a relayout: its
/// few ops (a loop of memref.copy) grow into a thousand instructions of
/// vector moves, once per block of a transformer unless the copies are
/// merged.
bool outlinedNest(Operation *op, int64_t minOps) {
  if (holds(op, [](Operation *inner) {
        return inner->hasAttr(tcc::kParallelLoopAttr) ||
               isa<memref::CopyOp>(inner);
      }))
    return true;
  return countOps(op) >= minOps && holds(op, [](Operation *inner) {
           return isa<vector::VectorDialect>(inner->getDialect());
         });
}

/// A constant the kernel can make itself (cloned in rather than passed,
/// so that the kernels of two blocks compare equal).
bool clonedIn(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>() &&
         def->getNumOperands() == 0 && def->getNumRegions() == 0;
}

struct OutlineKernelsPass
    : tcc::impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> outlined;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      SmallVector<Operation *> nests;
      for (Block &block : func.getBody())
        for (Operation &op : block)
          if (isa<scf::ForOp, scf::ParallelOp, scf::ForallOp>(op) &&
              outlinedNest(&op, minOps))
            nests.push_back(&op);
      // The kernels follow their function, in the order of their nests.
      Operation *after = func;
      for (Operation *nest : nests) {
        outlined.push_back(outline(nest, func, after, symbols));
        after = outlined.back();
      }
    }
    if (dedup)
      deduplicate(module, outlined);
  }

  /// `nest` (in `parent`) as a call of a new private function, placed
  /// after `after`.
  func::FuncOp outline(Operation *nest, func::FuncOp parent, Operation *after,
                       SymbolTable &symbols) {
    // What the nest reads from outside, in the order of first use: the
    // same nest elsewhere gets the same signature.
    llvm::SetVector<Value> captured;
    nest->walk<WalkOrder::PreOrder>([&](Operation *op) {
      for (Value v : op->getOperands()) {
        if (!nest->isAncestor(v.getParentRegion()->getParentOp()))
          captured.insert(v);
      }
    });
    SmallVector<Value> args;
    SmallVector<Type> argTypes;
    for (Value v : captured)
      if (!clonedIn(v)) {
        args.push_back(v);
        argTypes.push_back(v.getType());
      }

    OpBuilder b(parent->getContext());
    b.setInsertionPointAfter(after);
    Location loc = nest->getLoc();
    auto type = b.getFunctionType(argTypes, nest->getResultTypes());
    auto func = func::FuncOp::create(b, loc,
                                     (parent.getName() + "_kernel").str(), type);
    func.setPrivate();
    // Each kernel stays a function of its own in LLVM (see the pass
    // description); passthrough becomes the LLVM function attribute.
    func->setAttr("passthrough", b.getStrArrayAttr({"noinline"}));
    symbols.insert(func); // unique name: @main_kernel, @main_kernel_0, ...

    // A buffer passed as it was allocated, that no other argument views,
    // stays an allocation to the kernel's passes (streaming stores need its
    // alignment, pipelined row stores that it aliases no input).
    for (auto [i, v] : llvm::enumerate(args)) {
      auto alloc = v.getDefiningOp<memref::AllocOp>();
      if (!alloc || llvm::any_of(args, [&](Value w) {
            return w != v && tcc::viewRoot(w) == v;
          }))
        continue;
      func.setArgAttr(i, tcc::kAllocationArgAttr,
                      b.getI64IntegerAttr(alloc.getAlignment().value_or(0)));
    }

    Block *entry = func.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping map;
    unsigned next = 0;
    for (Value v : captured)
      map.map(v, clonedIn(v) ? b.clone(*v.getDefiningOp())->getResult(
                                   cast<OpResult>(v).getResultNumber())
                             : Value(entry->getArgument(next++)));
    Operation *copy = b.clone(*nest, map);
    func::ReturnOp::create(b, loc, copy->getResults());

    b.setInsertionPoint(nest);
    auto call = func::CallOp::create(b, loc, func, args);
    nest->replaceAllUsesWith(call.getResults());
    nest->erase();
    return func;
  }

  /// Keeps one function of each set of equivalent ones; the calls of the
  /// others call it.
  void deduplicate(ModuleOp module, ArrayRef<func::FuncOp> functions) {
    tcc::EquivalentFunctions kept;
    DenseMap<StringAttr, FlatSymbolRefAttr> renamed;
    for (func::FuncOp fn : functions)
      if (FunctionOpInterface same = kept.findOrKeep(fn))
        renamed[fn.getSymNameAttr()] = FlatSymbolRefAttr::get(same);
    if (renamed.empty())
      return;
    module.walk([&](func::CallOp call) {
      auto to = renamed.find(call.getCalleeAttr().getAttr());
      if (to != renamed.end())
        call.setCalleeAttr(to->second);
    });
    for (func::FuncOp fn : functions)
      if (renamed.contains(fn.getSymNameAttr()))
        fn.erase();
  }
};

} // namespace
