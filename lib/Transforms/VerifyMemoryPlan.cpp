//===- VerifyMemoryPlan.cpp - no two live buffers overlap --------*- C++ -*-===//
//
// An independent check of the plan --plan-memory wrote: live ranges are
// recomputed from the IR, every byte range is checked against every other
// one of its region that is live at the same time. See the pass description
// (include/tcc/Transforms/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Transforms/MemoryPlan.h"
#include "tcc/Transforms/Passes.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_VERIFYMEMORYPLANPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

struct Planned {
  Value value;
  Operation *def;
  int64_t region, offset, size, start, end;
  int64_t inPlace = -1;
};

struct VerifyMemoryPlanPass
    : tcc::impl::VerifyMemoryPlanPassBase<VerifyMemoryPlanPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto regions = func->getAttrOfType<ArrayAttr>(kArenaAttr);
    if (!regions || func.isExternal())
      return;
    if (failed(verify(func, regions)))
      signalPassFailure();
  }

  LogicalResult verify(func::FuncOp func, ArrayAttr regions) {
    auto alignAttr = func->getAttrOfType<IntegerAttr>(kArenaAlignmentAttr);
    if (!alignAttr || alignAttr.getInt() <= 0)
      return func.emitError("memory plan: missing or invalid ")
             << kArenaAlignmentAttr;
    int64_t align = alignAttr.getInt();
    FailureOr<SymbolicShapeAnalysis> shapes = SymbolicShapeAnalysis::run(func);
    if (failed(shapes))
      return failure();
    SmallVector<std::string> names(shapes->getNames().begin(),
                                   shapes->getNames().end());
    SmallVector<int64_t> regionSizes;
    SmallVector<AffineExpr> scales;
    for (Attribute r : regions) {
      auto dict = dyn_cast<DictionaryAttr>(r);
      auto size = dict ? dict.getAs<IntegerAttr>("size") : IntegerAttr();
      auto scale = dict ? dict.getAs<StringAttr>("scale") : StringAttr();
      std::string error;
      FailureOr<AffineExpr> expr =
          scale ? parseSymbolicExpr(scale.getValue(), &getContext(), names,
                                    error)
                : FailureOr<AffineExpr>(failure());
      if (!size || failed(expr))
        return func.emitError("memory plan: malformed region ") << r;
      if (size.getInt() < 0 || size.getInt() % align != 0)
        return func.emitError("memory plan: region size ")
               << size.getInt() << " is not a multiple of the alignment "
               << align;
      regionSizes.push_back(size.getInt());
      scales.push_back(*expr);
    }

    Block &block = func.getBody().front();
    BufferLiveness live = computeBufferLiveness(block);
    SmallVector<Planned> planned;
    for (Operation &op : block) {
      if (!op.hasAttr(kBufferAttr))
        continue;
      for (unsigned i = 0; i < op.getNumResults(); ++i) {
        DictionaryAttr plan = getBufferPlan(&op, i);
        if (!plan)
          continue;
        auto region = plan.getAs<IntegerAttr>("region");
        auto offset = plan.getAs<IntegerAttr>("offset");
        auto size = plan.getAs<IntegerAttr>("size");
        if (!region || !offset || !size)
          return op.emitError("memory plan: malformed ") << kBufferAttr;
        Value v = op.getResult(i);
        Planned p{v, &op, region.getInt(), offset.getInt(), size.getInt(),
                  live.ranges.lookup(v).first, live.ranges.lookup(v).second};
        if (auto ip = plan.getAs<IntegerAttr>("in_place"))
          p.inPlace = ip.getInt();
        if (p.region < 0 || p.region >= (int64_t)regionSizes.size())
          return op.emitError("memory plan: result ")
                 << i << " names region " << p.region << " of "
                 << regionSizes.size();
        if (live.escaping.contains(v))
          return op.emitError("memory plan: result ")
                 << i << " is returned but placed in the arena";
        if (p.offset < 0 || p.offset % align != 0)
          return op.emitError("memory plan: offset ")
                 << p.offset << " of result " << i
                 << " is not a multiple of the alignment " << align;
        if (p.size <= 0 || p.offset + p.size > regionSizes[p.region])
          return op.emitError("memory plan: result ")
                 << i << " at [" << p.offset << ", " << p.offset + p.size
                 << ") runs past its region's " << regionSizes[p.region]
                 << " units";
        // The size the plan reserves must be the value's size.
        auto t = dyn_cast<RankedTensorType>(v.getType());
        SmallVector<AffineExpr> dims = shapes->getShape(v);
        if (!t || !t.getElementType().isIntOrFloat() ||
            (int64_t)dims.size() != t.getRank())
          return op.emitError("memory plan: result ")
                 << i << " has no known size";
        AffineExpr bytes = getAffineConstantExpr(
            std::max<int64_t>(1, (t.getElementType().getIntOrFloatBitWidth() + 7) / 8),
            &getContext());
        for (AffineExpr d : dims)
          bytes = bytes * d;
        AffineExpr reserved = scales[p.region] * p.size;
        if (!provablyEqualSizes(bytes, reserved) &&
            simplifyAffineExpr(bytes - reserved, 0, names.size()) !=
                getAffineConstantExpr(0, &getContext()))
          return op.emitError("memory plan: result ")
                 << i << " needs " << printSymbolicExpr(bytes, names)
                 << " bytes but the plan reserves "
                 << printSymbolicExpr(reserved, names);
        planned.push_back(p);
      }
    }

    for (size_t a = 0; a < planned.size(); ++a) {
      for (size_t b = a + 1; b < planned.size(); ++b) {
        const Planned &x = planned[a], &y = planned[b];
        bool sameTime = x.start <= y.end && y.start <= x.end;
        bool sameBytes = x.offset < y.offset + y.size &&
                         y.offset < x.offset + x.size;
        if (x.region != y.region || !sameTime || !sameBytes)
          continue;
        // The later one may take over the earlier one's storage where the
        // earlier one dies.
        const Planned &early = x.start <= y.start ? x : y;
        const Planned &late = x.start <= y.start ? y : x;
        bool inPlace =
            late.inPlace >= 0 &&
            late.inPlace < (int64_t)late.def->getNumOperands() &&
            late.def->getOperand(late.inPlace) == early.value &&
            early.end == late.start && early.offset == late.offset &&
            early.size == late.size && mayWriteInPlace(late.def, late.inPlace);
        if (inPlace)
          continue;
        InFlightDiagnostic diag =
            late.def->emitError("memory plan: this buffer [")
            << late.offset << ", " << late.offset + late.size
            << ") overlaps a buffer live at the same time ["
            << early.offset << ", " << early.offset + early.size
            << ") of region " << late.region << " (ops " << early.start
            << ".." << early.end << " and " << late.start << ".."
            << late.end << ")";
        diag.attachNote(early.def->getLoc()) << "the other buffer";
        return failure();
      }
    }
    return success();
  }
};

} // namespace
