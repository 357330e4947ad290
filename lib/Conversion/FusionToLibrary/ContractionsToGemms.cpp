//===- ContractionsToGemms.cpp - matmuls through cuBLASLt -------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"

#include "tcc/Codegen/Common/BufferAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_CONTRACTIONSTOGEMMSPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// The loop dims of a contraction; batch and m in d's order.
struct GemmDims {
  SmallVector<unsigned> batch, m;
  unsigned n, k;
  bool bBatched = true; // b has the batch dims (else shared by all)

  /// d's dims in the library's order: [batch.., m.., n].
  SmallVector<unsigned> dOrder() const {
    SmallVector<unsigned> o(batch);
    llvm::append_range(o, m);
    o.push_back(n);
    return o;
  }
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

/// Whether `x` holds the same dims as `y`, in any order.
bool sameDims(ArrayRef<unsigned> x, ArrayRef<unsigned> y) {
  SmallVector<unsigned> xs(x), ys(y);
  llvm::sort(xs);
  llvm::sort(ys);
  return xs == ys;
}

/// `op` as d[batch.., m.., n] += a[batch.., m.., k] * b[batch..?, k, n]
/// with each operand's dims in any order (the library is given views or
/// copies in its order).
std::optional<GemmDims> matchGemm(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics() ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  // One float type throughout (the body is mulf + addf), or f16/bf16
  // inputs extended to an f32 accumulator (extf, extf, mulf, addf).
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  Type input = getElementTypeOrSelf(op.getDpsInputs()[0]);
  if (!isa<Float32Type, Float16Type, BFloat16Type>(element) ||
      getElementTypeOrSelf(op.getDpsInputs()[1]) != input ||
      (input != element &&
       !(element.isF32() && isa<Float16Type, BFloat16Type>(input))))
    return std::nullopt;
  Block &body = *op.getBlock();
  if (!llvm::all_of(body.without_terminator(), [&](Operation &o) {
        if (auto ext = dyn_cast<arith::ExtFOp>(o))
          return isa<BlockArgument>(ext.getIn()) && input != element;
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
  for (unsigned x : *d) {
    if (llvm::is_contained(dims->batch, x))
      g.batch.push_back(x);
    else if (llvm::is_contained(dims->m, x))
      g.m.push_back(x);
  }
  g.bBatched = b->size() > 2;
  SmallVector<unsigned> aDims(g.batch), bDims;
  llvm::append_range(aDims, g.m);
  aDims.push_back(g.k);
  if (g.bBatched)
    bDims.assign(g.batch.begin(), g.batch.end());
  bDims.append({g.k, g.n});
  if (!sameDims(*a, aDims) || !sameDims(*b, bDims) ||
      !sameDims(*d, g.dOrder()))
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

/// What the library computes of the pointwise op right after a product:
/// relu?(product + bias along n? + residual?), rounded to d's type when
/// the op rounds it (f16/bf16), as cuBLASLt's epilogue does. `whole`: that
/// is all the op computes, and the library writes the op's output. Else
/// (half precision only) the op keeps the rest of its body and reads the
/// library's rounded result instead of the f32 product.
struct Epilogue {
  linalg::GenericOp op;
  Value bias, residual;
  bool relu = false;
  bool whole = false;
  /// The body value the library computes, and the ops computing it.
  Value value;
  llvm::SmallPtrSet<Operation *, 8> ops;
};

std::optional<Epilogue> matchEpilogue(linalg::GenericOp next, Value product,
                                      unsigned rank) {
  if (!next.hasPureBufferSemantics() || next.getNumDpsInits() != 1 ||
      next.getNumLoops() != rank ||
      next.getNumParallelLoops() != next.getNumLoops())
    return std::nullopt;
  Block &body = *next.getBlock();
  // The product's block argument (read once, in place).
  // (A permuted read, attention's p v read transposed, can only take the
  // rounding: no bias or residual, the op kept.)
  BlockArgument p;
  bool permuted = false;
  for (OpOperand *in : next.getDpsInputOperands())
    if (in->get() == product) {
      AffineMap map = next.getMatchingIndexingMap(in);
      if (p || !map.isPermutation())
        return std::nullopt;
      permuted = !map.isIdentity();
      p = next.getMatchingBlockArgument(in);
    }
  if (!p)
    return std::nullopt;
  // Climb from the product through additions and a ReLU to the first
  // rounding (or to the first value that something else uses).
  auto isRelu = [](Operation *o) {
    auto max = dyn_cast<arith::MaximumFOp>(o);
    return max && matchPattern(max.getRhs(), m_AnyZeroFloat());
  };
  Value top = p;
  while (top.hasOneUse()) {
    Operation *user = *top.getUsers().begin();
    if (isa<arith::AddFOp>(user) ||
        (isRelu(user) && user->getOperand(0) == top)) {
      top = user->getResult(0);
      continue;
    }
    if (isa<arith::TruncFOp>(user))
      top = user->getResult(0);
    break;
  }
  Type dType = top.getType();
  Type outType = getElementTypeOrSelf(next.getDpsInitOperand(0)->get());
  auto *yield = body.getTerminator();
  Epilogue e;
  e.op = next;
  e.value = top;
  // A half result must come from a rounding (the library rounds once).
  Value sum = top;
  if (auto trunc = top.getDefiningOp<arith::TruncFOp>()) {
    e.ops.insert(trunc);
    sum = trunc.getIn();
  } else if (!dType.isF32()) {
    return std::nullopt;
  }
  if (auto max = sum.getDefiningOp<arith::MaximumFOp>(); max && isRelu(max)) {
    e.relu = true;
    e.ops.insert(max);
    sum = max.getLhs();
  }
  // A tree of additions whose leaves are the product, a bias and a
  // residual (block arguments of d's type, extended when half).
  bool sawProduct = false;
  SmallVector<Value> work{sum};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v != sum && !v.hasOneUse())
      return std::nullopt;
    if (auto add = v.getDefiningOp<arith::AddFOp>()) {
      if (add->getBlock() != &body)
        return std::nullopt;
      work.push_back(add.getLhs());
      work.push_back(add.getRhs());
      e.ops.insert(add);
      continue;
    }
    if (auto ext = v.getDefiningOp<arith::ExtFOp>()) {
      e.ops.insert(ext);
      v = ext.getIn();
    }
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &body)
      return std::nullopt;
    if (arg == p) {
      if (sawProduct)
        return std::nullopt;
      sawProduct = true;
      continue;
    }
    OpOperand &operand = next->getOpOperand(arg.getArgNumber());
    Value buffer = operand.get();
    AffineMap map = next.getMatchingIndexingMap(&operand);
    if (arg.getType() != dType || next.isDpsInit(&operand))
      return std::nullopt;
    if (!e.bias && map.getNumResults() == 1 &&
        map.getResult(0) == getAffineDimExpr(rank - 1, next.getContext()))
      e.bias = buffer;
    else if (!e.residual && map.isIdentity())
      e.residual = buffer;
    else
      return std::nullopt;
  }
  if (!sawProduct || (permuted && (e.bias || e.residual || e.relu)))
    return std::nullopt;
  // (The library writes the op's output in the product's layout.)
  e.whole = !permuted && next.getIndexingMapsArray().back().isIdentity() && top.hasOneUse() && *top.getUsers().begin() == yield &&
            outType == dType &&
            e.ops.size() + 1 == body.getOperations().size();
  if (!e.whole && !isa_and_present<arith::TruncFOp>(top.getDefiningOp()))
    return std::nullopt; // an f32 value the op reads anyway: no gain
  return e;
}

/// Whether something after `after` in its block may read `buffer`'s
/// contents before it is freed or overwritten as a whole (bufferization
/// reuses a product's buffer as later scratch).
bool readLater(Value buffer, Operation *after) {
  for (Operation *op = after->getNextNode(); op; op = op->getNextNode()) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op);
        dealloc && dealloc.getMemref() == buffer)
      return false;
    if (tcc::leavesAlone(op, buffer))
      continue;
    if (auto copy = dyn_cast<memref::CopyOp>(op))
      return copy.getTarget() != buffer ||
             tcc::baseOf(copy.getSource()) == tcc::baseOf(buffer);
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || linalgOp.getNumDpsInits() != 1 ||
        linalgOp.getDpsInitOperand(0)->get() != buffer)
      return true;
    OpOperand *init = linalgOp.getDpsInitOperand(0);
    bool readsInputs = llvm::any_of(linalgOp.getDpsInputs(), [&](Value in) {
      return tcc::baseOf(in) == tcc::baseOf(buffer);
    });
    return readsInputs || linalgOp.payloadUsesValueFromOperand(init) ||
           !linalgOp.getMatchingIndexingMap(init).isPermutation();
  }
  return true;
}

struct ContractionsToGemmsPass
    : tcc::impl::ContractionsToGemmsPassBase<ContractionsToGemmsPass> {
  using Base::Base;

  /// Generic ops erased as epilogues (the walk collected them first).
  llvm::SmallPtrSet<Operation *, 8> erased;

  void runOnOperation() override {
    erased.clear();
    // Bufferization's copy of a filled buffer is a fill again, and a weight
    // transposed into scratch on every call is read in place.
    // (Blocks collected first: the folds erase ops.)
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks) {
      tcc::foldCopiesOfFills(*block);
      tcc::foldTransposesIntoReaders(*block);
    }
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates)
      if (erased.contains(op.getOperation()))
        continue; // an epilogue taken by an earlier product
      else if (std::optional<GemmDims> g = matchGemm(op)) {
        std::optional<int64_t> rows = staticRows(op, *g);
        if (rows && *rows < minRows)
          continue; // a few rows: tcc-row-groups-to-gpu's matvec kernel
        rewrite(rewriter, op, *g, /*dispatch=*/dispatch && !rows && minRows > 1);
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

  void rewrite(IRRewriter &rewriter, linalg::GenericOp op,
               const GemmDims &g, bool dispatch) {
    Location loc = op.getLoc();
    Value product = op.getDpsInitOperand(0)->get();
    linalg::FillOp fill = tcc::precedingFill(op);
    bool zeroFilled = fill && matchPattern(fill.getInputs()[0],
                                           m_AnyZeroFloat());
    unsigned rank = op.getNumLoops() - 1;
    // The epilogue's bias runs along n: the product must be [.., n].
    bool canonical = *resultDims(op.getIndexingMapsArray()[2]) == g.dOrder();

    // The epilogue joins when it is the next op on buffers, reads the
    // product once, and nothing reads the product after it (unless the
    // epilogue writes its result in place).
    // Frees in between (bufferization frees the product's operands right
    // after it) move past the epilogue: the call takes its place.
    std::optional<Epilogue> epilogue;
    SmallVector<memref::DeallocOp> frees;
    Operation *next = tcc::nextTouchingBuffers(op);
    while (auto free = dyn_cast_or_null<memref::DeallocOp>(next)) {
      if (tcc::baseOf(free.getMemref()) == tcc::baseOf(product))
        break;
      frees.push_back(free);
      next = tcc::nextTouchingBuffers(free);
    }
    if (zeroFilled && canonical)
      if (auto generic = dyn_cast_or_null<linalg::GenericOp>(next))
        epilogue = matchEpilogue(generic, product, rank);
    if (epilogue)
      for (memref::DeallocOp free : llvm::reverse(frees))
        free->moveAfter(epilogue->op);
    if (epilogue) {
      // Where the library writes: the op's output (whole), else a new
      // half-precision buffer the op reads.
      Value out = epilogue->whole ? epilogue->op.getDpsInitOperand(0)->get()
                                  : Value();
      // The library reads a and b while it writes d: they may not meet.
      Value base = out ? tcc::baseOf(out) : Value();
      if ((out != product && readLater(product, epilogue->op)) ||
          (epilogue->residual &&
           tcc::baseOf(epilogue->residual) == tcc::baseOf(product)) ||
          (base && (base == tcc::baseOf(op.getDpsInputs()[0]) ||
                    base == tcc::baseOf(op.getDpsInputs()[1]))) ||
          (!epilogue->whole && dispatch))
        epilogue.reset();
    }

    // The call goes where the last op it replaces was: its operands are
    // all defined there and nothing between writes them (the fill, if
    // any, only wrote the product).
    Operation *last = epilogue ? epilogue->op.getOperation()
                               : op.getOperation();
    rewriter.setInsertionPoint(last);
    Block *libraryBlock = nullptr;
    scf::IfOp branch;
    if (dispatch) {
      // Rows (batch x m) at run time: few take the generated kernels.
      SmallVector<Range, 4> ranges =
          cast<linalg::LinalgOp>(op.getOperation())
              .createLoopRanges(rewriter, loc);
      Value rows = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (unsigned x : llvm::concat<const unsigned>(g.batch, g.m))
        rows = arith::MulIOp::create(
            rewriter, loc, rows,
            getValueOrCreateConstantIndexOp(rewriter, loc, ranges[x].size));
      Value many = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sge, rows,
          arith::ConstantIndexOp::create(rewriter, loc, minRows));
      branch = scf::IfOp::create(rewriter, loc, many, /*withElse=*/true);
      // The generated path: the ops as they were, in order.
      rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
      if (zeroFilled)
        rewriter.clone(*fill);
      rewriter.clone(*op);
      if (epilogue)
        rewriter.clone(*epilogue->op);
      libraryBlock = branch.thenBlock();
      rewriter.setInsertionPoint(libraryBlock->getTerminator());
    }
    Value d = product;
    if (epilogue && epilogue->whole)
      d = epilogue->op.getDpsInitOperand(0)->get();
    else if (epilogue)
      d = allocLike(rewriter, loc, product, epilogue->value.getType());
    buildCall(rewriter, loc, op, g, d, zeroFilled, epilogue);
    if (epilogue) {
      erased.insert(epilogue->op);
      if (!epilogue->whole) {
        // The op reads the library's rounded result; d lives until then.
        rewriter.setInsertionPoint(epilogue->op);
        linalg::GenericOp reader =
            rebuildReading(rewriter, *epilogue, product, d);
        rewriter.setInsertionPointAfter(reader);
        memref::DeallocOp::create(rewriter, loc, d);
      }
      rewriter.eraseOp(epilogue->op);
    }
    rewriter.eraseOp(op);
    if (zeroFilled)
      rewriter.eraseOp(fill);
    if (d != product)
      eraseIfOnlyFreed(rewriter, product);
  }

  /// A new buffer of `like`'s shape with elements of type `element`.
  static Value allocLike(OpBuilder &b, Location loc, Value like,
                         Type element) {
    auto type = cast<MemRefType>(like.getType());
    SmallVector<Value> sizes;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        sizes.push_back(memref::DimOp::create(b, loc, like, i));
    return memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), element), sizes);
  }

  /// `e.op` without the ops the library took over: it reads `rounded` (the
  /// library's d) where it computed `e.value`, and no longer the product
  /// or the operands only those ops read.
  static linalg::GenericOp rebuildReading(IRRewriter &rewriter,
                                          const Epilogue &e, Value product,
                                          Value rounded) {
    linalg::GenericOp op = e.op;
    Block &body = *op.getBlock();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<BlockArgument> kept;
    int64_t roundedIndex = -1;
    for (OpOperand *in : op.getDpsInputOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(in);
      if (in->get() == product) {
        roundedIndex = inputs.size();
        inputs.push_back(rounded);
      } else if (llvm::any_of(arg.getUsers(), [&](Operation *u) {
                   return !e.ops.contains(u);
                 })) {
        inputs.push_back(in->get());
      } else {
        continue;
      }
      maps.push_back(op.getMatchingIndexingMap(in));
      kept.push_back(arg);
    }
    OpOperand *init = op.getDpsInitOperand(0);
    maps.push_back(op.getMatchingIndexingMap(init));
    auto reader = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange(), inputs, ValueRange{init->get()},
        maps, op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location, ValueRange args) {
          IRMapping mapping;
          for (auto [old, now] : llvm::zip(kept, args))
            mapping.map(old, now);
          mapping.map(op.getMatchingBlockArgument(init), args.back());
          mapping.map(e.value, args[roundedIndex]);
          for (Operation &o : body)
            if (!e.ops.contains(&o))
              b.clone(o, mapping);
        });
    reader->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    return reader;
  }

  /// `x`, which `op` indexes by `map`, as the library takes it: its dims
  /// in `order` ([batch.., rows.., cols]) with the `nb` batch dims and the
  /// `nr` row dims merged. A view where the layout allows it (stored in
  /// that order, or with the last two swapped: a transposed view); else a
  /// dense copy in that order (copied in for an input, back into `x` after
  /// the call for the result: `copyBack`).
  static Value prepare(OpBuilder &b, Location loc, Value x, AffineMap map,
                       ArrayRef<unsigned> order, unsigned nb, unsigned nr,
                       bool isResult,
                       SmallVectorImpl<std::pair<Value, Value>> &copyBack,
                       SmallVectorImpl<Value> &temporaries) {
    SmallVector<unsigned> stored = *resultDims(map);
    int64_t rank = stored.size();
    SmallVector<unsigned> swapped(order);
    std::swap(swapped[rank - 1], swapped[rank - 2]);
    if (stored == ArrayRef<unsigned>(order)) {
      if (FailureOr<Value> v =
              collapse(b, loc, x, groupsFor(rank, nb, nr, true));
          succeeded(v))
        return *v;
    } else if (nr == 1 && stored == swapped) {
      if (FailureOr<Value> v =
              collapse(b, loc, x, groupsFor(rank, nb, 0, false));
          succeeded(v))
        return swapLastTwo(b, loc, *v);
    }
    // The dims cannot merge in place (attention's heads inside its rows):
    // a dense copy in the library's order, or an input's with the last two
    // swapped when that keeps its innermost dim (coalesced both ways).
    bool swap = !isResult && nr == 1 && stored.back() == swapped.back();
    ArrayRef<unsigned> denseOrder = swap ? swapped : order;
    SmallVector<unsigned> perm;
    for (unsigned d : denseOrder)
      perm.push_back(llvm::find(stored, d) - stored.begin());
    Value view = memref::TransposeOp::create(
        b, loc, x,
        AffineMapAttr::get(AffineMap::getPermutationMap(perm,
                                                        b.getContext())));
    Value dense = allocLike(
        b, loc, view, cast<MemRefType>(view.getType()).getElementType());
    temporaries.push_back(dense);
    if (isResult)
      copyBack.push_back({dense, view});
    else
      memref::CopyOp::create(b, loc, view, dense);
    if (swap)
      return swapLastTwo(
          b, loc, *collapse(b, loc, dense, groupsFor(rank, nb, 0, false)));
    return *collapse(b, loc, dense, groupsFor(rank, nb, nr, true));
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

  /// The operands' views (or copies) and the tcc_lib.gemm, at the
  /// rewriter's insertion point.
  void buildCall(IRRewriter &rewriter, Location loc, linalg::GenericOp op,
                 const GemmDims &g, Value d, bool zeroFilled,
                 const std::optional<Epilogue> &epilogue) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    Value c = epilogue ? epilogue->residual : Value();
    unsigned nb = g.batch.size(), nm = g.m.size();
    SmallVector<std::pair<Value, Value>> copyBack;
    SmallVector<Value> temporaries;
    // a [batch.., m.., k], b [batch..?, k, n], c and d [batch.., m.., n]
    // (an epilogue's maps are identities over the product's loops).
    SmallVector<unsigned> aOrder(g.batch), bOrder, dOrder = g.dOrder();
    llvm::append_range(aOrder, g.m);
    aOrder.push_back(g.k);
    if (g.bBatched)
      bOrder.assign(g.batch.begin(), g.batch.end());
    bOrder.push_back(g.k);
    bOrder.push_back(g.n);
    Value av = prepare(rewriter, loc, op.getDpsInputs()[0], maps[0], aOrder,
                       nb, nm, false, copyBack, temporaries);
    Value bv = prepare(rewriter, loc, op.getDpsInputs()[1], maps[1], bOrder,
                       g.bBatched ? nb : 0, 1, false, copyBack,
                       temporaries);
    Value dv = prepare(rewriter, loc, d, maps[2], dOrder, nb, nm, true,
                       copyBack, temporaries);
    Value cv;
    if (!zeroFilled) {
      // Accumulate into what is there: d's copy starts as the product.
      if (!copyBack.empty())
        memref::CopyOp::create(rewriter, loc, copyBack.back().second,
                               copyBack.back().first);
      cv = dv;
    } else if (c) {
      cv = prepare(rewriter, loc, c, maps[2], dOrder, nb, nm, false,
                   copyBack, temporaries);
    }
    tcc::tcc_lib::GemmOp::create(
        rewriter, loc, /*asyncToken=*/Type(), ValueRange(), av, bv, cv,
        epilogue ? epilogue->bias : Value(), dv, /*scratch=*/Value(),
        epilogue && epilogue->relu ? "relu" : "none");
    for (auto [dense, view] : copyBack)
      memref::CopyOp::create(rewriter, loc, dense, view);
    for (Value t : temporaries)
      memref::DeallocOp::create(rewriter, loc, t);
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
