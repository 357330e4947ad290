//===- PlanMemory.cpp - Arena planning for intermediate buffers -*- C++ -*-===//
//
// Intermediate buffers get offsets in one arena so that buffers whose live
// ranges do not overlap share memory. Sizes are expressions of the size
// symbols (SymbolicShapeAnalysis): buffers whose sizes are a constant times
// the same expression (B * S, or B * ((H - 1) floordiv 2 + 1) ** 2) are
// planned together in units of that expression, so one plan holds for every
// size.
// Reshapes and slices alias their operand (they bufferize to views), so they
// get no buffer of their own but extend their operand's live range.
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Transforms/MemoryPlan.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace mlir::tcc {
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

struct Buffer {
  Operation *def;
  int64_t start, end; // live range in top-level op indices (inclusive)
  int64_t size;       // bytes, in units of the region's scale
  AffineExpr scale;   // the symbolic factor of the size (1 when static)
  int64_t offset = -1;
};

/// Splits a size expression into constant * scale, the scale without a
/// constant factor (B * S * 768 -> 768, B * S).
std::pair<int64_t, AffineExpr> splitConstantFactor(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {c.getValue(), getAffineConstantExpr(1, e.getContext())};
  if (e.getKind() == AffineExprKind::Mul) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    auto [lc, ls] = splitConstantFactor(bin.getLHS());
    auto [rc, rs] = splitConstantFactor(bin.getRHS());
    return {lc * rc, ls * rs};
  }
  return {1, e};
}

int64_t alignTo(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

int64_t elementBytes(Type t) {
  return std::max<int64_t>(1, (t.getIntOrFloatBitWidth() + 7) / 8);
}

/// Greedy by size: largest first, each at the lowest aligned offset free of
/// every already placed buffer whose live range overlaps. Returns the peak.
int64_t placeGreedyBySize(MutableArrayRef<Buffer *> buffers, int64_t align) {
  SmallVector<Buffer *> order(buffers.begin(), buffers.end());
  llvm::stable_sort(order, [](Buffer *a, Buffer *b) { return a->size > b->size; });
  SmallVector<Buffer *> placed;
  int64_t peak = 0;
  for (Buffer *b : order) {
    SmallVector<std::pair<int64_t, int64_t>> busy;
    for (Buffer *p : placed)
      if (p->start <= b->end && b->start <= p->end)
        busy.push_back({p->offset, p->offset + p->size});
    llvm::sort(busy);
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + b->size <= lo)
        break;
      offset = std::max(offset, alignTo(hi, align));
    }
    b->offset = offset;
    peak = std::max(peak, offset + b->size);
    placed.push_back(b);
  }
  return peak;
}

struct PlanMemoryPass : tcc::impl::PlanMemoryPassBase<PlanMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func.getBody().hasOneBlock())
      return;
    if (alignment <= 0 || (alignment & (alignment - 1))) {
      emitError(func.getLoc(),
                "plan-memory: alignment must be a positive power of two, got ")
          << static_cast<int64_t>(alignment);
      return signalPassFailure();
    }
    Block &block = func.getBody().front();
    DenseMap<Operation *, int64_t> index;
    int64_t i = 0;
    for (Operation &op : block)
      index[&op] = i++;

    // The buffer a value lives in: views alias their operand.
    auto bufferOf = [&](Value v) -> Value {
      while (Operation *def = v.getDefiningOp()) {
        if (!isa<ReshapeOp, SliceOp>(def))
          break;
        v = def->getOperand(0);
      }
      return v;
    };

    // Sizes are expressions of the function's size symbols; a buffer whose
    // size needs a symbol the entry cannot read from an argument dim (a
    // data-dependent size) keeps its own allocation.
    FailureOr<SymbolicShapeAnalysis> shapes = SymbolicShapeAnalysis::run(func);
    if (failed(shapes))
      return signalPassFailure();
    ArrayRef<std::string> names = shapes->getNames();
    llvm::MapVector<Value, Buffer> buffers;
    DenseSet<Value> escaping;
    for (Operation &op : block) {
      // Every use extends the live range of the buffer behind the value.
      for (Value operand : op.getOperands()) {
        Value buf = bufferOf(operand);
        auto it = buffers.find(buf);
        if (it != buffers.end())
          it->second.end = std::max(it->second.end, index[&op]);
      }
      if (isa<func::ReturnOp>(op))
        for (Value v : op.getOperands())
          escaping.insert(bufferOf(v));
      // Data-dependent results live in the bound-sized buffer their lowering
      // allocates, even when a static type promises the count: no offset.
      if (isa<MaskSelectOp, NonzeroOp>(op))
        continue;
      if (op.getNumResults() != 1 || isa<ReshapeOp, SliceOp>(op) ||
          isa<func::ReturnOp>(op) ||
          op.hasTrait<OpTrait::ConstantLike>())
        continue;
      Value r = op.getResult(0);
      auto t = dyn_cast<RankedTensorType>(r.getType());
      if (!t || !t.getElementType().isIntOrFloat())
        continue;
      AffineExpr bytes =
          getAffineConstantExpr(elementBytes(t.getElementType()), &getContext());
      SmallVector<AffineExpr> dims = shapes->getShape(r);
      if ((int64_t)dims.size() != t.getRank())
        continue;
      for (AffineExpr d : dims)
        bytes = bytes * d;
      bool plannable = true;
      bytes.walk([&](AffineExpr e) {
        if (auto sym = dyn_cast<AffineSymbolExpr>(e))
          plannable &= shapes->getSymbol(sym.getPosition()).fromInputs;
      });
      if (!plannable)
        continue;
      auto [size, scale] = splitConstantFactor(bytes);
      buffers.insert({r, Buffer{&op, index[&op], index[&op], size, scale}});
    }
    // Which argument dim each symbol is read from.
    DenseMap<unsigned, std::pair<unsigned, int64_t>> definitions;
    for (BlockArgument arg : func.getArguments()) {
      SmallVector<AffineExpr> dims = shapes->getShape(arg);
      for (auto [d, e] : llvm::enumerate(dims))
        if (auto sym = dyn_cast<AffineSymbolExpr>(e))
          definitions.try_emplace(sym.getPosition(), arg.getArgNumber(), d);
    }

    // Group by scale and plan each region (static sizes first).
    llvm::MapVector<AffineExpr, SmallVector<Buffer *>> regions;
    regions[getAffineConstantExpr(1, &getContext())];
    int64_t numPlanned = 0;
    for (auto &[v, b] : buffers) {
      if (escaping.contains(v))
        continue;
      regions[b.scale].push_back(&b);
      ++numPlanned;
    }
    MLIRContext *ctx = &getContext();
    Builder builder(ctx);
    SmallVector<Attribute> regionAttrs;
    std::set<unsigned> usedSymbols;
    int64_t regionIndex = 0, naiveStatic = 0;
    for (auto &[scale, bufs] : regions) {
      if (bufs.empty())
        continue;
      int64_t peak = placeGreedyBySize(bufs, alignment);
      int64_t naive = 0;
      for (Buffer *b : bufs) {
        naive += alignTo(b->size, alignment);
        b->def->setAttr(
            kBufferAttr,
            builder.getDictionaryAttr(
                {builder.getNamedAttr("region",
                                      builder.getI64IntegerAttr(regionIndex)),
                 builder.getNamedAttr("offset",
                                      builder.getI64IntegerAttr(b->offset)),
                 builder.getNamedAttr("size",
                                      builder.getI64IntegerAttr(b->size))}));
      }
      if (isa<AffineConstantExpr>(scale))
        naiveStatic = naive;
      scale.walk([&](AffineExpr e) {
        if (auto sym = dyn_cast<AffineSymbolExpr>(e))
          usedSymbols.insert(sym.getPosition());
      });
      regionAttrs.push_back(builder.getDictionaryAttr(
          {builder.getNamedAttr("size", builder.getI64IntegerAttr(
                                            alignTo(peak, alignment))),
           builder.getNamedAttr("naive", builder.getI64IntegerAttr(naive)),
           builder.getNamedAttr("scale", builder.getStringAttr(printSymbolicExpr(
                                             scale, names)))}));
      ++regionIndex;
    }
    SmallVector<NamedAttribute> symAttrs;
    for (unsigned s : usedSymbols) {
      auto [arg, dim] = definitions.lookup(s);
      symAttrs.push_back(builder.getNamedAttr(
          names[s], builder.getDenseI64ArrayAttr({(int64_t)arg, dim})));
    }
    if (report) {
      llvm::errs() << "plan-memory: @" << func.getName() << ": "
                   << numPlanned << " intermediate buffers, arena";
      auto term = [&](DictionaryAttr d, StringRef key) {
        std::string s =
            std::to_string(d.getAs<IntegerAttr>(key).getInt()) + " B";
        StringRef scale = d.getAs<StringAttr>("scale").getValue();
        if (scale != "1")
          s += " x " + (scale.contains(' ') ? "(" + scale.str() + ")"
                                            : scale.str());
        return s;
      };
      for (StringRef key : {"size", "naive"}) {
        if (key == "naive")
          llvm::errs() << " (without reuse:";
        int64_t k = 0;
        for (Attribute r : regionAttrs)
          llvm::errs() << (k++ ? " + " : " ")
                       << term(cast<DictionaryAttr>(r), key);
        if (regionAttrs.empty())
          llvm::errs() << " 0 B";
      }
      llvm::errs() << ")";
      for (unsigned s : usedSymbols) {
        auto [arg, dim] = definitions.lookup(s);
        llvm::errs() << "; " << names[s] << " = arg" << arg << " dim " << dim;
      }
      llvm::errs() << "\n";
    }
    func->setAttr(kSymbolsAttr, builder.getDictionaryAttr(symAttrs));
    func->setAttr(kArenaAttr, builder.getArrayAttr(regionAttrs));
    func->setAttr(kNaiveSizeAttr, builder.getI64IntegerAttr(naiveStatic));
  }
};

} // namespace
