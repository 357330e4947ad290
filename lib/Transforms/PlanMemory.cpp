//===- PlanMemory.cpp - Arena planning for intermediate buffers -*- C++ -*-===//
//
// Intermediate buffers get offsets in one arena so that buffers whose live
// ranges do not overlap share memory. Sizes with dynamic dims are handled by
// tracking which function-argument dim each dynamic dim equals: buffers whose
// sizes are the same product of such dims, times a constant, are planned
// together in units of that product, so one plan holds for every size.
// Reshapes and slices alias their operand (they bufferize to views), so they
// get no buffer of their own but extend their operand's live range.
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Transforms/MemoryPlan.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace mlir::tcc {
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// Symbol ids for dynamic dims: ids below the number of argument symbols are
/// argument dims; others are unknown (fresh) sizes.
class DimSymbols {
public:
  explicit DimSymbols(func::FuncOp func) {
    for (BlockArgument arg : func.getArguments()) {
      auto t = dyn_cast<RankedTensorType>(arg.getType());
      if (!t)
        continue;
      for (int64_t d = 0; d < t.getRank(); ++d)
        if (t.isDynamicDim(d)) {
          argDims.push_back({arg.getArgNumber(), d});
          syms[{arg, d}] = nextId++;
        }
    }
    numArgSymbols = nextId;
    for (Operation &op : func.getBody().front())
      visit(&op);
  }

  /// Symbol of dynamic dim `d` of `v` (fresh if never derived).
  int64_t get(Value v, int64_t d) {
    auto [it, inserted] = syms.try_emplace({v, d}, nextId);
    if (inserted)
      ++nextId;
    return it->second;
  }
  bool isArgSymbol(int64_t id) const { return id < numArgSymbols; }

  SmallVector<std::pair<unsigned, int64_t>> argDims;

private:
  void copy(Value to, int64_t td, Value from, int64_t fd) {
    auto ft = cast<RankedTensorType>(from.getType());
    if (ft.isDynamicDim(fd)) {
      int64_t id = get(from, fd);
      syms[{to, td}] = id;
    }
  }

  /// Derives the symbols of `op`'s dynamic result dims from its operands.
  void visit(Operation *op) {
    if (auto group = dyn_cast<fusion::GroupOp>(op)) {
      Block &body = group.getBodyBlock();
      for (auto [arg, in] : llvm::zip(body.getArguments(), group.getInputs()))
        if (auto t = dyn_cast<RankedTensorType>(arg.getType()))
          for (int64_t d = 0; d < t.getRank(); ++d)
            copy(arg, d, in, d);
      for (Operation &inner : body.without_terminator())
        visit(&inner);
      auto yield = cast<fusion::YieldOp>(body.getTerminator());
      for (auto [res, v] : llvm::zip(group.getResults(), yield.getValues()))
        if (auto t = dyn_cast<RankedTensorType>(res.getType()))
          for (int64_t d = 0; d < t.getRank(); ++d)
            if (t.isDynamicDim(d))
              copy(res, d, v, d);
      return;
    }
    if (op->getNumResults() != 1)
      return;
    Value r = op->getResult(0);
    auto rt = dyn_cast<RankedTensorType>(r.getType());
    if (!rt || rt.hasStaticShape())
      return;
    int64_t rank = rt.getRank();
    auto rankOf = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getRank();
    };
    // Aligned-from-the-right operands (broadcasting and same-shape ops).
    auto alignedFrom = [&](ValueRange operands) {
      for (int64_t d = 0; d < rank; ++d)
        for (Value v : operands) {
          int64_t od = d - (rank - rankOf(v));
          if (od >= 0 && cast<RankedTensorType>(v.getType()).isDynamicDim(od)) {
            copy(r, d, v, od);
            break;
          }
        }
    };
    if (isa<AddOp, SubOp, MulOp, DivOp, MaximumOp, MinimumOp, PowOp, CmpOp,
            SelectOp>(op)) {
      alignedFrom(op->getOperands());
    } else if (isa<BroadcastToOp>(op)) {
      if (op->getNumOperands() == 1)
        alignedFrom(op->getOperand(0));
    } else if (isa<NegOp, ExpOp, LogOp, SqrtOp, RsqrtOp, AbsOp, TanhOp,
                   SigmoidOp, ReluOp, SiluOp, ErfOp, GeluOp, CastOp, SoftmaxOp,
                   LogSoftmaxOp, LayerNormOp, RmsNormOp, BatchNormOp>(op)) {
      alignedFrom(op->getOperand(0));
    } else if (auto red = dyn_cast<ReduceSumOp>(op)) {
      reduceDims(r, red.getX(), red.getAxes(), red.getKeepDims());
    } else if (auto red = dyn_cast<ReduceMeanOp>(op)) {
      reduceDims(r, red.getX(), red.getAxes(), red.getKeepDims());
    } else if (auto red = dyn_cast<ReduceMaxOp>(op)) {
      reduceDims(r, red.getX(), red.getAxes(), red.getKeepDims());
    } else if (auto red = dyn_cast<ReduceMinOp>(op)) {
      reduceDims(r, red.getX(), red.getAxes(), red.getKeepDims());
    } else if (auto lin = dyn_cast<LinearOp>(op)) {
      for (int64_t d = 0; d + 1 < rank; ++d)
        copy(r, d, lin.getX(), d);
      copy(r, rank - 1, lin.getWeight(), 0);
    } else if (auto mm = dyn_cast<MatmulOp>(op)) {
      SmallVector<Value> both = {mm.getA(), mm.getB()};
      for (int64_t d = 0; d + 2 < rank; ++d)
        for (Value v : both) {
          int64_t od = d - (rank - rankOf(v));
          if (od >= 0 && cast<RankedTensorType>(v.getType()).isDynamicDim(od)) {
            copy(r, d, v, od);
            break;
          }
        }
      copy(r, rank - 2, mm.getA(), rankOf(mm.getA()) - 2);
      copy(r, rank - 1, mm.getB(), rankOf(mm.getB()) - 1);
    } else if (auto conv = dyn_cast<Conv2dOp>(op)) {
      copy(r, 0, conv.getX(), 0);
      copy(r, 1, conv.getWeight(), 0);
    } else if (isa<MaxPool2dOp, AvgPool2dOp>(op)) {
      copy(r, 0, op->getOperand(0), 0);
      copy(r, 1, op->getOperand(0), 1);
    } else if (auto att = dyn_cast<AttentionOp>(op)) {
      for (int64_t d = 0; d + 1 < rank; ++d)
        copy(r, d, att.getQ(), d);
      copy(r, rank - 1, att.getV(), rank - 1);
    } else if (auto tr = dyn_cast<TransposeOp>(op)) {
      for (auto [d, p] : llvm::enumerate(tr.getPermutation()))
        copy(r, d, tr.getX(), p);
    } else if (auto re = dyn_cast<ReshapeOp>(op)) {
      // One dynamic dim on each side and equal static parts: same size.
      auto in = re.getX().getType();
      if (in.getNumDynamicDims() == 1 && rt.getNumDynamicDims() == 1) {
        auto staticProduct = [](RankedTensorType t) {
          int64_t p = 1;
          for (int64_t s : t.getShape())
            if (!ShapedType::isDynamic(s))
              p *= s;
          return p;
        };
        if (staticProduct(in) == staticProduct(rt)) {
          int64_t id = 0, od = 0;
          while (!in.isDynamicDim(id))
            ++id;
          while (!rt.isDynamicDim(od))
            ++od;
          copy(r, od, re.getX(), id);
        }
      }
    } else if (auto cat = dyn_cast<ConcatOp>(op)) {
      int64_t axis = *normalizeAxis(cat.getAxis(), rank);
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis)
          copy(r, d, cat.getInputs()[0], d);
    } else if (auto sl = dyn_cast<SliceOp>(op)) {
      auto steps = sl.getStepsOrDefault();
      for (int64_t d = 0; d < rank; ++d)
        if (sl.getStarts()[d] == 0 && sl.getEnds()[d] >= INT64_MAX / 2 &&
            steps[d] == 1)
          copy(r, d, sl.getX(), d);
    } else if (auto g = dyn_cast<GatherOp>(op)) {
      int64_t axis = *normalizeAxis(g.getAxis(), rankOf(g.getX()));
      int64_t ir = rankOf(g.getIndices());
      for (int64_t d = 0; d < axis; ++d)
        copy(r, d, g.getX(), d);
      for (int64_t d = 0; d < ir; ++d)
        copy(r, axis + d, g.getIndices(), d);
      for (int64_t d = axis + 1; d < rankOf(g.getX()); ++d)
        copy(r, d - 1 + ir, g.getX(), d);
    }
  }

  void reduceDims(Value r, Value x, ArrayRef<int64_t> axes, bool keepDims) {
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    SmallVector<int64_t> norm;
    for (int64_t a : axes)
      norm.push_back(*normalizeAxis(a, rank));
    if (axes.empty())
      return;
    int64_t out = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (llvm::is_contained(norm, d)) {
        if (keepDims)
          ++out;
        continue;
      }
      copy(r, out++, x, d);
    }
  }

  DenseMap<std::pair<Value, int64_t>, int64_t> syms;
  int64_t nextId = 0;
  int64_t numArgSymbols = 0;
};

struct Buffer {
  Operation *def;
  int64_t start, end; // live range in top-level op indices (inclusive)
  int64_t size;       // bytes, in units of the region's symbol product
  SmallVector<int64_t> monomial;
  int64_t offset = -1;
};

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

    DimSymbols symbols(func);
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
      Buffer b{&op, index[&op], index[&op], elementBytes(t.getElementType()),
               {}};
      bool plannable = true;
      for (int64_t d = 0; d < t.getRank(); ++d) {
        if (!t.isDynamicDim(d)) {
          b.size *= t.getDimSize(d);
          continue;
        }
        int64_t s = symbols.get(r, d);
        plannable &= symbols.isArgSymbol(s);
        b.monomial.push_back(s);
      }
      if (!plannable)
        continue; // A size the entry point cannot compute: own allocation.
      llvm::sort(b.monomial);
      buffers.insert({r, b});
    }

    // Group by symbol product and plan each region.
    std::map<SmallVector<int64_t>, SmallVector<Buffer *>> regions;
    int64_t numPlanned = 0;
    for (auto &[v, b] : buffers) {
      if (escaping.contains(v))
        continue;
      regions[b.monomial].push_back(&b);
      ++numPlanned;
    }
    MLIRContext *ctx = &getContext();
    Builder builder(ctx);
    SmallVector<Attribute> regionAttrs;
    llvm::SmallSet<int64_t, 4> usedSymbols;
    int64_t regionIndex = 0, naiveStatic = 0;
    for (auto &[monomial, bufs] : regions) {
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
      if (monomial.empty())
        naiveStatic = naive;
      SmallVector<Attribute> scale;
      for (int64_t s : monomial) {
        scale.push_back(builder.getStringAttr("s" + std::to_string(s)));
        usedSymbols.insert(s);
      }
      regionAttrs.push_back(builder.getDictionaryAttr(
          {builder.getNamedAttr("size", builder.getI64IntegerAttr(
                                            alignTo(peak, alignment))),
           builder.getNamedAttr("naive", builder.getI64IntegerAttr(naive)),
           builder.getNamedAttr("scale", builder.getArrayAttr(scale))}));
      ++regionIndex;
    }
    SmallVector<NamedAttribute> symAttrs;
    for (int64_t s : usedSymbols) {
      auto [arg, dim] = symbols.argDims[s];
      symAttrs.push_back(builder.getNamedAttr(
          "s" + std::to_string(s),
          builder.getDenseI64ArrayAttr({(int64_t)arg, dim})));
    }
    if (report) {
      llvm::errs() << "plan-memory: @" << func.getName() << ": "
                   << numPlanned << " intermediate buffers, arena";
      auto term = [&](int64_t bytes, ArrayAttr scale) {
        std::string s = std::to_string(bytes) + " B";
        for (Attribute a : scale)
          s += " x " + cast<StringAttr>(a).getValue().str();
        return s;
      };
      int64_t k = 0;
      for (Attribute r : regionAttrs) {
        auto d = cast<DictionaryAttr>(r);
        llvm::errs() << (k++ ? " + " : " ")
                     << term(d.getAs<IntegerAttr>("size").getInt(),
                             d.getAs<ArrayAttr>("scale"));
      }
      if (regionAttrs.empty())
        llvm::errs() << " 0 B";
      llvm::errs() << " (without reuse:";
      k = 0;
      for (Attribute r : regionAttrs) {
        auto d = cast<DictionaryAttr>(r);
        llvm::errs() << (k++ ? " + " : " ")
                     << term(d.getAs<IntegerAttr>("naive").getInt(),
                             d.getAs<ArrayAttr>("scale"));
      }
      llvm::errs() << ")";
      for (int64_t s : usedSymbols) {
        auto [arg, dim] = symbols.argDims[s];
        llvm::errs() << "; s" << s << " = arg" << arg << " dim " << dim;
      }
      llvm::errs() << "\n";
    }
    func->setAttr(kSymbolsAttr, builder.getDictionaryAttr(symAttrs));
    func->setAttr(kArenaAttr, builder.getArrayAttr(regionAttrs));
    func->setAttr(kNaiveSizeAttr, builder.getI64IntegerAttr(naiveStatic));
  }
};

} // namespace
