//===- MaterializeMemoryPlan.cpp - planned buffers into one arena -*- C++ -*-===//
//
// Runs on linalg-on-tensors, before bufferization. The destination
// (tensor.empty) of every planned result becomes a restrict/writable
// to_tensor of a memref.view into one arena allocated at function entry, so
// one-shot bufferization writes the result there. The arena is freed by the
// buffer deallocation pipeline like any other allocation.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Common/Passes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Transforms/MemoryPlan.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_MATERIALIZEMEMORYPLANPASS
#include "tcc/Codegen/Common/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// The use of a tensor.empty that ends the destination chain of `v`.
OpOperand *findDestinationEmpty(Value v) {
  OpOperand *use = nullptr;
  while (Operation *def = v.getDefiningOp()) {
    if (isa<tensor::EmptyOp>(def))
      return use;
    auto result = cast<OpResult>(v);
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
      use = dps.getTiedOpOperand(result);
    } else if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      use = &forOp.getInitArgsMutable()[result.getResultNumber()];
    } else if (auto forall = dyn_cast<scf::ForallOp>(def)) {
      use = &forall.getOutputsMutable()[result.getResultNumber()];
    } else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
      // Same bytes, other shape (keep_dims reductions end this way).
      use = &def->getOpOperand(0);
    } else {
      return nullptr;
    }
    if (!use)
      return nullptr;
    v = use->get();
  }
  return nullptr;
}

struct MaterializeMemoryPlanPass
    : tcc::impl::MaterializeMemoryPlanPassBase<MaterializeMemoryPlanPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto regions = func->getAttrOfType<ArrayAttr>(kArenaAttr);
    auto symbols = func->getAttrOfType<DictionaryAttr>(kSymbolsAttr);
    if (!regions || !symbols || func.isExternal())
      return;
    SmallVector<std::tuple<Operation *, unsigned, DictionaryAttr>> planned;
    func.walk([&](Operation *op) {
      if (!op->hasAttr(kBufferAttr))
        return;
      for (unsigned i = 0; i < op->getNumResults(); ++i)
        if (DictionaryAttr plan = getBufferPlan(op, i))
          planned.push_back({op, i, plan});
      op->removeAttr(kBufferAttr);
    });
    int64_t alignment = 64;
    if (auto a = func->getAttrOfType<IntegerAttr>(kArenaAlignmentAttr))
      alignment = std::max<int64_t>(alignment, a.getInt());
    for (StringRef name :
         {kArenaAttr, kSymbolsAttr, kNaiveSizeAttr, kArenaAlignmentAttr})
      func->removeAttr(name);
    if (planned.empty())
      return;

    Location loc = func.getLoc();
    OpBuilder b(&func.getBody().front(), func.getBody().front().begin());
    // Symbol values, region scales and bases.
    SmallVector<std::string> names;
    SmallVector<Value> symValues;
    for (NamedAttribute sym : symbols) {
      auto argDim = dyn_cast<DenseI64ArrayAttr>(sym.getValue());
      if (!argDim || argDim.size() != 2 ||
          argDim[0] >= (int64_t)func.getNumArguments()) {
        func.emitError("malformed ") << kSymbolsAttr << " entry " << sym.getName();
        return signalPassFailure();
      }
      names.push_back(sym.getName().str());
      symValues.push_back(tensor::DimOp::create(
          b, loc, func.getArgument(argDim[0]), argDim[1]));
    }
    SmallVector<Value> scales, bases;
    Value total = arith::ConstantIndexOp::create(b, loc, 0);
    // The total when every scale is a constant (no size symbols).
    std::optional<int64_t> staticTotal = 0;
    for (Attribute r : regions) {
      auto region = cast<DictionaryAttr>(r);
      auto text = region.getAs<StringAttr>("scale");
      std::string error;
      size_t known = names.size();
      FailureOr<AffineExpr> expr =
          text ? parseSymbolicExpr(text.getValue(), &getContext(), names, error)
               : FailureOr<AffineExpr>(failure());
      if (failed(expr) || names.size() != known) {
        func.emitError("memory plan region scale ")
            << text << (error.empty() ? " uses an undefined symbol" : ": " + error);
        return signalPassFailure();
      }
      int64_t regionSize = region.getAs<IntegerAttr>("size").getInt();
      if (auto c = dyn_cast<AffineConstantExpr>(*expr); c && staticTotal)
        *staticTotal += c.getValue() * regionSize;
      else
        staticTotal = std::nullopt;
      Value scale = affine::AffineApplyOp::create(
          b, loc, AffineMap::get(0, names.size(), *expr), symValues);
      scales.push_back(scale);
      bases.push_back(total);
      Value size = arith::MulIOp::create(
          b, loc, scale,
          arith::ConstantIndexOp::create(
              b, loc, region.getAs<IntegerAttr>("size").getInt()));
      total = arith::AddIOp::create(b, loc, total, size);
    }
    // A static arena is allocated static: the canonicalizer would rewrite a
    // dynamic alloc of a constant size and drop its marker.
    if (!staticTotal) {
      // Sizes read from static dims (a specialized compile) fold later.
      FailureOr<int64_t> known = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::EQ, ValueBoundsConstraintSet::Variable(total));
      if (succeeded(known))
        staticTotal = *known;
    }
    auto arenaType = MemRefType::get(
        {staticTotal ? *staticTotal : ShapedType::kDynamic}, b.getI8Type());
    auto arenaAlloc = memref::AllocOp::create(
        b, loc, arenaType,
        staticTotal ? ValueRange{} : ValueRange{total},
        b.getI64IntegerAttr(alignment));
    // tcc-place-scratch-buffers appends the groups' own large temporaries,
    // tcc-use-workspace takes it from the caller.
    arenaAlloc->setAttr(kArenaAllocAttr, b.getUnitAttr());
    Value arena = arenaAlloc;

    for (auto [op, resultIndex, plan] : planned) {
      int64_t region = plan.getAs<IntegerAttr>("region").getInt();
      if (region < 0 || region >= (int64_t)scales.size()) {
        op->emitError("memory plan names region ") << region << " of "
                                                   << scales.size();
        return signalPassFailure();
      }
      auto offsetAt = [&, plan = plan](OpBuilder &vb, Location vloc) {
        return arith::AddIOp::create(
            vb, vloc, bases[region],
            arith::MulIOp::create(
                vb, vloc, scales[region],
                arith::ConstantIndexOp::create(
                    vb, vloc, plan.getAs<IntegerAttr>("offset").getInt())));
      };
      // A library call's result (tcc-conv-to-library): the buffer it
      // writes becomes the planned view.
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (!alloc.getType().getLayout().isIdentity())
          continue;
        OpBuilder vb(alloc);
        Value view = memref::ViewOp::create(
            vb, alloc.getLoc(), alloc.getType(), arena,
            offsetAt(vb, alloc.getLoc()), alloc.getDynamicSizes());
        alloc.replaceAllUsesWith(view);
        alloc.erase();
        continue;
      }
      OpOperand *use = findDestinationEmpty(op->getResult(resultIndex));
      if (!use)
        continue; // Not destination-passing: keeps its own allocation.
      auto empty = use->get().getDefiningOp<tensor::EmptyOp>();
      auto type = cast<RankedTensorType>(empty.getType());
      OpBuilder vb(empty);
      Location vloc = empty.getLoc();
      Value offset = offsetAt(vb, vloc);
      auto viewType = MemRefType::get(type.getShape(), type.getElementType());
      Value view = memref::ViewOp::create(vb, vloc, viewType, arena, offset,
                                          empty.getDynamicSizes());
      Value tensor = bufferization::ToTensorOp::create(
          vb, vloc, type, view, /*restrict=*/true, /*writable=*/true);
      use->set(tensor);
      if (empty->use_empty())
        empty->erase();
    }
  }
};

} // namespace
