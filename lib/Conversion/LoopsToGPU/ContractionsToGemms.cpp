//===- ContractionsToGemms.cpp - matmuls through cuBLASLt -------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/TCCGPU/IR/TCCGPUOps.h"

#include "Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_CONTRACTIONSTOGEMMSPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// The loop dims of a contraction, in the order the operands index them.
struct GemmDims {
  SmallVector<unsigned> batch, m;
  unsigned n, k;
};

/// Dim positions of `map`'s results (a projected permutation).
std::optional<SmallVector<unsigned>> resultDims(AffineMap map) {
  if (!map.isProjectedPermutation())
    return std::nullopt;
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults())
    dims.push_back(cast<AffineDimExpr>(e).getPosition());
  return dims;
}

/// `op` as d[batch.., m.., n] += a[batch.., m.., k] * b[batch..?, k, n],
/// each operand possibly with its last two dims swapped.
std::optional<GemmDims> matchGemm(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics() ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  // Same float type throughout: the body is exactly mulf + addf.
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (!isa<Float32Type, Float16Type, BFloat16Type>(element))
    return std::nullopt;
  for (Value in : op.getDpsInputs())
    if (getElementTypeOrSelf(in) != element)
      return std::nullopt;
  Block &body = *op.getBlock();
  if (!llvm::all_of(body.without_terminator(), [](Operation &o) {
        return isa<arith::MulFOp, arith::AddFOp>(o);
      }))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->n.size() != 1 || dims->k.size() != 1 ||
      dims->m.empty())
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto a = resultDims(maps[0]), b = resultDims(maps[1]),
       d = resultDims(maps[2]);
  if (!a || !b || !d)
    return std::nullopt;
  GemmDims g;
  g.n = dims->n[0];
  g.k = dims->k[0];
  // d is [batch.., m.., n]: its order fixes the batch and m orders.
  auto isBatch = [&](unsigned x) { return llvm::is_contained(dims->batch, x); };
  auto isM = [&](unsigned x) { return llvm::is_contained(dims->m, x); };
  unsigned i = 0;
  for (; i < d->size() && isBatch((*d)[i]); ++i)
    g.batch.push_back((*d)[i]);
  for (; i < d->size() && isM((*d)[i]); ++i)
    g.m.push_back((*d)[i]);
  if (g.batch.size() != dims->batch.size() || g.m.size() != dims->m.size() ||
      i + 1 != d->size() || (*d)[i] != g.n)
    return std::nullopt;
  // a: [batch.., m.., k] or, with one m dim, [batch.., k, m].
  SmallVector<unsigned> rowMajorA(g.batch), swappedA(g.batch);
  llvm::append_range(rowMajorA, g.m);
  rowMajorA.push_back(g.k);
  swappedA.push_back(g.k);
  llvm::append_range(swappedA, g.m);
  if (*a != rowMajorA && !(g.m.size() == 1 && *a == swappedA))
    return std::nullopt;
  // b: [batch.., k, n] or [batch.., n, k], the batch dims possibly absent.
  ArrayRef<unsigned> bb(*b);
  if (bb.size() == g.batch.size() + 2) {
    if (bb.take_front(g.batch.size()) != ArrayRef<unsigned>(g.batch))
      return std::nullopt;
    bb = bb.drop_front(g.batch.size());
  }
  if (bb.size() != 2 || !((bb[0] == g.k && bb[1] == g.n) ||
                          (bb[0] == g.n && bb[1] == g.k)))
    return std::nullopt;
  return g;
}

/// The static number of rows d's m dims span, or nullopt if dynamic.
std::optional<int64_t> staticRows(linalg::GenericOp op, const GemmDims &g) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rows = 1;
  for (unsigned x : llvm::concat<const unsigned>(g.batch, g.m)) {
    if (ShapedType::isDynamic(ranges[x]))
      return std::nullopt;
    rows *= ranges[x];
  }
  return rows;
}

/// The pointwise op right after a contraction that only adds a bias along
/// n and/or a residual to its result and maybe applies ReLU: what cuBLASLt
/// does in its epilogue.
struct Epilogue {
  linalg::GenericOp op;
  Value bias, residual;
  bool relu = false;
};

std::optional<Epilogue> matchEpilogue(linalg::GenericOp next, Value product,
                                      unsigned rank) {
  if (!next.hasPureBufferSemantics() || next.getNumDpsInits() != 1 ||
      next.getNumLoops() != rank ||
      next.getNumParallelLoops() != next.getNumLoops() ||
      !next.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block &body = *next.getBlock();
  Epilogue e;
  e.op = next;
  Value root = body.getTerminator()->getOperand(0);
  unsigned used = 0;
  if (auto max = root.getDefiningOp<arith::MaximumFOp>()) {
    if (!matchPattern(max.getRhs(), m_AnyZeroFloat()))
      return std::nullopt;
    e.relu = true;
    root = max.getLhs();
    ++used;
  }
  // A tree of additions whose leaves are block arguments.
  bool sawProduct = false;
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto add = v.getDefiningOp<arith::AddFOp>()) {
      if (add->getBlock() != &body)
        return std::nullopt;
      work.push_back(add.getLhs());
      work.push_back(add.getRhs());
      ++used;
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &body)
      return std::nullopt;
    OpOperand &operand = next->getOpOperand(arg.getArgNumber());
    Value buffer = operand.get();
    AffineMap map = next.getMatchingIndexingMap(&operand);
    if (buffer == product && map.isIdentity() && !sawProduct) {
      sawProduct = true;
    } else if (!e.bias && map.getNumResults() == 1 &&
               map.getResult(0) == getAffineDimExpr(rank - 1,
                                                     next.getContext()) &&
               buffer != product) {
      e.bias = buffer;
    } else if (!e.residual && map.isIdentity() && buffer != product) {
      e.residual = buffer;
    } else {
      return std::nullopt;
    }
  }
  // Nothing else computed in the body.
  if (!sawProduct || used != body.getOperations().size() - 1)
    return std::nullopt;
  return e;
}

struct ContractionsToGemmsPass
    : tcc::impl::ContractionsToGemmsPassBase<ContractionsToGemmsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates)
      if (std::optional<GemmDims> g = matchGemm(op)) {
        std::optional<int64_t> rows = staticRows(op, *g);
        if (rows && *rows < minRows)
          continue; // a few rows: tcc-row-groups-to-gpu's matvec kernel
        rewrite(rewriter, op, *g);
      }
  }

  /// `v` with the dims of each group of `groups` merged, if the layout
  /// allows it without a copy; `v` itself when no group has two dims.
  static FailureOr<Value> collapse(OpBuilder &b, Location loc, Value v,
                                   ArrayRef<ReassociationIndices> groups) {
    if (llvm::all_of(groups, [](auto &g) { return g.size() == 1; }))
      return v;
    auto type = cast<MemRefType>(v.getType());
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups))
      return failure();
    return memref::CollapseShapeOp::create(b, loc, v, groups).getResult();
  }

  /// Groups that merge `nb` leading batch dims, `nm` m dims that follow
  /// (when `mergeM`), and keep the rest, for a value of rank `rank`.
  static SmallVector<ReassociationIndices>
  groupsFor(int64_t rank, unsigned nb, unsigned nm, bool mergeM) {
    SmallVector<ReassociationIndices> groups;
    int64_t d = 0;
    if (nb > 0) {
      groups.emplace_back();
      for (unsigned i = 0; i < nb; ++i)
        groups.back().push_back(d++);
    }
    if (mergeM && nm > 0) {
      groups.emplace_back();
      for (unsigned i = 0; i < nm; ++i)
        groups.back().push_back(d++);
    }
    for (; d < rank; ++d)
      groups.push_back({d});
    return groups;
  }

  /// A view of `v` with its last two dims swapped.
  static Value swapLastTwo(OpBuilder &b, Location loc, Value v) {
    int64_t rank = cast<MemRefType>(v.getType()).getRank();
    SmallVector<unsigned> perm = llvm::to_vector(
        llvm::seq<unsigned>(0, static_cast<unsigned>(rank)));
    std::swap(perm[rank - 1], perm[rank - 2]);
    AffineMap map = AffineMap::getPermutationMap(perm, b.getContext());
    return memref::TransposeOp::create(b, loc, v, AffineMapAttr::get(map))
        .getResult();
  }

  /// `b` operand's source when it is a buffer `linalg.transpose` filled
  /// from another (a weight transposed on every call) and only this op and
  /// deallocations read: the source viewed as transposed, and the
  /// transpose to erase.
  static std::pair<Value, linalg::TransposeOp>
  foldTranspose(OpBuilder &b, Location loc, Value operand,
                linalg::GenericOp op) {
    auto alloc = operand.getDefiningOp<memref::AllocOp>();
    if (!alloc)
      return {operand, nullptr};
    linalg::TransposeOp transpose;
    for (Operation *user : alloc->getUsers()) {
      if (auto t = dyn_cast<linalg::TransposeOp>(user);
          t && t.getInit() == operand && !transpose &&
          t->getBlock() == op->getBlock() && t->isBeforeInBlock(op))
        transpose = t;
      else if (user != op && !isa<memref::DeallocOp>(user))
        return {operand, nullptr};
    }
    if (!transpose)
      return {operand, nullptr};
    // Nothing between may write the source.
    for (Operation *o = transpose->getNextNode(); o != op;
         o = o->getNextNode())
      if (!leavesAloneBuffer(o, transpose.getInput()))
        return {operand, nullptr};
    SmallVector<unsigned> perm;
    for (int64_t p : transpose.getPermutation())
      perm.push_back(static_cast<unsigned>(p));
    AffineMap map = AffineMap::getPermutationMap(perm, b.getContext());
    Value view = memref::TransposeOp::create(b, loc, transpose.getInput(),
                                             AffineMapAttr::get(map));
    return {view, transpose};
  }

  static bool leavesAloneBuffer(Operation *o, Value buffer) {
    return tcc::leavesAlone(o, buffer);
  }

  /// The op after `op` that touches buffers, skipping those that do not.
  static Operation *nextTouching(Operation *op) {
    Operation *next = op->getNextNode();
    while (next && tcc::isTransparentToBuffers(next))
      next = next->getNextNode();
    return next;
  }

  void rewrite(IRRewriter &rewriter, linalg::GenericOp op,
               const GemmDims &g) {
    Location loc = op.getLoc();
    Value product = op.getDpsInitOperand(0)->get();
    linalg::FillOp fill = tcc::precedingFill(op);
    bool zeroFilled = fill && matchPattern(fill.getInputs()[0],
                                           m_AnyZeroFloat());
    unsigned rank = op.getNumLoops() - 1;

    // The epilogue joins when it is the next op on buffers, reads the
    // product once, and nothing reads the product after it.
    std::optional<Epilogue> epilogue;
    if (zeroFilled)
      if (auto next = dyn_cast_or_null<linalg::GenericOp>(nextTouching(op)))
        epilogue = matchEpilogue(next, product, rank);
    if (epilogue) {
      Value out = epilogue->op.getDpsInitOperand(0)->get();
      for (Operation *user : product.getUsers()) {
        if (user == op || user == epilogue->op || user == fill ||
            isa<memref::DeallocOp>(user))
          continue;
        if (user->getBlock() == op->getBlock() &&
            user->isBeforeInBlock(op))
          continue;
        if (out != product || !isa<func::ReturnOp>(user)) {
          epilogue.reset();
          break;
        }
      }
      // The library reads a and b while it writes d: they may not meet.
      Value base = tcc::baseOf(out);
      if (epilogue &&
          ((epilogue->residual &&
            tcc::baseOf(epilogue->residual) == tcc::baseOf(product)) ||
           base == tcc::baseOf(op.getDpsInputs()[0]) ||
           base == tcc::baseOf(op.getDpsInputs()[1])))
        epilogue.reset();
    }

    // The call goes where the last op it replaces was: its operands are
    // all defined there and nothing between writes them.
    Operation *last = epilogue ? epilogue->op.getOperation()
                               : op.getOperation();
    rewriter.setInsertionPoint(last);
    OpOperand *aOperand = op.getDpsInputOperand(0);
    OpOperand *bOperand = op.getDpsInputOperand(1);
    Value a = aOperand->get();
    auto [b, transpose] = foldTranspose(rewriter, loc, bOperand->get(), op);
    Value d = epilogue ? epilogue->op.getDpsInitOperand(0)->get() : product;
    Value c = epilogue ? epilogue->residual : Value();
    if (!zeroFilled)
      c = product; // accumulate into what is there

    unsigned nb = g.batch.size(), nm = g.m.size();
    int64_t aRank = cast<MemRefType>(a.getType()).getRank();
    int64_t bRank = cast<MemRefType>(b.getType()).getRank();
    int64_t dRank = cast<MemRefType>(d.getType()).getRank();
    bool aSwapped = op.getMatchingIndexingMap(aOperand).getResults().back() !=
                    getAffineDimExpr(g.k, op.getContext());
    AffineMap bMap = op.getMatchingIndexingMap(bOperand);
    bool bSwapped = bMap.getResults().back() ==
                    getAffineDimExpr(g.k, op.getContext());
    bool bBatched = bRank > 2;
    FailureOr<Value> av = collapse(rewriter, loc, a,
                                   groupsFor(aRank, nb, nm, !aSwapped));
    FailureOr<Value> bv = collapse(rewriter, loc, b,
                                   groupsFor(bRank, bBatched ? nb : 0, 0,
                                             false));
    FailureOr<Value> dv =
        collapse(rewriter, loc, d, groupsFor(dRank, nb, nm, true));
    FailureOr<Value> cv = c ? collapse(rewriter, loc, c,
                                       groupsFor(dRank, nb, nm, true))
                            : FailureOr<Value>(Value());
    if (failed(av) || failed(bv) || failed(dv) || failed(cv)) {
      // Views that would need a copy: leave the op to generated code.
      return;
    }
    Value aFinal = aSwapped ? swapLastTwo(rewriter, loc, *av) : *av;
    Value bFinal = bSwapped ? swapLastTwo(rewriter, loc, *bv) : *bv;
    tcc::tcc_gpu::GemmOp::create(
        rewriter, loc, /*asyncToken=*/Type(), ValueRange(), aFinal, bFinal,
        *cv, epilogue ? epilogue->bias : Value(), *dv,
        epilogue && epilogue->relu ? "relu" : "none");

    if (epilogue)
      rewriter.eraseOp(epilogue->op);
    rewriter.eraseOp(op);
    if (zeroFilled)
      rewriter.eraseOp(fill);
    if (transpose) {
      Value scratch = transpose.getInit();
      rewriter.eraseOp(transpose);
      eraseIfOnlyFreed(rewriter, scratch);
    }
    if (epilogue && product != d)
      eraseIfOnlyFreed(rewriter, product);
  }

  /// Erases an allocation no one reads or writes any more.
  static void eraseIfOnlyFreed(IRRewriter &rewriter, Value buffer) {
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    if (!alloc || !llvm::all_of(alloc->getUsers(), [](Operation *u) {
          return isa<memref::DeallocOp>(u);
        }))
      return;
    for (Operation *u : llvm::make_early_inc_range(alloc->getUsers()))
      rewriter.eraseOp(u);
    rewriter.eraseOp(alloc);
  }
};

} // namespace
